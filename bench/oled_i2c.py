"""Bytes the Pico writes to its OLED over I2C per show, for the screens of a whole game.

Plays the gadget tour's game (``tools.tour``: the new game, a room, a battle) in memory,
and sends each screen change to the firmware's own Display and SSD1306 driver (CPython, with the
stand-ins of firmware/unix) as the host does: only the chunks that changed (``changed_chunks``),
then FRAME_SHOW. Counts what the I2C stand-in received per show, the address byte of each write
included, against the whole-frame write of the same driver and of the driver before it (six
one-command writes for the window, then the 1,024 bytes: 1,044 bytes on the wire). The time is
the bus's at 400 kHz, 9 clocks a byte (22.5 us; start and stop conditions left out).

    PYTHONPATH=host .venv/bin/python bench/oled_i2c.py
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import zlib
from collections import defaultdict
from pathlib import Path

from overseer.app import registry
from overseer.devices.frames import changed_chunks, vlsb
from overseer.ports.events import Button
from overseer.screens.render import Screen

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tools/ (a checkout's)

from tools import tour  # noqa: E402
from tools.table import Album, Table  # noqa: E402

FIRMWARE = ROOT / "firmware"
BYTE_US = 9 / 400_000 * 1_000_000  # 22.5 us a byte at 400 kHz
BEFORE = 6 * (1 + 2) + 1 + 1025  # the old show(): 6 writes of [0x80, command], then the data


class Recording(Table):
    """The tour's table, noting which button (or tap) made each image on the glass."""

    def __init__(self, store: Path) -> None:
        self.made_by: list[str] = []
        super().__init__(store)

    def _tag(self, what: str) -> None:
        self.made_by += [what] * (len(self.glass.shown) - len(self.made_by))

    def press(self, button: Button, long: bool = False, times: int = 1) -> Screen:
        for _ in range(times):
            super().press(button, long)
            self._tag(f"{button.name}{' long' if long else ''}")
        return self.screen

    def tap(self, kind: str, card: str, game: str = "catacombs") -> Screen:
        screen = super().tap(kind, card, game)
        self._tag("tap")
        return screen


def play() -> tuple[list[bytes], list[str]]:
    """Every image of the tour's game, in order, and what made each."""
    with tempfile.TemporaryDirectory(prefix="oled-i2c-") as folder:
        table = Recording(Path(folder) / "games.sqlite3")
        album = Album(table)
        tour._new_game(table, album)
        tour._room(table, album)
        tour._battle(table, album)
        table._tag("start")
        table.close()
        return [vlsb(image) for image in table.glass.shown], table.made_by


def wire_bytes(i2c, action) -> int:
    writes, sent = i2c.writes, i2c.sent
    action()
    return (i2c.writes - writes) + (i2c.sent - sent)


def main() -> None:
    registry.install()  # every game in games.GAMES (overseer/app/registry/)
    sys.path[:0] = [str(FIRMWARE / "unix"), str(FIRMWARE)]  # after the host's imports
    import machine  # the firmware's I2C stand-in
    from display import Display
    from ssd1306 import SSD1306_I2C

    frames, made_by = play()
    i2c = machine.I2C(0)
    display = Display(SSD1306_I2C(128, 64, i2c))
    old: bytes | None = None
    per: dict[str, list[int]] = defaultdict(list)
    for n, (frame, what) in enumerate(zip(frames, made_by, strict=True), start=1):
        if frame == old:
            continue
        for offset, data in changed_chunks(old, frame):
            assert display.chunk(n, offset, data)
        assert display.accept(n, zlib.crc32(frame))
        cost = wire_bytes(i2c, display.show_host)
        assert bytes(i2c.device.ram) == frame
        if old is not None:  # the first goes whole: no base
            per[what].append(cost)
            per["every change"].append(cost)
        old = frame
    whole = wire_bytes(i2c, display.oled.show)
    print(f"{len(per['every change'])} screen changes of the tour's game; bytes on the I2C "
          f"wire per show (address bytes included), ms at 400 kHz")
    for name, cost in (("whole frame, driver before", BEFORE), ("whole frame, this driver", whole)):
        print(f"{name:<28} {cost:5d} bytes  {cost * BYTE_US / 1000:5.1f} ms")
    for what in ["every change", *sorted(k for k in per if k != "every change")]:
        costs = sorted(per[what])
        p50 = statistics.median(costs)
        p90 = costs[round(0.9 * (len(costs) - 1))]
        print(f"{what:<28} p50 {p50:6.0f}  p90 {p90:5d}  max {costs[-1]:5d} bytes"
              f"  (p50 {p50 * BYTE_US / 1000:4.1f} / p90 {p90 * BYTE_US / 1000:4.1f} ms,"
              f" n={len(costs)})")


if __name__ == "__main__":
    main()
