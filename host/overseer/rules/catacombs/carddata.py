"""The Catacombs data as one value: the battle engine's tables (AI behaviour, tiles, damage
tokens, Poison and Death cards, the portal trap), the cards (monsters, Catacomb Lord setup
cards, Room cards, playmats), the campaigns and the Hidden Cave.

Loaded and validated once, outside the rules (``overseer.loaders.catacombs.load``), and carried by
the state (``Battle.data``): the rules read it, never a file. The value is shared by every
battle built from it, so nothing changes it; a copy of a battle shares it too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from overseer.core.procedure import Token

Record = dict[str, Any]  # one ``[[table]]`` record of a data file, with its source and verified


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


@dataclass(frozen=True, eq=False)
class CatacombsData:
    """Everything data/catacombs/ holds, checked. ``where`` names the folder in messages.
    Compared and hashed by identity (one loaded value per folder)."""

    behaviour: dict[str, Behaviour]  # by character type: brown, blue, ..., lord, antient
    tiles: dict[str, Record]  # by id
    damage_tokens: dict[int, tuple[Token, ...]]  # the bag of each level, as the box holds it
    death_cards: tuple[Record, ...]
    portal_trap: tuple[Record, ...]  # D12 bands: low, high, damage, outcome
    poison_cards: tuple[int, ...]  # the value of each card of the Poison deck
    tokens_verified: bool
    poison_verified: bool
    monsters: dict[str, Record]  # by id, in file order
    lords: dict[str, Record]
    rooms: dict[str, Record]
    playmats: dict[str, Record]
    campaigns: dict[str, Record]
    stages: dict[str, tuple[Record, ...]]  # each campaign's stages, in position order
    cave_items: tuple[str, ...]  # the four Red Box items beside the Hidden Cave card
    cave_token_level: int  # the level of the tokens drawn against the Kraken
    cave_token_level_verified: bool
    where: str = "data/catacombs"
    _names: dict[str, dict[str, Record]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_names", {
            kind: {r["name"].lower(): r for r in table.values()}
            for kind, table in (("monster", self.monsters), ("lord", self.lords),
                                ("room", self.rooms))})

    def __copy__(self) -> CatacombsData:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> CatacombsData:
        return self  # shared and never changed: a copied battle keeps the same data

    def file(self, name: str) -> str:
        """How a message names one of the data files: ``data/catacombs/rooms.toml``."""
        return f"{self.where}/{name}"

    def _find(self, table: dict[str, Record], kind: str, name: str, what: str,
              file: str) -> Record:
        record = table.get(name) or table.get(name.lower()) or \
            self._names[kind].get(name.lower())
        if record is None:
            raise KeyError(f"no {what} {name!r} in {self.file(file)}")
        return record

    def monster(self, name: str) -> Record:
        """A Monster card by id or name (any case); KeyError names the file."""
        return self._find(self.monsters, "monster", name, "monster card", "monsters.toml")

    def lord(self, name: str) -> Record:
        return self._find(self.lords, "lord", name, "Catacomb Lord card", "lords.toml")

    def room(self, name: str) -> Record:
        return self._find(self.rooms, "room", name, "Room card", "rooms.toml")

    def is_monster(self, name: str) -> bool:
        try:
            self.monster(name)
        except KeyError:
            return False
        return True

    def playmat_on(self, die: str, face: int) -> Record:
        """The playmat a Rune Die or D12 result names."""
        for record in self.playmats.values():
            if record["die"] == die and record.get("face") == face:
                return record
        raise KeyError(f"no {die} playmat for face {face}")

    def tiles_of(self, kind: str) -> list[Record]:
        return [t for t in self.tiles.values() if t["set"] == kind]
