"""What the table tells the gadget between AI activations: a hero's shot destroyed or hurt an
AI piece (invulnerable pieces, mounts and riders, reactive health: Ice Box), a hero's state
changed (health, gold, items, conditions). Validated, then applied."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from overseer.core.params import NOT_GIVEN, NotGiven, given, param
from overseer.core.procedure import Procedure, RulesError, Step, YesNo
from overseer.rules.catacombs import activation, rulebook, shots
from overseer.rules.catacombs.hidden_cave import AWAY, HiddenCaveCollect, hidden_cave_collect
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.modifiers import MOUNT, mount_returns, poison_kills, remove_mount
from overseer.rules.catacombs.state import (
    Battle,
    Hero,
    Piece,
    Shot,
    alive_piece_ids,
    living_hero_ids,
)


@dataclass(frozen=True, slots=True)
class DamagePiece:
    """A hero's shot hit an AI piece, or a wyvern (``piece`` is then the wyvern's id: wild,
    or ridden by an AI piece); ``by``: the hero whose shot it was."""

    piece: str = param(options=alive_piece_ids, prompt="Which AI piece was hit?")
    amount: int = param(default=1, low=1, high=20, prompt="How much damage?")
    by: str | None = param(default=None, options=living_hero_ids, prompt="Which hero's shot?")


@dataclass(frozen=True, slots=True)
class UpdateHero:
    """A hero's state as the table reports it: only the fields given change (``NOT_GIVEN``:
    left out). ``riding`` and ``away`` take ``None`` as a value: off the mount, back on the
    playmat."""

    hero: str = param(options=lambda battle: list(battle.heroes), prompt="Which hero?")
    health: int | NotGiven = param(default=NOT_GIVEN, low=0, high=30)
    gold: int | NotGiven = param(default=NOT_GIVEN, low=0, high=99)
    items: tuple[str, ...] | NotGiven = param(default=NOT_GIVEN)
    poison: tuple[int, ...] | NotGiven = param(default=NOT_GIVEN)
    frozen: bool | NotGiven = param(default=NOT_GIVEN)
    reckless: bool | NotGiven = param(default=NOT_GIVEN)
    stunned: bool | NotGiven = param(default=NOT_GIVEN)
    riding: str | None | NotGiven = param(default=NOT_GIVEN)
    away: str | None | NotGiven = param(default=NOT_GIVEN)


def damage_piece(battle: Battle, params: DamagePiece) -> Procedure:
    """``{"do": "damage_piece", "piece": id, "amount": n, "by": hero id (optional)}``."""
    hit_id, amount, by = params.piece, params.amount, params.by
    piece = battle.pieces.get(hit_id)
    on_playmat = piece.alive if piece is not None else is_wyvern(battle, hit_id)
    if not on_playmat:
        raise RulesError(f"no AI piece {hit_id!r} on the playmat")
    if amount < 1:
        raise RulesError(f"damage must be a whole number of at least 1 (got {amount!r})")
    if by is not None and by not in battle.heroes:
        raise RulesError(f"no hero {by!r}")
    if hit_id in battle.unmoved:  # a hero's shot hit it: it may have been knocked away
        battle.unmoved.remove(hit_id)
    if piece is None or piece.mount:
        yield from hit_mount(battle, hit_id, piece, amount, by)
    elif piece.invulnerable:
        yield from hit_invulnerable(battle, piece)
    else:
        yield from wound_piece(battle, piece, amount, by)


def hit_mount(battle: Battle, hit_id: str, mount: Piece | None, amount: int,
              by: str | None) -> Procedure:
    """Ice Box: Mounts: a Mount (``mount``) or a wyvern (``None``) takes no damage; a Mount's
    rider takes it instead. A wyvern may shield its rider (Differences Between Mounts and
    Wyverns, 5): the AI shields whenever the Wyverns of Wylemuir rules let it, else the
    damage passes as through a Mount (Overseer's ruling)."""
    name = mount.name if mount is not None else f"the wyvern {hit_id}"
    rider = rider_of(battle, hit_id)
    if rider is None:
        yield no_damage(hit_id, name, "mount" if mount is not None else "wyvern")
        return
    if mount is None:
        shielded = yield YesNo(f"{rider.name} rides {name}: do the Wyverns of Wylemuir rules "
                               "let the wyvern shield its rider from this hit?", Key.WYVERN_SHIELD)
        if shielded:
            yield Step(StepKind.NO_DAMAGE, rulebook.MOUNTS,
                       "{name} shields {rider}: no damage (Overseer's ruling: the AI always "
                       "shields when it may)",
                       {"piece": hit_id, "amount": 0, "why": "wyvern_shield"},
                       {"name": name, "rider": rider.ref})
            return
    ruling = "" if mount is not None else " (Overseer's ruling: as through a Mount)"
    yield Step(StepKind.PASSES_TO_RIDER, rulebook.MOUNTS,
               "{name} is invulnerable: the damage passes to its rider {rider}{ruling}",
               {"piece": hit_id, "rider": rider.id, "amount": amount},
               {"name": name, "rider": rider.ref, "ruling": ruling})
    yield from wound_piece(battle, rider, amount, by)


def hit_invulnerable(battle: Battle, piece: Piece) -> Procedure:
    """No damage to an Antient (Ice Box: Mounts) or a white Yilleph (Red Box: Special Heroes);
    a Yilleph hit flips: black face up, it moves to a random rune."""
    why = "white_yilleph" if piece.yilleph == "white" else "antient"
    yield no_damage(piece.id, piece.name, why)
    if piece.yilleph == "white":
        piece.yilleph = "black"
        yield Step(StepKind.YILLEPH_FLIP, rulebook.YILLEPH,
                   "{piece} flips to black: it can be hurt now",
                   {"piece": piece.id, "yilleph": "black"},
                   {"piece": piece.ref})
        yield from shots.move_to_random_rune(battle, piece, "Yilleph flipped to black")


def is_wyvern(battle: Battle, wyvern_id: str) -> bool:
    """A wild wyvern, or one an AI piece rides."""
    return wyvern_id in battle.wyverns or rider_of(battle, wyvern_id) is not None


def rider_of(battle: Battle, mount_id: str) -> Piece | None:
    return next((p for p in battle.pieces.values() if p.alive and p.riding == mount_id), None)


def no_damage(piece_id: str, name: str, why: str) -> Step:
    """Ice Box: Mounts: Mounts, like Wyverns and Antients, are invulnerable; Red Box: Special
    Heroes: so is a white Yilleph."""
    rule = rulebook.YILLEPH if why == "white_yilleph" else rulebook.MOUNTS
    what = {"antient": "an Antient", "mount": "a Mount", "wyvern": "a wyvern",
            "white_yilleph": "a white Yilleph"}[why]
    return Step(StepKind.NO_DAMAGE, rule,
                f"{name}: {what} is invulnerable, the hit deals no damage",
                {"piece": piece_id, "amount": 0, "why": why})


def wound_piece(battle: Battle, piece: Piece, amount: int, by: str | None) -> Procedure:
    """Damage an AI piece: its reactive shot, a black Yilleph's flip, then, if destroyed, its
    removal, its mount, the Hidden Cave and the gold."""
    piece.health = max(0, piece.health - amount)
    yield Step(StepKind.PIECE_DAMAGED, rulebook.PIECE_DAMAGE,
               "{piece} loses {amount} health: {health} left",
               {"piece": piece.id, "amount": amount,
                                         "health": piece.health},
               {"piece": piece.ref, "amount": amount, "health": piece.health})
    if piece.reactive is not None:
        yield from reactive_shot(battle, piece, piece.reactive)
    if piece.yilleph == "black" and piece.alive:
        yield from flip_to_white(battle, piece)
    if not piece.alive:
        yield from destroyed(battle, piece, by)


def flip_to_white(battle: Battle, piece: Piece) -> Procedure:
    """Red Box: Special Heroes: a black Yilleph hit flips to white and rushes at once."""
    piece.yilleph = "white"
    if piece.id in battle.unmoved:  # it rushes: it moves
        battle.unmoved.remove(piece.id)
    yield Step(StepKind.YILLEPH_FLIP, rulebook.YILLEPH,
               "{piece} flips to white (invulnerable) and performs a single rush shot",
               {"piece": piece.id, "yilleph": "white"},
               {"piece": piece.ref})
    target = yield from activation.choose_target(battle, piece, advanced=False)
    if target is not None:
        yield from shots.rush(battle, piece, target, "Yilleph flipped to white: rush")


def destroyed(battle: Battle, piece: Piece, by: str | None) -> Procedure:
    yield Step(StepKind.PIECE_DOWN, rulebook.PIECE_DAMAGE,
               "{piece} is destroyed",
               {"piece": piece.id},
               {"piece": piece.ref})
    yield from dismount(battle, piece)
    cave = battle.adventure.hidden_cave
    if by is not None and cave and piece.name in cave.targets \
            and battle.heroes[by].kind == "hero" and piece.name not in cave.held_by(by):
        # Red Box: Hidden Cave: a hero keeps a listed level 1 monster it destroys.
        yield from hidden_cave_collect(battle, HiddenCaveCollect(hero=by, monster=piece.name))
    if by is not None and piece.reward:
        yield from gold_for(battle, battle.heroes[by], piece)


def gold_for(battle: Battle, killer: Hero, piece: Piece) -> Procedure:
    """The gold of a destroyed monster: its hero's (Catacombs 3E: gold for kills); an ally's
    goes to its hero (Allies), a Mount's to its owner (Ice Box: Mounts), a familiar's to nobody
    (Familiars)."""
    if killer.kind == "familiar":
        yield Step(StepKind.NO_GOLD, rulebook.FAMILIARS,
                   "{killer} is a familiar: its kill pays no gold",
                   {"hero": killer.id, "reward": piece.reward},
                   {"killer": killer.ref})
        return
    rule = {"ally": rulebook.ALLIES, "mount": rulebook.MOUNTS}.get(killer.kind,
                                                                   rulebook.GOLD_FOR_KILLS)
    owner = battle.heroes.get(killer.owner) if killer.owner else None
    hero = killer if killer.kind == "hero" or owner is None else owner
    hero.gold += piece.reward
    via = "" if hero is killer else f" ({killer.name}'s kill)"
    yield Step(StepKind.GOLD, rule,
               "{hero} takes {reward} gold{via}: {gold}",
               {"hero": hero.id, "gold": hero.gold, "reward": piece.reward,
                **({"by": killer.id} if hero is not killer else {})},
               {"hero": hero.ref, "reward": piece.reward, "via": via, "gold": hero.gold})


def reactive_shot(battle: Battle, piece: Piece, shot: Shot) -> Procedure:
    """Ice Box: Reactive Health: a damaged piece performs its reactive shot at once, on any
    side's turn, and before its disc is removed if the damage destroyed it. Its target is
    chosen as on its own turn, steps 2 and 3 without Advanced Target Selection (ruling)."""
    # No reactive shot is printed in the books: the card data's value is unverified.
    if piece.id in battle.unmoved:  # it shoots out of turn: it may move
        battle.unmoved.remove(piece.id)
    yield Step(StepKind.REACTIVE, rulebook.REACTIVE,
               "{piece} has reactive health: it performs {label} at once{before} (unverified "
               "card data)",
               {"piece": piece.id, "shot": shot.label, "destroyed": not piece.alive,
                         "verified": False},
               {"piece": piece.ref, "label": shot.label,
                "before": ', before its disc is removed' if not piece.alive else ''})
    target = yield from activation.choose_target(battle, piece, advanced=False)
    if target is None:
        yield Step(StepKind.NO_EFFECT, rulebook.REACTIVE,
                   "{piece} sees no enemy: its reactive shot has no target (Overseer's ruling)",
                   {"piece": piece.id},
                   {"piece": piece.ref})
        return
    yield from shots.perform(battle, piece, target, [shot], 0, activation.activate)


def dismount(battle: Battle, rider: Piece) -> Procedure:
    """A destroyed rider: its Mount leaves the playmat with it (Ice Box: Mounts); a wyvern is
    left wild (Overseer's ruling: a wyvern can be ridden by others)."""
    if rider.riding is None:
        return
    mount_id, rider.riding = rider.riding, None
    mount = battle.pieces.pop(mount_id, None)
    if mount is not None:
        yield Step(StepKind.MOUNT_REMOVED, rulebook.MOUNTS,
                   "{mount} ({mount_id}) leaves the playmat with its rider {rider}",
                   {"piece": mount_id, "rider": rider.id},
                   {"mount": mount.ref, "mount_id": mount_id, "rider": rider.ref})
    else:
        battle.wyverns.append(mount_id)
        yield Step(StepKind.WYVERN_WILD, rulebook.MOUNTS,
                   "the wyvern {mount_id} is wild again: {rider} no longer rides it (Overseer's "
                   "ruling)",
                   {"wyvern": mount_id, "rider": rider.id},
                   {"mount_id": mount_id, "rider": rider.ref})


AWAY_SET = ("teleported",)  # where update_hero may send a member: the Teleported! card


def _check_riding(battle: Battle, hero: Hero, ride: str) -> None:
    """Ice Box: Mounts: a hero or an ally rides a Mount of the party nobody else rides, or a wild
    wyvern (Differences Between Mounts and Wyverns, 2)."""
    if hero.kind not in ("hero", "ally"):
        raise RulesError(f"{hero.name} is {'an' if hero.kind[0] in 'aeiou' else 'a'} "
                         f"{hero.kind}: only heroes and allies ride (Ice Box: Mounts)")
    if ride == hero.riding:
        return
    mount = battle.heroes.get(ride)
    if mount is not None:
        if mount.kind != MOUNT:
            raise RulesError(f"{mount.name} is not a Mount: a hero rides a Mount or a wild wyvern")
        if mount.away is not None:
            raise RulesError(f"{mount.name} is out of play: it returns with its rider")
        other = next((h for h in battle.heroes.values() if h.riding == ride and h.alive
                      and h is not hero), None)
        if other is not None:
            raise RulesError(f"{other.name} already rides {mount.name}")
    elif ride not in battle.wyverns:
        wild = ", ".join(battle.wyverns) or "none"
        raise RulesError(f"{ride!r} is neither a Mount of the party nor a wild wyvern (wild: "
                         f"{wild})")


def _check_away(hero: Hero, away: str | None) -> None:
    if away is None:
        if hero.away == AWAY:
            raise RulesError(f"{hero.name} is in the Hidden Cave: leaving the Hidden Cave brings "
                             "them back")
        return
    if away not in AWAY_SET:
        raise RulesError(f"away: {away!r} is not a place a hero's change sends a member to "
                         f"({', '.join(AWAY_SET)}; null: back on the playmat; the Hidden Cave "
                         "has its own moves)")


def update_hero(battle: Battle, params: UpdateHero) -> Procedure:
    """``{"do": "update_hero", "hero": id, "health": 7, "gold": 3, "stunned": false,
    "riding": "horse" | null, "away": "teleported" | null, ...}``: only the fields given
    change (``params.given``); then what follows from them: a wyvern ridden is no longer wild,
    one left is wild again; a rider's death takes its Mount out of play, a return brings it
    back; Poison cards worth the starting health kill."""
    hero = battle.heroes.get(params.hero)
    if hero is None:
        raise RulesError(f"no hero {params.hero!r}")
    changes: dict[str, Any] = {k: list(v) if isinstance(v, tuple) else v
                               for k, v in given(params).items() if k != "hero"}
    for key in ("health", "gold"):
        if changes.get(key, 0) < 0:
            raise RulesError(f"{key} cannot be negative")
    if changes.get("riding") is not None:
        _check_riding(battle, hero, changes["riding"])
    if "away" in changes:
        _check_away(hero, changes["away"])
    was_alive, rode = hero.alive, hero.riding
    if not hero.alive and changes.get("health", 0) == 0 and changes.get("riding") is not None:
        raise RulesError(f"{hero.name} is dead: a dead hero does not ride")
    for key, value in changes.items():
        if key != "riding":
            setattr(hero, key, value)
    # The table reads a flag as yes or no ("stunned yes"); the trace keeps "stunned True".
    said = [NONE_SAID.get(k, "") if v is None else f"{k} {_said(battle, v)}"
            for k, v in changes.items()]
    told = [f"{k} {'yes' if v else 'no'}" if isinstance(v, bool) else line
            for (k, v), line in zip(changes.items(), said, strict=True)]
    yield Step(StepKind.HERO_UPDATED, rulebook.BEHAVIOUR,
               "{hero}: " + ", ".join(told).replace("{", "{{").replace("}", "}}"),
               {"hero": hero.id, **changes}, {"hero": hero.ref},
               f"{hero.name}: " + ", ".join(said))
    if "riding" in changes and changes["riding"] != rode:
        yield from _ride(battle, hero, rode, changes["riding"])
    if was_alive and not hero.alive:
        yield Step(StepKind.HERO_DOWN, rulebook.PIECE_DAMAGE,
                   "{hero} is destroyed",
                   {"hero": hero.id},
                   {"hero": hero.ref})
        yield from remove_mount(battle, hero)
    elif not was_alive and hero.alive:
        yield from mount_returns(battle, hero)
    if "poison" in changes:
        yield from poison_kills(battle, hero)


NONE_SAID = {"away": "back on the playmat", "riding": "off the mount"}  # a field set to none


def _said(battle: Battle, value: Any) -> str:
    """A changed value as the trace says it: a member by its name."""
    if isinstance(value, str) and value in battle.heroes:
        return battle.heroes[value].name
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    return str(value)


def _ride(battle: Battle, hero: Hero, rode: str | None, ride: str | None) -> Procedure:
    """Off one mount or wyvern, onto another: a wyvern a hero rides is no longer wild (the AI
    cannot ride it from under the hero); one the hero leaves is wild again (Ice Box: Mounts;
    Red Box: Advanced Target Selection, 3)."""
    hero.riding = ride
    if rode is not None and rode not in battle.heroes and rode not in battle.wyverns:
        battle.wyverns.append(rode)
        yield Step(StepKind.WYVERN_WILD, rulebook.MOUNTS,
                   "the wyvern {rode} is wild again: {hero} no longer rides it",
                   {"wyvern": rode, "rider": hero.id},
                   {"rode": rode, "hero": hero.ref})
    if ride is not None and ride in battle.wyverns:
        battle.wyverns.remove(ride)
        yield Step(StepKind.RIDES, rulebook.MOUNTS,
                   "{hero} rides the wyvern {ride}: it is no longer wild",
                   {"hero": hero.id, "wyvern": ride},
                   {"hero": hero.ref, "ride": ride})
