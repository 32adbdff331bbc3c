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

Presses per turn (``--presses``): a scripted four-player game with the cards the data leaves
unknown (49 of 56) given seeded facts, played by a table that presses as few buttons as it
can (the cursor the short way round, a tap where a card answers) and reads a page only when a
button must answer after it; every press and tap of a turn counted. Two games on one store:
the first meets each card for the first time (its ability and armour icon are read off the
card once; a sequence not printed is never read, only the shots that hit are told), the
second starts with the cards learned. Two scripts: no disc ever hit (the script the issue's
figure was measured with), and each shot that can damage hitting the first enemy disc with
chance ``HIT_CHANCE`` (seeded by turn, card and shot: the same shots hit whatever the box
asks). The baseline in the same run is the same scripts on ``--before`` (a git revision,
default ``main``), run from its own tree in a subprocess. The floor: the first game of the
first script again, each fact's cursor starting on what the card shows (as if every likely
answer were right).

    PYTHONPATH=host .venv/bin/python bench/conquest_tap.py [--games 3]
    PYTHONPATH=host .venv/bin/python bench/conquest_tap.py --presses [--before main]

Writes bench/results/conquest_tap.json (the presses: conquest_presses.json).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from overseer.app import registry
from overseer.app.shell import Gadget
from overseer.app.sim import MemoryGlass, SimLeds
from overseer.core.procedure import ChooseOne, ChooseSome, Pick, YesNo
from overseer.ports.events import Button, Press, Tap

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
        question = session.pending if self.gadget.playing.forms.local is None else None
        if state.over is not None:
            return False
        if isinstance(question, Pick):
            drawn = question.options[-1]
            if len(question.options) > 1:
                self.cursor.append(self.press(Button.CHOICE))
            self.draws.append(self.feed(Tap("conquest", "card", drawn)))
        elif question is not None:
            self.answer()
        else:
            player = state.acting_player()
            if player is None or not state.hands[player] or not any(state.decks.values()):
                return False
            self.plays.append(self.feed(Tap("conquest", "card", state.hands[player][0])))
        return True


# --------------------------------------------------------------------------- presses per turn

SHOT_CHOICES = ("rush", "melee", "missile", "longbow", "critical_melee", "fireball", "wave",
                "target_missile")


def truth(card_id: str) -> dict[str, object]:
    """The facts the physical card shows, for a card the data leaves unknown (seeded by id)."""
    rng = random.Random(card_id)
    shots = [rng.choice(SHOT_CHOICES) for _ in range(rng.choice((1, 2, 2, 2, 3)))]
    ability = rng.choice(("none",) * 6 + ("heal_life", "stunned", "capture_life"))
    return {"shots": shots, "ability": ability, "armour": rng.random() < 0.25}


# The shots of one damage, told as one (rules/conquest/shots.py, TOLD).
ONE_DAMAGE = {**{s: "one_damage" for s in ("melee", "missile", "longbow", "fireball", "wave")},
              **{f"target_{s}": "target_one_damage"
                 for s in ("missile", "longbow", "fireball", "wave")}}


def hits(turn: int, card: str, at: int, chance: float) -> bool:
    """Whether the card's damaging shot ``at`` (0: its first) hits an enemy disc directly on
    that turn (seeded by all three; ``chance`` of it)."""
    return chance > 0 and random.Random(f"{turn}-{card}-{at}").random() < chance


class Presser:
    """A table playing on the buttons and the reader with as few presses as it can. Each shot
    that can damage hits the first enemy disc with ``chance`` (``hits``: the same shots hit
    whatever the box asks)."""

    def __init__(self, gadget: Gadget, chance: float = 0.0) -> None:
        self.gadget = gadget
        self.chance = chance
        self.turns: dict[int, int] = {}
        self.shot_at: dict[str, int] = {}  # the shots told so far of the card being read
        self.damaging_at: dict[str, int] = {}  # the damaging shots done so far of the card

    def count(self) -> None:
        session = self.gadget.session
        turn = session.state.turn_number if session is not None else 0
        self.turns[turn] = self.turns.get(turn, 0) + 1

    def press(self, button: Button, long: bool = False) -> None:
        self.count()
        self.gadget.feed(Press(button, long))

    def tap(self, card: str) -> None:
        app = self.gadget.app
        if app is not None and app.reading and not getattr(app.view, "taps_skip_reading",
                                                            False):
            self.read()
        self.count()
        self.gadget.feed(Tap("conquest", "card", card))

    def read(self) -> None:
        app = self.gadget.app
        while app is not None and (app.reading or app.notice):
            self.press(Button.OK)
            app = self.gadget.app

    def choose(self, option: str) -> None:
        self.read()
        app = self.gadget.app
        assert app is not None and app.view.question is not None
        options = list(app.view.question.options)  # type: ignore[union-attr]
        n, at = len(options), options.index(option)
        ahead = (at - app.entry.cursor) % n
        for _ in range(min(ahead, n - ahead)):
            self.press(Button.CHOICE, long=ahead > n - ahead)
        self.press(Button.OK)

    def damaging(self, state: Any, card: str) -> list[str]:
        """The card's shots that can damage, in order (printed, else what the card shows)."""
        shots = list(state.cards[card].shots) or list(truth(card)["shots"])  # type: ignore[call-overload]
        return [s for s in shots if s != "rush"]

    def lands(self, state: Any, card: str) -> bool:
        """Whether the damaging shot the box asks about now hits (the next one of the card)."""
        play = f"{state.turn_number}-{card}"
        at = self.damaging_at.get(play, 0)
        self.damaging_at[play] = at + 1
        return hits(state.turn_number, card, at, self.chance)

    def told(self, state: Any, card: str) -> str:
        """The next shot of the card that hit (a sequence not printed: told), or the end."""
        shots = self.damaging(state, card)
        play = f"{state.turn_number}-{card}"
        at = self.damaging_at.get(play, 0)
        while at < len(shots) and not hits(state.turn_number, card, at, self.chance):
            at += 1
        self.damaging_at[play] = at  # its discs (or its target) are asked next: ``lands``
        return "end" if at == len(shots) else shots[at]

    def answer(self, question: object, state: object) -> None:
        key = getattr(question, "key", "")
        view = self.gadget.app.view  # type: ignore[union-attr]
        card = next(iter(getattr(state, "in_play", [])[-1:]), None)
        facts = truth(card) if card else {}
        if key == "shot":
            told = self.shot_at.get(card, 0) if card else 0
            shots = list(facts.get("shots", ["rush"]))  # type: ignore[call-overload]
            if told < len(shots):
                self.shot_at[card] = told + 1  # type: ignore[index]
                self.choose(shots[told])
            else:
                self.shot_at.pop(card, None)  # type: ignore[arg-type]
                self.choose("end")
        elif key == "shot_hit":  # which shot hit (a sequence not printed), by its damage
            shot = self.told(state, card) if card else "end"
            self.choose(ONE_DAMAGE.get(shot, shot))
        elif key == "ability":
            self.choose(str(facts.get("ability", "none")))
        elif key == "hits":
            self.read()
            if card and self.lands(state, card):
                self.choose_some([question.options[0]])  # type: ignore[attr-defined]
            else:
                self.press(Button.NEXT)  # no disc hit
        elif key == "target":  # the first enemy disc
            if card and not state.cards[card].shots:  # type: ignore[attr-defined]
                self.lands(state, card)  # told as hit: the target is all that is asked
            self.choose(question.options[0])  # type: ignore[attr-defined]
        elif key == "hit":  # a target shot: hit at the first flick, or missed twice
            prompt = str(getattr(question, "prompt", ""))
            yes = bool(card) and not prompt.startswith("Second") and self.lands(state, card)
            self.yes_no(yes)
        elif isinstance(question, ChooseSome):
            self.read()
            self.press(Button.NEXT)  # no disc hit
        elif isinstance(question, YesNo):
            self.yes_no(key == "armour_icon" and bool(facts.get("armour")))
        elif isinstance(question, ChooseOne):
            options = [*question.options, *getattr(view, "tap_answers", ())]
            wanted = "none" if "none" in options else options[0]
            if wanted in question.options:
                self.choose(wanted)
            else:
                self.tap(wanted)
        else:
            raise RuntimeError(f"no answer for {question}")

    def yes_no(self, yes: bool) -> None:
        self.read()
        if (self.gadget.app.entry.cursor == 0) != yes:  # type: ignore[union-attr]
            self.press(Button.CHOICE)  # Yes is the first row, No the second
        self.press(Button.OK)

    def choose_some(self, ticked: list[str]) -> None:
        """Tick the options (the cursor on each, OK), then NEXT answers."""
        app = self.gadget.app
        assert app is not None and app.view.question is not None
        options = list(app.view.question.options)  # type: ignore[union-attr]
        for option in ticked:
            while options[self.gadget.app.entry.cursor] != option:  # type: ignore[union-attr]
                self.press(Button.CHOICE)
            self.press(Button.OK)
        self.press(Button.NEXT)

    def step(self) -> bool:
        """One input of the game; False when it cannot go on."""
        session = self.gadget.session
        assert session is not None
        if self.gadget.app is not None and self.gadget.app.notice:
            self.press(Button.OK)
            return True
        state = session.state
        if state.over is not None:
            return False
        question = session.pending if self.gadget.playing.forms.local is None else None
        if isinstance(question, Pick):
            self.tap(question.options[-1])
        elif question is not None:
            self.answer(question, state)
        else:
            player = state.acting_player()
            if player is None or not state.hands[player] or not any(state.decks.values()):
                return False
            self.tap(state.hands[player][0])
        return True


def new_game(gadget: Gadget, press: Callable[[Button], None]) -> None:
    def choose(option: str) -> None:
        app = gadget.app
        assert app is not None and app.view.question is not None
        while app.view.question.options[app.entry.cursor] != option:  # type: ignore[union-attr]
            press(Button.CHOICE)
            app = gadget.app
            assert app is not None
        press(Button.OK)

    for option in ("conquest", "4", "sword", "seat-1", "skull", "seat-2", "sword", "seat-3"):
        choose(option)
    press(Button.OK)  # health 8
    for option in ("off", "off", "tapped", "sword"):
        choose(option)


HIT_CHANCE = 0.3  # the script with hits: a shot that can damage hits one time in three or so


def presses(store: Path, games: int = 2, chance: float = 0.0) -> list[list[int]]:
    """Presses per turn of each game, on one gadget and store (the next game begun from the
    menu: the cards learned carry over); each shot that can damage hits with ``chance``."""
    gadget = Gadget(store, MemoryGlass(), SimLeds(), seed=1)
    gadget.open()
    out: list[list[int]] = []
    table = Presser(gadget, chance)
    for n in range(games):
        if n:  # the menu's last item: New game
            table.read()
            gadget.feed(Press(Button.OK))
            gadget.feed(Press(Button.CHOICE, True))
            gadget.feed(Press(Button.OK))
        new_game(gadget, lambda b: gadget.feed(Press(b)))
        table = Presser(gadget, chance)
        for _ in range(3000):
            if not table.step():
                break
        out.append([n for turn, n in sorted(table.turns.items()) if turn > 0])
    gadget.close()
    return out


def knowing(state: Any, question: Any) -> int:
    """The row of what the card being read shows (``truth``): the cursor of a table whose
    every likely answer is right, the floor of asking each fact (``--floor``)."""
    card = state.in_play[-1] if state.in_play else None
    options: list[Any] = list(getattr(question, "options", ()))
    if card is None:
        return 0
    facts = truth(card)
    if question.key == "shot_hit":
        return 0  # the end: no shot hits in the script the floor plays
    if question.key == "shot":
        at = int(question.facts.get("n", 1)) - 1
        shots = list(facts["shots"])  # type: ignore[call-overload]
        wanted = shots[at] if at < len(shots) else "end"
        return options.index(wanted) if wanted in options else 0
    if question.key == "ability":
        return options.index(facts["ability"])
    if question.key == "armour_icon":
        return 0 if facts["armour"] else 1
    return 0


def floor() -> list[int]:
    """The first game's presses per turn with the cursor always on the card's own fact."""
    from overseer.app.conquest import ConquestTable

    likely = ConquestTable.likely
    ConquestTable.likely = lambda self, state, question: knowing(state, question)  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory(prefix="overseer-bench-") as folder:
            return presses(Path(folder) / "games.db", games=1)[0]
    finally:
        ConquestTable.likely = likely  # type: ignore[method-assign]


def presses_here() -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="overseer-bench-") as folder:
        games = presses(Path(folder) / "games.db")
    with tempfile.TemporaryDirectory(prefix="overseer-bench-") as folder:
        hit = presses(Path(folder) / "games.db", chance=HIT_CHANCE)
    return {"games": games, "hits": hit}


def before(ref: str) -> dict[str, object] | None:
    """The same script on revision ``ref``'s tree (its host/ and data/), in a subprocess."""
    root = Path(__file__).resolve().parents[1]
    with tempfile.TemporaryDirectory(prefix="overseer-before-") as folder:
        archive = subprocess.run(["git", "-C", str(root), "archive", ref, "host", "data"],
                                 capture_output=True, check=False)
        if archive.returncode != 0:
            print(f"no baseline: git archive {ref} failed", file=sys.stderr)
            return None
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        env = {**os.environ, "PYTHONPATH": f"{folder}/host", "OVERSEER_DATA": f"{folder}/data"}
        done = subprocess.run([sys.executable, __file__, "--presses-json"], env=env,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(f"no baseline: {done.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
            return None
        return json.loads(done.stdout)


def summary(games: list[list[int]]) -> str:
    flat = [n for game in games for n in game]
    return (f"median {statistics.median(flat):4.1f}  mean {statistics.mean(flat):5.1f}  "
            f"max {max(flat):3d}  (turns: {len(flat)})")


def main_presses(ref: str) -> int:
    now = presses_here()
    old = before(ref)
    for script, heading in (("games", "no disc ever hit"),
                            ("hits", f"each shot that can damage hits with {HIT_CHANCE}")):
        print(f"presses per turn, a four-player game, 49 cards unknown to the data, {heading}:")
        games: list[list[int]] = now[script]  # type: ignore[assignment]
        if old is not None:
            was: list[list[int]] = old[script]  # type: ignore[assignment]
            print(f"  before ({ref}), first game:      {summary(was[:1])}")
            print(f"  before ({ref}), second game:     {summary(was[1:])}")
        print(f"  now, first game (cards met):    {summary(games[:1])}")
        print(f"  now, second game (cards known): {summary(games[1:])}")
    least = floor()
    print(f"  floor, first game (each cursor on the card's own fact): {summary([least])}")
    out = Path(__file__).parent / "results" / "conquest_presses.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(json.dumps({"now": now, "before": old, "before_ref": ref, "floor": least},
                              indent=1) + "\n", encoding="utf-8")
    return 0


def main(argv: list[str]) -> int:
    registry.install()  # every game in games.GAMES (overseer/app/registry/)
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--presses", action="store_true", help="presses per turn, and before")
    parser.add_argument("--before", default="main", help="the baseline's git revision")
    parser.add_argument("--presses-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.presses_json:
        print(json.dumps(presses_here()))
        return 0
    if args.presses:
        return main_presses(args.before)
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
