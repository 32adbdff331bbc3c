"""Every benchmark in bench/ runs and prints its figures, each with a tiny count (a smoke test:
no timing is asserted; the figures are the benches' to print, docs/benchmarks.md's to keep)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
# script -> (its tiny arguments, a line its output must hold)
RUNS: dict[str, tuple[list[str], str]] = {
    "engine.py": (["20"], "AI activation (demo battle)"),
    "session.py": (["--events", "150", "300", "--steps", "5"], "Gadget.open to first frame"),
    "link.py": (["--rounds", "3"], "frame"),
    "gadget.py": (["--presses", "4"], "CHOICE, release to frame"),
    "budget.py": (["--presses", "4"], "baselines, same run"),
    "questions.py": (["10"], "the scripted game (default LOS)"),
    "conquest_tap.py": (["--games", "1"], ""),
    "oled_i2c.py": ([], "bytes"),
    "sim_start.py": (["1"], "first frame"),
    "gadget_start.py": (["1"], "first frame / dependencies"),
    "cold_start.py": (["--runs", "1"], "x bare"),
}
MODULES = {"callgrind.py", "panel_wire.py", "press_instructions.py"}  # imported, not run alone
# Benches that did not run reliably on a loaded machine with a tiny count: the long suite's.
LONG_RUNS: dict[str, tuple[list[str], str]] = {
    # the board reports its heap as it stops; at a load of 15 it sometimes did not in time
    "firmware_heap.py": (["6"], "heap"),
    # the emulated reader's pty polled every 100 ms: a loaded machine misses reads
    "nfc_reader.py": (["3"], ""),
    # eight processes under callgrind (the web page's cost): minutes, whatever the count
    "web.py": (["--presses", "1"], "a step reaches the page"),
    # the firmware on the emulated RP2040 (rp2040js): a board boot, whatever the count
    "pico_rp2.py": (["--frames", "5", "--baseline", "none"], "board time"),
}


def run(script: str, args: list[str], cwd: Path, timeout: float = 240) -> str:
    done = subprocess.run([sys.executable, str(BENCH / script), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONPATH": str(ROOT / "host")})
    assert done.returncode == 0, f"{script} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.mark.parametrize("script", sorted(RUNS))
def test_the_bench_runs_and_prints_its_figures(script: str, tmp_path: Path) -> None:
    args, said = RUNS[script]
    (tmp_path / "bench").mkdir()  # the benches write bench/results/ where they run
    out = run(script, args, tmp_path)
    assert out.strip(), f"{script} printed nothing"
    assert said in out, out[-2000:]


@pytest.mark.long
@pytest.mark.parametrize("script", sorted(LONG_RUNS))
def test_the_slow_bench_runs_and_prints_its_figures(script: str, tmp_path: Path) -> None:
    args, said = LONG_RUNS[script]
    if script == "pico_rp2.py":
        from overseer.devices.rp2040_pico import missing
        if (why := missing()) is not None:
            pytest.skip(why)
    (tmp_path / "bench").mkdir()
    out = run(script, args, tmp_path)
    assert said in out, out[-2000:]


def test_every_bench_has_a_smoke_run() -> None:
    """A script in bench/ is run above, or by a test of its own (named there by its path)."""
    others = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("*.py")
                       if p.resolve() != Path(__file__).resolve())
    for script in sorted(p.name for p in BENCH.glob("*.py")):
        assert (script in RUNS or script in LONG_RUNS or script in MODULES
                or f"bench/{script}" in others), \
            f"bench/{script} has no smoke run in the suite"


@pytest.mark.long
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind counts the instructions")
def test_budget_counts_each_press_in_instructions(tmp_path: Path) -> None:
    import json

    out = run("budget.py", ["--instructions", "--presses", "2", "--json"], tmp_path, 1200)
    figures = json.loads(out.strip().splitlines()[-1])
    for kind in ("next", "choice", "ok", "tap"):
        assert figures[kind]["instructions"] > 0
        assert figures[kind]["pi_p99_ms"] > 0
