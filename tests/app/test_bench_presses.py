"""bench/presses.py runs: a few activations through the gadget, its figures as one JSON
object (the benchmark itself, 2,000 activations beside the commit before, is run by hand:
docs/benchmarks.md)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "presses.py"
KEYS = ("activation_presses_median", "activation_presses_p90", "read_presses_median",
        "questions_mean", "hit_that_kills_presses", "health_change_presses")


def test_the_presses_benchmark_prints_its_figures_as_one_object(capsys, monkeypatch):
    spec = importlib.util.spec_from_file_location("presses", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "presses", bench)
    spec.loader.exec_module(bench)
    assert bench.main(["--count", "6", "--json", "--no-base"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert all(isinstance(figures[k], int | float) for k in KEYS)
    assert figures["activations"] == 6
    kinds = figures["presses_by_kind_mean"]
    assert kinds["begin"] == 1.0 and set(kinds) <= {"begin", "read", "answer", "roll"}
    # the heroes' side by a card: at most four presses (the aims of issue 21)
    assert figures["hit_that_kills_presses"] <= 4 and figures["health_change_presses"] <= 4
