"""Crash loop: SIGKILL a scripted game at random moments and check the store after each kill.

Each round forks a child that opens the store, resumes the last Catacombs game (or starts a new
one) and plays inputs, undos and redos as fast as it can. After each operation returns (so after
its commit) the child reports on a pipe what it confirmed: the game, the head, the digest of the
live log and a hash of the live state. The parent kills the child with SIGKILL after a random
delay, then checks that

* the store opens as it is (no notice: nothing was moved aside) and ``integrity_check`` is ok;
* every confirmed step is present: the stored events up to the confirmed head have the
  confirmed digest;
* the head is the confirmed one, or one input group further (an operation whose commit landed
  before the kill but whose report did not);
* the resumed state equals the child's live state at its last report (or, when the in-flight
  operation landed, the fold of the stored log), and the next child resumes that same state.

Run ``python -m tests.session.crashloop [--kills N]`` (from the checkout); tests/session/test_session_crash.py runs it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

from overseer.app import registry
from overseer.session.events import digest
from overseer.session.session import Session, fold, game_spec
from overseer.session.store import Store
from tests.drivers.table_script import setup_of, step

SETUP = "catacombs/los_blocked"
NEW_GAME_AFTER = 400  # events: start a new game then, so folds stay short


def state_hash(state: dict) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest()[:16]


def _report(fd: int, session: Session) -> None:
    line = (f"{session.id} {session.head} {digest(session.events[:session.head])} "
            f"{state_hash(session.state_dict())}\n")
    os.write(fd, line.encode())


def child(path: Path, seed: int, fd: int) -> None:
    """Play until killed; report after every confirmed operation."""
    rng = random.Random(seed)
    store = Store(path)
    session = Session.resume_last(store, "catacombs")
    if session is None or session.head > NEW_GAME_AFTER:
        game, setup = setup_of(SETUP)
        session = Session.new(store, game, setup, seed=seed,
                              dice=rng.choice(["seeded", "table"]))
    _report(fd, session)
    while True:
        move = rng.random()
        if move < 0.15 and session.can_undo:
            session.undo()
        elif move < 0.25 and session.can_redo:
            session.redo()
        else:
            step(session, rng)
        _report(fd, session)


def _one_group(events: list, start: int, end: int) -> bool:
    """Whether events[start:end] is exactly one input and the chance events it caused."""
    group = events[start:end]
    return bool(group) and group[0].is_input and not any(e.is_input for e in group[1:])


def check(path: Path, reports: list[str]) -> dict:
    """Check the store after a kill against the child's reports; returns counts and the
    report line the next child must start from when it resumes the same game."""
    with Store(path) as store:
        assert store.notice is None, store.notice
        assert store.integrity() == ["ok"]
        if not reports:
            return {"confirmed": 0, "lost": 0, "landed": 0, "resumed": None}
        gid, head, want, live = reports[-1].split()
        gid, head = int(gid), int(head)
        info = store.game(gid)
        events = store.events(gid)
        lost = 0  # confirmed operations, from the last back, that the store does not hold
        for line in reversed(reports[1:]):
            g, h, d, _ = line.split()
            if int(g) == gid and digest(events[:int(h)]) == d:
                break
            lost += 1
        resumed = Session.resume(store, gid)
        if info.head == head:
            landed = 0
            assert state_hash(resumed.state_dict()) == live, "resumed state != live state"
        else:
            landed = 1
            lo, hi = sorted((head, info.head))
            assert _one_group(events, lo, hi), f"head moved from {head} to {info.head}"
            spec = game_spec(info.game)
            folded = fold(spec, info.setup, info.dice, events[:info.head])
            assert spec.state_dict(folded.runner.state) == resumed.state_dict()
        resumed_line = (f"{gid} {resumed.head} {digest(events[:resumed.head])} "
                        f"{state_hash(resumed.state_dict())}")
        return {"confirmed": len(reports) - 1, "lost": lost, "landed": landed,
                "resumed": resumed_line}


def _read_lines(fd: int, chunks: list[bytes], lines: int) -> None:
    """Read from the pipe until ``lines`` whole lines have come (or the writer is gone)."""
    while b"".join(chunks).count(b"\n") < lines:
        chunk = os.read(fd, 65536)
        if not chunk:
            return
        chunks.append(chunk)


def run(path: Path, kills: int, seed: int = 1, startup_share: float = 0.2) -> dict[str, int]:
    """``kills`` rounds. In a share of them the kill comes after a random delay from the fork
    (start-up: opening, checking, resuming); in the others after a random number of confirmed
    operations plus a random fraction of one (between commits, or inside one)."""
    rng = random.Random(seed)
    game, setup = setup_of(SETUP)
    fold(game_spec(game), setup, "seeded", [])  # load the rules' data once, for every child
    totals = {"kills": 0, "steps_confirmed": 0, "steps_lost": 0, "in_flight_landed": 0,
              "killed_before_first_step": 0, "steps_planned": 0}
    resumed = None
    for n in range(kills):
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: never returns into the caller (pytest or main)
            code = 1
            try:
                os.close(read_fd)
                child(path, seed * 100_000 + n, write_fd)
            except BaseException:
                traceback.print_exc()
            finally:
                os._exit(code)
        os.close(write_fd)
        chunks: list[bytes] = []
        if rng.random() < startup_share:
            time.sleep(rng.uniform(0, 0.03))
        else:
            planned = rng.randint(1, 12)
            totals["steps_planned"] += planned
            _read_lines(read_fd, chunks, planned + 1)  # the resume report, then the steps
            time.sleep(rng.uniform(0, 0.002))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status), f"the child ended by itself (status {status})"
        _read_lines(read_fd, chunks, 1 << 30)
        os.close(read_fd)
        reports = b"".join(chunks).decode().split("\n")[:-1]  # only whole lines
        if reports and resumed and reports[0].split()[0] == resumed.split()[0]:
            assert reports[0] == resumed, "the child resumed another state than the store's"
        counts = check(path, reports)
        resumed = counts["resumed"] or resumed
        totals["kills"] += 1
        totals["steps_confirmed"] += counts["confirmed"]
        totals["steps_lost"] += counts["lost"]
        totals["in_flight_landed"] += counts["landed"]
        totals["killed_before_first_step"] += int(len(reports) <= 1)
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", help="store file (default: a new temporary directory)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.db) if args.db else Path(tmp) / "games.sqlite3"
        start = time.perf_counter()
        totals = run(path, args.kills, args.seed)
        totals["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(totals))
    return 0 if totals["steps_lost"] == 0 else 1


if __name__ == "__main__":
    registry.install()  # a script of its own: the games as the command line has them
    sys.exit(main())
