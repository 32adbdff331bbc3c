"""Correcting the books, the part every game shares: what a book is, the checks a correction
passes before anything changes, and the sentence its step says.

A game's record supplies its books (``GameSpec.books``: the state -> its ``Book``s, a number
the box keeps or a choice among options), and its move table a ``correct`` move
(``{"do": "correct", "book": id, "value": v}``) that checks the table's value with ``check``
and logs the change with ``said``; what a correction changes beyond the one record is the
game's own (rules/<game>/books.py). The gadget offers every game's books through one menu item
and one form (app/flow.py, app/books.py). A correction is an action like any other: in the log,
replayed with it, undone by BACK held.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from overseer.core.procedure import Fact, RulesError, words

CORRECT = "correct"  # the move every game's correction is


@dataclass(frozen=True, slots=True)
class Book:
    """One record a correction can set.

    ``id``: the action's ``book``; ``label``: its name on a list (ids of players may be in it:
    the app names them); ``what``: its name in the correction's sentence and its refusals, a
    template of ``facts`` ("{player}'s hand": the table names the player); ``now``: what it
    holds;
    ``options``: the values it can take (a choice), else a whole number from ``low`` to
    ``high`` (``unit`` after it, ``too_many`` said when a value is over ``high``,
    ``too_few`` when under ``low``)."""

    id: str
    label: str
    what: str
    now: int | str
    options: tuple[str, ...] = ()
    high: int = 99
    unit: str = ""
    too_many: str = ""
    low: int = 0
    too_few: str = ""
    facts: Mapping[str, Fact] = field(default_factory=dict)


def find(books: Sequence[Book], book: str) -> Book:
    """The book named ``book``; ``RulesError`` (nothing changes) for another name."""
    found = next((b for b in books if b.id == book), None)
    if found is None:
        raise RulesError(f"correct: 'book' must be one of {', '.join(b.id for b in books)} "
                         f"(got {book!r})")
    return found


def check(books: Sequence[Book], book: str, value: object) -> Book:
    """Refuse a correction the books cannot hold (nothing changes); the book it sets."""
    found = find(books, book)
    if found.options:
        if value not in found.options:
            raise RulesError(f"correct: 'value' of {found.id} must be one of "
                             f"{', '.join(found.options)} (got {value!r})")
    elif isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RulesError(f"correct: 'value' must be a whole number, 0 or more (got {value!r})")
    elif value < found.low:
        raise _refused(found, found.too_few or f"{found.what} is at least {found.low}", value)
    elif value > found.high:
        raise _refused(found, found.too_many or f"{found.what} is at most {found.high}", value)
    if value == found.now:
        held: Fact = (value, value) if isinstance(value, str) else value  # an option's name
        template = f"correct: {found.what} already holds {{value}}; nothing to correct"
        facts = {**found.facts, "value": held}
        raise RulesError(words(template, facts), template, facts)
    return found


def _refused(found: Book, why: str, value: int) -> RulesError:
    """A number the book cannot hold: ``why`` (a template of the book's facts), what was
    given."""
    template, facts = f"correct: {why} (got {{got}})", {**found.facts, "got": value}
    return RulesError(words(template, facts), template, facts)


def said(book: Book, value: int | str, was: str = "", now: str = "") -> str:
    """The correction's sentence: "Correction by the table: <what> <was> -> <now> <unit>."
    (``was`` and ``now``: the values in words, where they are ids)."""
    unit = f" {book.unit}" if book.unit else ""
    return (f"Correction by the table: {book.what} {was or book.now} -> {now or value}"
            f"{unit}.")
