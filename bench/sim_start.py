"""Benchmark: cold start of the simulator to its first frame on the glass, beside the import of
the host's dependencies alone and a bare interpreter, in one run.

Each figure is a fresh process, timed from its spawn: ``first frame`` runs the simulator
headless (Textual's pilot, 80x24) on the virtual Pico, a fresh game store (the new game's first
question), and stops once the board's OLED RAM holds the frame the gadget sent and the terminal
has drawn it; ``dependencies`` imports, in the same order, every module the simulator loads
from outside
the project (Textual, Rich, Pillow, pyserial, platformdirs, and the standard library's);
``bare`` is ``python -c pass``.

Each process finds its modules compiled, as a player's second start does: the runs share a
bytecode cache of their own (``PYTHONPYCACHEPREFIX``, a temporary folder; written even where
``PYTHONDONTWRITEBYTECODE`` is set), filled by one untimed run of each first.
Usage: python bench/sim_start.py [runs]
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LIST_MODULES = """
import sys
import overseer.cli, overseer.sim.app, overseer.sim.running, overseer.screens.render
print(" ".join(name for name in sys.modules if name.split(".")[0] != "overseer"))
"""
IMPORT_ALL = """
import importlib, sys
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except Exception:
        pass
"""
CHILD = """
import asyncio, sys
from overseer.cli.command import simulator

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


def timed(argv: list[str], until: bytes | None = None, env: dict[str, str] | None = None
          ) -> tuple[float, float]:
    """Seconds from spawning ``argv`` to its exit, or to the line ``until`` on its stdout; and
    the CPU seconds the process (and the children it waited for) used in all."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    elapsed = None
    if until is not None:
        for line in proc.stdout:
            if line.strip() == until:
                elapsed = time.perf_counter() - start
                break
    proc.stdout.read()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if elapsed is None:
        elapsed = time.perf_counter() - start
    if proc.returncode != 0 or (until is not None and elapsed is None):
        raise RuntimeError(f"{argv[:3]} failed: exit {proc.returncode}: {err[-800:]!r}")
    return elapsed, usage.ru_utime + usage.ru_stime


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith(
                "model name"))
    except (OSError, StopIteration):
        pass
    load = ", ".join(f"{n:.1f}" for n in os.getloadavg())
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, load average "
            f"{load}")


def main(runs: int) -> None:
    python = sys.executable
    wall: dict[str, list[float]] = {"bare": [], "dependencies": [], "first frame": []}
    cpu: dict[str, list[float]] = {name: [] for name in wall}
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = cache

        def first_frame() -> tuple[float, float]:
            with tempfile.TemporaryDirectory() as folder:
                store = str(Path(folder) / "games.sqlite3")
                return timed([python, "-c", CHILD, store], b"first frame", env)

        listed = subprocess.run([python, "-c", LIST_MODULES], env=env, check=True,
                                capture_output=True, text=True).stdout.split()
        dependencies = [python, "-c", IMPORT_ALL, *listed]
        timed(dependencies, env=env)  # untimed: the bytecode cache filled
        first_frame()
        for _ in range(runs):
            for name, run in (("bare", lambda: timed([python, "-c", "pass"], env=env)),
                              ("dependencies", lambda: timed(dependencies, env=env)),
                              ("first frame", first_frame)):
                seconds, used = run()
                wall[name].append(seconds)
                cpu[name].append(used)
    print(machine())
    medians = {name: statistics.median(values) for name, values in wall.items()}
    for name, values in wall.items():
        print(f"{name:>13}: median {medians[name] * 1000:6.0f} ms, "
              f"min {min(values) * 1000:6.0f} ms, max {max(values) * 1000:6.0f} ms; CPU "
              f"median {statistics.median(cpu[name]) * 1000:6.0f} ms (to exit)")
    print(f"first frame / dependencies: {medians['first frame'] / medians['dependencies']:.2f} "
          f"(by the minimums: {min(wall['first frame']) / min(wall['dependencies']):.2f})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
