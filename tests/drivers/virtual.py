"""Which interpreter runs the virtual Pico in these tests, what to say when a board fails, and
the events a link hands its sink."""

from __future__ import annotations

import os
import queue
import sys
import time
from collections.abc import Callable

from overseer.devices.link_events import PicoEvent
from overseer.devices.virtual_pico import VirtualPico, find_micropython

# Real MicroPython where its wheel installs (x86_64 Linux); CPython with the shims elsewhere.
# OVERSEER_E2E_CPYTHON=1 runs the firmware under CPython with its shims instead.
MICROPYTHON = find_micropython()


def interpreter() -> str:
    if os.environ.get("OVERSEER_E2E_CPYTHON") or MICROPYTHON is None:
        return sys.executable
    return MICROPYTHON


def board_failed(board: VirtualPico) -> str:
    return f"the board's stderr:\n{board.stderr()[-3000:]}\nexit codes: {board.exit_codes}"


def bad_exits(board: VirtualPico) -> list[int]:
    """Exit codes other than a clean end (0), a reset (75) or our own stop (-15)."""
    return [c for c in board.exit_codes if c not in (0, 75, -15)]


class Events:
    """What a link hands its sink (``put``), in order. ``get`` waits up to ``timeout`` seconds
    of ``clock``: the board's own for an emulated RP2040 that runs slower than real time."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._queue: queue.Queue[PicoEvent] = queue.Queue()
        self._clock = clock

    def put(self, event: PicoEvent) -> None:
        self._queue.put(event)

    def get(self, timeout: float) -> PicoEvent:
        """The next event; ``queue.Empty`` when none came in time."""
        end = self._clock() + timeout
        while True:
            left = max(0.0, end - self._clock())
            try:
                return self._queue.get(timeout=left)
            except queue.Empty:
                if left == 0.0 or self._clock() >= end:
                    raise
