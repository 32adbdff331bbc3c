"""Schema migrations: every earlier version opens and is brought up to the latest."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import time

import pytest

from overseer.session import migrations
from overseer.session.migrations import LATEST, MIGRATIONS, migrate
from overseer.session.store import Store, StoreError


def _store_at(path, version: int) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    migrate(db, 0, version)
    return db


def _v1_games(db: sqlite3.Connection) -> None:
    """Three v1 games; v1 ordered games by their timestamps."""
    rows = [(1, "catacombs", "2026-01-02T00:00:00Z", 3), (2, "conquest", "2026-01-03T00:00:00Z", 0),
            (3, "catacombs", "2026-01-01T00:00:00Z", 2)]
    for gid, game, updated, n in rows:
        db.execute("INSERT INTO games (id, game, setup, seed, dice, created, updated, finished)"
                   " VALUES (?, ?, '{}', ?, 'seeded', ?, ?, 0)", (gid, game, gid, updated, updated))
        for seq in range(n):
            db.execute("INSERT INTO events (game_id, seq, kind, data) VALUES (?, ?, 'action', ?)",
                       (gid, seq, f'{{"do": "step{seq}"}}'))


def _v2_games(db: sqlite3.Connection) -> None:
    """The same three games at v2: every event live, the v1 order kept in ``touched``, a
    retracted roll."""
    _v1_games(db)
    for gid, head, touched in ((1, 3, 2), (2, 0, 3), (3, 2, 1)):
        db.execute("UPDATE games SET head = ?, touched = ? WHERE id = ?", (head, touched, gid))
    db.execute("INSERT INTO retracted (game_id, seq, kind, data, retracted_at)"
               " VALUES (1, 3, 'answer', '{\"key\": \"roll\", \"value\": 4}', '')")


def _v3_games(db: sqlite3.Connection) -> None:
    """The same three games at v3, the first with the gadget's seats kept beside it."""
    _v2_games(db)
    db.execute("INSERT INTO gadget (game_id, data) VALUES (1, '{\"seats\": [\"red\"]}')")


POPULATE = {1: _v1_games, 2: _v2_games, 3: _v3_games}


def test_every_version_has_a_fixture():
    assert set(POPULATE) == set(range(1, LATEST))


@pytest.mark.parametrize("version", range(1, LATEST))
def test_upgrade_from_every_earlier_version(tmp_path, version):
    path = tmp_path / "g.sqlite3"
    db = _store_at(path, version)
    POPULATE[version](db)
    db.close()
    with Store(path) as store:
        assert store.notice is None
        assert store.version() == LATEST and store.integrity() == ["ok"]
        games = store.games()
        assert [g.id for g in games] == [2, 1, 3]  # the old order is kept
        assert {g.id: (g.head, g.length) for g in games} == {1: (3, 3), 2: (0, 0), 3: (2, 2)}
        assert [e.data["do"] for e in store.events(1)] == ["step0", "step1", "step2"]
        assert store.last_unfinished("catacombs").id == 1
        assert {g.rules for g in games} == {None}  # written before rules versions were kept
        assert store.snapshot_seqs(1, "any build") == []
        assert store.gadget(1) == ({"seats": ["red"]} if version >= 3 else {})
        assert len(store.retracted(1)) == (1 if version >= 2 else 0)
        plan = store.db.execute("EXPLAIN QUERY PLAN SELECT id FROM games WHERE game = 'x'"
                                " AND finished = 0 ORDER BY touched DESC").fetchall()
        assert "games_resume" in " ".join(str(row) for row in plan)
        # a migrated store works like a new one
        store.set_head(1, 1, finished=False)
        assert store.games()[0].id == 1


def test_a_failed_migration_leaves_the_store_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "g.sqlite3"
    db = _store_at(path, 1)
    _v1_games(db)
    db.close()

    real = MIGRATIONS[2]

    def half_done(db: sqlite3.Connection) -> None:
        real(db)
        db.execute("INSERT INTO no_such_table VALUES (1)")

    monkeypatch.setitem(migrations.MIGRATIONS, 2, half_done)
    with pytest.raises(StoreError, match=f"from schema v1 to v{LATEST} failed .* left at v1"):
        Store(path)
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    columns = [row[1] for row in db.execute("PRAGMA table_info(games)")]
    assert "head" not in columns
    db.close()


def test_a_kill_during_the_migration_leaves_the_old_or_the_new_version(tmp_path):
    """SIGKILL a process while it opens (and migrates) a v1 store: the file is at v1 or at
    the latest version, sound, and the next open finishes the job with the games intact."""
    rng = random.Random(5)
    seen = set()
    for n in range(40):
        path = tmp_path / f"g{n}.sqlite3"
        db = _store_at(path, 1)
        db.execute("BEGIN")
        _v1_games(db)
        for i in range(200):  # enough rows that the migration takes a moment
            db.execute("INSERT INTO events (game_id, seq, kind, data) VALUES (1, ?, 'action',"
                       " '{\"do\": \"pad\"}')", (i + 3,))
        db.execute("COMMIT")
        db.close()
        pid = os.fork()
        if pid == 0:
            try:
                Store(path)
            finally:
                os._exit(0)
        time.sleep(rng.uniform(0, 0.02))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        db = sqlite3.connect(path)
        version = db.execute("PRAGMA user_version").fetchone()[0]
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.close()
        assert version in (1, LATEST)
        seen.add(version)
        with Store(path) as store:
            assert store.notice is None and store.version() == LATEST
            assert {g.id: g.head for g in store.games()} == {1: 203, 2: 0, 3: 2}
    print(f"versions found after the kills: {sorted(seen)}")
