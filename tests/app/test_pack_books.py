"""Clank! and Runebound at a real table (through the shell, by the buttons): the books can be
corrected, the correction is in the log and undone cleanly, one the books cannot hold is
refused with nothing changed; BACK leaves a report the rules refused mid-way (Medusa's
Lair); the seat LED of the player whose turn it is is lit (gpiozero's MockFactory pins); the
glass names no ids."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from overseer.core.procedure import RulesError
from tests.app.lit_table import PINS, LitTable
from tests.app.test_pack_games import SEED, clank_at_the_temple, runebound_in_play
from tools import pack_tour
from tools.table import BACK, OK, Album, Table


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


def correct(t: Table, book: str, value: str | int) -> list[str]:
    """From the idle screen: Correct books, the book's row, the value; the pages' keys."""
    pack_tour.menu(t, "Correct books")
    t.pick(book)
    if isinstance(value, int):
        t.number(value)
    else:
        t.pick(value)
    return [page.key for page in t.read()]


# --------------------------------------------------------------------------- corrections


def test_clank_a_correction_changes_the_books_and_undoes_cleanly(store: Path) -> None:
    t = clank_at_the_temple(Table(store, seed=SEED))
    before = t.session.state_dict()
    assert before["players"]["P1"]["where"] == "wayside-shrine"
    correct(t, "P1 room (A wayside shrine)", "Temple of Gold")
    assert any(s.key == "Correction" and s.title == "Books" for s in t.shown)
    state = t.session.state_dict()
    assert state["players"]["P1"]["where"] == "temple-of-gold"
    step = t.session.runner.trace[-1]
    assert step.kind == "correction" and step.data == {
        "book": "where-P1", "was": "wayside-shrine", "now": "temple-of-gold"}
    assert "a wayside shrine -> Temple of Gold" in step.text
    correct(t, "5 gold! (Empty)", "P2")
    assert t.session.state.cubes == {"temple-of-gold/5": "P2"}
    for _ in range(2):
        t.press(BACK, long=True)
        t.read()
    assert t.session.state_dict() == before


def test_clank_a_correction_the_books_hold_already_is_refused(store: Path) -> None:
    t = clank_at_the_temple(Table(store, seed=SEED))
    before = t.session.state_dict()
    pack_tour.menu(t, "Correct books")
    t.pick("P2 room (Another room)")
    t.pick("Another room (now)")
    said = pack_tour.refused(t, before)
    assert "P2's place already holds Another room" in said and "Nothing changed" in said
    with pytest.raises(RulesError, match="'value' of cube-temple-of-gold/5 must be one of"):
        t.session.begin({"do": "correct", "book": "cube-temple-of-gold/5", "value": "P9"})
    with pytest.raises(RulesError, match="'book' must be one of where-P1"):
        t.session.begin({"do": "correct", "book": "gold-P1", "value": "P1"})
    assert t.session.state_dict() == before


def test_runebound_a_correction_changes_the_books_and_undoes_cleanly(store: Path) -> None:
    t = runebound_in_play(Table(store, seed=SEED))
    before = t.session.state_dict()
    keys = correct(t, "Hero 1 gold (0)", 4)
    assert "Correction" in keys
    correct(t, "Hero 2 XP (0)", 2)
    heroes = t.session.state_dict()["heroes"]
    assert (heroes["hero-1"]["gold"], heroes["hero-2"]["xp"]) == (4, 2)
    step = t.session.runner.trace[-1]
    assert step.kind == "correction" and step.data == {"book": "xp-hero-2", "hero": "hero-2",
                                                       "was": 0, "now": 2}
    assert "Hero 2's experience 0 -> 2 XP" in step.text
    for _ in range(2):
        t.press(BACK, long=True)
        t.read()
    assert t.session.state_dict() == before


def test_runebound_a_correction_the_books_cannot_hold_is_refused(store: Path) -> None:
    t = runebound_in_play(Table(store, seed=SEED))
    before = t.session.state_dict()
    pack_tour.menu(t, "Correct books")
    t.pick("Hero 1 XP (0)")
    assert t.screen.number == 0  # the number starts at what the box has
    t.press(OK)
    said = pack_tour.refused(t, before)
    assert "already holds 0" in said
    for action, why in (({"book": "xp-hero-1", "value": 100}, "at most 99"),
                        ({"book": "xp-hero-1", "value": -1}, "whole number, 0 or more"),
                        ({"book": "hp-hero-1", "value": 1}, "'book' must be one of")):
        with pytest.raises(RulesError, match=why):
            t.session.begin({"do": "correct", **action})
    assert t.session.state_dict() == before


# --------------------------------------------------------------------------- BACK


def test_clank_back_leaves_medusas_lair_refused(store: Path) -> None:
    """P1 may not enter Medusa's Lair (no Secret Tome, no damage by choice): the refusal
    leaves the question on the glass; BACK takes the whole report back."""
    t = clank_at_the_temple(Table(store, seed=SEED))
    pack_tour.menu(t, "Tile placed")
    t.read()
    t.pick("Medusa's Lair")
    before = t.session.state_dict()
    head = t.session.head
    pack_tour.menu(t, "Enter a room")
    t.pick("Medusa's Lair")
    t.read()
    t.pick("Turn to stone")
    t.read()
    t.pick("No")
    said = pack_tour.refused(t, before)
    assert "may not enter Medusa's Lair" in said
    assert t.screen.title == "Damage by choice?"  # the question waits, as it was
    t.press(BACK)
    assert t.gadget.session is not None and t.session.pending is None
    assert t.session.state_dict() == before and t.session.head == head
    assert t.screen.key == "P1's turn"  # the idle screen
    pack_tour.menu(t, "Enter a room")  # and the menu goes on
    t.pick("Another room")
    assert t.session.state_dict()["players"]["P1"]["where"] == "elsewhere"


def test_back_on_a_pack_question_of_the_setup_shows_the_steps(store: Path) -> None:
    """The setup's own question (the base box's safe tiles) is not a report: BACK there reads
    the steps before it again and takes nothing back."""
    t = Table(store, seed=SEED)
    t.choose_game("Clank!")
    t.number(2)
    t.pick("Off")
    t.read()
    head = t.session.head
    t.press(BACK)
    assert t.session.head == head and t.session.pending is not None


# --------------------------------------------------------------------------- the seat LEDs


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    made = MockFactory(pin_class=MockPWMPin)
    yield made
    made.reset()


def levels(factory: MockFactory) -> dict[int, float]:
    return {seat: float(factory.pin(bcm).state) for seat, bcm in PINS.items()}


def test_clank_the_seat_of_the_player_whose_turn_it_is_is_lit(store: Path,
                                                              factory: MockFactory) -> None:
    t = LitTable(store, factory, SEED)
    try:
        clank_at_the_temple(t)
        t.read()
        assert levels(factory) == {1: 1.0, 2: 0.0, 3: 0.0, 4: 0.0}  # P1 sits at seat 1
        pack_tour.menu(t, "End the turn")
        t.read()
        assert t.session.state.turn_player() == "P2"
        assert levels(factory) == {1: 0.0, 2: 1.0, 3: 0.0, 4: 0.0}
    finally:
        t.close()


def test_runebound_the_seat_of_the_hero_whose_turn_it_is_is_lit(store: Path,
                                                                factory: MockFactory) -> None:
    t = LitTable(store, factory, SEED)
    try:
        runebound_in_play(t)
        hero = t.session.state.current()
        seat = t.gadget.playing.seats[hero]
        assert levels(factory) == {s: 1.0 if s == seat else 0.0 for s in PINS}
        pack_tour.menu(t, "End the turn")
        t.read()
        after = t.session.state.current()
        assert after != hero
        assert levels(factory) == {s: 1.0 if s == t.gadget.playing.seats[after] else 0.0
                                   for s in PINS}
    finally:
        t.close()


# --------------------------------------------------------------------------- no ids


def test_no_screen_of_a_whole_clank_game_shows_an_id(store: Path) -> None:
    """Every screen of the scripted game (pack_tour.play_clank: cubes, rewards, Medusa, the
    Sphinx, a TROPHY card, look-ups, the tally) names spaces, rewards and rooms by their
    names, never by their ids ("mad-bazaar/showcase", "heal-1")."""
    tables = [Table(store, seed=SEED)]

    def reopen() -> Table:
        tables[-1].close()
        tables.append(Table(store, seed=SEED))
        return tables[-1]

    t = pack_tour.play_clank(tables[0], Album(tables[0]), reopen)
    data = t.session.state.data
    ids = {*data.rooms, *data.spaces, *data.monsters, *data.cards,
           "heal-1", "heal-2", "big-secret", "wayside-shrine"}
    pattern = re.compile(r"(?<![\w/-])(" + "|".join(map(re.escape, sorted(ids, key=len,
                                                                             reverse=True)))
                         + r")(?![\w/-])")
    screens = [s for table in tables for s in table.shown]
    assert len(screens) > 100
    seen = [(found, screen) for screen in screens
            for found in pattern.findall(" ".join([screen.title, screen.key, *screen.lines,
                                                   *screen.options]))
            if "-" in found or "/" in found]
    assert seen == []
    t.close()


# --------------------------------------------------------------------------- Runebound's glass


def test_runebound_the_gadget_s_trading_dice_say_their_faces_and_matches(store: Path) -> None:
    """With the gadget's trading dice, the trading pool's page says the faces it rolled and
    counts the matches of those faces (never "0 matches" with nothing rolled)."""
    t = runebound_in_play(Table(store, seed=SEED), trading="The gadget's!")
    hero = t.session.state.heroes[t.session.state.current()]
    pack_tour.menu(t, "Trading pool")
    t.number(3)
    t.number(0)
    pages = t.read()
    step = next(s for s in t.session.runner.trace if s.kind == "trading_pool")
    faces = {f.id: f for f in t.session.state.data.faces}
    rolled = step.data["faces"]
    assert len(rolled) == 3 and step.data["by"] == "gadget"
    matches = sum(1 for f in rolled if hero.terrain in faces[f].terrain)
    assert step.data["matches"] == matches
    assert pages[0].key == f"{matches} match" + ("" if matches == 1 else "es")
    said = " ".join(" ".join(p.lines) for p in pages)
    shown = "; ".join(" + ".join(faces[f].terrain) for f in rolled)
    assert f"the gadget rolled {shown}" in " ".join(said.split())


def test_runebound_s_game_over_screen_says_who_won_in_words(store: Path) -> None:
    """The scripted game to Hero 1's victory: the last screen names the winner and the
    points, and no screen shows a result's id ("victory") as a label."""
    tables = [Table(store, seed=SEED)]

    def reopen() -> Table:
        tables[-1].close()
        tables.append(Table(store, seed=SEED))
        return tables[-1]

    t = pack_tour.play_runebound(tables[0], Album(tables[0]), reopen)
    assert t.session.state.over is not None and t.session.state.over.reason == "victory"
    assert (t.screen.title, t.screen.key) == ("Game over", "Game over")
    assert "Hero 1 wins" in t.screen.lines and "13 victory points and a" in t.screen.lines
    ids = {"victory", "no_curses_left", "hero-1", "hero-2"}
    labels = [(word, s) for table in tables for s in table.shown
              for word in (s.title, s.key, *s.lines, *s.options) if word.lower() in ids]
    assert labels == []
    t.close()
