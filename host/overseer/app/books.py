"""The "Correct the books" form every game shares (rules/books.py): which book, listed with
what it holds now, then what it holds on the table: a number starting at the box's (OK keeps
nothing: the rules refuse a value the book already holds), or a choice among its options with
the box's marked "(now)"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from overseer.app.local import Ask, LocalProcedure
from overseer.core.procedure import ChooseOne, EnterNumber
from overseer.rules.books import Book


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
    if book.options:
        shown = {o: names.get(o, o) + (" (now)" if o == book.now else "") for o in book.options}
        value = yield Ask(ChooseOne(prompt, book.options, "value"), names=shown)
    else:
        start = book.now if isinstance(book.now, int) else 0
        value = yield Ask(EnterNumber(prompt, "value", 0, book.high), start=start)
    return {"do": "correct", "book": chosen, "value": value}
