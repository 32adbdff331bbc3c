"""The game store: durability settings, reads and writes, bad files at open."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from overseer.session.events import Event
from overseer.session.migrations import APPLICATION_ID, LATEST
from overseer.session.store import Store, StoreError


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _filled(path: Path) -> Store:
    store = Store(path)
    gid = store.create_game("catacombs", {"heroes": []}, 7, "seeded")
    store.append(gid, 0, [Event("action", {"do": "x"}), Event("chance", {"key": "k", "value": 3})],
                 finished=False)
    return store


def test_new_store_is_durable_and_marked(tmp_path):
    with Store(tmp_path / "a" / "games.sqlite3") as store:
        assert store.notice is None
        db = store.db
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert store.version() == LATEST
        assert store.integrity() == ["ok"]


def test_games_events_head_and_order(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        a = store.create_game("catacombs", {"x": 1}, 11, "seeded")
        b = store.create_game("conquest", {"y": 2}, 12, "pico")
        store.append(a, 0, [Event("action", {"do": "go"})], finished=False)
        store.append(a, 1, [Event("answer", {"key": "r", "value": 4, "source": "pico"},
                                  seen=True)], finished=False)
        store.set_head(a, 1, finished=False)  # undo the answer
    with Store(path) as store:  # everything survives a reopen
        info = store.game(a)
        assert (info.head, info.length, info.seed, info.setup) == (1, 2, 11, {"x": 1})
        assert store.events(a)[1] == Event("answer", {"key": "r", "value": 4, "source": "pico"},
                                           seen=True)
        assert [g.id for g in store.games()] == [a, b]  # most recently played first
        assert store.last_unfinished("conquest").id == b
        # a new input replaces the undone tail; the seen result it drops is kept as retracted
        store.append(a, 1, [Event("answer", {"key": "r", "value": 9, "source": "pico"},
                                  seen=True)], finished=True)
        assert store.events(a)[1].data["value"] == 9
        assert [r["data"]["value"] for r in store.retracted(a)] == [4]
        assert store.last_unfinished("catacombs") is None
        store.delete_game(a)
        assert store.db.execute("SELECT count(*) FROM events").fetchone()[0] == 0
        assert store.retracted(a) == []
        with pytest.raises(StoreError, match="no saved game #"):
            store.game(a)
        with pytest.raises(StoreError, match="no saved game #"):
            store.delete_game(a)


def test_seed_out_of_range_is_refused(tmp_path):
    with Store(tmp_path / "g.sqlite3") as store:
        with pytest.raises(StoreError, match="seed"):
            store.create_game("catacombs", {}, 1 << 63, "seeded")
        assert store.games() == []


def test_empty_file_becomes_a_store(tmp_path):
    path = tmp_path / "g.sqlite3"
    path.touch()
    with Store(path) as store:
        assert store.notice is None and store.version() == LATEST


def _assert_moved_aside(path: Path, digest: str, reason: str) -> None:
    with Store(path) as store:
        assert store.notice is not None
        assert reason in store.notice
        aside = Path(store.notice.split(" it was kept as ")[1].split(" and ")[0].rstrip(";,"))
        assert aside.parent == path.parent and aside.name.startswith(path.name + ".damaged-")
        assert _sha(aside) == digest  # the damaged file is kept byte for byte
        assert store.games() == [] and store.integrity() == ["ok"]
        assert store.version() == LATEST


def test_not_a_database_is_kept_aside_with_its_wal(tmp_path):
    path = tmp_path / "g.sqlite3"
    path.write_bytes(b"these are not the bytes you are looking for" * 100)
    wal = tmp_path / "g.sqlite3-wal"
    wal.write_bytes(b"and neither are these" * 10)
    wal_sha = _sha(wal)
    _assert_moved_aside(path, _sha(path), "not an SQLite database")
    [aside_wal] = tmp_path.glob("g.sqlite3.damaged-*-wal")
    assert _sha(aside_wal) == wal_sha


def test_truncated_database_is_kept_aside(tmp_path):
    path = tmp_path / "g.sqlite3"
    store = _filled(path)
    for n in range(40):  # enough pages that a cut loses some
        store.create_game("catacombs", {"pad": "x" * 3000, "n": n}, n, "seeded")
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    _assert_moved_aside(path, _sha(path), "malformed")


def test_damaged_page_is_kept_aside(tmp_path):
    path = tmp_path / "g.sqlite3"
    store = _filled(path)
    for n in range(40):
        store.create_game("catacombs", {"pad": "x" * 3000, "n": n}, n, "seeded")
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    data[3 * page:3 * page + 200] = b"\xff" * 200  # scribble over a b-tree page header
    path.write_bytes(bytes(data))
    _assert_moved_aside(path, _sha(path), "malformed")


def test_index_out_of_step_fails_the_integrity_check(tmp_path):
    path = tmp_path / "g.sqlite3"
    _filled(path).close()
    db = sqlite3.connect(path)
    root = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'games_resume'").fetchone()
    page = db.execute("PRAGMA page_size").fetchone()[0]
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    data = bytearray(path.read_bytes())
    start = (root[0] - 1) * page
    at = data.rindex(b"catacombs", start, start + page)
    data[at] = ord("b")  # the index now holds "batacombs": the table row is missing from it
    path.write_bytes(bytes(data))
    _assert_moved_aside(path, _sha(path), "integrity check: row 1 missing from index")


def test_foreign_database_is_kept_aside(tmp_path):
    path = tmp_path / "g.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (body TEXT)")
    db.execute("INSERT INTO notes VALUES ('mine')")
    db.commit()
    db.close()
    _assert_moved_aside(path, _sha(path), "another application")


def test_wrong_schema_is_kept_aside(tmp_path):
    path = tmp_path / "g.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {LATEST}")
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    db.commit()
    db.close()
    _assert_moved_aside(path, _sha(path), "tables missing: events, gadget, retracted")


def test_two_damaged_files_do_not_overwrite_each_other(tmp_path):
    path = tmp_path / "g.sqlite3"
    path.write_bytes(b"first" * 100)
    Store(path).close()
    first = sorted(tmp_path.glob("g.sqlite3.damaged-*"))
    path.unlink()
    for side in tmp_path.glob("g.sqlite3-*"):
        side.unlink()
    path.write_bytes(b"second" * 100)
    Store(path).close()
    asides = sorted(p for p in tmp_path.glob("g.sqlite3.damaged-*"))
    assert len(first) == 1 and len(asides) == 2
    assert {p.read_bytes()[:6] for p in asides} == {b"firstf", b"second"}


def test_store_from_a_newer_overseer_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "g.sqlite3"
    _filled(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {LATEST + 1}")
    db.commit()
    db.close()
    before = _sha(path)
    with pytest.raises(StoreError, match=rf"newer Overseer \(store schema v{LATEST + 1}"):
        Store(path)
    assert _sha(path) == before
    assert list(tmp_path.glob("*.damaged-*")) == []


def test_directory_is_refused(tmp_path):
    with pytest.raises(StoreError, match="not a regular file"):
        Store(tmp_path)


def test_a_store_locked_by_another_process_is_not_taken_for_damaged(tmp_path):
    path = tmp_path / "g.sqlite3"
    _filled(path).close()
    before = _sha(path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA locking_mode = EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("UPDATE games SET dice = dice")
    try:
        with pytest.raises(StoreError, match="cannot open .*locked.*left as it is"):
            Store(path, timeout=0.05)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert list(tmp_path.glob("*.damaged-*")) == []
    assert _sha(path) == before


def test_a_write_that_fails_raises_a_store_error_and_saves_nothing(tmp_path):
    with _filled(tmp_path / "g.sqlite3") as store:
        before = [(g, store.events(g.id)) for g in store.games()]
        with pytest.raises(StoreError, match="could not save .*FOREIGN KEY.*nothing was changed"):
            store.append(99, 0, [Event("action", {"do": "x"})], finished=False)
        assert [(g, store.events(g.id)) for g in store.games()] == before
        assert not store.db.in_transaction


def test_the_gadget_keeps_its_own_object_beside_a_game(tmp_path):
    with Store(tmp_path / "g.sqlite3") as store:
        game = store.create_game("catacombs", {}, 1, "seeded")
        assert store.gadget(game) == {}
        store.set_gadget(game, {"seats": {"elf": 1}})
        store.set_gadget(game, {"seats": {"elf": 2}})
        assert store.gadget(game) == {"seats": {"elf": 2}}
        with pytest.raises(StoreError, match="no saved game #99"):
            store.set_gadget(99, {})
        store.delete_game(game)
        assert store.gadget(game) == {}
