"""The box's components as one value: towns, terrain, the movement die, the Curse decks, the
cataclysm counters and the encounter tokens taken as quest counters.

Loaded and validated outside the rules (``overseer.loaders.runebound.load``) and carried by the
state (``RuneboundState.data``): the rules read it, never a file. Nothing changes it, so a copied
state shares it. A record the book does not print is ``verified = False``; the trace says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from overseer.core.procedure import Fact

DESTROYED = "destroyed"  # what a counter with the comet on both sides reveals
LEVELS = (1, 2, 3)
ROMAN = {1: "I", 2: "II", 3: "III"}
# Cataclysm: Curse Cards - six cards a curse: three of Level I, two of Level II, one of III.
CARDS_PER_LEVEL = {1: 3, 2: 2, 3: 1}


@dataclass(frozen=True, slots=True)
class Town:
    id: str
    name: str
    terrain: str
    verified: bool
    source: str
    name_printed: bool = False  # the book names the town (its terrain may still be a guess)


@dataclass(frozen=True, slots=True)
class Terrain:
    id: str
    name: str
    verified: bool
    source: str


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a movement die: the terrain types it shows."""

    id: str
    terrain: tuple[str, ...]
    verified: bool
    source: str


@dataclass(frozen=True, slots=True)
class Curse:
    id: str
    name: str  # empty when the book does not print it
    verified: bool
    source: str

    @property
    def title(self) -> str:
        return self.name or f"{self.id} (name not printed)"


@dataclass(frozen=True, slots=True)
class CurseCard:
    id: str
    curse: str
    level: int
    name: str  # empty when the book does not print it
    verified: bool
    source: str

    def title(self, curse: Curse) -> str:
        if self.name:
            return f"{self.name} ({curse.title}, Level {ROMAN[self.level]})"
        return f"{curse.title}, Level {ROMAN[self.level]} card {self.id}"


@dataclass(frozen=True, slots=True)
class Counter:
    id: str
    reveals: str  # DESTROYED or a curse id
    verified: bool
    source: str


@dataclass(frozen=True, slots=True)
class Token:
    """An undefeated encounter token, taken as a quest counter."""

    id: str
    name: str
    verified: bool
    source: str


@dataclass(frozen=True, eq=False)
class RuneboundData:
    """Everything data/runebound/ holds, checked. Compared and hashed by identity."""

    towns: dict[str, Town]  # in file order: the order of the deal
    terrain: dict[str, Terrain]
    faces: tuple[Face, ...]  # the movement die
    curses: dict[str, Curse]  # in file order: the order the decks are laid out
    cards: dict[str, CurseCard]  # in file order: each deck's Level I cards, then II, then III
    counters: dict[str, Counter]
    tokens: dict[str, Token]
    where: str = "data/runebound"

    def __copy__(self) -> RuneboundData:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> RuneboundData:
        return self  # shared and never changed

    def deck(self, curse: str) -> list[str]:
        """A curse's six cards as the book stacks them: Level I on top, then II, then III."""
        return [c.id for level in LEVELS for c in self.cards.values()
                if c.curse == curse and c.level == level]

    def card_title(self, card: str) -> str:
        record = self.cards[card]
        return record.title(self.curses[record.curse])

    def said_card(self, card: str) -> Fact:
        """A Curse card as a fact of the rules' sentences: its title; one the book does not
        name by its id too, which the table names in a few words ("Curse 3! I")."""
        title = self.card_title(card)
        return title if self.cards[card].name else (card, title)

    def said_curse(self, curse: str) -> Fact:
        """A curse as a fact: its name; an unnamed one by its id too ("Curse 3!")."""
        record = self.curses[curse]
        return record.title if record.name else (curse, record.title)
