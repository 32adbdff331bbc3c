"""Which interpreter runs the virtual Pico in these tests, and what to say when a board fails."""

from __future__ import annotations

import os
import sys

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
