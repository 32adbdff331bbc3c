"""The firmware on MicroPython's rp2 port, on an emulated RP2040 (tools/rp2040/), in board time.

rp2040js runs the stock MicroPython v1.28.0 UF2 for the Pico with the firmware as .mpy on its
flash filesystem, the SSD1306 on I2C0 with the bus's time at the firmware's 400 kHz, and plays
a host with the link's window (8 blocks in flight). The emulator runs synchronously here, so
every figure is board time (rp2040js's cycle model at 125 MHz), the same on a busy machine:

- decode: a full frame's 16 chunks (no FRAME_SHOW) from the first byte to the last ACK, in
  bytes per ms;
- one slice (a 64-byte chunk changed) and a full frame (16 chunks), each with its FRAME_SHOW,
  from the first byte written to the panel's last display byte, I2C included;
- the longest a block waited for its ACK (what the host's retransmit timeout must exceed),
  a frame sent right behind a whole one included;
- button edge to the BUTTON block leaving the board;
- gc.mem_free() after boot and after every frame of the run (the least), and boot time.

Baseline (same run): today's firmware at ``BASELINE`` (main before the rp2 work), from git.

    .venv/bin/python bench/pico_rp2.py [--frames 1000] [--baseline REV|none]
                                       [--baseline-frames 100] [--json]

Aims (issue 22): one slice to glass <= 8 ms, a full frame <= 40 ms, decode >= 100 bytes/ms,
at least 150 KB free with the heap steady.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from overseer.devices import protocol as p
from overseer.devices.frames import changed_chunks
from overseer.devices.pins import button_gpios
from overseer.devices.rp2040_pico import HARNESS_VARIABLE, build_image, find_uf2, harness, missing
from overseer.devices.virtual_pico import FIRMWARE

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault(HARNESS_VARIABLE, str(ROOT / "tools" / "rp2040"))  # the emulator's harness
BASELINE = "e0a86a8"  # main when issue 22 began: the firmware read its input a byte at a time
AIMS = {"slice_to_glass_ms": ("<=", 8.0), "full_frame_ms": ("<=", 40.0),
        "decode_bytes_per_ms": (">=", 100.0), "heap_free_min": (">=", 150 * 1024)}

# main.py on the bench's image: the firmware's main (as board_main), and "H<gc.mem_free()>" on
# the firmware's USB serial between blocks (no SYNC byte in it: a host skips it) after boot and
# each time a host image reaches the glass; the driver waits for it before the next frame
REPORTER = """
import gc
import board_main
gc.collect()
threshold = getattr(board_main, "GC_THRESHOLD", None)  # as board_main.run() sets it
if threshold:
    gc.threshold(threshold)
board = board_main.Board()
usb = board.usb
gc.collect()
usb.write(b"H%d\\n" % gc.mem_free())
usb.send()
shown = 0
while True:
    board.tick()
    now = board.app.display.on_glass()
    if now != shown:
        shown = now
        usb.write(b"H%d\\n" % gc.mem_free())
        usb.send()
"""


def firmware_at(rev: str, folder: Path) -> Path:
    """firmware/*.py as commit ``rev`` had them."""
    out = folder / f"firmware-{rev}"
    out.mkdir()
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", rev, "firmware/"],
                           check=True, capture_output=True, text=True).stdout.split()
    for name in names:
        if name.endswith(".py"):
            text = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{name}"],
                                  check=True, capture_output=True).stdout
            (out / Path(name).name).write_bytes(text)
    return out


def bench_image(firmware: Path, folder: Path) -> Path:
    """The firmware's image, its main.py as board_main.py and the reporter as main.py."""
    tree = folder / (firmware.name + "-bench")
    tree.mkdir()
    for src in firmware.glob("*.py"):
        shutil.copy(src, tree / ("board_main.py" if src.name == "main.py" else src.name))
    (tree / "main.py").write_text(REPORTER)
    return build_image(folder / (tree.name + ".img"), tree)


class Host:
    """Numbers the reliable blocks of the frames the bench sends."""

    def __init__(self) -> None:
        self.seq = 0
        self.screen = 0

    def block(self, message: Any) -> list:
        self.seq = 1 if self.seq >= 255 else self.seq + 1
        return [self.seq, p.encode(message, self.seq).hex()]

    def frame(self, old: bytes | None, new: bytes, show: bool = True) -> list[list]:
        """The blocks the host's link sends to turn ``old`` into ``new`` (None: all of it)."""
        self.screen += 1
        chunks = changed_chunks(old, new)
        blocks = [self.block(p.FrameChunk(self.screen, o, d)) for o, d in chunks]
        if show:
            blocks.append(self.block(p.FrameShow(self.screen, p.crc32(new))))
        return blocks


def job(image: Path, frames: int, rng: random.Random) -> dict:
    host = Host()
    cases: list[dict] = []
    shown = rng.randbytes(p.FRAME_SIZE)
    cases.append({"name": "first", "blocks": host.frame(None, shown), "image": shown.hex()})
    # decode: a whole frame's chunks for a screen that is never shown
    cases.append({"name": "decode", "image": None,
                  "blocks": host.frame(None, rng.randbytes(p.FRAME_SIZE), show=False)})
    for i in range(frames):
        new = bytearray(shown)
        if i % 2:  # every other frame whole, the rest one slice (64 bytes) changed
            new[:] = rng.randbytes(p.FRAME_SIZE)
            name = "full"
        else:
            at = rng.randrange(16) * p.MAX_CHUNK
            new[at:at + p.MAX_CHUNK] = bytes(b ^ 0xFF for b in new[at:at + p.MAX_CHUNK])
            name = "slice"
        cases.append({"name": name, "blocks": host.frame(shown, bytes(new)), "image": new.hex()})
        shown = bytes(new)
    # the host's next frame right behind a whole one, sent as the panel is being written:
    # its blocks wait for that write (the longest a block waits for its ACK normally)
    burst = rng.randbytes(p.FRAME_SIZE)
    cases.append({"name": "burst", "blocks": host.frame(shown, burst), "image": burst.hex(),
                  "next": True})
    after = bytearray(burst)
    after[:p.MAX_CHUNK] = bytes(p.MAX_CHUNK)
    cases.append({"name": "behind", "blocks": host.frame(burst, bytes(after)),
                  "image": after.hex()})
    ok = button_gpios()["ok"]
    return {"uf2": str(find_uf2()), "fs": str(image), "buttons": list(button_gpios().values()),
            "window": p.WINDOW, "hello": p.encode(p.Hello()).hex(), "cases": cases, "press": ok}


def drive(image: Path, frames: int, seed: int) -> dict:
    text = json.dumps(job(image, frames, random.Random(seed)))
    folder = harness()
    assert folder is not None, missing()
    done = subprocess.run(["node", str(folder / "bench.mjs")], input=text, capture_output=True,
                          text=True, cwd=folder)
    if done.returncode != 0:
        raise SystemExit(f"bench/pico_rp2.py: the emulator failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout)


def median(values: list[float]) -> float:
    values = sorted(values)
    return values[len(values) // 2]


def figures(raw: dict) -> dict:
    cases = raw["cases"]
    runs = [r for name in ("slice", "full") for r in cases.get(name, [])]
    waits = runs + cases["burst"] + cases["behind"]
    decode = cases["decode"][0]
    return {
        "slice_to_glass_ms": median([r["glass_ms"] for r in cases["slice"]]),
        "full_frame_ms": median([r["glass_ms"] for r in cases["full"]]),
        "decode_bytes_per_ms": decode["bytes"] / decode["ack_ms"],
        "heap_free_min": raw["heap_free_min"],
        "heap_after_boot": raw["heap_after_boot"],
        "heap_last": raw["heap_last"],
        "slice_to_glass_max_ms": max(r["glass_ms"] for r in cases["slice"]),
        "full_frame_max_ms": max(r["glass_ms"] for r in cases["full"]),
        "ack_wait_max_ms": max(r["ack_wait_max_ms"] for r in waits),
        "press_to_host_ms": raw["press_to_host_ms"],
        "boot_to_main_loop_ms": raw["main_loop_ms"],
        "frames": len(runs),
        "watchdog_resets": raw["watchdog_resets"],
    }


def meets(name: str, value: float) -> str:
    how, aim = AIMS[name]
    ok = value <= aim if how == "<=" else value >= aim
    return f"aim {how} {aim:g}: {'met' if ok else 'NOT met'}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--frames", type=int, default=1000, help="frames after the first")
    parser.add_argument("--baseline", default=BASELINE, help="git revision, or none")
    parser.add_argument("--baseline-frames", type=int, default=100,
                        help="frames for the baseline (it is ten times slower)")
    parser.add_argument("--firmware", type=Path, default=FIRMWARE, help="the firmware folder")
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    why = missing()
    if why:
        print(f"bench/pico_rp2.py: {why}", file=sys.stderr)
        return 2
    results: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="bench-rp2-") as name:
        folder = Path(name)
        if args.baseline != "none":
            old = firmware_at(args.baseline, folder)
            image = bench_image(old, folder)
            results["baseline"] = figures(drive(image, args.baseline_frames, args.seed))
        here = args.firmware.resolve()
        results["firmware"] = figures(drive(bench_image(here, folder), args.frames, args.seed))
    if args.json:
        print(json.dumps(results["firmware"] | {"baseline": results.get("baseline")}, indent=1))
        return 0
    base = results.get("baseline")
    print(f"emulated RP2040 (rp2040js), MicroPython rp2 v1.28.0, board time; "
          f"{results['firmware']['frames']} frames after the first")
    print(f"{'':26}{'firmware':>12}{'baseline ' + args.baseline if base else '':>20}")
    for key, value in results["firmware"].items():
        was = f"{base[key]:>20.1f}" if base else ""
        note = f"   {meets(key, value)}" if key in AIMS else ""
        print(f"{key:26}{value:>12.1f}{was}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
