"""The table mends the Runebound books (``correct``): a hero's experience or gold the Curse
cards gave, as the pack keeps them, set to what the table counts (a reward taken by hand, a
claim missed). Victory points are the claimed Curse cards' levels and are not a book of their
own: a claim missed is undone and made again.

- ``xp-<hero>``: the experience the Curse cards gave;
- ``gold-<hero>``: the gold the Curse cards gave.

A correction is an action of the log like any other, undone by BACK held, and says what it
changed in a step of its own (``correction``). The checks are the ones every game shares
(core/books.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core import books as shared
from overseer.core.books import Book
from overseer.core.params import param
from overseer.core.procedure import Procedure, Step
from overseer.rules.runebound import rulebook
from overseer.rules.runebound.kinds import StepKind
from overseer.rules.runebound.state import RuneboundState

XP = "xp-"  # xp-<hero>
GOLD = "gold-"  # gold-<hero>
MOST = 99  # the most a correction sets


def book_list(state: RuneboundState) -> list[Book]:
    """Each hero's experience, then their gold."""
    out = []
    for hero in state.heroes.values():
        out.append(Book(XP + hero.id, f"{hero.id} XP", f"{hero.name}'s experience", hero.xp,
                        high=MOST, unit="XP"))
        out.append(Book(GOLD + hero.id, f"{hero.id} gold", f"{hero.name}'s gold", hero.gold,
                        high=MOST, unit="gold"))
    return out


def books(state: RuneboundState) -> list[str]:
    return [b.id for b in book_list(state)]


@dataclass(frozen=True, slots=True)
class Correct:
    """``{"do": "correct", "book": "xp-<hero>" | "gold-<hero>", "value": N}``."""

    book: str = param(options=books, prompt="Correct what?")
    value: int = param(low=0, high=MOST, prompt="Set it to?")


def correct(state: RuneboundState, params: Correct) -> Procedure:
    """Set one book to what the table has (see the module's docstring)."""
    found = shared.check(book_list(state), params.book, params.value)
    book, value = params.book, params.value
    if book.startswith(XP):
        hero = book.removeprefix(XP)
        state.heroes[hero].xp = value
    else:
        hero = book.removeprefix(GOLD)
        state.heroes[hero].gold = value
    yield Step(StepKind.CORRECTION, rulebook.CURSE_CARDS, shared.said(found, value),
               {"book": book, "hero": hero, "was": found.now, "now": value})
