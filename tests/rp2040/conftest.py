"""Fixtures for the tests on the emulated RP2040: the firmware on MicroPython's rp2 port
(``devices.rp2040_pico.Rp2040Pico``), PicoLink on its pty timed by the board's clock.

Skipped, with the reason, where the UF2 (``OVERSEER_RP2_UF2`` or ../shared/pico-emu/), node or
the harness's npm packages (``npm ci`` in tools/rp2040) are missing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from overseer.devices.pico_link import PicoLink
from overseer.devices.rp2040_pico import Rp2040Pico, missing
from tests.drivers.virtual import Events, bad_exits, board_failed

READY_TIMEOUT = 30.0  # on the board's clock (the link's): the boot takes ~0.3 s of it


@pytest.fixture
def board() -> Iterator[Rp2040Pico]:
    why = missing()
    if why:
        pytest.skip(why)
    pico = Rp2040Pico()
    with pico:
        yield pico
        assert not bad_exits(pico), board_failed(pico)


@pytest.fixture
def events(board: Rp2040Pico) -> Events:
    return Events(board.clock)  # waits on the board's time, as the link does


@pytest.fixture
def link(board: Rp2040Pico, events: Events) -> Iterator[PicoLink]:
    with PicoLink(board.port, events.put, clock=board.clock) as link:
        try:
            link.wait_ready(timeout=READY_TIMEOUT)
        except TimeoutError:
            pytest.fail(board_failed(board))
        yield link
