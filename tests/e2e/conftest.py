"""Fixtures for host-firmware tests: the real firmware on a virtual Pico, PicoLink on its pty."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator

import pytest

from overseer.devices.pico_link import PicoLink
from overseer.devices.virtual_pico import VirtualPico, find_micropython

# Real MicroPython where its wheel installs (x86_64 Linux); CPython with the shims elsewhere.
INTERPRETER = find_micropython()



def board_failed(board: VirtualPico) -> str:
    return f"the board's stderr:\n{board.stderr()[-3000:]}\nexit codes: {board.exit_codes}"


@pytest.fixture
def board() -> Iterator[VirtualPico]:
    # OVERSEER_E2E_CPYTHON=1 runs the firmware under CPython with its shims instead.
    cpython = os.environ.get("OVERSEER_E2E_CPYTHON") or INTERPRETER is None
    pico = VirtualPico(interpreter=sys.executable if cpython else INTERPRETER)
    with pico:
        yield pico
        assert not [c for c in pico.exit_codes if c not in (0, 75, -15)], board_failed(pico)


@pytest.fixture
def link(board: VirtualPico) -> Iterator[PicoLink]:
    with PicoLink(board.port) as link:
        try:
            link.wait_ready(timeout=10)
        except TimeoutError:
            pytest.fail(board_failed(board))
        yield link
