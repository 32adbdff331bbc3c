"""Benchmark of the Pico link over a pty: the real firmware on a virtual Pico, PicoLink on the host.

Prints press-to-host-event latency (the switch closing to the host's DOWN event), show-frame
round trip (p50, p99) and frames per second, against baselines measured in the same run: a raw
pty echo round trip (a thread echoing on the pty master) and the same echo by a program on the
firmware's interpreter reading the pty the way the firmware does (poll, then one byte at a
time).

    .venv/bin/python bench/link.py [--cpython] [--rounds 200]

Aim: show-frame round trip p99 under 10 ms over the pty.
"""

from __future__ import annotations

import argparse
import os
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

import serial

from overseer.devices import protocol as p
from overseer.devices.pico_link import PicoLink, PressedButton
from overseer.devices.virtual_pico import VirtualPico, find_micropython

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


def reported(link: PicoLink, button: p.Button, press: p.Press) -> bool:
    event = link.next_event(timeout=2)
    return isinstance(event, PressedButton) and (event.button, event.press) == (button, press)


def press_latencies(board: VirtualPico, link: PicoLink, rounds: int) -> list[float]:
    """From the switch closing (the command written to the board) to the host's DOWN event."""
    times = []
    for i in range(rounds):
        button = p.Button(i % 4)

        def down(button: p.Button = button) -> bool:
            board.button_down(button)
            return reported(link, button, p.Press.DOWN)

        times.append(timed(down))
        board.button_up(button)
        if not reported(link, button, p.Press.SHORT):
            raise RuntimeError("no SHORT after the release")
        time.sleep(0.06)  # past the board's 50 ms command step after the release
    return times


def show_round_trips(link: PicoLink, rounds: int, whole: bool) -> list[float]:
    rng = random.Random(5)
    image = bytearray(rng.randbytes(p.FRAME_SIZE))
    times = []
    for _ in range(rounds):
        if whole:
            image[:] = rng.randbytes(p.FRAME_SIZE)
        else:
            image[rng.randrange(p.FRAME_SIZE)] ^= 0xFF
        frame = bytes(image)
        times.append(timed(lambda frame=frame: link.wait_shown(link.show(frame), timeout=2)))
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cpython", action="store_true", help="run the firmware under CPython")
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()
    interpreter = sys.executable if args.cpython else (find_micropython() or sys.executable)
    rounds = args.rounds
    block = p.encode(p.HostHeartbeat())
    frame_bytes = b"".join(
        p.encode(p.FrameChunk(1, o, bytes(64)), 1) for o in range(0, p.FRAME_SIZE, 64)
    )
    print(f"firmware interpreter: {interpreter}")
    print("baselines")
    print(figures("pty echo (thread), one block", thread_echo(rounds, block)))
    print(figures("pty echo (thread), a whole frame's blocks", thread_echo(rounds, frame_bytes)))
    echo = interpreter_echo(interpreter, rounds, block)
    print(figures("pty echo (firmware interpreter), one block", echo))
    with VirtualPico(interpreter=interpreter) as board, PicoLink(board.port) as link:
        start = time.perf_counter()
        link.wait_ready(timeout=20)
        print(f"link: handshake {1000 * (time.perf_counter() - start):.0f} ms after boot started")
        link.wait_shown(link.show(bytes(p.FRAME_SIZE)), timeout=5)
        print(figures("press (switch closes) to host event", press_latencies(board, link, 50)))
        print(figures("show round trip, one chunk changed", show_round_trips(link, rounds, False)))
        whole = show_round_trips(link, rounds, True)
        print(figures("show round trip, whole frame (16 chunks)", whole))
        p99 = sorted(whole)[min(len(whole) - 1, round(0.99 * (len(whole) - 1)))]
        verdict = "met" if p99 < 0.010 else "NOT met"
        print(f"aim: whole-frame round trip p99 under 10 ms: {verdict}")
        print(f"{'frames per second, whole frames':<44} {len(whole) / sum(whole):7.1f}")
        print(f"retransmit rounds during the run: {link.stats.retransmits}")


if __name__ == "__main__":
    main()
