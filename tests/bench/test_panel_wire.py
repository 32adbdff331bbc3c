"""The Pi model's bytes for a frame (bench/panel_wire.py) are the firmware's own I2C writes."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

from overseer.devices.frames import CHUNK_OVERHEAD

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"


def bench_module(name: str) -> ModuleType:
    """A module of bench/, imported without leaving bench/ on the path or its modules under
    their names (bench/link.py would hide the firmware's link.py from the firmware's tests)."""
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCH))
        for key, module in list(sys.modules.items()):
            if (getattr(module, "__file__", None) or "").startswith(str(BENCH)):
                del sys.modules[key]


panel_wire = bench_module("panel_wire")
press_instructions = bench_module("press_instructions")
SHOW_WIRE_BYTES, Wire = panel_wire.SHOW_WIRE_BYTES, panel_wire.Wire


def test_a_frames_bytes_are_the_chunks_sent_and_the_firmwares_i2c_writes():
    wire = Wire(ROOT / "firmware")
    blank, full = bytes(1024), b"\xff" * 1024
    assert wire.bytes(blank, blank) == (0, 0)  # nothing changed: nothing sent
    usb, i2c = wire.bytes(blank, full)
    assert i2c == 1 + 13 + 1024  # one write: the address, the window's commands, the data
    assert usb == 16 * (64 + CHUNK_OVERHEAD) + SHOW_WIRE_BYTES
    one = bytearray(blank)
    one[200] = 1  # page 1, the left half
    assert wire.bytes(blank, bytes(one)) == (1 + CHUNK_OVERHEAD + SHOW_WIRE_BYTES, 1 + 13 + 64)
    assert wire.bytes(None, blank)[1] == 1 + 13 + 1024  # the glass unknown: the whole frame


def test_the_models_pico_part_is_what_the_rp2_port_measured():
    """docs/benchmarks.md, the rp2 port's third round: the first byte of a frame received to
    the panel's last byte, 3.9 ms for one slice changed and 34.6 ms for a whole frame (5.7 and
    15.4 ms at the most without the bus's 1.8 and 23.4 ms)."""
    PICO_FRAME_MS, PICO_US_PER_BYTE = (press_instructions.PICO_FRAME_MS,  # noqa: N806
                                       press_instructions.PICO_US_PER_BYTE)
    wire = Wire(ROOT / "firmware")
    blank, full = bytes(1024), b"\xff" * 1024
    one = bytearray(blank)
    one[128:192] = b"\x01" * 64  # one slice, page 1's left half
    for new, fast, slow in ((bytes(one), 3.9, 5.7 + 1.755), (full, 34.6, 15.4 + 23.355)):
        usb, i2c = wire.bytes(blank, new)
        pico = [PICO_FRAME_MS[k] + usb * PICO_US_PER_BYTE[k] / 1000 for k in (0, 1)]
        bus = i2c * 9 / 400
        assert abs(pico[0] + bus - fast) < 0.1 and abs(pico[1] + bus - slow) < 0.1
