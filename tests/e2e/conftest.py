"""Fixtures for host-firmware tests: the real firmware on a virtual Pico, PicoLink on its pty."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from overseer.devices.pico_link import PicoLink
from overseer.devices.virtual_pico import VirtualPico
from tests.drivers.virtual import Events, bad_exits, board_failed, interpreter


@pytest.fixture
def board() -> Iterator[VirtualPico]:
    pico = VirtualPico(interpreter=interpreter())
    with pico:
        yield pico
        assert not bad_exits(pico), board_failed(pico)


@pytest.fixture
def events() -> Events:
    return Events()


@pytest.fixture
def link(board: VirtualPico, events: Events) -> Iterator[PicoLink]:
    with PicoLink(board.port, events.put) as link:
        try:
            link.wait_ready(timeout=10)
        except TimeoutError:
            pytest.fail(board_failed(board))
        yield link
