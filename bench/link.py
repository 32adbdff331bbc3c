"""Benchmark of the Pico link over a pty: the real firmware on a virtual Pico, PicoLink on the host.

Prints press-to-host-event latency (the switch closing to the host's DOWN event), show-frame
round trip (p50, p99) and frames per second, against baselines measured in the same run: a raw
pty echo round trip (a thread echoing on the pty master) and the same echo by a program on the
firmware's interpreter reading the pty the way the firmware does (poll, then one byte at a
time).

    .venv/bin/python bench/link.py [--cpython] [--rounds 200] [--i2c-hz 400000] [--firmware DIR]

Each show is timed twice: to the board's acknowledgement, and to its OLED RAM holding the frame
(the board's image file). With ``--i2c-hz`` the virtual board's I2C takes as long as that bus
would (``OVERSEER_BOARD_I2C_HZ``, firmware/unix/README.md), so the second figure counts the
OLED write as a Pico would make it; ``--firmware`` runs another firmware folder (e.g. an older
one's *.py beside this firmware's unix/ stand-ins) for a before/after. The tour's frames are the
screens of a whole game (``bench/oled_i2c.py``), sent one after another as the gadget would.

Aim: show-frame round trip p99 under 10 ms over the pty.
"""

from __future__ import annotations

import argparse
import os
import queue
import random
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

import serial
from oled_i2c import play

from overseer.devices import protocol as p
from overseer.devices.link_events import PicoEvent, PressedButton
from overseer.devices.pico_link import PicoLink
from overseer.devices.virtual_pico import FIRMWARE, VirtualPico, find_micropython

ECHO = """
import select, sys
rx = getattr(sys.stdin.buffer, "raw", sys.stdin.buffer)
tx = sys.stdout.buffer
poll = select.poll()
poll.register(rx, select.POLLIN)
one = bytearray(1)
while True:
    poll.poll(-1)
    if not rx.readinto(one):
        break
    tx.write(one)
    if hasattr(tx, "flush"):
        tx.flush()
"""


def figures(name: str, seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return f"{name:<44} p50 {statistics.median(ms):7.2f} ms   p99 {p99:7.2f} ms   (n={len(ms)})"


def echo_round_trips(port: str, message: bytes, rounds: int) -> list[float]:
    times = []
    with serial.Serial(port, timeout=2) as ser:
        for _ in range(rounds):
            start = time.perf_counter()
            ser.write(message)
            got = ser.read(len(message))
            times.append(time.perf_counter() - start)
            if got != message:
                raise RuntimeError("the echo came back wrong")
    return times


def thread_echo(rounds: int, message: bytes) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    stop = threading.Event()

    def echo() -> None:
        while not stop.is_set():
            if select.select([master], [], [], 0.05)[0]:
                os.write(master, os.read(master, 4096))

    thread = threading.Thread(target=echo, daemon=True)
    thread.start()
    try:
        return echo_round_trips(os.ttyname(slave), message, rounds)
    finally:
        stop.set()
        thread.join()
        os.close(master)
        os.close(slave)


def interpreter_echo(interpreter: str, rounds: int, message: bytes) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as script:
        script.write(ECHO)
    proc = subprocess.Popen([interpreter, script.name], stdin=master, stdout=master)
    try:
        echo_round_trips(os.ttyname(slave), message, 5)  # warm up
        return echo_round_trips(os.ttyname(slave), message, rounds)
    finally:
        proc.kill()
        proc.wait()
        os.unlink(script.name)
        os.close(master)
        os.close(slave)


def timed(action: Callable[[], bool]) -> float:
    start = time.perf_counter()
    if not action():
        raise RuntimeError("the Pico did not answer in time")
    return time.perf_counter() - start


Events = queue.Queue[PicoEvent]  # what the link hands its sink


def reported(events: Events, button: p.Button, press: p.Press) -> bool:
    try:
        event = events.get(timeout=2)
    except queue.Empty:
        return False
    return isinstance(event, PressedButton) and (event.button, event.press) == (button, press)


def press_latencies(board: VirtualPico, events: Events, rounds: int) -> list[float]:
    """From the switch closing (the command written to the board) to the host's DOWN event."""
    times = []
    for i in range(rounds):
        button = p.Button(i % 4)

        def down(button: p.Button = button) -> bool:
            board.button_down(button)
            return reported(events, button, p.Press.DOWN)

        times.append(timed(down))
        board.button_up(button)
        if not reported(events, button, p.Press.SHORT):
            raise RuntimeError("no SHORT after the release")
        time.sleep(0.06)  # past the board's 50 ms command step after the release
    return times


def on_oled(board: VirtualPico, frame: bytes, timeout: float = 2.0) -> bool:
    """Poll the board's OLED file (every 0.2 ms) until it holds ``frame``."""
    deadline = time.perf_counter() + timeout
    while board.oled() != frame:
        if time.perf_counter() > deadline:
            return False
        time.sleep(0.0002)
    return True


def show_times(link: PicoLink, board: VirtualPico, frames: list[bytes]
               ) -> tuple[list[float], list[float]]:
    """Each frame shown in turn: (to the acknowledgement, to the OLED RAM holding it)."""
    acked, glass = [], []
    for frame in frames:
        start = time.perf_counter()
        if not link.wait_shown(link.show(frame), timeout=2):
            raise RuntimeError("the Pico did not acknowledge the frame in time")
        acked.append(time.perf_counter() - start)
        if not on_oled(board, frame):
            raise RuntimeError("the frame never reached the OLED")
        glass.append(time.perf_counter() - start)
    return acked, glass


def random_frames(rounds: int, whole: bool) -> list[bytes]:
    rng = random.Random(5)
    image = bytearray(rng.randbytes(p.FRAME_SIZE))
    frames = []
    for _ in range(rounds):
        if whole:
            image[:] = rng.randbytes(p.FRAME_SIZE)
        else:
            image[rng.randrange(p.FRAME_SIZE)] ^= 0xFF
        frames.append(bytes(image))
    return frames


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--cpython", action="store_true", help="run the firmware under CPython")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--i2c-hz", type=int, default=0,
                        help="the virtual board's I2C takes this bus's time (0: none)")
    parser.add_argument("--firmware", type=Path, default=FIRMWARE, help="the firmware folder")
    args = parser.parse_args()
    if args.i2c_hz:
        os.environ["OVERSEER_BOARD_I2C_HZ"] = str(args.i2c_hz)
    interpreter = sys.executable if args.cpython else (find_micropython() or sys.executable)
    rounds = args.rounds
    block = p.encode(p.HostHeartbeat())
    frame_bytes = b"".join(
        p.encode(p.FrameChunk(1, o, bytes(64)), 1) for o in range(0, p.FRAME_SIZE, 64)
    )
    print(f"firmware interpreter: {interpreter}, firmware {args.firmware}, "
          f"I2C {f'{args.i2c_hz} Hz' if args.i2c_hz else 'instant'}")
    print("baselines")
    print(figures("pty echo (thread), one block", thread_echo(rounds, block)))
    print(figures("pty echo (thread), a whole frame's blocks", thread_echo(rounds, frame_bytes)))
    echo = interpreter_echo(interpreter, rounds, block)
    print(figures("pty echo (firmware interpreter), one block", echo))
    events: Events = queue.Queue()
    with VirtualPico(interpreter=interpreter, firmware=args.firmware) as board, \
            PicoLink(board.port, events.put) as link:
        start = time.perf_counter()
        link.wait_ready(timeout=20)
        print(f"link: handshake {1000 * (time.perf_counter() - start):.0f} ms after boot started")
        link.wait_shown(link.show(bytes(p.FRAME_SIZE)), timeout=5)
        print(figures("press (switch closes) to host event", press_latencies(board, events, 50)))
        game = play()[0]
        tour = [frame for before, frame in zip(game, game[1:], strict=False) if frame != before]
        runs = (
            ("one chunk changed", random_frames(rounds, False)),
            ("the tour's frames", tour),
            ("whole frame (16 chunks)", random_frames(rounds, True)),
        )
        for name, frames in runs:
            acked, glass = show_times(link, board, frames)
            print(figures(f"show round trip, {name}", acked))
            print(figures(f"show to OLED RAM, {name}", glass))
            if name.startswith("whole"):
                whole = acked
                p99 = sorted(whole)[min(len(whole) - 1, round(0.99 * (len(whole) - 1)))]
                verdict = "met" if p99 < 0.010 else "NOT met"
                print(f"aim: whole-frame round trip p99 under 10 ms: {verdict}")
                print(f"{'frames per second, whole frames':<44} {len(whole) / sum(whole):7.1f}")
        print(f"retransmit rounds during the run: {link.stats.retransmits}")


if __name__ == "__main__":
    main()
