"""The Pi model's bytes for a frame (bench/panel_wire.py) are the firmware's own I2C writes."""

from __future__ import annotations

import sys
from pathlib import Path

from overseer.devices.frames import CHUNK_OVERHEAD

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from panel_wire import SHOW_WIRE_BYTES, Wire  # noqa: E402


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
