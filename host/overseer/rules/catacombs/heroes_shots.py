"""The heroes' side beyond a plain hit: a hero's ice shot freezes an AI piece (Catacombs 3E: Ice
Shots), a hero's dagger hits for 1 or 2 and the hero moves to a random rune (Red Box: New
Ranged Shots, Dagger), a Mount recruited at the Hearthshire Stables (Ice Box: Mounts).

Actions: ``freeze_piece``, ``hero_dagger``, ``recruit_mount``.
"""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.params import param
from overseer.core.procedure import Die, Procedure, Roll, RulesError, Step, YesNo, refusal
from overseer.rules.catacombs import party, rulebook
from overseer.rules.catacombs.entered import slug
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.party import DamagePiece
from overseer.rules.catacombs.state import Battle, Hero, Piece, alive_piece_ids, hero_ids

MOUNT_GOLD = 8  # Ice Box: Mounts, Hearthshire Stables: a Mount costs eight gold


def freezable(battle: Battle) -> list[str]:
    """The AI pieces a hero's ice shot can freeze: on the playmat, not frozen, not immune."""
    return [p.id for p in battle.pieces.values() if p.alive and not p.frozen
            and not p.invulnerable and not p.teleported]


def on_playmat(battle: Battle) -> list[str]:
    """The heroes on the playmat, alive (a shot's origin)."""
    return [h.id for h in battle.enemies() if h.kind == "hero"]


@dataclass(frozen=True, slots=True)
class FreezePiece:
    """A hero's ice shot froze an AI piece."""

    piece: str = param(options=freezable, prompt="Which AI piece is frozen?")
    by: str | None = param(default=None, options=on_playmat, prompt="Which hero's shot?")


@dataclass(frozen=True, slots=True)
class HeroDagger:
    """A hero's dagger hit an AI piece (``piece``: the one hit)."""

    hero: str = param(options=on_playmat, prompt="Whose dagger?")
    piece: str = param(options=alive_piece_ids, prompt="Which AI piece was hit?")


def _mountless(battle: Battle) -> list[str]:
    """The living heroes without a Mount of their own."""
    owners = {h.owner for h in battle.heroes.values() if h.kind == "mount"}
    return [h for h in hero_ids(battle) if battle.heroes[h].alive and h not in owners]


def can_recruit(battle: Battle) -> bool:
    """At the Hearthshire Stables (a campaign's stage, or any time between rooms outside a
    campaign), a hero without a Mount, and the party's gold pooled reaches eight."""
    adventure = battle.adventure
    if adventure.campaign is not None:
        listed = battle.data.stages[adventure.campaign]
        stage = listed[adventure.stage - 1] if adventure.stage else None
        if stage is None or STABLES not in stage["rooms"] or STABLES not in adventure.visited:
            return False
    alive = [battle.heroes[h] for h in hero_ids(battle) if battle.heroes[h].alive]
    return bool(_mountless(battle)) and sum(h.gold for h in alive) >= MOUNT_GOLD


STABLES = "Hearthshire Stables"


@dataclass(frozen=True, slots=True)
class RecruitMount:
    """A Mount recruited for ``hero`` (its Mount card's name); ``paid_by``: the heroes whose
    gold pays the eight, in order (default: the hero, then the other living heroes)."""

    hero: str = param(options=_mountless, prompt="For which hero?")
    mount: str = param(default="Mount")
    paid_by: tuple[str, ...] = param(default=())


def _piece(battle: Battle, piece_id: str) -> Piece:
    piece = battle.pieces.get(piece_id)
    if piece is None or not piece.alive:
        raise RulesError(f"no AI piece {piece_id!r} on the playmat")
    return piece


def _hero(battle: Battle, hero_id: str) -> Hero:
    hero = battle.heroes.get(hero_id)
    if hero is None or hero.kind != "hero":
        raise RulesError(f"no hero {hero_id!r}")
    return hero


def freeze_piece(battle: Battle, params: FreezePiece) -> Procedure:
    """``{"do": "freeze_piece", "piece": id, "by": hero id}``: the ice shot piece on it; it
    does not act until a teammate's rush frees it (Red Box: Advanced Target Selection, 1), and
    a frozen monster counts as beaten for the room (Catacombs 3E: Battle Phase)."""
    piece = _piece(battle, params.piece)
    if params.by is not None:
        _hero(battle, params.by)
    if piece.invulnerable:
        raise refusal("{piece} is immune to the ice shot (an Antient, a Mount or a white "
                      "Yilleph)", piece=piece.ref)
    if piece.frozen:
        raise refusal("{piece} is already frozen", piece=piece.ref)
    piece.frozen = True
    by = f" by {battle.heroes[params.by].name}'s ice shot" if params.by else " by an ice shot"
    yield Step(StepKind.FROZEN, rulebook.ICE_SHOTS,
               "{piece} is frozen{by}: place the ice shot piece on it; it does not act until a "
               "teammate rushes to it",
               {"piece": piece.id, "by": params.by},
               {"piece": piece.ref, "by": by})


def hero_dagger(battle: Battle, params: HeroDagger) -> Procedure:
    """``{"do": "hero_dagger", "hero": id, "piece": id}``: Red Box: New Ranged Shots, Dagger:
    in Catacombs 3E 2 damage by a Catacomb hero, 1 by any other; then the hero moves to a
    random rune."""
    hero = _hero(battle, params.hero)
    if not hero.alive or hero.away is not None:
        raise RulesError(f"{hero.name} is not on the playmat")
    _piece(battle, params.piece)
    catacomb = yield YesNo(f"Is {hero.name} a Catacomb hero (Red Box)?", Key.CATACOMB_HERO)
    amount = 2 if catacomb else 1
    who = "a Catacomb hero" if catacomb else "a base hero"
    yield Step(StepKind.SHOT, rulebook.NEW_RANGED,
               "{hero}'s dagger: {amount} damage ({kind})",
               {"hero": hero.id, "piece": params.piece, "amount": amount},
               {"hero": hero.ref, "amount": amount, "kind": who})
    yield from party.damage_piece(battle, DamagePiece(piece=params.piece, amount=amount,
                                                      by=hero.id))
    rune = yield Roll(Die.RUNE, f"{hero.name}: move to random rune after the dagger")
    yield Step(StepKind.MOVE_TO_RUNE, rulebook.NEW_RANGED,
               "{hero} moves to rune {rune} (the dagger's move to rune)",
               {"hero": hero.id, "rune": rune, "why": "dagger"},
               {"hero": hero.ref, "rune": rune})


def recruit_mount(battle: Battle, params: RecruitMount) -> Procedure:
    """``{"do": "recruit_mount", "hero": id, "mount": "its card's name", "paid_by": [ids]}``:
    Ice Box: Mounts, Hearthshire Stables: one Mount a hero, eight gold, the party's gold
    pooled (taken from ``paid_by`` in order)."""
    hero = _hero(battle, params.hero)
    if not hero.alive:
        raise RulesError(f"{hero.name} is dead")
    owned = next((h for h in battle.heroes.values() if h.kind == "mount" and
                  h.owner == hero.id), None)
    if owned is not None:
        raise RulesError(f"{hero.name} already has a Mount ({owned.name}): one a hero")
    others = tuple(h for h in hero_ids(battle) if h != hero.id and battle.heroes[h].alive)
    payers = [_hero(battle, h) for h in (params.paid_by or (hero.id, *others))]
    if len({p.id for p in payers}) != len(payers):
        raise RulesError("paid_by names each hero once")
    pooled = sum(p.gold for p in payers)
    if pooled < MOUNT_GOLD:
        raise RulesError(f"a Mount costs {MOUNT_GOLD} gold; "
                         f"{', '.join(p.name for p in payers)} hold {pooled}")
    if not params.mount.strip():
        raise RulesError("mount: the Mount card's name")
    due, paid = MOUNT_GOLD, {}
    for payer in payers:
        part = min(due, payer.gold)
        payer.gold -= part
        due -= part
        if part:
            paid[payer.id] = part
    n = 1
    while f"{slug(params.mount)}-{n}" in battle.heroes or f"{slug(params.mount)}-{n}" in \
            battle.pieces:
        n += 1
    mount = Hero(id=f"{slug(params.mount)}-{n}", name=params.mount, kind="mount", health=1,
                 owner=hero.id)
    battle.heroes[mount.id] = mount
    yield Step(StepKind.MOUNT_RECRUITED, rulebook.STABLES,
               f"{hero.name} recruits {mount.name} for {MOUNT_GOLD} gold ("
               + ", ".join(f"{battle.heroes[h].name} {g}" for h, g in paid.items()) + ")",
               {"hero": hero.id, "mount": mount.id, "paid": paid})
