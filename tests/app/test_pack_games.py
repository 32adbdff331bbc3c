"""Clank! and Runebound played on the Gadget from the new game's questions to the end, by
pressing its buttons (the scripts of tools/pack_tour.py): undo, a restart, and each kind of bad
input the table may give, refused with a message and nothing changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from overseer.app import clank, runebound
from overseer.rules.clank.records import REWARD_PARTS
from tools import pack_tour
from tools.table import BACK, NEXT, OK, Album, Table

SEED = 11


class Played:
    """A store and the tables opened on it, one after the other."""

    def __init__(self, store: Path) -> None:
        self.store = store
        self.tables = [Table(store, seed=SEED)]
        self.album = Album(self.tables[0])

    def reopen(self) -> Table:
        self.tables[-1].close()
        self.tables.append(Table(self.store, seed=SEED))
        return self.tables[-1]


@pytest.fixture
def played(tmp_path: Path):
    game = Played(tmp_path / "games.db")
    yield game
    game.tables[-1].close()


def shot(played: Played, name: str):
    return next(s.screen for s in played.album.shots if s.name == name)


def test_a_whole_clank_game_through_the_gadget(played: Played) -> None:
    t = pack_tour.play_clank(played.tables[0], played.album, played.reopen)
    state = t.session.state_dict()
    assert t.session.finished and state["over"]["totals"] == {"P1": 3, "P2": 1}
    assert len(played.tables) == 2  # restarted once, the game resumed
    assert shot(played, "clank-resumed").key == "P2's turn"
    assert shot(played, "clank-undone").key == "Undone"
    assert state["players"]["P1"]["offering"] == 5 and state["players"]["P2"]["offering"] == 3
    assert shot(played, "clank-second-offering").key == "Not taken"
    assert t.screen.key == "Game over"


def test_a_whole_runebound_game_through_the_gadget(played: Played) -> None:
    t = pack_tour.play_runebound(played.tables[0], played.album, played.reopen)
    state = t.session.state_dict()
    assert t.session.finished
    assert state["over"] == {"reason": "victory", "winner": "hero-1",
                             "points": {"hero-1": 13, "hero-2": 0}}
    assert len(played.tables) == 2
    assert shot(played, "rb-resumed").key == "Hero 1's turn"
    assert shot(played, "rb-undone").key == "Undone"
    assert t.screen.key == "Game over"


# --------------------------------------------------------------------------- bad input


def clank_at_the_temple(t: Table) -> Table:
    """Two players set up; P1 at a wayside shrine with the Temple of Gold placed."""
    t.choose_game("Clank!")
    t.number(2)
    t.pick("Off")
    t.read()
    t.pick("Yes")
    pack_tour.menu(t, "Tile placed")
    t.read()
    t.pick("Temple of Gold")
    pack_tour.menu(t, "Enter a room")
    t.pick("A wayside shrine")
    return t


def offer(t: Table, column: str) -> None:
    pack_tour.menu(t, "Place a cube")
    t.pick(column)
    t.read()
    t.pick("Yes")
    t.read()
    pack_tour.tick(t, ())
    t.read()


def test_clank_a_second_temple_offering_is_refused_on_the_glass(played: Played) -> None:
    t = clank_at_the_temple(played.tables[0])
    offer(t, "5 gold!")
    before = t.session.state_dict()
    pack_tour.menu(t, "Place a cube")
    t.pick("3 gold!")
    said = pack_tour.refused(t, before)
    assert "already made an offering" in said and "Nothing changed" in said
    assert t.screen.title == "Which space?"  # the form waits, as it was
    t.press(BACK)
    assert t.gadget.playing.forms.local is None and t.session.state_dict() == before


def test_clank_an_occupied_temple_column_is_the_table_s_call_on_the_glass(played: Played) -> None:
    t = clank_at_the_temple(played.tables[0])
    offer(t, "5 gold!")
    pack_tour.menu(t, "End the turn")
    t.read()
    pack_tour.menu(t, "Enter a room")
    t.pick("A wayside shrine")
    before = t.session.state_dict()
    pack_tour.menu(t, "Place a cube")
    t.pick("5 gold! (P1)")
    t.read()
    t.pick("Yes")  # a cube in the supply
    asked = " ".join(" ".join(page.lines) for page in t.read())
    assert "Overseer's ruling: yes" in asked
    t.pick("No")  # the table reads the column as taken
    said = " ".join(" ".join(page.lines) for page in t.read())
    assert "makes no offering" in said
    assert t.session.state.players["P2"].offering is None
    assert t.session.state_dict()["cubes"] == before["cubes"]


def runebound_in_play(t: Table, trading: str = "Our own dice") -> Table:
    """Two heroes placed (Hero 2 in Tamalir, Hero 1 in Riverwatch) with their counters; who
    rolls the trading dice: ``trading``."""
    t.choose_game("Runebound")
    t.number(2)
    t.read()
    t.pick("The gadget")
    t.read()
    t.pick(trading)
    pack_tour.menu(t, "Place a hero")
    t.pick("Tamalir")
    pack_tour.menu(t, "Place a hero")
    t.pick("Riverwatch")
    for _ in range(2):
        pack_tour.menu(t, "Quest counter")
        t.press(OK, times=2 if t.screen.title == "Who takes a counter?" else 1)
        t.read()
    t.read()
    return t


def test_runebound_a_town_with_a_figure_is_refused_on_the_glass(played: Played) -> None:
    t = played.tables[0]
    t.choose_game("Runebound")
    t.number(2)
    t.read()
    t.pick("The gadget")
    t.read()
    t.pick("Our own dice")
    pack_tour.menu(t, "Place a hero")
    t.pick("Vynelvale")
    before = t.session.state_dict()
    pack_tour.menu(t, "Place a hero")
    t.pick("Vynelvale (Hero 2)")
    said = pack_tour.refused(t, before)
    assert "already has a figure" in said


def test_runebound_curse_cards_refused_on_the_glass(played: Played) -> None:
    t = runebound_in_play(played.tables[0])
    cursed = [n for n, town in t.session.state_dict()["towns"].items()
              if town["status"] == "cursed"]
    town = cursed[0]
    pack_tour._travel(t, town)
    before = t.session.state_dict()
    pack_tour.menu(t, "Level III card")
    said = pack_tour.refused(t, before)
    assert "no Level I or II card" in said
    assert "(name not printed)" not in said  # the refusal in the glass's words: "Curse 3!"
    pack_tour.menu(t, "Level I card")
    t.read()
    t.pick("Yes")
    t.read()
    pack_tour._end_turn(t)
    pack_tour._end_turn(t)
    before = t.session.state_dict()
    pack_tour.menu(t, "Level I card")
    said = pack_tour.refused(t, before)
    assert "already has a Level I card" in said


# --------------------------------------------------------------------------- the flows


def test_next_says_the_game_has_no_ai_piece(played: Played) -> None:
    t = clank_at_the_temple(played.tables[0])
    t.read()
    before = t.session.state_dict()
    t.press(NEXT)
    assert t.screen.key == "Not now"
    assert " ".join(t.screen.lines).startswith("Clank! has no AI piece: OK opens the menu")
    assert t.session.state_dict() == before


def test_unprinted_names_are_marked_in_the_lists(played: Played) -> None:
    t = runebound_in_play(played.tables[0])
    names = runebound.labels(t.session.state)
    assert names["tamalir"] == "Tamalir" and names["forge"] == "Forge!"
    assert names["plains"] == "Plains!" and names["green"] == "Green token!"
    t.press(OK)
    t.pick("Heroes")
    pages = t.read()
    assert any("!: a placeholder" in " ".join(p.lines) for p in pages)


def test_clank_labels_fit_a_list_row_and_mark_unprinted_spaces(played: Played) -> None:
    t = clank_at_the_temple(played.tables[0])
    names = clank.labels(t.session.state)
    assert set(REWARD_PARTS) <= set(clank.ANSWERS)  # every part of a reward has a short name
    assert names["cave-bat-wings"] == "Cave Bat Wings!" and names["hoard-keeper"] == "Hoard Keeper"
    assert names["temple-of-gold/5"] == "5 gold!" and names["mad-bazaar/showcase"] == "Showcase"
    assert all(len(names[r]) <= 15 for r in t.session.state.data.rooms)


def test_a_step_on_a_placeholder_is_marked_on_the_glass(played: Played) -> None:
    t = played.tables[0]
    t.choose_game("Runebound")
    t.number(2)
    t.read()
    t.pick("The gadget")
    t.read()
    t.pick("Our own dice")
    t.read()
    pack_tour.menu(t, "Place a hero")
    t.pick("Forge!")
    placed = t.read()
    assert [p.mark for p in placed if p.key == "Forge!"] == ["!"]  # the book names no Forge
    pack_tour.menu(t, "Place a hero")
    t.pick("Tamalir")
    pages = t.read()
    assert [p.mark for p in pages if p.key == "Tamalir" and p.title == "Hero 1"] == [""]
    reveals = [p for p in pages if p.title == "Setup" and p.key and p.key != "To do"]
    assert reveals and all(p.mark == "!" for p in reveals)  # the counters are a guess
