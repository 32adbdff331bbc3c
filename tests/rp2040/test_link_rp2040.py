"""The link's end-to-end tests (tests/e2e/test_link_e2e.py), the same ones, against the firmware on
MicroPython's rp2 port on an emulated RP2040 (this folder's conftest.py gives them its board)."""

import random

from overseer.devices.pico_link import PicoLink
from overseer.devices.rp2040_pico import Rp2040Pico
from tests.e2e.test_link_e2e import *  # noqa: F403


def test_frames_go_without_retransmission(board: Rp2040Pico, link: PicoLink) -> None:
    """The host's retransmit timeout (80 ms of the board's time) is above the longest ACK wait
    the rp2 port has in normal operation: whole frames and one-chunk changes, each the moment
    the last was acknowledged, never go twice."""
    rng = random.Random(22)
    frame = rng.randbytes(1024)
    for i in range(6):
        frame = rng.randbytes(1024) if i % 2 else bytes(64) + frame[64:]
        assert link.wait_shown(link.show(frame), timeout=10)
    assert board.wait_oled(lambda glass: glass == frame, timeout=10) == frame
    assert link.stats.retransmits == 0
