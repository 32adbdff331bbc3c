"""The gadget through the firmware on MicroPython's rp2 port on the emulated RP2040: the first
screens (tests/e2e/test_gadget_pico.py's test, unchanged) and, as a long run, a whole room of the
scripted campaign game. The key screens read back off the emulated panel must equal the Unix
port's pictures in tests/e2e/ref/ pixel for pixel: the same frames for the same presses."""

from __future__ import annotations

from pathlib import Path

import pytest

from overseer.devices.rp2040_pico import Rp2040Pico
from tests.drivers import catacombs_table as play
from tests.drivers.catacombs_table import SEED, answer, answer_all, heroes_side, keys, new_campaign
from tests.drivers.pico_table import NEXT, OK, PicoTable
from tests.e2e.test_gadget_pico import Shots, host, store, test_the_first_screens_through_the_pico

__all__ = ["host", "store", "test_the_first_screens_through_the_pico"]


@pytest.mark.long
def test_a_room_through_the_gadget_on_the_rp2_port(board: Rp2040Pico, store: Path,
                                                   tmp_path: Path) -> None:
    shots = Shots(tmp_path)
    table = PicoTable(board, store, SEED)
    original = table.press

    def press(*args, **kwargs):  # each press and where it led, for a failure's report
        screen = original(*args, **kwargs)
        print(f"{args} -> {screen.title}: {screen.rows[screen.cursor] if screen.rows else ''}"
              f" (pressed again so far: {table.retries})")
        return screen

    table.press = press  # type: ignore[method-assign]
    try:
        table.choose_game()
        shots.check(table, "new-who")
        new_campaign(table)
        shots.check(table, "idle-setup")
        play.first_stage(table)
        placed = []
        while table.gadget.app is not None and table.gadget.app.reading:
            page = table.screen
            if page.title.startswith("Place piece"):
                placed.append(page)
                if page.key == "Orc A":
                    shots.check(table, "place-orc-a")
            table.press(OK)
        assert keys(placed) == ["Minotaur", "Orc A", "Orc B"]
        assert table.screen.key == "Battle" and table.screen.title == "Glaaoth"
        shots.check(table, "idle-battle")
        table.press(NEXT)
        assert table.screen.title == "Closest to Minotaur?"
        shots.check(table, "question-closest")
        asked = [answer(table)]
        assert table.screen.title == "Minotaur" and table.screen.key == "Elf"
        shots.check(table, "target")
        while True:
            table.read()
            if table.session.pending is None:
                break
            asked.append(answer(table))
        assert asked == ["closest", "template"]
        shots.check(table, "heroes-turn")
        assert keys(heroes_side(table, "Hit an AI piece", "Minotaur",
                                amount=1)) == ["Minotaur -1"]
        play.orc_b_asks(table)
        answer_all(table)
        play.orc_a_destroyed_and_undone(table)
        shots.check(table, "undone")
        play.redone_and_round_2(table)
        play.first_room_won(table)
        shots.check(table, "room-won")
        print(f"\n{len(table.latencies)} presses on the rp2 port")
        shots.done()
    finally:
        table.close()
