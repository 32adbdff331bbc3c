"""A whole Clank! game through the virtual Pico: the real firmware at the far end of a pty and
the real protocol, the Pico's device face and the gadget's shell, played by pressing the
board's buttons. The game is the scripted one of tools/pack_tour.py (tests/app/test_pack_games.py
plays it through the inbox): the setup, Temple offerings (a second one and an occupied column
refused on the glass), Medusa, an undo (BACK held), the host restarted in the middle (the
Gadget and the link closed, a new Gadget on the same store; the board runs on) and resumed,
the Sphinx, a TROPHY card the data lacks, a tapped room card's look-up and the end of the game.
After every press the board's OLED RAM must hold the frame the gadget rendered last
(pico_table). About 200 presses: a long run (``-m long``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from overseer.devices.virtual_pico import VirtualPico
from tests.drivers.pico_table import PicoTable
from tools import pack_tour
from tools.table import Album

SEED = 11


@pytest.mark.long
def test_a_whole_clank_game_through_the_pico(board: VirtualPico, tmp_path: Path) -> None:
    store = tmp_path / "games.db"
    tables = [PicoTable(board, store, SEED)]

    def reopen() -> PicoTable:
        tables[-1].close()
        tables.append(PicoTable(board, store, SEED))
        return tables[-1]

    try:
        album = Album(tables[0])  # type: ignore[arg-type]
        table = pack_tour.play_clank(tables[0], album, reopen)
        assert table.session.finished
        assert table.session.state_dict()["over"]["totals"] == {"P1": 3, "P2": 1}
        assert len(tables) == 2
        assert table.screen.key == "Game over"
        assert table.oled().tobytes() == table.glass.sent.convert("1").tobytes()
    finally:
        tables[-1].close()


def test_the_first_clank_screens_through_the_pico(board: VirtualPico, tmp_path: Path) -> None:
    """Which game, how many players, the variant: the board shows each frame the gadget
    drew (a short run, by default)."""
    table = PicoTable(board, tmp_path / "games.db", SEED)
    try:
        assert table.screen.title == "Which game?"
        table.choose_game("Clank!")
        assert table.screen.title == "How many players?"
        table.number(2)
        assert table.screen.rows == ("Off", "On: first game")
        assert table.oled().tobytes() == table.glass.sent.convert("1").tobytes()
    finally:
        table.close()
