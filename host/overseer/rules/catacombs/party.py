"""What the table tells the gadget between AI activations: a hero's shot destroyed or hurt an
AI piece (invulnerable pieces, mounts and riders, reactive health: Ice Box), a hero's state
changed (health, gold, items, conditions). Validated, then applied."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from overseer.params import param
from overseer.rules.catacombs import activation, rulebook, shots
from overseer.rules.catacombs.hidden_cave import HiddenCaveCollect, hidden_cave_collect
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.state import (
    Battle,
    Piece,
    Shot,
    alive_piece_ids,
    living_hero_ids,
)
from overseer.rules.procedure import Procedure, RulesError, Step, YesNo


@dataclass(frozen=True, slots=True)
class DamagePiece:
    """A hero's shot hit an AI piece, or a wyvern (``piece`` is then the wyvern's id: wild,
    or ridden by an AI piece); ``by``: the hero whose shot it was."""

    piece: str = param(options=alive_piece_ids, prompt="Which AI piece was hit?")
    amount: int = param(default=1, low=1, high=20, prompt="How much damage?")
    by: str | None = param(default=None, options=living_hero_ids, prompt="Which hero's shot?")


@dataclass(frozen=True, slots=True)
class UpdateHero:
    """A hero's state as the table reports it: only the fields given change (None: not
    given)."""

    hero: str = param(options=lambda battle: list(battle.heroes), prompt="Which hero?")
    health: int | None = param(default=None, low=0, high=30)
    gold: int | None = param(default=None, low=0, high=99)
    items: tuple[str, ...] | None = param(default=None)
    poison: tuple[int, ...] | None = param(default=None)
    frozen: bool | None = param(default=None)
    reckless: bool | None = param(default=None)
    stunned: bool | None = param(default=None)
    riding: str | None = param(default=None)
    away: str | None = param(default=None)


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
                       f"{name} shields {rider.name}: no damage (Overseer's ruling: the AI "
                       "always shields when it may)",
                       {"piece": hit_id, "amount": 0, "why": "wyvern_shield"})
            return
    ruling = "" if mount is not None else " (Overseer's ruling: as through a Mount)"
    yield Step(StepKind.PASSES_TO_RIDER, rulebook.MOUNTS,
               f"{name} is invulnerable: the damage passes to its rider {rider.name}{ruling}",
               {"piece": hit_id, "rider": rider.id, "amount": amount})
    yield from wound_piece(battle, rider, amount, by)


def hit_invulnerable(battle: Battle, piece: Piece) -> Procedure:
    """No damage to an Antient (Ice Box: Mounts) or a white Yilleph (Red Box: Special Heroes);
    a Yilleph hit flips: black face up, it moves to a random rune."""
    why = "white_yilleph" if piece.yilleph == "white" else "antient"
    yield no_damage(piece.id, piece.name, why)
    if piece.yilleph == "white":
        piece.yilleph = "black"
        yield Step(StepKind.YILLEPH_FLIP, rulebook.YILLEPH,
                   f"{piece.name} flips to black: it can be "
                   "hurt now", {"piece": piece.id, "yilleph": "black"})
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
               f"{piece.name} loses {amount} health: "
               f"{piece.health} left", {"piece": piece.id, "amount": amount,
                                         "health": piece.health})
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
               f"{piece.name} flips to white (invulnerable) "
               "and performs a single rush shot", {"piece": piece.id, "yilleph": "white"})
    target = yield from activation.choose_target(battle, piece, advanced=False)
    if target is not None:
        yield from shots.rush(battle, piece, target, "Yilleph flipped to white: rush")


def destroyed(battle: Battle, piece: Piece, by: str | None) -> Procedure:
    yield Step(StepKind.PIECE_DOWN, rulebook.PIECE_DAMAGE, f"{piece.name} is destroyed",
               {"piece": piece.id})
    yield from dismount(battle, piece)
    cave = battle.adventure.hidden_cave
    if by is not None and cave and piece.name in cave.targets \
            and piece.name not in cave.collected:
        # Red Box: Hidden Cave: a hero keeps a listed level 1 monster it destroys.
        yield from hidden_cave_collect(battle, HiddenCaveCollect(hero=by, monster=piece.name))
    if by is not None and piece.reward:
        hero = battle.heroes[by]
        hero.gold += piece.reward
        yield Step(StepKind.GOLD, rulebook.GOLD_FOR_KILLS,
                   f"{hero.name} takes {piece.reward} gold: {hero.gold}",
                   {"hero": by, "gold": hero.gold, "reward": piece.reward})


def reactive_shot(battle: Battle, piece: Piece, shot: Shot) -> Procedure:
    """Ice Box: Reactive Health: a damaged piece performs its reactive shot at once, on any
    side's turn, and before its disc is removed if the damage destroyed it. Its target is
    chosen as on its own turn, steps 2 and 3 without Advanced Target Selection (ruling)."""
    # No reactive shot is printed in the books: the card data's value is unverified.
    if piece.id in battle.unmoved:  # it shoots out of turn: it may move
        battle.unmoved.remove(piece.id)
    yield Step(StepKind.REACTIVE, rulebook.REACTIVE,
               f"{piece.name} has reactive health: it performs {shot.label} at once"
               f"{', before its disc is removed' if not piece.alive else ''} (unverified card "
               "data)", {"piece": piece.id, "shot": shot.label, "destroyed": not piece.alive,
                         "verified": False})
    target = yield from activation.choose_target(battle, piece, advanced=False)
    if target is None:
        yield Step(StepKind.NO_EFFECT, rulebook.REACTIVE,
                   f"{piece.name} sees no enemy: its reactive "
                   "shot has no target (Overseer's ruling)", {"piece": piece.id})
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
        yield Step(StepKind.MOUNT_REMOVED, rulebook.MOUNTS, f"{mount.name} ({mount_id}) leaves the "
                   f"playmat with its rider {rider.name}", {"piece": mount_id, "rider": rider.id})
    else:
        battle.wyverns.append(mount_id)
        yield Step(StepKind.WYVERN_WILD, rulebook.MOUNTS, f"the wyvern {mount_id} is wild again: "
                   f"{rider.name} no longer rides it (Overseer's ruling)",
                   {"wyvern": mount_id, "rider": rider.id})


def update_hero(battle: Battle, params: UpdateHero) -> Procedure:
    """``{"do": "update_hero", "hero": id, "health": 7, "gold": 3, "stunned": false, ...}``."""
    hero = battle.heroes.get(params.hero)
    if hero is None:
        raise RulesError(f"no hero {params.hero!r}")
    changes: dict[str, Any] = {}
    for f in fields(params):
        value = getattr(params, f.name)
        if f.name != "hero" and value is not None:
            changes[f.name] = list(value) if isinstance(value, tuple) else value
    for key in ("health", "gold"):
        if changes.get(key, 0) < 0:
            raise RulesError(f"{key} cannot be negative")
    for key, value in changes.items():
        setattr(hero, key, list(value) if isinstance(value, list) else value)
    yield Step(StepKind.HERO_UPDATED, rulebook.BEHAVIOUR, f"{hero.name}: " + ", ".join(
        f"{k} {v}" for k, v in changes.items()), {"hero": hero.id, **changes})
