"""Benchmark: the questions the table is asked per AI activation, by kind.

Plays rooms of the card data with seeded chance (dice, tokens, tiles) and a random table (its
answers seeded), in the default LOS mode (open: the gadget asks no "who is in sight"), and
counts every table question each NEXT AI PIECE asks, by question key. The baseline in the same
run is the LOS-blocked mode, where the table says who is in sight. Heroes are too tough to fall
so every room plays many activations. Aim: a median of at most 1 question per activation in
the default mode, each answered with one press.
Also counts the questions of each AI turn of the scripted campaign game the tests play through
the gadget's buttons (tests/app/test_gadget_game.py: two heroes, Glaaoth and Ehanostha, the
default LOS mode), the issue's measure; the turns its script answers by hand (the one after the
restart) are not counted.
Usage: python bench/questions.py [activations per mode]
"""

from __future__ import annotations

import importlib.util
import json
import random
import statistics
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from overseer import games
from overseer.app import registry
from overseer.core.chance import SeededChance
from overseer.core.params import ask_of, fields
from overseer.core.procedure import ChooseOne, ChooseSome, EnterNumber, RulesError, Runner, YesNo


def table_answer(question, rng: random.Random):
    if isinstance(question, ChooseOne):
        return rng.choice(question.options)
    if isinstance(question, ChooseSome):
        return [o for o in question.options if rng.random() < 0.5]
    if isinstance(question, YesNo):
        return rng.random() < 0.5
    if isinstance(question, EnterNumber):
        return question.low
    raise TypeError(question)


def play(los_blocked: bool, activations: int, seed: int = 1) -> tuple[list[int], Counter]:
    spec = games.CATACOMBS
    rng = random.Random(seed)
    per_activation: list[list[str]] = []  # each activation's question keys
    setup = {"heroes": [{"id": "elf", "name": "Elf", "health": 10**6},
                        {"id": "dwarf", "name": "Dwarf", "health": 10**6}],
             "options": {"los_blocked": los_blocked}}
    room_field = next(f for f in fields(spec.moves.moves["setup_room"].params) if f.name == "room")
    options = ask_of(room_field).options
    assert options is not None
    rooms = list(options(spec.build(setup)))  # the rooms a fresh game can set up
    while len(per_activation) < activations:
        runner = Runner(spec, spec.build(setup), chance=SeededChance(rng.randrange(1 << 30)))
        question = runner.begin({"do": "setup_room", "room": rng.choice(rooms)})
        try:
            while question is not None:
                question = runner.answer(table_answer(question, rng))
        except RulesError:  # the table's random counts placed too many pieces: another room
            continue
        for _ in range(60):
            if not spec.moves.moves["next_ai_piece"].available(runner.state):
                break
            asked: list[str] = []
            question = runner.begin({"do": "next_ai_piece"})
            while question is not None:
                asked.append(question.key)
                question = runner.answer(table_answer(question, rng))
            per_activation.append(asked)
    kept = per_activation[:activations]  # the keys of the activations counted, and no others
    return [len(keys) for keys in kept], Counter(k for keys in kept for k in keys)


def report(name: str, counts: list[int], by_key: Counter) -> dict:
    row = {"name": name, "activations": len(counts), "median": statistics.median(counts),
           "mean": round(statistics.mean(counts), 2),
           "p90": statistics.quantiles(counts, n=10)[8],
           "by_key": {k: round(v / len(counts), 3) for k, v in by_key.most_common()}}
    print(f"{name:<34} median {row['median']}  mean {row['mean']}  p90 {row['p90']}")
    print("    per activation, by key: " + ", ".join(f"{k} {v}" for k, v in row["by_key"].items()))
    return row


def scripted_game() -> tuple[list[int], Counter]:
    """The questions of each AI turn of tests/app/test_gadget_game.py's whole game: every
    turn goes through ``catacombs_table.ai_turn`` (the test's own and its stages'), which is
    wrapped in both modules."""
    root = Path(__file__).resolve().parents[1]
    if str(root) not in sys.path:  # tests/ (a checkout's)
        sys.path.insert(0, str(root))
    tests = root / "tests"
    from tests.drivers import catacombs_table

    spec = importlib.util.spec_from_file_location("test_gadget_game",
                                                  tests / "app" / "test_gadget_game.py")
    assert spec is not None and spec.loader is not None
    game: Any = importlib.util.module_from_spec(spec)  # (its ai_turn is counted)
    spec.loader.exec_module(game)
    turns: list[list[str]] = []
    real = catacombs_table.ai_turn

    def counting(table):
        pages, asked = real(table)
        turns.append(list(asked))
        return pages, asked

    game.ai_turn = catacombs_table.ai_turn = counting
    try:
        with tempfile.TemporaryDirectory() as folder:
            game.test_a_whole_campaign_game_at_the_table(Path(folder))
    finally:
        catacombs_table.ai_turn = real
    print("scripted game, each AI turn's questions: "
          + "; ".join(", ".join(turn) for turn in turns))
    return [len(turn) for turn in turns], Counter(k for turn in turns for k in turn)


def main() -> int:
    registry.install()  # every game in games.GAMES (overseer/app/registry/)
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    scripted = report("the scripted game (default LOS)", *scripted_game())
    default = report("default LOS mode (open)", *play(False, n))
    baseline = report("baseline: LOS blocked by obstacles", *play(True, n))
    print("aim: median <= 1 question per activation in the default mode")
    Path("bench/results").mkdir(exist_ok=True)
    Path("bench/results/questions.json").write_text(
        json.dumps([scripted, default, baseline], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
