"""The gadget in a terminal: press Enter for NEXT AI PIECE and answer what the rules ask.

Runs the demo battle in data/demo/ (or a scenario-shaped setup file) with seeded dice.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any, TextIO

from overseer import scenario as scenarios
from overseer.chance import SeededChance
from overseer.data import DATA_DIR
from overseer.rules.procedure import (
    ChooseOne,
    ChooseSome,
    EnterNumber,
    Question,
    Runner,
    Step,
    YesNo,
    describe,
)


def ask(question: Question, read: TextIO, write: TextIO) -> Any:
    """Ask one table question on the terminal until the answer fits."""
    while True:
        write.write(describe(question) + "\n")
        if isinstance(question, ChooseOne | ChooseSome):
            for n, option in enumerate(question.options, 1):
                write.write(f"  {n}. {option}\n")
            hint = "number" if isinstance(question, ChooseOne) else "numbers, comma-separated"
            write.write(f"> ({hint}) ")
        elif isinstance(question, YesNo):
            write.write("> (y/n) ")
        elif isinstance(question, EnterNumber):
            write.write(f"> ({question.low}-{question.high}) ")
        write.flush()
        line = read.readline()
        if not line:
            raise EOFError
        text = line.strip().lower()
        try:
            if isinstance(question, YesNo):
                if text in ("y", "yes", "n", "no"):
                    return text.startswith("y")
            elif isinstance(question, ChooseOne):
                return question.options[int(text) - 1]
            elif isinstance(question, ChooseSome):
                picks = [int(p) - 1 for p in text.replace(",", " ").split()]
                return tuple(question.options[p] for p in picks)
            else:
                return int(text)
        except (ValueError, IndexError):
            pass
        write.write("That answer does not fit; try again.\n")


def play(setup: dict[str, Any], seed: int, read: TextIO, write: TextIO) -> int:
    module = __import__(scenarios.GAMES[setup["game"]], fromlist=["build"])
    game, state = module.build(setup)

    def show(step: Step) -> None:
        write.write(f"  - {step.text}  [{step.rule}]\n")

    runner = Runner(game, state, chance=SeededChance(seed), on_step=show)
    write.write(f"Overseer: {setup.get('title', 'a battle')} (seed {seed}).\n"
                "Enter = NEXT AI PIECE, q = quit.\n")
    while True:
        write.write("\n[NEXT AI PIECE] ")
        write.flush()
        line = read.readline()
        if not line or line.strip().lower() == "q":
            write.write("\nbye\n")
            return 0
        try:
            question = runner.begin({"do": "next_ai_piece"})
            while question is not None:
                question = runner.answer(ask(question, read, write))
        except EOFError:
            write.write("\nbye\n")
            return 0
        except ValueError as err:
            write.write(f"! {err}\n")
        write.write("party: " + json.dumps(module.state_dict(state)["heroes"]) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="overseer", description=__doc__)
    parser.add_argument("--setup", default=str(DATA_DIR / "demo" / "catacombs.json"))
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    try:
        setup = scenarios.load(args.setup)
    except scenarios.ScenarioError as err:
        print(f"overseer: {err}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else time.time_ns() & 0xFFFFFFFF
    return play(setup, seed, sys.stdin, sys.stdout)
