"""Benchmark: cold start of the simulator to its first frame on the glass, beside the import of
the host's dependencies alone and a bare interpreter, in one run.

Each figure is a fresh process, timed from its spawn: ``first frame`` runs the simulator
headless (Textual's pilot, 80x24) on the virtual Pico, a fresh game store (the new game's first
question), and stops once the board's OLED RAM holds the frame the gadget sent and the terminal
has drawn it; ``dependencies`` only imports what the simulator needs from outside the project;
``bare`` is ``python -c pass``.
Usage: python bench/sim_start.py [runs]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEPENDENCIES = ("import textual.app, textual.widgets, textual.binding, rich.text, PIL.Image, "
                "PIL.ImageFont, PIL.ImageDraw, serial, sqlite3, tomllib, platformdirs")
CHILD = """
import asyncio, sys
from overseer.cli import simulator

async def main(store):
    running = simulator(store, None, None)  # the board boots first, as `overseer` does
    from overseer.screens.render import frame_bytes
    from overseer.sim.app import Simulator
    app = Simulator(running)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            while True:
                sent = running.glass.sent
                if sent is not None and running.box.oled() == frame_bytes(sent):
                    if len(app.query_one("Glass").lines()) == 16:  # drawn from the board
                        break
                await asyncio.sleep(0.002)
            print("first frame", flush=True)
            await pilot.press("q")
    finally:
        running.close()

asyncio.run(main(sys.argv[1]))
"""


def timed(argv: list[str], until: bytes | None = None) -> float:
    """Seconds from spawning ``argv`` to its exit, or to the line ``until`` on its stdout."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    if until is None:
        proc.communicate()
        elapsed = time.perf_counter() - start
    else:
        for line in proc.stdout:
            if line.strip() == until:
                break
        elapsed = time.perf_counter() - start
        proc.communicate()
    if proc.returncode != 0:
        raise RuntimeError(f"{argv[:3]} failed: exit {proc.returncode}")
    return elapsed


def main(runs: int) -> None:
    python = sys.executable
    figures: dict[str, list[float]] = {"bare": [], "dependencies": [], "first frame": []}
    for _ in range(runs):
        figures["bare"].append(timed([python, "-c", "pass"]))
        figures["dependencies"].append(timed([python, "-c", DEPENDENCIES]))
        with tempfile.TemporaryDirectory() as folder:
            store = str(Path(folder) / "games.sqlite3")
            figures["first frame"].append(timed([python, "-c", CHILD, store], b"first frame"))
    medians = {name: statistics.median(values) for name, values in figures.items()}
    for name, values in figures.items():
        print(f"{name:>13}: median {medians[name] * 1000:6.0f} ms, "
              f"min {min(values) * 1000:6.0f} ms, max {max(values) * 1000:6.0f} ms")
    print(f"first frame / dependencies: {medians['first frame'] / medians['dependencies']:.2f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
