"""Benchmark: a Conquest card tapped to the new frame on the glass, through the whole shell (the
controller, the session's durable log in SQLite, the rules, the flow's names, menu, tap actions
and lights, the render), on a MemoryGlass: the time of ``Gadget.feed(Tap)``, which returns once
the new frame is drawn.

Figures (p50, p99):

- ``tap a card drawn``: a draw tapped while the deck's Pick waits (the session answers it, the
  rules go on to the next draw or the turn);
- ``tap the card to play``: the idle screen's tap, which begins the play action (its first
  question or the next turn);
- baseline in the same run: ``CHOICE on the draw's list``, the cursor moved on the same
  question's screen (no session call: the controller and the render alone).

Four-player games with every card tapped (``draws`` ``tapped``), the players answering each
question with the buttons (a card's unknown shots: one Rush shot; no hits), until a deck runs
out or the game ends.

A tap that reaches the session is mostly the log's commit (SQLite, durable before the screen
moves: session/store.py), about 15 ms of the p50 on the shared development machine; the
flow's view (names, menu, tap actions, lights) is about 5 ms.

    PYTHONPATH=host .venv/bin/python bench/conquest_tap.py [--games 3]

Writes bench/results/conquest_tap.json.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from overseer.app.events import Button, Press, Tap
from overseer.app.shell import Gadget
from overseer.app.sim import MemoryGlass, SimLeds
from overseer.rules.procedure import ChooseOne, ChooseSome, Pick, YesNo

WANTED = {"shot": ("end", "rush"), "ability": ("none",), "surprise_attack": ("none",),
          "power_wave": ("none",), "armour": ("none",)}


def figures(seconds: list[float]) -> dict[str, float | int]:
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return {"p50_ms": round(statistics.median(ms), 2), "p99_ms": round(p99, 2),
            "max_ms": round(ms[-1], 2), "n": len(ms)}


class Bench:
    def __init__(self, store: Path) -> None:
        self.glass = MemoryGlass()
        self.gadget = Gadget(store, self.glass, SimLeds(), seed=1)
        self.gadget.open()
        self.draws: list[float] = []
        self.plays: list[float] = []
        self.cursor: list[float] = []

    def feed(self, item: Press | Tap) -> float:
        start = time.perf_counter()
        self.gadget.feed(item)
        return time.perf_counter() - start

    def press(self, button: Button) -> float:
        return self.feed(Press(button))

    def read(self) -> None:
        app = self.gadget.app
        while app is not None and (app.reading or app.notice):
            self.press(Button.OK)
            app = self.gadget.app

    def choose(self, option: str) -> None:
        app = self.gadget.app
        assert app is not None and app.view.question is not None
        options = app.view.question.options  # type: ignore[union-attr]
        while options[self.gadget.app.entry.cursor] != option:  # type: ignore[union-attr]
            self.press(Button.CHOICE)
        self.press(Button.OK)

    def new_game(self) -> None:
        for option in ("conquest", "4", "sword", "seat-1", "skull", "seat-2", "sword",
                       "seat-3"):
            self.choose(option)
        self.press(Button.OK)  # health 8
        for option in ("off", "off", "tapped", "sword"):
            self.choose(option)

    def answer(self) -> None:
        question = self.gadget.app.view.question  # type: ignore[union-attr]
        if isinstance(question, ChooseSome):
            self.press(Button.NEXT)
        elif isinstance(question, YesNo):
            self.press(Button.CHOICE)
            self.press(Button.OK)
        elif isinstance(question, ChooseOne):
            wanted = next((o for o in WANTED.get(question.key, ()) if o in question.options),
                          question.options[0])
            self.choose(wanted)
        else:
            raise RuntimeError(f"no answer for {question}")

    def play(self) -> bool:
        """One step of the game; False when it cannot go on."""
        self.read()
        session = self.gadget.session
        assert session is not None
        state = session.state
        question = session.pending if self.gadget.local is None else None
        if state.over is not None:
            return False
        if isinstance(question, Pick):
            if len(question.options) > 1:
                self.cursor.append(self.press(Button.CHOICE))
            self.draws.append(self.feed(Tap("conquest", "card", question.options[-1])))
        elif question is not None:
            self.answer()
        else:
            player = state.acting_player()
            if player is None or not state.hands[player] or not any(state.decks.values()):
                return False
            self.plays.append(self.feed(Tap("conquest", "card", state.hands[player][0])))
        return True


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args(argv)
    draws: list[float] = []
    plays: list[float] = []
    cursor: list[float] = []
    for n in range(args.games):
        with tempfile.TemporaryDirectory(prefix="overseer-bench-") as folder:
            bench = Bench(Path(folder) / f"games-{n}.db")
            bench.new_game()
            for _ in range(5000):
                if not bench.play():
                    break
            bench.gadget.close()
            draws += bench.draws
            plays += bench.plays
            cursor += bench.cursor
    results = {"tap a card drawn": figures(draws), "tap the card to play": figures(plays),
               "baseline: CHOICE on the draw's list": figures(cursor)}
    for name, fig in results.items():
        print(f"{name:<38} p50 {fig['p50_ms']:7.2f} ms   p99 {fig['p99_ms']:7.2f} ms   "
              f"max {fig['max_ms']:7.2f} ms   (n={fig['n']})")
    out = Path(__file__).parent / "results" / "conquest_tap.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
