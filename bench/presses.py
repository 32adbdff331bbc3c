"""Benchmark: the presses the table makes per Catacombs activation, and per heroes'-side entry.

A scripted table plays through the real gadget (``tools.table.Table``: the shell, the controller,
the session, in memory) and reads each screen to answer with the fewest presses: OK (or NEXT)
through the step pages, CHOICE (held: back) to the answer it means, then OK. What it means is
seeded: the likely answer (the rules' first candidate, yes, every hero in sight, the number
as it starts) three times in four, another one else. It plays

- the scripted campaign game of the tests (tests/app/test_gadget_game.py's AI turns), and
- ``COUNT`` seeded random activations (default 2,000) in rooms of the card data, with line of
  sight open and blocked, and parties of two, three and four heroes (too tough to fall);

and counts each activation's presses from its NEXT AI PIECE to the press that begins the next
one, by kind: ``begin`` (that NEXT), ``read`` (a step page read on), ``answer`` (a question's
presses), ``roll`` (a die's), and its questions by key. Those activations roll no die of the
table's (the ``seeded`` dice mode: the gadget rolls). A quarter as many are played again with
the Pico's dice (the ``pico`` mode: ROLL, or ROLL from the last page before the roll where the
build takes it) and with the table's own dice (``table``: the face set from the middle), and
their presses per roll are printed too. Then the heroes' side: every piece of
a room destroyed one by one (a hit that kills, by the fewest presses the build offers: the
menu, or a monster's card) and each hero's health one down.

The figures of the commit before (``--base``, default ``BASE``: the commit this benchmark was
written on) are measured in the same run: that commit's ``host/`` is taken out with
``git archive`` and this script runs on it in a subprocess.

Usage: python bench/presses.py [--count N] [--json] [--base REV | --no-base] [--likely P]
(``--likely 1``: every answer the likely one, each question one press)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from overseer import games
from overseer.app import registry
from overseer.app.sim import SeededDice
from overseer.core.params import ask_of, fields
from overseer.core.procedure import (
    ChooseOne,
    ChooseSome,
    DrawToken,
    EnterNumber,
    Pick,
    Question,
    Roll,
    YesNo,
)
from overseer.loaders import catacombs as catacombs_loader
from overseer.ports.events import Button
from overseer.session.session import Session

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tools/ and tests/ (a checkout's)

from tools.table import Table  # noqa: E402

BASE = "1c88f9b"  # main before this session's issue 21 work (the figures of "before")
LIKELY = 0.75  # how often the table's answer is the likely one
PARTIES = (2, 3, 4)
HERO_IDS = ("elf", "ulom", "hero-3", "hero-4")  # two with a card, two without
HERO_NAMES = {"elf": "Elf", "ulom": "Ulom the Merman", "hero-3": "Hero 3", "hero-4": "Hero 4"}
AIMS = {"activation_presses_median": 6, "activation_presses_p90": 9, "read_presses_median": 2,
        "questions_mean": 2.0, "hit_that_kills_presses": 4, "health_change_presses": 4}
OK, CHOICE, NEXT, ROLL = Button.OK, Button.CHOICE, Button.NEXT, Button.ROLL
DICE_MODES = ("pico", "table")  # played again with these dice, a quarter of COUNT each


# ---------------------------------------------------------------------- the scripted table


@dataclass
class Tally:
    """One activation's presses by kind and its questions by key."""

    presses: Counter = field(default_factory=Counter)
    questions: Counter = field(default_factory=Counter)

    @property
    def total(self) -> int:
        return sum(self.presses.values())


def ready(table: Table) -> bool:
    """The next action's press works on the glass now: the idle screen, or (where the build
    allows it) the last page of the steps with nothing asked (``App.settled``)."""
    app = table.gadget.app
    assert app is not None
    if app.notice:
        return False
    if getattr(app, "settled", False):
        return True
    return not app.reading and table.gadget.session is not None \
        and table.gadget.session.pending is None and table.gadget.playing.forms.local is None


def _label(table: Table, option: str) -> str:
    app = table.gadget.app
    assert app is not None
    names = app.view.names
    return names.get(option) or option.replace("_", " ").replace("-", " ")


def _to_row(table: Table, label: str, tally: Tally, kind: str) -> None:
    """CHOICE (or CHOICE held, back) to the row ``label`` by the fewer presses."""
    rows = table.screen.rows
    if label not in rows:
        raise AssertionError(f"{label!r} is not on the glass: {table.screen}")
    n, at = len(rows), table.screen.cursor
    want = rows.index(label)
    forward, back = (want - at) % n, (at - want) % n
    for _ in range(min(forward, back)):
        table.press(CHOICE, long=back < forward)
        tally.presses[kind] += 1


def _fewest(now: int, value: int, span: int, held: int) -> tuple[Button, bool]:
    """The first press of the fewest from ``now`` to ``value`` (CHOICE +1, NEXT -1, held:
    by ``held``), wrapping in ``span`` values."""
    moves = ((CHOICE, False, 1), (NEXT, False, -1), (CHOICE, True, held), (NEXT, True, -held))
    seen: dict[int, tuple[Button, bool] | None] = {now: None}
    frontier = [now]
    while value not in seen:
        later = []
        for at in frontier:
            for button, long, step in moves:
                to = (at + step) % span
                if to not in seen:
                    seen[to] = (button, long) if seen[at] is None else seen[at]
                    later.append(to)
        frontier = later
    first = seen[value]
    assert first is not None
    return first


def _number(table: Table, value: int, low: int, high: int, tally: Tally, kind: str,
            held: int = 5) -> None:
    """CHOICE up or NEXT down (held: by ``held``) to ``value`` by the fewest presses,
    wrapping."""
    for _ in range(4 * (high - low + 1)):
        now = table.screen.number
        if now == value:
            return
        span = high - low + 1
        if now is None:
            button, long = (CHOICE, False) if value - low <= high - value else (NEXT, False)
        else:
            button, long = _fewest(now - low, value - low, span, held)
        table.press(button, long=long)
        tally.presses[kind] += 1
    raise AssertionError(f"the number never reached {value}: {table.screen}")


def meant(question: Question, rng: random.Random) -> Any:
    """What the table means to answer (seeded): the likely answer ``LIKELY`` of the time."""
    likely = rng.random() < LIKELY
    if isinstance(question, YesNo):
        return True if likely else rng.random() < 0.5
    if isinstance(question, ChooseOne | Pick):
        return question.options[0] if likely else rng.choice(question.options)
    if isinstance(question, ChooseSome):
        # who is in sight: everyone, most often (the only such question of an activation)
        return question.options if likely else tuple(o for o in question.options
                                                     if rng.random() < 0.5)
    if isinstance(question, EnterNumber):
        return question.low if likely else rng.randint(question.low, question.high)
    if isinstance(question, Roll):
        return rng.randint(1, question.faces)
    if isinstance(question, DrawToken):
        return rng.randint(0, 3)
    raise TypeError(question)


def answer(table: Table, rng: random.Random, tally: Tally) -> None:
    """The question on the glass answered with the fewest presses, as the screen shows it."""
    session = table.gadget.session
    assert session is not None
    question = table.gadget.app.view.question if table.gadget.app else None
    assert question is not None
    value = meant(question, rng)
    kind = "roll" if isinstance(question, Roll) else "answer"
    tally.questions[question.key] += 1
    if isinstance(question, ChooseSome):
        want = {_label(table, o) for o in value}
        for _ in range(4 * len(table.screen.rows)):
            screen = table.screen
            ticked = {screen.options[n] for n in (screen.selected or ())}
            if ticked == want:
                break
            wrong = next(r for r in screen.options if (r in want) != (r in ticked))
            _to_row(table, wrong, tally, kind)
            table.press(OK)
            tally.presses[kind] += 1
        if table.screen.cursor == len(table.screen.options):
            table.press(OK)  # on the Done row
        else:
            table.press(NEXT)  # "OK ticks, NEXT: done": one press from any row
        tally.presses[kind] += 1
        return
    app = table.gadget.app
    assert app is not None
    if isinstance(question, Roll) and not app.view.own_dice:
        table.press(ROLL)  # the Pico rolls and answers
        tally.presses[kind] += 1
        return
    if isinstance(question, YesNo):
        _to_row(table, "Yes" if value else "No", tally, kind)
    elif isinstance(question, ChooseOne | Pick):
        _to_row(table, _label(table, value), tally, kind)
    elif isinstance(question, EnterNumber | Roll):
        low, high = (question.low, question.high) if isinstance(question, EnterNumber) \
            else (1, question.faces)
        _number(table, value, low, high, tally, kind, 5 if isinstance(question, EnterNumber)
                else 3)  # a die's face, held: by 3
    else:
        raise TypeError(question)
    table.press(OK)
    tally.presses[kind] += 1


def _pages(table: Table) -> bool:
    app = table.gadget.app
    assert app is not None
    return bool(app.reading or app.notice)


ROLLS_FROM_PAGE = [True]  # ROLL on the last page before a roll rolls (until a build says no)


def _roll_from_page(table: Table, rng: random.Random, tally: Tally) -> bool:
    """With the Pico's dice, on the last page before a roll: ROLL, if the build rolls from
    there (a build that says "Read on" is remembered, that probe's presses not counted)."""
    app = table.gadget.app
    assert app is not None
    question = app.view.question
    if not ROLLS_FROM_PAGE[0] or app.notice or not isinstance(question, Roll) \
            or app.view.own_dice or app.at != len(app.reel) - 1:
        return False
    table.press(ROLL)
    if table.gadget.app is not None and table.gadget.app.notice:
        ROLLS_FROM_PAGE[0] = False
        table.press(OK)  # the notice put away
        return False
    meant(question, rng)  # the seeded draws as answer() makes them: the same games follow
    tally.presses["roll"] += 1
    tally.questions[question.key] += 1
    return True


def settle(table: Table, rng: random.Random, tally: Tally, limit: int = 400) -> None:
    """Read and answer until the next action's press works."""
    for _ in range(limit):
        if ready(table):
            return
        if _pages(table) and _roll_from_page(table, rng, tally):
            continue
        if _pages(table):
            table.press(OK)
            tally.presses["read"] += 1
        elif table.gadget.app is not None and table.gadget.app.view.question is not None:
            answer(table, rng, tally)
        else:
            raise AssertionError(f"stuck on {table.screen}")
    raise AssertionError(f"the activation never ended: {table.screen}")


def activation(table: Table, rng: random.Random) -> Tally:
    """NEXT AI PIECE and every press up to where the next one can begin."""
    tally = Tally()
    table.press(NEXT)
    tally.presses["begin"] += 1
    settle(table, rng, tally)
    return tally


# ---------------------------------------------------------------------- random rooms


def _rooms(setup: dict[str, Any]) -> list[str]:
    spec = games.CATACOMBS
    room = next(f for f in fields(spec.moves.moves["setup_room"].params) if f.name == "room")
    options = ask_of(room).options
    assert options is not None
    return sorted(options(spec.build(setup)))


def _setup(heroes: int, blocked: bool) -> dict[str, Any]:
    return {"heroes": [{"id": h, "name": HERO_NAMES[h], "health": 30}
                       for h in HERO_IDS[:heroes]],
            "options": {"los_blocked": blocked}}


def _room_table(folder: Path, setup: dict[str, Any], room: str, seed: int,
                rng: random.Random, dice: str = "seeded") -> Table | None:
    """A gadget over a new game of ``setup``, its room set up by the table (a tap of the Room
    card; its setup questions answered, not counted); None when the room does not set up."""
    store = folder / f"g{seed}.sqlite3"
    from overseer.session.store import Store
    with Store(store) as raw:
        session = Session.new(raw, "catacombs", {"format": 2, "game": "catacombs",
                                                 "setup": setup}, seed=seed, dice=dice)
        raw.set_gadget(session.id, {"seats": {h["id"]: n + 1
                                              for n, h in enumerate(setup["heroes"])}})
    table = Table(store, seed=seed, game_id=session.id,
                  dice=SeededDice(seed) if dice == "pico" else None)
    table.tap("room", room)
    try:
        settle(table, rng, Tally())
    except AssertionError:
        table.close()
        return None
    if table.gadget.session is None or table.gadget.session.state.round == 0 and \
            not table.gadget.session.state.pieces:
        table.close()
        return None
    return table


def random_activations(count: int, seed: int = 1, dice: str = "seeded") -> Iterator[Tally]:
    """``count`` activations over the modes and parties in turn, each room up to 12 of them."""
    rng = random.Random(seed)
    modes = [(blocked, heroes) for blocked in (False, True) for heroes in PARTIES]
    rooms = _rooms(_setup(2, False))
    made = 0
    with tempfile.TemporaryDirectory(prefix="presses-") as tmp:
        folder = Path(tmp)
        n = 0
        while made < count:
            blocked, heroes = modes[n % len(modes)]
            n += 1
            table = _room_table(folder, _setup(heroes, blocked), rng.choice(rooms),
                                rng.randrange(1 << 30), rng, dice)
            if table is None:
                continue
            try:
                for _ in range(12):
                    session = table.gadget.session
                    assert session is not None
                    if made >= count or session.finished or table.gadget.app is None \
                            or table.gadget.app.view.next_action is None:
                        break
                    yield activation(table, rng)
                    made += 1
            finally:
                table.close()


# ---------------------------------------------------------------------- the scripted game


def scripted_game() -> list[Tally]:
    """The AI turns of tests/app/test_gadget_game.py's whole campaign game, each replayed by
    the scripted table: its presses from the same glass (the test's own answers are its
    script; this counts the presses the fewest-press table makes at each of those turns)."""
    import importlib.util
    path = ROOT / "tests" / "app" / "test_gadget_game.py"
    spec = importlib.util.spec_from_file_location("test_gadget_game", path)
    assert spec is not None and spec.loader is not None
    game: Any = importlib.util.module_from_spec(spec)  # (its ai_turn is counted)
    spec.loader.exec_module(game)
    tallies: list[Tally] = []
    real = game.ai_turn

    def counting(table):
        pages, asked = real(table)
        tallies.append(Tally(Counter(begin=1, read=len(pages), answer=len(asked)),
                             Counter(asked)))
        return pages, asked

    game.ai_turn = counting
    with tempfile.TemporaryDirectory() as folder:
        try:
            game.test_a_whole_campaign_game_at_the_table(Path(folder))
        except AssertionError as err:  # the game's script does not fit this build
            print(f"the scripted game stopped: {err!r}", file=sys.stderr)
    return tallies


# ---------------------------------------------------------------------- the heroes' side


def _hit_by_card(table: Table, piece: str, amount: int, rng: random.Random) -> Tally | None:
    """The hit entered with the monster's card, if this build takes it (else None)."""
    battle = table.gadget.session.state  # type: ignore[union-attr]
    name = battle.pieces[piece].name
    monster = next((m for m, r in battle.data.monsters.items() if r["name"] == name), None)
    if monster is None:
        return None
    tally = Tally()
    table.tap("monster", monster)
    tally.presses["tap"] += 1
    app = table.gadget.app
    if app is None or app.notice or table.gadget.playing.forms.local is None:
        if app is not None and app.notice:
            table.press(OK)
        return None
    _form(table, piece, amount, tally, rng)
    return tally


def _hit_by_menu(table: Table, piece: str, amount: int, rng: random.Random) -> Tally:
    tally = Tally()
    table.press(OK)
    tally.presses["menu"] += 1
    _to_row(table, "Hit an AI piece", tally, "menu")
    table.press(OK)
    tally.presses["menu"] += 1
    _form(table, piece, amount, tally, rng)
    return tally


def _form(table: Table, piece: str, amount: int, tally: Tally, rng: random.Random) -> None:
    """The hit's form: the piece, the amount, the hero (the first), each by the fewest
    presses; then what follows, read until the next entry can begin."""
    for _ in range(8):
        local = table.gadget.playing.forms.local
        if local is None or local.ask is None:
            break
        question = local.ask.question
        if isinstance(question, ChooseOne):
            want = piece if piece in question.options else next(
                (o for o in question.options if o.startswith("monster:")
                 or o.startswith("group")), question.options[0])
            if question.key in ("by", "form_by"):
                want = question.options[0]
            _to_row(table, _label(table, want), tally, "entry")
        elif isinstance(question, EnterNumber):
            _number(table, amount, question.low, question.high, tally, "entry")
        table.press(OK)
        tally.presses["entry"] += 1
    settle(table, rng, tally)


def heroes_side(seed: int = 3) -> tuple[list[int], list[int]]:
    """Each piece of a few rooms destroyed in turn (the fewer presses of the menu and the
    monster's card), then each hero's health one down (the hero's card)."""
    rng = random.Random(seed)
    kills: list[int] = []
    health: list[int] = []
    rooms = _rooms(_setup(2, False))
    with tempfile.TemporaryDirectory(prefix="presses-") as tmp:
        for room in rooms[:6]:
            table = _room_table(Path(tmp), _setup(2, False), room, rng.randrange(1 << 30),
                                rng)
            if table is None:
                continue
            try:
                session = table.gadget.session
                assert session is not None
                known = catacombs_loader.default_heroes()
                for hero in (h for h in session.state.heroes if h in known):
                    health.append(_health_down(table, hero, rng))
                for pid in list(session.state.pieces):
                    piece = session.state.pieces.get(pid)
                    if piece is None or not piece.alive or piece.invulnerable:
                        continue
                    by_card = _hit_by_card(table, pid, piece.health, rng)
                    if by_card is not None:
                        kills.append(by_card.total)
                        continue
                    kills.append(_hit_by_menu(table, pid, piece.health, rng).total)
                    if session.finished:
                        break
            finally:
                table.close()
    return kills, health


def _health_down(table: Table, hero: str, rng: random.Random) -> int:
    """A hero's health one down from its card: the tap, what changed (health), the number."""
    tally = Tally()
    now = table.gadget.session.state.heroes[hero].health  # type: ignore[union-attr]
    table.tap("hero", hero)
    tally.presses["tap"] += 1
    for _ in range(4):
        local = table.gadget.playing.forms.local
        if local is None or local.ask is None:
            break
        question = local.ask.question
        if isinstance(question, ChooseOne):
            _to_row(table, f"Health {now}", tally, "entry")
        elif isinstance(question, EnterNumber):
            _number(table, now - 1, question.low, question.high, tally, "entry")
        table.press(OK)
        tally.presses["entry"] += 1
    settle(table, rng, tally)
    return tally.total


# ---------------------------------------------------------------------- the report


def p90(values: list[int]) -> float:
    return statistics.quantiles(values, n=10)[8] if len(values) > 1 else float(values[0])


def measure(count: int) -> dict[str, Any]:
    tallies = list(random_activations(count))
    scripted = scripted_game()
    kills, health = heroes_side()
    totals = [t.total for t in tallies]
    by_kind = Counter()
    for t in tallies:
        by_kind.update(t.presses)
    questions = Counter()
    for t in tallies:
        questions.update(t.questions)
    dice = {}
    for mode in DICE_MODES:
        played = list(random_activations(max(count // 4, 1), seed=2, dice=mode))
        rolls = sum(t.questions["roll"] for t in played)
        dice[mode] = {
            "activation_presses_median": statistics.median(t.total for t in played),
            "activation_presses_p90": p90([t.total for t in played]),
            "presses_mean": round(statistics.mean(t.total for t in played), 2),
            "rolls_per_activation": round(rolls / len(played), 2),
            "presses_per_roll": round(sum(t.presses["roll"] for t in played) / rolls, 2)
            if rolls else 0,
        }
    return {
        "activations": len(tallies),
        "activation_presses_median": statistics.median(totals),
        "activation_presses_p90": p90(totals),
        "read_presses_median": statistics.median(t.presses["read"] for t in tallies),
        "questions_mean": round(statistics.mean(sum(t.questions.values()) for t in tallies),
                                2),
        "hit_that_kills_presses": statistics.median(kills),
        "health_change_presses": statistics.median(health),
        "presses_by_kind_mean": {k: round(v / len(tallies), 2)
                                 for k, v in sorted(by_kind.items())},
        "questions_by_key_mean": {k: round(v / len(tallies), 3)
                                  for k, v in questions.most_common()},
        "scripted_game_questions_mean": round(statistics.mean(
            sum(t.questions.values()) for t in scripted), 2) if scripted else 0,
        "scripted_game_pages_median": statistics.median(
            t.presses["read"] for t in scripted) if scripted else 0,
        "dice": dice,
    }


def base_figures(rev: str, count: int) -> dict[str, Any] | None:
    """This benchmark run on commit ``rev``'s host/ and tests/ (a subprocess)."""
    with tempfile.TemporaryDirectory(prefix="presses-base-") as tmp:
        archive = Path(tmp) / "base.tar"
        made = subprocess.run(["git", "archive", "-o", str(archive), rev, "host", "tests",
                               "tools", "data"], cwd=ROOT, capture_output=True, text=True)
        if made.returncode != 0:
            print(f"no baseline: {made.stderr.strip()}", file=sys.stderr)
            return None
        with tarfile.open(archive) as tar:
            tar.extractall(tmp, filter="data")
        bench = Path(tmp) / "bench"
        bench.mkdir()
        (bench / "presses.py").write_text(Path(__file__).read_text())
        env = {**os.environ, "PYTHONPATH": str(Path(tmp) / "host")}
        run = subprocess.run([sys.executable, str(bench / "presses.py"), "--json",
                              "--no-base", "--count", str(count), "--likely", str(LIKELY)],
                             cwd=tmp, env=env,
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"no baseline: {run.stderr.strip()[-2000:]}", file=sys.stderr)
            return None
        return json.loads(run.stdout)


AIM_KEYS = tuple(AIMS)


def print_table(now: dict[str, Any], base: dict[str, Any] | None) -> None:
    print(f"{'figure':<28} {'before':>8} {'now':>8}  aim")
    for key in (*AIM_KEYS, "scripted_game_questions_mean", "scripted_game_pages_median"):
        before = "-" if base is None else base.get(key, "-")
        aim = f"<= {AIMS[key]}" if key in AIMS else ""
        met = "" if key not in AIMS else ("met" if now[key] <= AIMS[key] else "NOT met")
        print(f"{key:<28} {before!s:>8} {now[key]!s:>8}  {aim} {met}")
    print("presses per activation by kind (mean): " + ", ".join(
        f"{k} {v}" for k, v in now["presses_by_kind_mean"].items())
        + ("" if base is None else "   before: " + ", ".join(
            f"{k} {v}" for k, v in base["presses_by_kind_mean"].items())))
    print("questions per activation by key (mean): " + ", ".join(
        f"{k} {v}" for k, v in now["questions_by_key_mean"].items()))
    if base is not None:
        print("   before: " + ", ".join(
            f"{k} {v}" for k, v in base["questions_by_key_mean"].items()))
    for mode, figures in now["dice"].items():
        before = (base or {}).get("dice", {}).get(mode)
        print(f"{mode} dice: " + ", ".join(f"{k} {v}" for k, v in figures.items())
              + ("" if before is None else "   before: "
                 + ", ".join(f"{k} {v}" for k, v in before.items())))


def main(argv: list[str] | None = None) -> int:
    registry.install()  # every game in games.GAMES (overseer/app/registry/)
    global LIKELY
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--json", action="store_true", help="print the figures as one object")
    parser.add_argument("--base", default=BASE, help="the commit to measure beside (git rev)")
    parser.add_argument("--no-base", action="store_true", help="measure this tree only")
    parser.add_argument("--likely", type=float, default=LIKELY,
                        help="how often the table's answer is the likely one (default 0.75)")
    args = parser.parse_args(argv)
    LIKELY = args.likely
    now = measure(args.count)
    if args.json and args.no_base:
        print(json.dumps(now))
        return 0
    base = None if args.no_base else base_figures(args.base, args.count)
    if args.json:
        print(json.dumps({**now, "base": base}))
        return 0
    print(f"{now['activations']} activations, the likely answer {LIKELY:.0%} of the time; "
          f"base {args.base if base else 'none'}")
    print_table(now, base)
    return 0


if __name__ == "__main__":
    sys.exit(main())
