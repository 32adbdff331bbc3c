"""A whole Catacombs game through the virtual Pico: the real firmware (MicroPython over a pty when
it is installed, else CPython with the firmware's shims; see conftest.py) and the real protocol,
the Pico's device face and the gadget's shell, played by pressing the board's buttons.

The game is the one tests/app/test_gadget_game.py plays through the inbox (the same presses,
seed and answers, from tests/drivers/catacombs_table.py): a new game of two heroes and the Monstrosity campaign, the first room set up
and placed, two rounds with questions and the heroes' side (a hit, kills paying gold), an undo
(BACK held) and redo, the host restarted in the middle (the Gadget and the link closed, a new
Gadget on the same store and a new Pico face; the board runs on) and resumed, the end of the
battle, rewards, the campaign's second room, the end of the game. The dice are the gadget's
(seeded), so the game is the same on every run; the Pico's own dice are tried in
test_pico_face_e2e.py and tests/sim/test_app.py.

After every press the board's OLED RAM must hold the frame the gadget rendered last (pico_table
waits for it, up to 10 s). The key screens, read back off the board's OLED, must equal the
reference pictures in tests/e2e/ref/ pixel for pixel. When a screen's look changes on purpose,
look at the new pictures and write them as the references:

    OVERSEER_REGEN_E2E=1 scripts/test -m long tests/e2e/test_gadget_pico.py

(a failing comparison leaves the picture the board showed in the test's tmp_path, named in the
failure). About 300 presses on the board, each a pin held 20 ms (800 ms for BACK held) and the
frame it brings back over the link (p50 30 ms): 24 s of waiting at the least, 55 s measured
with the two cores shared (a load average of 15), more than the normal suite's budget for one
test (about 30 s), so the whole game is a long run (``-m long``); ``test_the_first_screens_through_the_pico``
runs by default, and tests/app/test_gadget_game.py plays the same game through the inbox.
"""

from __future__ import annotations

import os
import statistics
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from overseer.devices.virtual_pico import VirtualPico
from tests.drivers import catacombs_table as play
from tests.drivers.catacombs_table import SEED, answer, answer_all, heroes_side, keys, new_campaign
from tests.drivers.pico_table import CHOICE, NEXT, OK, PicoTable

REF = Path(__file__).parent / "ref"
REGEN = os.environ.get("OVERSEER_REGEN_E2E") == "1"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def host(board: VirtualPico, store: Path) -> Iterator[PicoTable]:
    table = PicoTable(board, store, SEED)
    yield table
    table.close()


class Shots:
    """The board's OLED at the key screens, against tests/e2e/ref/NAME.png."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.names: list[str] = []
        self.differ: list[str] = []

    def check(self, table: PicoTable, name: str) -> None:
        assert name not in self.names, f"two shots named {name}"
        self.names.append(name)
        image = table.oled()
        path = REF / f"{name}.png"
        if REGEN:
            REF.mkdir(exist_ok=True)
            image.save(path)
        assert path.exists(), f"no reference {path.name}: run with OVERSEER_REGEN_E2E=1"
        reference = Image.open(path).convert("1")
        if reference.size != image.size or ImageChops.difference(
                image.convert("L"), reference.convert("L")).getbbox() is not None:
            image.save(self.out / f"{name}.actual.png")
            self.differ.append(name)

    def done(self) -> None:
        assert not self.differ, (f"the board showed other pixels than tests/e2e/ref/ at "
                                 f"{self.differ} (the pictures it showed: {self.out})")


# ---------------------------------------------------------------------- the tests


def test_the_first_screens_through_the_pico(host: PicoTable, tmp_path: Path) -> None:
    """The new game's first question on the board, a hero tapped, its seat chosen by CHOICE
    and OK, BACK back to it: each frame on the OLED as the gadget drew it."""
    shots = Shots(tmp_path)
    assert host.screen.title == "New game" or host.screen.mark == "?"
    host.choose_game()
    shots.check(host, "new-who")
    host.tap("hero", "elf")
    rows = host.screen.rows
    assert "Seat 1" in rows and rows[host.screen.cursor] == "Seat 1"
    host.press(CHOICE)
    assert host.screen.rows[host.screen.cursor] == rows[(rows.index("Seat 1") + 1) % len(rows)]
    host.press(CHOICE, times=len(rows) - 1)
    assert host.screen.rows[host.screen.cursor] == "Seat 1"  # round the list
    host.pick("Seat 1")
    assert host.screen.number == 10  # the Elf's health, starting value
    shots.check(host, "new-health")
    shots.done()


def test_next_is_on_the_glass_before_the_host_takes_the_press(host: PicoTable) -> None:
    """On a screen where NEXT begins the next AI piece the gadget has sent NEXT's screen ahead
    (FRAME_ARM): pressed, the board puts it up before the host has even taken the press; the
    host's screen after the press is that one, and nothing else is written to the panel."""
    host.choose_game()
    new_campaign(host)
    play.first_stage(host)
    host.read()
    assert host.screen.lines[:1] == ("NEXT: next AI piece",)
    armed = host.gadget.ahead
    assert armed is not None and host.pico.link.wait_sent(10.0)
    shown = host.board.oled()
    host._push(NEXT, long=False)
    assert host.board.wait_oled(lambda frame: frame == armed, 10.0) == armed
    assert host.gadget.screen is not None and host.gadget.screen.lines[:1] == \
        ("NEXT: next AI piece",)  # the host has not acted on the press yet
    assert shown != armed
    host.press_taken()
    assert host.settle() == armed and host.gadget.ahead_missed == 0
    assert host.screen.mark == "?"  # NEXT's first screen: the Minotaur's question


@pytest.mark.long
def test_a_whole_campaign_game_through_the_pico(board: VirtualPico, store: Path,
                                                 tmp_path: Path) -> None:
    shots = Shots(tmp_path)
    table = PicoTable(board, store, SEED)
    latencies: list[float] = []
    try:
        # A new game: the Hidden Cave and the campaign begin it.
        table.choose_game()
        shots.check(table, "new-who")
        assert keys(new_campaign(table)) == ["Hidden Cave", "Hidden Cave", "Monstrosity",
                                             "Campaign Lord"]
        assert table.screen.key == "Set up"
        shots.check(table, "idle-setup")
        assert table.session.state.adventure.campaign == "monstrosity"

        # The first stage; its room entered off the card; the setup rolls, lays, places.
        play.first_stage(table)
        placed = []
        while table.gadget.app is not None and table.gadget.app.reading:
            page = table.screen
            if page.title.startswith("Place piece"):
                placed.append(page)
                if page.key == "Orc A":
                    shots.check(table, "place-orc-a")
            table.press(OK)
        assert keys(placed) == ["Minotaur", "Orc A", "Orc B"]  # identical monsters lettered
        assert table.screen.key == "Battle" and table.screen.title == "Glaaoth"
        shots.check(table, "idle-battle")

        # Round 1, the Minotaur: it targets the Elf (seat 1 lights), the table answers.
        table.press(NEXT)
        assert table.screen.title == "Closest to Minotaur?"  # the question names the piece
        shots.check(table, "question-closest")
        asked = [answer(table)]
        assert table.screen.title == "Minotaur" and table.screen.key == "Elf"
        shots.check(table, "target")  # who acts at whom, its shots and its move
        pages = []
        while True:
            pages += table.read()
            if table.session.pending is None:
                break
            asked.append(answer(table))
        assert asked == ["closest", "template"] and "Elf" in keys(pages)
        assert table.screen.key == "Heroes' turn" and table.leds.modes[1] == "on"
        shots.check(table, "heroes-turn")
        # The heroes' side: the Elf hits the Minotaur (health 2) for 1.
        assert keys(heroes_side(table, "Hit an AI piece", "Minotaur",
                                amount=1)) == ["Minotaur -1"]
        assert table.session.state.pieces["minotaur-1"].health == 1

        # Orc A; then Orc B: the host restarts while its question is on the glass.
        before, question = play.orc_b_asks(table)
        frame = board.oled()
        latencies += table.latencies
        table.close()
        assert board.running and board.oled() == frame  # the board runs on, the frame stays
        table = PicoTable(board, store, SEED)
        shots.check(table, "resume-first")  # the last screen the table saw, as it was
        assert table.screen == question and table.read() == []
        assert board.oled() == frame  # and the question is on the board as it was
        answer_all(table)

        # Hero 1 destroys Orc A: its gold; undone (long BACK) and redone (CHOICE).
        play.orc_a_destroyed_and_undone(table)
        shots.check(table, "undone")
        # Round 2 begins with the next NEXT AI PIECE; the Elf's health, by the form: two
        # presses down from where it stands.
        play.redone_and_round_2(table)

        # The party screen.
        table.press(OK)
        table.pick("Party")
        shots.check(table, "party")
        party = table.read()
        assert keys(party) == ["Elf", "Hero 1"] and party[-1].lines == ("Minotaur: 1",
                                                                         "Orc B: 1")

        # The Elf destroys the rest: the room is won.
        play.first_room_won(table)
        shots.check(table, "room-won")
        table.press(OK)
        table.pick("Room rewards")
        assert table.screen.key == "+2 gold"
        shots.check(table, "reward")
        assert keys(table.read()) == ["+2 gold"]

        # The campaign's second room.
        play.second_stage(table)

        # The end of the game, and its summary.
        assert keys(heroes_side(table, "End the game", "Yes")) == ["Game over"]
        assert table.screen.key == "Game over" and table.session.finished
        shots.check(table, "game-over")
        table.press(OK)
        table.pick("Summary")
        shots.check(table, "summary")
        summary = table.read()
        play.the_game_as_it_ended(table, summary)
        assert [s.key for s in table.shown if s.inverse_key] == ["Undone"]  # since restart
        assert table.gadget.ahead_missed == 0  # every NEXT showed the screen armed for it
        latencies += table.latencies
        ms = sorted(s * 1000 for s in latencies)
        print(f"\n{len(ms)} presses, inbox to frame on the OLED: p50 "
              f"{statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms; "
              f"{table.retries} presses again; the board: {board.interpreter}")
        shots.done()
    finally:
        table.close()
