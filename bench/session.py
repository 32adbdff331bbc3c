"""Session benchmark: the time to confirm one step (commit included), and to resume games of
1,000 and 10,000 events, each against baselines measured in the same run on the same disk.

* baseline step: one bare ``INSERT`` + ``COMMIT`` in a WAL, ``synchronous=FULL`` SQLite file;
* step: one player input through ``Session`` (rules, seeded chance, one transaction, fsync);
* resume: open the store (integrity check included) and ``Session.resume``: the last snapshot
  at or before the head, and the fold of the events after it;
* baseline resume, whole fold: the same open, and the fold of every event from the setup (what
  resume did before snapshots; a resume after a rules change does this once, and keeps
  snapshots on the way);
* baseline resume, bare read: open the file and ``SELECT`` the game's events, nothing else;
* undo: one undo at the head of the long game (the fold from the snapshot before it);
* ``Gadget.open``: the gadget on the store (its lock, the store opened) resuming the game to
  its first frame (the session resumed, where the current action began, the view with the
  title its steps take, the screen drawn), as ``overseer gadget`` does at power-on; it should
  cost the same for every length of game.

  Printed whole and after the store's open, whose ``PRAGMA integrity_check`` reads the whole
  file (the store's guard against a damaged card, session/store.py).

``--json`` prints one object: ``gadget_open_ms`` (median, by events: ``"1000"``, ...),
``gadget_open_after_store_ms`` and ``resume_ms`` the same way. The games are built with
``synchronous = OFF`` after the timed steps (a 100,000-event game would take minutes of fsyncs
otherwise).

Aims: under 5 ms per step; a 10,000-event game resumed in under 50 ms (issue 9). Run:
``.venv/bin/python bench/session.py [--events 1000 10000 100000] [--dir DIR] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ (its scripted steps)

from overseer.app import registry
from overseer.app.shell import Gadget  # noqa: E402
from overseer.app.sim import MemoryGlass, SimLeds  # noqa: E402
from overseer.session.session import SNAPSHOT_EVERY, Session, fold, game_spec  # noqa: E402
from overseer.session.store import Store  # noqa: E402
from tests.drivers.table_script import setup_of, step  # noqa: E402

SETUP = "catacombs/los_blocked"  # a battle the scripted table plays on for ever (undoing its end)
STEPS = 1000  # steps timed for "confirm one step"
REPEATS = 7


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def baseline_commits(path: Path, n: int) -> list[float]:
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("CREATE TABLE t (game INTEGER, seq INTEGER, data TEXT, PRIMARY KEY (game, seq))")
    times = []
    for i in range(n):
        t = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t VALUES (1, ?, ?)", (i, '{"do": "next_ai_piece"}'))
        db.execute("COMMIT")
        times.append(time.perf_counter() - t)
    db.close()
    return times


def play(store: Store, events: int, seed: int, timed: list[float] | None = None,
         limit: int = STEPS) -> int:
    """A game played by the scripted table until it holds ``events`` events; its id. The
    first STEPS steps are timed into ``timed``."""
    game, setup = setup_of(SETUP)
    session = Session.new(store, game, setup, seed=seed)
    rng = random.Random(seed)
    fast = False
    while session.head < events:
        if not fast and (timed is None or len(timed) >= limit):
            store.db.execute("PRAGMA synchronous = OFF")  # building the game, not timing it
            fast = True
        t = time.perf_counter()
        step(session, rng)
        if timed is not None and len(timed) < limit:
            timed.append(time.perf_counter() - t)
    store.db.execute("PRAGMA synchronous = FULL")
    return session.id


def gadget_open(path: Path, game_id: int) -> tuple[float, float]:
    """(the whole, its part after the store is open): the store's open checks the whole
    file's integrity (``PRAGMA integrity_check``), which grows with the file."""
    t = time.perf_counter()
    gadget = Gadget(path, MemoryGlass(), SimLeds())
    try:
        opened = time.perf_counter()
        gadget.open(game_id)
        assert gadget.screen is not None
        done = time.perf_counter()
    finally:
        gadget.close()
    return done - t, done - opened


def bare_read(path: Path, game_id: int) -> float:
    t = time.perf_counter()
    db = sqlite3.connect(path)
    rows = db.execute("SELECT kind, data, seen FROM events WHERE game_id = ? ORDER BY seq",
                      (game_id,)).fetchall()
    db.close()
    assert rows
    return time.perf_counter() - t


def whole_fold(path: Path, game_id: int) -> float:
    t = time.perf_counter()
    with Store(path) as store:
        info = store.game(game_id)
        result = fold(game_spec(info.game), info.setup, info.dice,
                      store.events(game_id)[:info.head], info.seed)
        assert len(result.runner.trace) > 0
    return time.perf_counter() - t


def resume(path: Path, game_id: int) -> float:
    t = time.perf_counter()
    with Store(path) as store:
        session = Session.resume(store, game_id)
        assert session.head > 0
    return time.perf_counter() - t


def undo(path: Path, game_id: int) -> float:
    with Store(path) as store:
        session = Session.resume(store, game_id)
        t = time.perf_counter()
        session.undo()
        took = time.perf_counter() - t
        session.redo()
    return took


def main() -> int:
    registry.install()  # every game in games.GAMES (overseer/app/registry/)
    parser = argparse.ArgumentParser(description="session benchmark")
    parser.add_argument("--events", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--dir", help="where to put the files (default: a temporary directory)")
    parser.add_argument("--steps", type=int, default=STEPS, help="steps timed (confirm one step)")
    parser.add_argument("--json", action="store_true", help="one object: gadget_open_ms, ...")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        tmp = Path(tmp)
        path = tmp / "games.sqlite3"
        base = baseline_commits(tmp / "bare.sqlite3", args.steps)
        steps: list[float] = []
        with Store(path) as store:
            games = {n: play(store, n, seed=n, timed=steps if not steps else None,
                              limit=args.steps)
                     for n in args.events}
            heads = {n: store.game(games[n]).head for n in args.events}
            snapshots = {n: len(store.db.execute(
                "SELECT seq FROM snapshots WHERE game_id = ?", (games[n],)).fetchall())
                for n in args.events}
        for n in args.events:
            gid = games[n]
            rows.append((n, heads[n], snapshots[n],
                         [resume(path, gid) for _ in range(REPEATS)],
                         [whole_fold(path, gid) for _ in range(3)],
                         [bare_read(path, gid) for _ in range(REPEATS)],
                         [undo(path, gid) for _ in range(REPEATS)],
                         [gadget_open(path, gid) for _ in range(REPEATS)]))
    def med(values: list[float]) -> float:
        return round(statistics.median(values) * 1000, 2)

    if args.json:
        print(json.dumps({
            "gadget_open_ms": {str(r[0]): med([o[0] for o in r[7]]) for r in rows},
            "gadget_open_after_store_ms": {str(r[0]): med([o[1] for o in r[7]]) for r in rows},
            "resume_ms": {str(r[0]): med(r[3]) for r in rows}}))
        return 0
    if len(rows) > 1:
        first, last = (statistics.median(o[0] for o in r[7]) for r in (rows[0], rows[-1]))
        after_first, after_last = (statistics.median(o[1] for o in r[7])
                                   for r in (rows[0], rows[-1]))
        flat = f"{last / first:.2f}x ({after_last / after_first:.2f}x after the store's open)"
    else:
        flat = "n/a"
    q = statistics.quantiles
    print(f"session benchmark on {tmp.parent} (snapshots every {SNAPSHOT_EVERY} events)")
    print(f"  baseline INSERT+COMMIT        median {ms(statistics.median(base))}"
          f"  p95 {ms(q(base, n=20)[-1])}")
    print(f"  confirm one step              median {ms(statistics.median(steps))}"
          f"  p95 {ms(q(steps, n=20)[-1])}  (aim < 5 ms)"
          f"  = {statistics.median(steps) / statistics.median(base):.1f}x baseline")
    ok = statistics.median(steps) < 0.005
    for n, head, kept, resumes, folds, reads, undos, opens in rows:
        resume_s = statistics.median(resumes)
        print(f"  {head}-event game ({kept} snapshots):")
        print(f"    resume                      median {ms(resume_s)}  max {ms(max(resumes))}")
        print(f"    baseline: whole fold        median {ms(statistics.median(folds))}"
              f"  (resume = {resume_s / statistics.median(folds):.2f}x)")
        print(f"    baseline: open+SELECT log   median {ms(statistics.median(reads))}")
        print(f"    undo at the head            median {ms(statistics.median(undos))}"
              f"  max {ms(max(undos))}")
        whole, after = [o[0] for o in opens], [o[1] for o in opens]
        print(f"    Gadget.open to first frame  median {ms(statistics.median(whole))}"
              f"  max {ms(max(whole))}; after the store's open (its integrity check) "
              f"{ms(statistics.median(after))}")
        if n >= 10000:
            ok = ok and resume_s < 0.05
    print(f"  Gadget.open, longest game / shortest: {flat} (aim: within 20%)")
    print(f"  aims (step < 5 ms, 10,000-event resume < 50 ms) {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
