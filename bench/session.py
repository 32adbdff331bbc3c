"""Session benchmark: the time to confirm one step (commit included) and to resume a
1,000-step game, each against a baseline measured in the same run on the same disk.

* baseline step: one bare ``INSERT`` + ``COMMIT`` in a WAL, ``synchronous=FULL`` SQLite file;
* step: one player input through ``Session`` (rules, seeded chance, one transaction, fsync);
* baseline resume: open the file and ``SELECT`` the game's events, nothing else;
* resume: open the store (integrity check included) and ``Session.resume`` (the fold).

Aims (issue 3): under 5 ms per step, under 200 ms to resume. Run:
``.venv/bin/python bench/session.py [--steps 1000] [--dir DIR]``.
"""

from __future__ import annotations

import argparse
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "session"))

from table_script import setup_of, step  # noqa: E402

from overseer.session.session import Session  # noqa: E402
from overseer.session.store import Store  # noqa: E402

SETUP = "catacombs/shot_choice"


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


def session_steps(path: Path, n: int) -> tuple[list[float], int, int]:
    with Store(path) as store:
        game, setup = setup_of(SETUP)
        session = Session.new(store, game, setup, seed=1)
        rng = random.Random(1)
        times = []
        for _ in range(n):
            t = time.perf_counter()
            step(session, rng)
            times.append(time.perf_counter() - t)
        return times, session.id, session.head


def baseline_read(path: Path, game_id: int) -> float:
    t = time.perf_counter()
    db = sqlite3.connect(path)
    rows = db.execute("SELECT kind, data, seen FROM events WHERE game_id = ? ORDER BY seq",
                      (game_id,)).fetchall()
    db.close()
    assert rows
    return time.perf_counter() - t


def resume(path: Path, game_id: int) -> float:
    t = time.perf_counter()
    with Store(path) as store:
        session = Session.resume(store, game_id)
        assert session.head > 0
    return time.perf_counter() - t


def main() -> int:
    parser = argparse.ArgumentParser(description="session benchmark")
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--dir", help="where to put the files (default: a temporary directory)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        tmp = Path(tmp)
        base = baseline_commits(tmp / "bare.sqlite3", args.steps)
        steps, game_id, events = session_steps(tmp / "games.sqlite3", args.steps)
        resumes = [resume(tmp / "games.sqlite3", game_id) for _ in range(7)]
        reads = [baseline_read(tmp / "games.sqlite3", game_id) for _ in range(7)]
    q = statistics.quantiles
    print(f"session benchmark on {tmp.parent} ({args.steps} steps, {events} events)")
    print(f"  baseline INSERT+COMMIT      median {ms(statistics.median(base))}"
          f"  p95 {ms(q(base, n=20)[-1])}")
    print(f"  confirm one step            median {ms(statistics.median(steps))}"
          f"  p95 {ms(q(steps, n=20)[-1])}  (aim < 5 ms)"
          f"  = {statistics.median(steps) / statistics.median(base):.1f}x baseline")
    print(f"  baseline open+SELECT log    median {ms(statistics.median(reads))}")
    print(f"  resume {args.steps}-step game       median {ms(statistics.median(resumes))}"
          f"  max {ms(max(resumes))}  (aim < 200 ms)"
          f"  = {statistics.median(resumes) / statistics.median(reads):.1f}x baseline")
    ok = statistics.median(steps) < 0.005 and statistics.median(resumes) < 0.2
    print(f"  aims {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
