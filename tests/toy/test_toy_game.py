"""The toy fifth game (tests/toy/game.py), plugged in with one registry line, plays through the
same house as the four: on the gadget (the buttons, the controller, a tapped card), on the
simulator's card reader, and with the tag commands."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from overseer import games
from overseer.cli import main
from overseer.devices.tags import CardRef, TagMap, cards
from overseer.sim.cards import Card, catalogue, find
from tests.devices.test_tag_commands import Hand, blank, names
from tools.table import OK, Table

pytestmark = pytest.mark.usefixtures("plugged")


def toy_game(store: Path, goal: int = 2) -> Table:
    """A new toy game begun on the gadget's own questions."""
    t = Table(store)
    assert t.screen.title == "Which game?" and "Toy" in t.screen.rows
    t.pick("Toy")
    assert t.screen.title == "How many coins?"
    t.number(goal)
    t.read()
    return t


def test_the_toy_is_a_registered_game_like_the_four():
    assert list(games.GAMES)[-1] == "toy" and games.get("toy").table.game == "toy"


def test_it_plays_on_the_buttons_and_a_tapped_card(tmp_path: Path):
    t = toy_game(tmp_path / "games.db")
    assert t.session.game == "toy" and t.session.state.goal == 2
    assert t.screen.key == "Toy" and "0 of 2 coins taken" in t.screen.lines
    assert t.press(OK).title == "Menu" and t.screen.rows[0] == "Take a coin"
    t.pick("Take a coin")
    assert t.screen.title == "Which coin?"
    assert t.screen.rows == ("Gold coin", "Silver coin", "Copper coin")
    t.pick("Gold coin")
    t.read()
    assert t.session.state.taken == ["gold"]
    t.tap("coin", "gold", game="toy")  # taken already: said, nothing changes
    assert "taken already" in " ".join(t.screen.lines)
    t.read()
    assert t.session.state.taken == ["gold"]
    t.tap("coin", "silver", game="toy")  # with no question waiting: takes it
    t.read()
    assert t.session.state.taken == ["gold", "silver"] and t.session.finished
    t.close()


def test_a_game_resumes_after_a_restart(tmp_path: Path):
    t = toy_game(tmp_path / "games.db", goal=3)
    t.tap("coin", "copper", game="toy")
    t.read()
    game = t.session.id
    t.close()
    again = Table(tmp_path / "games.db")
    assert again.session.id == game and again.session.state.taken == ["copper"]
    again.close()


def test_the_simulators_reader_shows_its_cards_and_reads_them(tmp_path: Path):
    coins = [c for c in catalogue() if c.game == "toy"]
    assert coins == [Card("toy", "coin", "gold", "Gold coin"),
                     Card("toy", "coin", "silver", "Silver coin"),
                     Card("toy", "coin", "copper", "Copper coin")]
    assert find("silver coin", catalogue()) == coins[1]
    from overseer.sim.reader import EmulatedReader

    try:
        reader = EmulatedReader()
    except Exception as err:  # noqa: BLE001 - nfcpy's libusb missing: the reader cannot run
        pytest.skip(f"no emulated reader here: {err}")
    t = toy_game(tmp_path / "games.db")
    reader.start(t.gadget.inbox)
    try:
        reader.tap("toy", "coin", "copper")
        deadline = time.monotonic() + 10
        while reader.said == 0:
            assert time.monotonic() < deadline, "the reader put nothing"
            time.sleep(0.02)
        t._take()  # what the reader put: a tap of the copper coin
        t.read()
        assert t.session.state.taken == ["copper"]
    finally:
        reader.close()
        t.close()


def test_its_cards_get_tags_with_the_tag_commands(monkeypatch, tmp_path: Path):
    from overseer.devices.pn532_emulator import PtyPn532

    assert cards("toy") == [(CardRef("toy", "coin", c), n) for c, n in
                            (("gold", "Gold coin"), ("silver", "Silver coin"),
                             ("copper", "Copper coin"))]
    with PtyPn532() as emulator:
        hand = Hand(emulator, [blank(n) for n in range(3)])
        monkeypatch.setattr("sys.stdout", hand)
        assert main(["tags", "write", "toy", "--port", emulator.path]) == 0
        monkeypatch.undo()
    assert [names(tag) for tag in hand.used] == [b"1 toy coin gold", b"1 toy coin silver",
                                                 b"1 toy coin copper"]
    db = tmp_path / "games.sqlite3"
    assert main(["tags", "register", "toy", "coin", "gold", "--uid", "04112233445566",
                 "--db", str(db)]) == 0
    assert TagMap(tmp_path / "tags.toml").get("04112233445566") == CardRef("toy", "coin", "gold")
    assert main(["tags", "register", "toy", "coin", "platinum", "--uid", "04112233445567",
                 "--db", str(db)]) == 2
