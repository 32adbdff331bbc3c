"""The bytes a new frame costs on its way to the glass, as this host and firmware send them:
the FRAME_CHUNK blocks on USB (``frames.changed_chunks``, each run's data and its block's
overhead, then the FRAME_SHOW) and the I2C writes of the firmware's own ``Display`` and
``SSD1306_I2C`` (run under CPython with the stand-ins of firmware/unix, as ``bench/oled_i2c.py``
runs them; address bytes included). ``press_instructions.pi_ms`` turns them into milliseconds.

    wire = Wire(ROOT / "firmware")
    usb, i2c = wire.bytes(old_frame, new_frame)   # old None: the glass's image is unknown
"""

from __future__ import annotations

import sys
import zlib
from pathlib import Path
from typing import Any

from overseer.devices.frames import CHUNK_OVERHEAD, changed_chunks
from overseer.devices.protocol import CRC_SIZE, HEADER_SIZE

SHOW_WIRE_BYTES = HEADER_SIZE + CRC_SIZE + 6  # FRAME_SHOW: screen_id u16, crc u32


class Wire:
    def __init__(self, firmware: Path) -> None:
        # the firmware's modules, its link.py in place of bench/link.py while they load
        benches = sys.modules.pop("link", None)
        sys.path[:0] = [str(firmware / "unix"), str(firmware)]
        try:
            import machine  # the firmware's I2C stand-in (firmware/unix)
            from display import Display
            from ssd1306 import SSD1306_I2C
        finally:
            del sys.path[:2]
            sys.modules.pop("link", None)
            if benches is not None:
                sys.modules["link"] = benches

        self._i2c: Any = machine.I2C(0)
        self._display: Any = Display(SSD1306_I2C(128, 64, self._i2c))
        self._screen = 0

    def _show(self, old: bytes | None, new: bytes) -> int:
        """The firmware takes ``new`` (the chunks from ``old``) and shows it: its I2C bytes."""
        self._screen += 1
        for offset, data in changed_chunks(old, new):
            assert self._display.chunk(self._screen, offset, data)
        assert self._display.accept(self._screen, zlib.crc32(new))
        i2c = self._i2c
        before = i2c.writes + i2c.sent
        self._display.show_host()
        assert bytes(i2c.device.ram) == new
        return i2c.writes + i2c.sent - before

    def bytes(self, old: bytes | None, new: bytes) -> tuple[int, int]:
        """USB bytes down and I2C bytes for the glass going from ``old`` to ``new`` (0, 0
        when nothing changed: the host sends nothing)."""
        if old == new:
            return 0, 0
        if old is not None:
            self._show(None, old)  # the panel holds old (sent whole)
        usb = sum(len(data) + CHUNK_OVERHEAD for _, data in changed_chunks(old, new))
        return usb + SHOW_WIRE_BYTES, self._show(old, new)
