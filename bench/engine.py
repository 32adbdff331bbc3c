"""Benchmark: AI activations per second and the time of one activation (p50, p99).

Runs NEXT AI PIECE over the demo battle with seeded dice and a scripted table (first option,
"yes"), heroes too tough to fall. The baseline, measured in the same run, is the runner driving
a procedure that only rolls one die: the cost of the machinery without the rules.
Usage: python bench/engine.py [activations]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

from overseer import games
from overseer import scenario as scenarios
from overseer.chance import SeededChance
from overseer.data import DATA_DIR
from overseer.rules.procedure import ChooseOne, ChooseSome, EnterNumber, Roll, Runner, YesNo


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
        face = yield Roll("d12", "baseline")
        return face


def timed(runner: Runner, action: dict, n: int) -> list[int]:
    times = []
    clock = time.perf_counter_ns
    for _ in range(n):
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


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    demo = json.loads((DATA_DIR / "demo" / "catacombs.json").read_text())
    setup = scenarios.setup_of(demo, games.CATACOMBS)  # the demo file's setup, either format
    for hero in setup["heroes"]:
        hero["health"] = 10**9
    setup["options"] = {"advanced_targeting": True, "los_blocked": True}
    baseline = report("baseline (runner, one roll)",
                      timed(Runner(OneRoll(), None, chance=SeededChance(1)), {}, n))
    battle = games.CATACOMBS.build(setup)
    engine = report("AI activation (demo battle)",
                    timed(Runner(games.CATACOMBS, battle, chance=SeededChance(1)),
                          {"do": "next_ai_piece"},
                          n))
    print(f"activation / baseline: {engine['p50_us'] / baseline['p50_us']:.1f}x at p50; "
          f"aim: >= 20,000 activations/s and p99 < 1000 us")
    Path("bench/results").mkdir(exist_ok=True)
    Path("bench/results/engine.json").write_text(json.dumps([baseline, engine], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
