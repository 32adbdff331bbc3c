"""Benchmark: ``overseer gadget`` (the headless gadget the service runs) from its spawn to its
first frame on the Pico's OLED, beside the import of its dependencies alone and a bare
interpreter, in one run. Aim (issue 24): first frame <= 1.5x the dependencies' own import
time, on a fresh store.

Each figure is a fresh process, timed from its spawn:

- ``first frame``: ``python -m overseer.cli gadget`` on a fresh store (the new game's first
  question), its config the virtual Pico's port (the real firmware on MicroPython over a pty),
  the LEDs on gpiozero's mock pins and no card reader; timed until the board's OLED RAM holds
  the gadget's first screen (as this process renders it), then stopped with SIGTERM, as
  systemd stops it. The board is powered before and cycled between runs
  (``VirtualPico.restart``), untimed (the real Pico is powered with the Pi and has booted by
  the time the service starts);
- ``dependencies``: every module from outside the project that ``overseer gadget`` had loaded
  by its first frame (read from ``-X importtime`` in an untimed run), imported in that order;
- ``bare``: ``python -c pass``.

Each process finds its modules compiled, as every start after the install does: the runs
share a bytecode cache of their own (``PYTHONPYCACHEPREFIX``, written even where
``PYTHONDONTWRITEBYTECODE`` is set), filled by one untimed run of each first.

    PYTHONPATH=host .venv/bin/python bench/gadget_start.py [runs]
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from overseer.app import registry
from overseer.app.shell import Gadget
from overseer.app.sim import MemoryGlass, SimLeds
from overseer.devices.frames import vlsb
from overseer.devices.virtual_pico import VirtualPico, find_micropython

sys.path.insert(0, str(Path(__file__).resolve().parent))

from sim_start import IMPORT_ALL  # noqa: E402  (bench/sim_start.py: the dependencies' imports)

CONFIG = '[nfc]\nenabled = false\n[leds]\nfactory = "mock"\n[pico]\nport = "{port}"\n'
TIMEOUT = 60.0


def first_screen(folder: Path) -> bytes:
    """The frame a fresh store's gadget shows first (this process's render of it)."""
    glass = MemoryGlass()
    gadget = Gadget(folder / "expected.sqlite3", glass, SimLeds())
    try:
        gadget.open()
        assert glass.image is not None
        return vlsb(glass.image)
    finally:
        gadget.close()


def bare(env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
    return time.perf_counter() - start


def dependencies(names: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", IMPORT_ALL, *names], env=env, check=True)
    return time.perf_counter() - start


def first_frame(board: VirtualPico, want: bytes, env: dict[str, str], store: Path,
                importtime: bool = False) -> tuple[float, str]:
    """Seconds from spawning ``overseer gadget`` to the board's OLED holding ``want``; and
    what it wrote on stderr (with ``importtime``: its imports, ``-X importtime``)."""
    board.restart()  # a power cycle: its own screen again, a new boot id (a whole frame)
    if board.wait_oled(lambda frame: frame != want, TIMEOUT) is None:
        raise RuntimeError("the board still shows the gadget's frame after its power cycle")
    argv = [sys.executable, *(["-X", "importtime"] if importtime else []), "-m",
            "overseer.cli", "gadget"]
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env={**env, "OVERSEER_DB": str(store)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        shown = board.wait_oled(lambda frame: frame == want, TIMEOUT)
        elapsed = time.perf_counter() - start
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=TIMEOUT)
    finally:
        proc.kill()
    if shown is None:
        raise RuntimeError(f"overseer gadget showed no first frame in {TIMEOUT} s: {err[-800:]}")
    return elapsed, err


def imported(stderr: str) -> list[str]:
    """The modules from outside the project in ``-X importtime``'s lines, in their order."""
    names = []
    for line in stderr.splitlines():
        if not line.startswith("import time:") or line.endswith("imported package"):
            continue
        name = line.rsplit("|", 1)[1].strip()
        if name.split(".")[0] != "overseer" and name not in names:
            names.append(name)
    return names


def main(runs: int) -> int:
    registry.install()
    times: dict[str, list[float]] = {"bare": [], "dependencies": [], "first frame": []}
    with tempfile.TemporaryDirectory(prefix="bench-gadget-start-") as name, \
            VirtualPico(interpreter=find_micropython() or sys.executable) as board:
        folder = Path(name)
        config = folder / "box.toml"
        config.write_text(CONFIG.format(port=board.port))
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env |= {"PYTHONPYCACHEPREFIX": str(folder / "pycache"), "OVERSEER_CONFIG": str(config)}
        want = first_screen(folder)
        _, err = first_frame(board, want, env, folder / "untimed.sqlite3", importtime=True)
        names = imported(err)
        dependencies(names, env)  # untimed: the bytecode cache filled
        for n in range(runs):
            times["bare"].append(bare(env))
            times["dependencies"].append(dependencies(names, env))
            seconds, _ = first_frame(board, want, env, folder / f"fresh-{n}.sqlite3")
            times["first frame"].append(seconds)
    medians = {key: statistics.median(values) for key, values in times.items()}
    print(f"overseer gadget, {runs} runs each, taking turns (load average "
          f"{os.getloadavg()[0]:.2f}; {len(names)} modules from outside the project):")
    for key, values in times.items():
        print(f"  {key:<13} median {medians[key] * 1000:7.1f} ms  min {min(values) * 1000:7.1f} ms"
              f"  max {max(values) * 1000:7.1f} ms")
    ratio = medians["first frame"] / medians["dependencies"]
    print(f"  first frame / dependencies: {ratio:.2f} (by the minimums: "
          f"{min(times['first frame']) / min(times['dependencies']):.2f}); aim <= 1.5")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5))
