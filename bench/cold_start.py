"""Benchmark: ``overseer --help`` from a fresh clone, beside a bare interpreter in the same run.

Clones this repository's HEAD (``git clone``, so nothing but what is committed), and with
``--against REV`` that revision too, each into a folder of its own; then, taking turns in the
same minutes, runs a bare interpreter (``python -c pass``, the standard library's bytecode
cached as installed) and ``overseer --help`` from each clone (``PYTHONPATH=<clone>/host``, this
venv's dependencies): first with no bytecode of the clone's own (a fresh clone under
``PYTHONDONTWRITEBYTECODE=1``, compiled again at every start), then with it compiled
(``compileall``, as ``scripts/install-service`` and a wheel install leave it). Prints the medians
and the ratios to the bare interpreter, and the modules ``--help`` loaded that it needs none
of (game rules, Pillow, SQLite). Aim (issue 24): ``--help`` <= 4x the bare interpreter, with
bytecode.

    .venv/bin/python bench/cold_start.py [--runs 15] [--against REV] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HELP = ("import sys; sys.argv = ['overseer', '--help']; from overseer.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n")
HEAVY = ("PIL", "sqlite3", "overseer.rules", "overseer.games", "overseer.screens")


def clone(rev: str, folder: Path) -> Path:
    subprocess.run(["git", "clone", "-q", "--no-checkout", str(ROOT), str(folder)], check=True)
    subprocess.run(["git", "-C", str(folder), "checkout", "-q", rev], check=True)
    return folder


def env_for(host: Path | None, bytecode: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "OVERSEER_DATA")}
    if host is not None:
        env["PYTHONPATH"] = str(host)
    if not bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def once(code: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def heavy_modules(host: Path) -> list[str]:
    code = ("import contextlib, io, json, sys\nfrom overseer.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            "    main(['--help'])\nprint(json.dumps(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", code], env=env_for(host, True),
                         capture_output=True, text=True, check=True).stdout
    return [m for m in json.loads(out) if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--against", help="another revision, measured in the same run")
    parser.add_argument("--json", action="store_true", help="one object of figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-cold-") as name:
        folder = Path(name)
        clones = {"HEAD": clone("HEAD", folder / "head")}
        if args.against:
            clones[args.against] = clone(args.against, folder / "against")
        times: dict[str, list[float]] = {"bare": []}
        for label in clones:
            times[f"{label} no bytecode"], times[f"{label} bytecode"] = [], []
        for _ in range(args.runs):  # no bytecode of the clones' own yet
            times["bare"].append(once("pass", env_for(None, True)))
            for label, where in clones.items():
                times[f"{label} no bytecode"].append(once(HELP, env_for(where / "host", False)))
        for where in clones.values():
            subprocess.run([sys.executable, "-m", "compileall", "-q", str(where / "host")],
                           check=True, stdout=subprocess.DEVNULL)
        for _ in range(args.runs):
            times["bare"].append(once("pass", env_for(None, True)))
            for label, where in clones.items():
                times[f"{label} bytecode"].append(once(HELP, env_for(where / "host", False)))
        heavy = {label: heavy_modules(where / "host") for label, where in clones.items()}
    bare = statistics.median(times["bare"])
    figures = {key: {"median_ms": round(statistics.median(v) * 1000, 1),
                     "ratio": round(statistics.median(v) / bare, 2)} for key, v in times.items()}
    if args.json:
        print(json.dumps({"figures": figures, "heavy_modules": heavy, "load": os.getloadavg()}))
        return 0
    print(f"cold start, {args.runs} runs each, taking turns (load average "
          f"{os.getloadavg()[0]:.2f}):")
    for key, row in figures.items():
        print(f"  {key:<28} median {row['median_ms']:7.1f} ms  = {row['ratio']:5.2f}x bare")
    for label, names in heavy.items():
        shown = ", ".join(sorted({n.split('.')[0] if not n.startswith('overseer') else
                                  '.'.join(n.split('.')[:2]) for n in names})) or "none"
        print(f"  {label}: --help loads of rules, Pillow, SQLite: {shown}")
    print("  aim: --help <= 4x a bare interpreter, with bytecode")
    return 0


if __name__ == "__main__":
    sys.exit(main())
