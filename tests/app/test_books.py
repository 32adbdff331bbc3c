"""Correct the books, the one mechanism every game shares (core/books.py, the record's
``GameSpec.books``, the table's one form: app/books.py), through the shell by the buttons in
each of the four games: a correction changes the book its record lists, is a step of the log
("Correction" on the glass), replays after a restart and undoes cleanly; a value the books
cannot hold is refused with a clear message and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from overseer import games
from overseer.core.books import CORRECT, Book
from overseer.core.procedure import RulesError
from tests.app.test_conquest_flow import TUTORIAL
from tests.app.test_pack_games import SEED, clank_at_the_temple, runebound_in_play
from tests.drivers import catacombs_table as catacombs
from tests.drivers.conquest_table import Players, new_four_player_game, tutorial_script
from tools import pack_tour
from tools.table import BACK, OK, Table


def catacombs_in_battle(t: Table) -> Table:
    """The Monstrosity campaign's first room set up: the Minotaur and two Orcs wait."""
    catacombs.new_campaign(t)
    catacombs.first_stage(t)
    t.read()
    return t


def conquest_started(t: Table) -> Table:
    """Four players, the tutorial's first draws: the game under way."""
    new_four_player_game(t)
    draws, _, answers = tutorial_script(TUTORIAL)
    Players(t, draws, answers).settle()
    return t


IN_PLAY: dict[str, Callable[[Table], Table]] = {
    "catacombs": catacombs_in_battle, "conquest": conquest_started,
    "clank": clank_at_the_temple, "runebound": runebound_in_play}
MENU = {"catacombs": "Correct books", "conquest": "Correct the books",
        "clank": "Correct books", "runebound": "Correct books"}


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


def books(t: Table) -> list[Book]:
    found = games.get(t.session.game).books
    assert found is not None
    return list(found(t.session.state))


def book(t: Table, id_: str) -> Book:
    return next(b for b in books(t) if b.id == id_)


def open_book(t: Table, game: str, n: int) -> Book:
    """From the idle screen: the menu's Correct the books, then the ``n``-th book's row (the
    form lists the record's books in its order, each with what it holds now)."""
    listed = books(t)
    pack_tour.menu(t, MENU[game])
    assert t.screen.title == "Correct what?" and len(t.screen.options) == len(listed)
    t.pick(t.screen.options[n])
    return listed[n]


def other_value(t: Table, chosen: Book) -> int | str:
    """On the value's screen: set a value the book does not hold; the value."""
    if chosen.options:
        row = next(o for o in t.screen.options if not o.endswith("(now)"))
        value = chosen.options[t.screen.options.index(row)]
        t.pick(row)
        return value
    assert t.screen.number == chosen.now  # the number starts at what the box has
    value = chosen.now + 1 if isinstance(chosen.now, int) and chosen.now < chosen.high else \
        chosen.low
    t.number(value)
    return value


@pytest.mark.parametrize("game", list(IN_PLAY))
def test_a_correction_changes_the_books_replays_and_undoes_cleanly(game: str,
                                                                    store: Path) -> None:
    t = IN_PLAY[game](Table(store, seed=SEED))
    before, head = t.session.state_dict(), t.session.head
    chosen = open_book(t, game, 0)
    value = other_value(t, chosen)
    pages = t.read()
    assert [p.key for p in pages if p.key] == ["Correction"]  # a page of its own, named so
    assert book(t, chosen.id).now == value
    step = t.session.runner.trace[-1]
    assert step.kind == "correction"
    assert (step.data["book"], step.data["was"], step.data["now"]) == \
        (chosen.id, chosen.now, value)
    assert step.text.startswith("Correction by the table: ")
    assert t.session.head == head + 1  # one input of the log
    corrected = t.session.state_dict()
    assert corrected != before

    t.close()  # the gadget restarts: the log replays the correction
    t = Table(store, seed=SEED)
    assert t.session.state_dict() == corrected
    t.read()
    t.press(BACK, long=True)  # undone like any input
    t.read()
    assert t.session.state_dict() == before and t.session.head == head
    t.close()


@pytest.mark.parametrize("game", list(IN_PLAY))
def test_a_correction_the_books_cannot_hold_is_refused_and_changes_nothing(
        game: str, store: Path) -> None:
    t = IN_PLAY[game](Table(store, seed=SEED))
    before, head = t.session.state_dict(), t.session.head
    chosen = open_book(t, game, 0)
    if chosen.options:  # what the box holds already, marked "(now)"
        t.pick(next(o for o in t.screen.options if o.endswith("(now)")))
    else:
        t.press(OK)  # the number as it starts: what the box holds
    said = pack_tour.refused(t, before)
    now = t.gadget.playing.table.labels(t.session.state).get(str(chosen.now), str(chosen.now))
    assert f"already holds {now}; nothing to correct" in said and "Nothing changed" in said
    low = chosen.low - 1 if not chosen.options else None
    bad: list[tuple[dict[str, object], str]] = [
        ({"book": "no-such-book", "value": chosen.now}, "'book' must be one of"),
        ({"book": chosen.id, "value": 1.5}, "value"),
    ]
    if chosen.options:
        bad.append(({"book": chosen.id, "value": "no-such-option"},
                    f"'value' of {chosen.id} must be one of"))
    else:
        bad += [({"book": chosen.id, "value": chosen.high + 1}, f"(got {chosen.high + 1})"),
                ({"book": chosen.id, "value": low}, f"(got {low})"),
                ({"book": chosen.id, "value": "three"}, "whole number")]
    for action, why in bad:
        with pytest.raises((RulesError, ValueError), match=why):
            t.session.begin({"do": CORRECT, **action})
    assert t.session.state_dict() == before and t.session.head == head
    t.close()

