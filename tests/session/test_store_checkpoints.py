"""No game lives in the ``-wal`` alone (issue 23): the store checkpoints its WAL into the file
when a game is made, at a room's end, a game's end, a clean close and every CHECKPOINT_EVERY
events, so a copy of the ``.sqlite3`` alone (a backup that missed the ``-wal``), or a kill
followed by a lost ``-wal``, loses at most the last few steps, never a game."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from overseer.session.session import Session
from overseer.session.store import CHECKPOINT_EVERY, Store
from tests.drivers.table_script import setup_of, step

ROOT = Path(__file__).resolve().parents[2]
CHILD_PATH = os.pathsep.join((str(ROOT / "host"), str(ROOT)))  # overseer, and tests.drivers


def file_alone(path: Path, copy: Path) -> Store:
    """The store as a copy of its main file alone shows it (no -wal beside it)."""
    copy.parent.mkdir(exist_ok=True)
    for side in ("", "-wal", "-shm"):
        Path(f"{copy}{side}").unlink(missing_ok=True)
    shutil.copy(path, copy)
    return Store(copy)


def test_a_new_game_and_every_stretch_of_play_are_in_the_file_alone(tmp_path):
    path, copy = tmp_path / "games.sqlite3", tmp_path / "backup" / "games.sqlite3"
    game, setup = setup_of("catacombs/los_blocked")
    with Store(path) as store:
        session = Session.new(store, game, setup, seed=1)
        with file_alone(path, copy) as backup:
            assert [g.id for g in backup.games()] == [session.id]
        rng = random.Random(1)
        inputs = 0
        while session.head < 120:
            before = session.head
            step(session, rng)
            inputs += 1
            with file_alone(path, copy) as backup:
                saved = backup.game(session.id).head
            # at most the events since the last checkpoint are missing (an input's own
            # events come whole)
            assert session.head - saved < CHECKPOINT_EVERY + (session.head - before)
        assert inputs > 20


def test_a_room_won_and_a_game_over_are_in_the_file_at_once(tmp_path):
    path, copy = tmp_path / "games.sqlite3", tmp_path / "backup" / "games.sqlite3"
    ends = set()
    for name in ("catacombs/battle_end_room_won", "catacombs/battle_end_party_defeated"):
        game, setup = setup_of(name)
        with Store(path) as store:
            session = Session.new(store, game, setup, seed=3)
            rng = random.Random(3)
            if name.endswith("room_won"):  # the heroes destroy both rats: the room is won
                for piece in ("rat-1", "rat-2"):
                    session.begin({"do": "damage_piece", "piece": piece, "amount": 5,
                                   "by": "elf"})
            while not session.finished and not any(
                    s.kind in ("room_won", "party_defeated") for s in session.runner.trace):
                step(session, rng)
            ends |= {s.kind for s in session.runner.trace} & {"room_won", "party_defeated"}
            with file_alone(path, copy) as backup:
                assert backup.game(session.id).head == session.head
    assert ends == {"room_won", "party_defeated"}


CHILD = textwrap.dedent("""
    import random, sys
    from pathlib import Path
    from tests.drivers.table_script import setup_of, step
    from overseer.app import registry
    from overseer.session.session import Session
    from overseer.session.store import Store
    registry.install()
    store = Store(Path(sys.argv[1]))
    game, setup = setup_of("catacombs/los_blocked")
    session = Session.new(store, game, setup, seed=int(sys.argv[2]))
    rng = random.Random(int(sys.argv[2]))
    while True:
        step(session, rng)
        print(session.id, session.head, flush=True)
""")


def test_a_kill_then_a_lost_wal_keeps_the_game(tmp_path):
    """Five trials: the child plays until killed (SIGKILL) at a random step; its -wal and -shm
    are lost; the game is there, short of at most the steps since the last checkpoint."""
    rng = random.Random(23)
    for trial in range(5):
        path = tmp_path / f"trial{trial}.sqlite3"
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(trial)],
                                 stdout=subprocess.PIPE, text=True,
                                 env={**os.environ, "PYTHONPATH": CHILD_PATH})
        assert child.stdout is not None
        stop_at = rng.randrange(30, 90)
        last = (0, 0)
        for line in child.stdout:
            game_id, head = map(int, line.split())
            last = (game_id, head)
            if head >= stop_at:
                break
        child.send_signal(signal.SIGKILL)
        child.wait()
        for side in ("-wal", "-shm"):
            Path(f"{path}{side}").unlink(missing_ok=True)
        with Store(path) as store:
            assert store.notice is None
            info = store.game(last[0])  # the game is there
            assert last[1] - info.head <= CHECKPOINT_EVERY + 10, (trial, last, info.head)
            Session.resume(store, info.id)  # and it replays


def test_an_unsynced_append_is_on_disk_at_sync_with_the_checkpoint_it_put_off(tmp_path,
                                                                               monkeypatch):
    """``append(synced=False)`` (NEXT AI PIECE's) commits without its fsync and without the
    checkpoint a milestone asks for; ``sync`` fsyncs the WAL, then checkpoints; every other
    write stays FULL, and its own fsync takes the unsynced commit with it."""
    path, copy = tmp_path / "games.sqlite3", tmp_path / "backup" / "games.sqlite3"
    game, setup = setup_of("catacombs/los_blocked")
    synced: list[str] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(os.readlink(
        f"/proc/self/fd/{fd}")), real_fsync(fd))[1])
    with Store(path) as store:
        session = Session.new(store, game, setup, seed=1)
        head = session.head
        assert not store.unsynced
        store.append(session.id, head, [], finished=False, tail=False, checkpoint=True,
                     synced=False)
        assert store.unsynced and synced == []
        assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL again
        with file_alone(path, copy) as backup:  # the checkpoint waits for the sync
            assert backup.game(session.id).head == head
        store.sync()
        assert synced == [f"{path}-wal"] and not store.unsynced
        with file_alone(path, copy) as backup:  # ... and is made then
            assert backup.game(session.id).head == head
        store.sync()
        assert synced == [f"{path}-wal"]  # nothing more to put on disk
        store.append(session.id, head, [], finished=False, tail=False, synced=False)
        store.set_head(session.id, head, finished=False)  # a FULL write: SQLite's own fsync
        assert not store.unsynced


def test_a_store_closed_after_an_unsynced_append_puts_it_on_disk(tmp_path):
    path, copy = tmp_path / "games.sqlite3", tmp_path / "backup" / "games.sqlite3"
    game, setup = setup_of("catacombs/los_blocked")
    with Store(path) as store:
        session = Session.new(store, game, setup, seed=1)
        session.begin({"do": "next_ai_piece"}, synced=False)
        head = session.head
        assert store.unsynced
    with file_alone(path, copy) as backup:
        assert backup.game(session.id).head == head
