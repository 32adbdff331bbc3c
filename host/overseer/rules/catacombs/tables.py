"""The Catacombs rules' data tables, loaded from data/catacombs/ once and handed to the rules.

The rules never read files: ``load()`` is called by whoever builds a battle (scenario, session,
app) and the result travels in ``Battle.tables``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from overseer.data import DATA_DIR, DataError, Field, at_least, list_of, load_table, one_of
from overseer.rules.procedure import Token

CRITERIA = ("most_gold", "least_gold", "most_poison", "least_health", "most_health",
            "without_items", "most_items", "closest")
NO_TARGET = ("retreat_half_clock", "toward_obstacle", "advance", "random_clock", "random_rune")
PREFERENCES = ("poison", "ranged", "melee", "none")


@dataclass(frozen=True, slots=True)
class Behaviour:
    """One row of the AI Player Attack Behaviour table."""

    type: str
    family: str
    ruler: int
    shot_preference: str
    primary: str
    secondary: str
    tie_breaker: str
    no_target: str
    verified: bool
    unverified_fields: tuple[str, ...]
    source: str

    def is_verified(self, column: str) -> bool:
        return self.verified and column not in self.unverified_fields


@dataclass(frozen=True, slots=True)
class Tables:
    behaviour: dict[str, Behaviour]
    tiles: dict[str, dict[str, Any]]
    damage_tokens: dict[int, tuple[Token, ...]]
    death_cards: tuple[dict[str, Any], ...]
    portal_trap: tuple[dict[str, Any], ...]
    poison_cards: tuple[int, ...]
    tokens_verified: bool
    poison_verified: bool

    def tiles_of(self, kind: str) -> list[dict[str, Any]]:
        return [t for t in self.tiles.values() if t["set"] == kind]


BEHAVIOUR_FIELDS = {
    "id": Field(str),
    "family": Field(str),
    "ruler": Field(int, check=one_of(1, 2, 3)),
    "shot_preference": Field(str, check=one_of(*PREFERENCES)),
    "primary": Field(str, check=one_of(*CRITERIA)),
    "secondary": Field(str, check=one_of(*CRITERIA)),
    "tie_breaker": Field(str, check=one_of(*CRITERIA)),
    "no_target": Field(str, check=one_of(*NO_TARGET)),
    "unverified_fields": Field(list, required=False, check=list_of(str)),
}
TILE_FIELDS = {
    "id": Field(str),
    "set": Field(str, check=one_of("character_order", "monster_order", "direction",
                                   "hero_target")),
    "text": Field(str),
    "colour": Field(str, required=False, check=one_of("green", "blue")),
    "low": Field(int, required=False, check=at_least(1)),
    "high": Field(int, required=False, check=at_least(1)),
}
TOKEN_FIELDS = {
    "id": Field(str),
    "level": Field(int, check=one_of(1, 2, 3)),
    "value": Field(int, check=at_least(0)),
    "reset": Field(bool, required=False),
    "count": Field(int, check=at_least(1)),
}
# Red Box: Components: 13 level 1, 12 level 2 and 13 level 3 damage tokens.
TOKENS_PER_LEVEL = {1: 13, 2: 12, 3: 13}
DEATH_FIELDS = {
    "id": Field(str),
    "name": Field(str),
    "effect": Field(str, check=one_of("dies", "poison", "lose_health", "gain_health",
                                      "reckless", "stunned")),
    "amount": Field(int, check=at_least(0)),
}
PORTAL_FIELDS = {
    "id": Field(str),
    "low": Field(int, check=one_of(*range(1, 13))),
    "high": Field(int, check=one_of(*range(1, 13))),
    "damage": Field(int, check=at_least(0)),
    "outcome": Field(str, check=one_of("teleported", "rush", "random_rune", "hidden_cave")),
}
POISON_FIELDS = {"id": Field(str), "value": Field(int, check=at_least(0)),
                 "count": Field(int, check=at_least(1))}


@cache
def load(folder: Path | None = None) -> Tables:
    folder = folder or DATA_DIR / "catacombs"
    behaviour = {}
    for r in load_table(folder / "ai_behaviour.toml", "type", BEHAVIOUR_FIELDS):
        behaviour[r["id"]] = Behaviour(
            r["id"], r["family"], r["ruler"], r["shot_preference"], r["primary"],
            r["secondary"], r["tie_breaker"], r["no_target"], r["verified"],
            tuple(r.get("unverified_fields", ())), r["source"])
    tiles = {r["id"]: r for r in load_table(folder / "tiles.toml", "tile", TILE_FIELDS)}
    token_path = folder / "damage_tokens.toml"
    token_records = load_table(token_path, "token", TOKEN_FIELDS)
    pools: dict[int, list[Token]] = {1: [], 2: [], 3: []}
    for r in token_records:
        pools[r["level"]].extend([Token(r["value"], r.get("reset", False))] * r["count"])
    for level, want in TOKENS_PER_LEVEL.items():
        if len(pools[level]) != want:
            raise DataError(token_path, None, f"level {level}", "count",
                            f"level {level} holds {len(pools[level])} tokens; the Red Box has "
                            f"{want}")
    poison = load_table(folder / "poison_cards.toml", "card", POISON_FIELDS)
    return Tables(
        behaviour=behaviour,
        tiles=tiles,
        damage_tokens={k: tuple(v) for k, v in pools.items()},
        death_cards=tuple(load_table(folder / "death_cards.toml", "card", DEATH_FIELDS)),
        portal_trap=tuple(load_table(folder / "portal_trap.toml", "result", PORTAL_FIELDS)),
        poison_cards=tuple(v for r in poison for v in [r["value"]] * r["count"]),
        tokens_verified=all(r["verified"] for r in token_records),
        poison_verified=all(r["verified"] for r in poison),
    )
