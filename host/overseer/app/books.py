"""The "Correct the books" form every game shares (core/books.py; the table offers it for the
books its record supplies, ``GameSpec.books``): which book, listed with
what it holds now, then what it holds on the table: a number starting at the box's (OK keeps
nothing: the rules refuse a value the book already holds), or a choice among its options with
the box's marked "(now)"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from overseer.app.local import Ask, LocalProcedure
from overseer.core.books import Book
from overseer.core.procedure import ChooseOne, EnterNumber
from overseer.screens.pages import TITLE_COLUMNS


def correct_form(books: Sequence[Book], names: Mapping[str, str]) -> LocalProcedure:
    """The action ``{"do": "correct", "book": id, "value": v}``; the ids in a book's label
    (its players', its space's) by their ``names``."""

    def say(label: str) -> str:
        return " ".join(names.get(word, word) for word in label.split(" "))
    by_id = {b.id: b for b in books}
    rows = {b.id: f"{say(b.label)} ({names.get(str(b.now), str(b.now))})" for b in books}
    chosen = yield Ask(ChooseOne("Correct what?", tuple(by_id), "book"), names=rows)
    book = by_id[chosen]
    prompt = f"{say(book.label)}: set to?"
    if len(prompt) > TITLE_COLUMNS:  # the title bar asks it, with no page before
        prompt = f"{say(book.label)}?"
    if book.options:
        shown = {o: names.get(o, o) + (" (now)" if o == book.now else "") for o in book.options}
        value = yield Ask(ChooseOne(prompt, book.options, "value"), names=shown)
    else:
        start = book.now if isinstance(book.now, int) else book.low
        value = yield Ask(EnterNumber(prompt, "value", book.low, book.high),
                          start=min(max(start, book.low), book.high))
    return {"do": "correct", "book": chosen, "value": value}
