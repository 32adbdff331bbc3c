"""A whole Catacombs game through the virtual Pico: the real firmware (MicroPython over a pty when
it is installed, else CPython with the firmware's shims; see conftest.py) and the real protocol,
the Pico's device face and the gadget's shell, played by pressing the board's buttons.

The game is the one tests/app/test_gadget_game.py plays through the inbox (the same presses,
seed and answers): a new game of two heroes and the Monstrosity campaign, the first room set up
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
failure). About 300 presses on the board, each a pin held 50 ms (800 ms for BACK held) and the
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
from pico_table import BACK, CHOICE, NEXT, OK, PicoTable
from PIL import Image, ImageChops

from overseer.devices.virtual_pico import VirtualPico
from overseer.rules.procedure import ChooseSome, DrawToken, Roll
from overseer.screens.render import Screen

SEED = 11
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


# ---------------------------------------------------------------------- the table's moves
# (as tests/app/test_gadget_game.py makes them on the in-memory gadget)


def keys(pages: list[Screen]) -> list[str]:
    return [p.key for p in pages if p.key]


def answer(table: PicoTable) -> str:
    """The first option, yes, the number as it stands; the question's key."""
    question = table.session.pending
    assert question is not None and table.screen.mark == "?", table.screen
    if isinstance(question, ChooseSome):
        table.press(NEXT)
    elif isinstance(question, Roll | DrawToken):
        raise AssertionError(f"the gadget rolls and draws in this game: {question}")
    else:
        table.press(OK)
    return question.key


def ai_turn(table: PicoTable) -> tuple[list[Screen], list[str]]:
    """NEXT AI PIECE and everything it shows and asks, until the heroes' turn."""
    table.press(NEXT)
    pages, asked = [], []
    while True:
        pages += table.read()
        if table.session.pending is None:
            return pages, asked
        asked.append(answer(table))


def heroes_side(table: PicoTable, *choices: str, amount: int | None = None) -> list[Screen]:
    """From the idle screen: the menu, then each choice in turn (and a number)."""
    table.press(OK)
    assert table.screen.title == "Menu", table.screen
    for label in choices:
        if table.screen.number is not None and amount is not None:
            table.number(amount)
        table.pick(label)
    return table.read()


def party_of_two(table: PicoTable) -> None:
    """The Elf (tapped) on seat 1 and Hero 1 on seat 3."""
    table.choose_game()
    table.tap("hero", "elf")
    table.pick("Seat 1")
    table.number(10)
    table.pick("Hero 1")
    table.pick("Seat 3")
    table.number(8)
    table.pick("Done")


def new_campaign(table: PicoTable) -> list[Screen]:
    party_of_two(table)
    for _ in range(4):  # line of sight open, no advanced targeting, the gadget's tokens and
        table.press(OK)  # poison cards
    table.pick("The gadget's")  # dice (the Pico's are offered first on a box with a Pico)
    table.press(NEXT)  # no expansion playmat
    table.pick("On")  # the Hidden Cave
    table.pick("Monstrosity")
    return table.read()


def enter_room(table: PicoTable, room: str, monsters: list[tuple[str, str, int]], spell: str,
               gold: int) -> None:
    """Set up the campaign's stage room, its card entered monster by monster."""
    heroes_side(table, "Set up a room", f"{room} (enter)")
    for group, monster, count in monsters:
        table.pick(group)
        table.pick(monster)
        table.number(count)
    table.pick("Done")
    table.press(NEXT)  # no Suppresses box
    table.pick("None: roll")  # no playmat named on the card
    table.pick(spell)
    table.number(gold)


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
        assert keys(heroes_side(table, "Next stage")) == ["Glaaoth"]
        enter_room(table, "Glaaoth", [("Infernal .. Phantom", "Orc", 2),
                                      ("Infernal .. Phantom", "Minotaur", 1)], "No", 2)
        setup = table.read()
        assert {p.title for p in setup} == {"Setup", "Question"} and keys(setup)[0] == "Glaaoth"
        assert table.screen.title == "Vacant runes?"  # vacant runes in the Start Zone
        table.number(2)
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
        assert table.screen.key == "Minotaur"
        shots.check(table, "active-minotaur")
        pages = table.read()
        shots.check(table, "question-closest")
        asked = [answer(table)]
        while True:
            pages += table.read()
            if table.session.pending is None:
                break
            asked.append(answer(table))
        assert asked == ["closest", "template"] and "Elf" in keys(pages)
        assert table.screen.key == "Heroes' turn" and table.leds.modes[1] == "on"
        shots.check(table, "heroes-turn")
        # The heroes' side: the Elf hits the Minotaur (health 2) for 1.
        assert keys(heroes_side(table, "Hit an AI piece", "Minotaur", "Elf",
                                amount=1)) == ["Minotaur -1"]
        assert table.session.state.pieces["minotaur-1"].health == 1

        # Orc A; then Orc B: the host restarts while its question is on the glass.
        pages, asked = ai_turn(table)
        assert keys(pages)[0] == "Orc A" and asked[0] == "first_by_direction"
        table.press(NEXT)
        before, question = table.read(), table.screen
        assert keys(before)[0] == "Orc B" and question.mark == "?"
        frame = board.oled()
        latencies += table.latencies
        table.close()
        assert board.running and board.oled() == frame  # the board runs on, the frame stays
        table = PicoTable(board, store, SEED)
        shots.check(table, "resume-first")  # the last action's steps again, from the first
        assert table.read() == before and table.screen == question  # the same screens again
        assert board.oled() == frame  # and the question is on the board as it was
        answer(table)
        while table.session.pending is not None:
            table.read()
            answer(table)
        table.read()

        # Hero 1 destroys Orc A: its gold; undone (long BACK) and redone (CHOICE).
        kill = heroes_side(table, "Hit an AI piece", "Orc A", "Hero 1", amount=1)
        assert keys(kill)[:3] == ["Orc A -1", "Orc A down", "+1 gold"]
        assert table.session.state.heroes["hero-1"].gold == 1
        table.press(BACK, long=True)
        assert table.screen.key == "Undone"
        shots.check(table, "undone")
        assert table.session.state.pieces["orc-1"].alive
        assert table.session.state.heroes["hero-1"].gold == 0
        table.press(CHOICE)  # redo
        table.read()
        assert not table.session.state.pieces["orc-1"].alive
        assert table.session.state.heroes["hero-1"].gold == 1

        # Round 2 begins with the next NEXT AI PIECE.
        pages, _ = ai_turn(table)
        assert keys(pages)[0] == "Round 2"
        # The Elf's health, by the form: two presses down from where it stands.
        health = table.session.state.heroes["elf"].health
        table.press(OK)
        table.pick("Hero changed")
        table.tap("hero", "elf")
        table.pick(f"Health {health}")
        assert table.screen.number == health
        table.number(health - 2)
        assert keys(table.read()) == ["Elf"]
        assert table.session.state.heroes["elf"].health == health - 2

        # The party screen.
        table.press(OK)
        table.pick("Party")
        shots.check(table, "party")
        party = table.read()
        assert keys(party) == ["Elf", "Hero 1"] and party[-1].lines == ("Minotaur: 1",
                                                                         "Orc B: 1")

        # The Elf destroys the rest: the room is won.
        heroes_side(table, "Hit an AI piece", "Orc B", "Elf", amount=1)
        end = heroes_side(table, "Hit an AI piece", "Elf", amount=1)  # the Minotaur, the last
        assert keys(end)[-1] == "Room won" and end[-1].title == "Battle over"
        assert table.screen.key == "Room won"
        shots.check(table, "room-won")
        table.press(OK)
        table.pick("Room rewards")
        assert table.screen.key == "+2 gold"
        shots.check(table, "reward")
        assert keys(table.read()) == ["+2 gold"]

        # The campaign's second room.
        assert keys(heroes_side(table, "Next stage")) == ["Ehanostha"]
        enter_room(table, "Ehanostha", [("Venomous .. Zombie", "Zombie", 1)], "Yes", 0)
        assert keys([p for p in table.read() if p.title.startswith("Place")]) == ["Zombie"]
        pages, asked = ai_turn(table)
        assert keys(pages)[0] == "Zombie" and asked
        end = heroes_side(table, "Hit an AI piece", "Elf", amount=1)
        assert keys(end)[-1] == "Room won"
        table.press(OK)
        table.pick("Room rewards")
        table.read()
        table.pick("Elf")  # the Spell card: which hero can use it
        assert keys(table.read()) == ["Spell card"]

        # The end of the game, and its summary.
        assert keys(heroes_side(table, "End the game")) == ["Game over"]
        assert table.screen.key == "Game over" and table.session.finished
        shots.check(table, "game-over")
        table.press(OK)
        table.pick("Summary")
        shots.check(table, "summary")
        summary = table.read()
        elf = table.session.state.heroes["elf"]
        assert summary[0].lines[0] == f"Health {elf.health}  Gold 6"

        state = table.session.state_dict()
        # Gold: the Elf destroyed Orc B (1), the Minotaur (2) and the Zombie (1) and took the
        # Glaaoth reward (2); Hero 1 destroyed Orc A (1) and took the reward (2).
        assert {h: v["gold"] for h, v in state["heroes"].items()} == {"elf": 6, "hero-1": 3}
        adventure = state["adventure"]
        assert adventure["stage"] == 2 and adventure["spells"] == {"elf": ["a Spell card"]}
        assert set(adventure["entered"]["rooms"]) == {"glaaoth", "ehanostha"}
        assert adventure["over"].startswith("the game is over")
        assert [s.key for s in table.shown if s.inverse_key] == ["Undone"]  # since restart
        latencies += table.latencies
        ms = sorted(s * 1000 for s in latencies)
        print(f"\n{len(ms)} presses, inbox to frame on the OLED: p50 "
              f"{statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms; "
              f"{table.retries} presses again; the board: {board.interpreter}")
        shots.done()
    finally:
        table.close()
