"""What the table tells the gadget between AI activations: a hero's shot destroyed or hurt an
AI piece, a hero's state changed (health, gold, items, conditions). Validated, then applied."""

from __future__ import annotations

from typing import Any

from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.hidden_cave import hidden_cave_collect
from overseer.rules.catacombs.state import Battle
from overseer.rules.procedure import Procedure, RulesError, Step

HERO_FIELDS = {"health": int, "gold": int, "items": list, "poison": list, "frozen": bool,
               "reckless": bool, "stunned": bool, "riding": (str, type(None)),
               "away": (str, type(None))}


def damage_piece(battle: Battle, action: dict[str, Any]) -> Procedure:
    """``{"do": "damage_piece", "piece": id, "amount": n, "by": hero id (optional)}``."""
    piece = battle.pieces.get(action.get("piece"))
    if piece is None or not piece.alive:
        raise RulesError(f"no AI piece {action.get('piece')!r} on the playmat")
    amount = action.get("amount", 1)
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 1:
        raise RulesError(f"damage must be a whole number of at least 1 (got {amount!r})")
    by = action.get("by")
    if by is not None and by not in battle.heroes:
        raise RulesError(f"no hero {by!r}")
    piece.health = max(0, piece.health - amount)
    yield Step("piece_damaged", "Catacombs 3E: damage", f"{piece.name} loses {amount} health: "
               f"{piece.health} left", {"piece": piece.id, "amount": amount,
                                         "health": piece.health})
    if not piece.alive:
        yield Step("piece_down", "Catacombs 3E: damage", f"{piece.name} is destroyed",
                   {"piece": piece.id})
        cave = battle.adventure.hidden_cave
        if by is not None and cave and piece.name in cave.targets \
                and piece.name not in cave.collected:
            # Red Box: Hidden Cave: a hero keeps a listed level 1 monster it destroys.
            yield from hidden_cave_collect(battle, {"hero": by, "monster": piece.name})
        if by is not None and piece.reward:
            hero = battle.heroes[by]
            hero.gold += piece.reward
            yield Step("gold", "Catacombs 3E: gold for kills",
                       f"{hero.name} takes {piece.reward} gold: {hero.gold}",
                       {"hero": by, "gold": hero.gold, "reward": piece.reward})


def update_hero(battle: Battle, action: dict[str, Any]) -> Procedure:
    """``{"do": "update_hero", "hero": id, "health": 7, "gold": 3, "stunned": false, ...}``."""
    hero = battle.heroes.get(action.get("hero"))
    if hero is None:
        raise RulesError(f"no hero {action.get('hero')!r}")
    changes = {k: v for k, v in action.items() if k not in ("do", "hero", "times")}
    for key, value in changes.items():
        kind = HERO_FIELDS.get(key)
        if kind is None:
            raise RulesError(f"a hero has no field {key!r}; known: {', '.join(HERO_FIELDS)}")
        if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
            raise RulesError(f"{key} cannot be {value!r}")
        if kind is int and value < 0:
            raise RulesError(f"{key} cannot be negative")
    for key, value in changes.items():
        setattr(hero, key, list(value) if isinstance(value, list) else value)
    yield Step("hero_updated", rulebook.BEHAVIOUR, f"{hero.name}: " + ", ".join(
        f"{k} {v}" for k, v in changes.items()), {"hero": hero.id, **changes})
