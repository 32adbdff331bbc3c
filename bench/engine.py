"""Benchmark: AI activations per second and the time of one activation (p50, p99).

Runs NEXT AI PIECE over the demo battle with seeded dice and a scripted table (first option,
"yes"), heroes of endless health (a new battle, untimed, when the Poison deck has felled them).
The baseline, measured in the same run, is the runner driving a procedure that only rolls one
die: the cost of the machinery without the rules.

``--instructions`` counts instead the machine instructions of one activation under valgrind's
callgrind (Debian package valgrind): the same activations run in a process of their own, less
a process that runs none. Both processes build the same battles first (as many as the
activations will need: one every 36 activations or so), so the count is the activations'
alone; the battles' building is counted apart (``--instructions`` prints it). Both run with
``PYTHONHASHSEED=0``, so the string hashes (the dicts' and sets' layout) are the same from run
to run. The figure is the mean of the first ``n`` activations of the seeded battles, and they
differ (a battle's first activations, its pieces all up, cost more than its last): the guard is
set on 2,000 (the most ``--instructions`` counts); a smaller ``n`` is another sample and
another mean (30 count about 15% more). The count does not move with the machine's load or
speed, as the wall clock on a shared machine does.

``--against REV`` (with ``--instructions``) counts revision REV's rules too, in the same run:
its ``host`` and ``data`` from ``git archive``, run by this bench (first on ``PYTHONPATH``).

Usage: python bench/engine.py [activations] [--instructions [--against REV]]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from overseer import documents, games
from overseer.app import registry
from overseer.core.chance import SeededChance
from overseer.core.dice import Die
from overseer.core.procedure import ChooseOne, ChooseSome, EnterNumber, Roll, Runner, YesNo
from overseer.core.records import DATA_DIR


def table_answer(question):
    if isinstance(question, ChooseOne):
        return question.options[0]
    if isinstance(question, ChooseSome):
        return question.options
    if isinstance(question, YesNo):
        return True
    if isinstance(question, EnterNumber):
        return question.low
    raise TypeError(question)


class OneRoll:
    def start(self, state, action):
        return self._go()

    def _go(self):
        face = yield Roll(Die.D12, "baseline")
        return face


def timed(make: Callable[[], Runner], action: dict, n: int,
          over: Callable[[Any], bool] = lambda state: False,
          built: list[Runner] | None = None) -> list[int]:
    """The times of ``n`` runs of ``action``, each on the runner ``make`` built, and a new one
    (untimed) whenever its game is ``over``: even heroes of endless health fall once the
    Poison deck runs dry (the base game's Poison Cards). ``built``: runners made before, taken
    first (then ``make`` again)."""
    times = []
    clock = time.perf_counter_ns
    ready = iter(built or ())
    runner = next(ready, None) or make()
    for _ in range(n):
        if over(runner.state):
            runner = next(ready, None) or make()
        start = clock()
        question = runner.begin(action)
        while question is not None:
            question = runner.answer(table_answer(question))
        times.append(clock() - start)
        runner.trace.clear()
    return times


def report(name: str, times: list[int]) -> dict:
    total = sum(times) / 1e9
    q = statistics.quantiles(times, n=100)
    row = {"name": name, "runs": len(times), "per_second": round(len(times) / total),
           "p50_us": round(q[49] / 1000, 1), "p99_us": round(q[98] / 1000, 1)}
    print(f"{name:<28} {row['per_second']:>10,}/s   p50 {row['p50_us']:>7} us   "
          f"p99 {row['p99_us']:>7} us")
    return row


def demo_runner() -> Runner:
    """The demo battle, LOS blocked, advanced targeting, heroes too tough to fall."""
    demo = json.loads((DATA_DIR / "demo" / "catacombs.json").read_text())
    setup = documents.setup_of(demo, games.CATACOMBS)  # the demo file's setup, either format
    for hero in setup["heroes"]:
        hero["health"] = 10**9
    setup["options"] = {"advanced_targeting": True, "los_blocked": True}
    return Runner(games.CATACOMBS, games.CATACOMBS.build(setup), chance=SeededChance(1))


def battles_for(n: int) -> int:
    """Battles built before ``n`` activations: more than they use (one every 36 or so)."""
    return n // 20 + 2


def instructions(n: int, host: Path | None = None) -> tuple[int, int]:
    """Instructions per activation, and per battle built: callgrind's totals of a process
    running ``n`` activations less one running none (the imports, the set-up and the same
    battles built first), and of one building twice the battles. ``host``: the ``host``
    folder of another tree to run them on (first on ``PYTHONPATH``), else this one's."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    if host is not None:
        env["PYTHONPATH"], env["OVERSEER_DATA"] = str(host), str(host.parent / "data")

    def total(count: int, battles: int) -> int:
        with tempfile.TemporaryDirectory() as folder:
            run = subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out",
                 sys.executable, __file__, str(count), "--only-activations",
                 "--battles", str(battles)],
                capture_output=True, text=True, check=True, env=env)
        found = re.search(r"Collected : (\d+)", run.stderr)
        if found is None:
            raise SystemExit(f"callgrind printed no total:\n{run.stderr[-2000:]}")
        return int(found.group(1))
    battles = battles_for(n)
    none = total(0, battles)
    return round((total(n, battles) - none) / n), round((total(0, 2 * battles) - none) / battles)


def tree_of(rev: str, folder: Path) -> Path:
    """Revision ``rev``'s ``host`` and ``data`` (``git archive``) in ``folder``: its host."""
    root = Path(__file__).resolve().parents[1]
    archive = subprocess.run(["git", "-C", str(root), "archive", rev, "host", "data"],
                             capture_output=True, check=False)
    if archive.returncode != 0:
        raise SystemExit(f"--against: git archive {rev} failed: {archive.stderr.decode()}")
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder / "host"


def main() -> int:
    registry.install()  # every game in games.GAMES (overseer/app/registry/)
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("activations", nargs="?", type=int, default=20000)
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per activation under callgrind")
    parser.add_argument("--against", metavar="REV",
                        help="with --instructions: count revision REV too, in the same run")
    parser.add_argument("--only-activations", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--battles", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    n = args.activations
    if args.only_activations:  # the process --instructions measures
        built = [demo_runner() for _ in range(args.battles)]
        timed(demo_runner, {"do": "next_ai_piece"}, n, games.CATACOMBS.is_over, built)
        return 0
    if args.instructions:
        if shutil.which("valgrind") is None:
            raise SystemExit("--instructions needs valgrind (Debian package valgrind)")
        n = min(n, 2000)  # under callgrind an activation takes about 50 times as long
        if args.against:
            with tempfile.TemporaryDirectory(prefix="overseer-against-") as folder:
                before, _ = instructions(n, tree_of(args.against, Path(folder)))
            print(f"AI activation on {args.against}: {before:,} instructions per activation "
                  f"(the same {n:,} activations, same run)")
        activation, battle = instructions(n)
        print(f"AI activation (demo battle): {activation:,} instructions per activation "
              f"(callgrind, {n:,} activations; aim <= 260,000); a battle built (the bench's, "
              f"not counted in): {battle:,}")
        return 0
    baseline = report("baseline (runner, one roll)",
                      timed(lambda: Runner(OneRoll(), None, chance=SeededChance(1)), {}, n))
    engine = report("AI activation (demo battle)",
                    timed(demo_runner, {"do": "next_ai_piece"}, n, games.CATACOMBS.is_over))
    print(f"activation / baseline: {engine['p50_us'] / baseline['p50_us']:.1f}x at p50; "
          f"aim: >= 20,000 activations/s and p99 < 1000 us")
    Path("bench/results").mkdir(exist_ok=True)
    Path("bench/results/engine.json").write_text(json.dumps([baseline, engine], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
