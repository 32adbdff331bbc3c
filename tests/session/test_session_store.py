"""The game store: durability settings, reads and writes, bad files at open."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from overseer.session.events import Event, canonical, json_writer
from overseer.session.migrations import APPLICATION_ID, LATEST, migrate
from overseer.session.store import NoStore, NotAStore, Store, StoreDamaged, StoreError, _now


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _filled(path: Path) -> Store:
    store = Store(path)
    gid = store.create_game("catacombs", {"heroes": []}, 7, "seeded")
    store.append(gid, 0, [Event("action", {"do": "x"}), Event("chance", {"key": "k", "value": 3})],
                 finished=False)
    return store


def test_new_store_is_durable_and_marked(tmp_path):
    with Store(tmp_path / "games.sqlite3") as store:
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


def test_empty_file_becomes_a_store_and_says_so(tmp_path):
    """A store cut to 0 bytes is never taken as new without a word (the lock's own empty
    file, ``made``, is new and says nothing)."""
    path = tmp_path / "g.sqlite3"
    path.touch()
    with Store(path) as store:
        assert store.version() == LATEST
        assert store.notice is not None and "was an empty file (0 bytes)" in store.notice
        assert "a backup of the file brings them back" in store.notice
    other = tmp_path / "made.sqlite3"
    other.touch()
    with Store(other, made=True) as store:
        assert store.notice is None and store.version() == LATEST


def _refused(path: Path, kind: type[StoreError], reason: str) -> None:
    """Opening ``path`` raises ``kind`` naming ``reason``; the file and its side files are
    left byte for byte, and nothing is moved aside."""
    files = {p.name: _sha(p) for p in path.parent.iterdir() if p.name.startswith(path.name)}
    with pytest.raises(kind) as refused:
        Store(path)
    assert reason in str(refused.value) and "left as it is" in str(refused.value)
    after = {p.name: _sha(p) for p in path.parent.iterdir() if p.name.startswith(path.name)
             and not p.name.endswith("-shm")}
    assert after == {k: v for k, v in files.items() if not k.endswith("-shm")}


def _damaged(path: Path, reason: str) -> None:
    _refused(path, StoreDamaged, reason)
    with pytest.raises(StoreDamaged, match=f"`overseer games recover --db {path}` saves"):
        Store(path)


def test_not_a_database_is_refused_with_its_wal_left_alone(tmp_path):
    path = tmp_path / "g.sqlite3"
    path.write_bytes(b"these are not the bytes you are looking for" * 100)
    (tmp_path / "g.sqlite3-wal").write_bytes(b"and neither are these" * 10)
    _refused(path, NotAStore, "is not an Overseer game store (not an SQLite database)")


def test_a_text_file_is_refused(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("shopping: eggs, milk\n")
    _refused(path, NotAStore, "not an SQLite database")


def _big(path: Path) -> None:
    store = _filled(path)
    for n in range(40):  # enough pages that a cut loses some
        store.create_game("catacombs", {"pad": "x" * 3000, "n": n}, n, "seeded")
    store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()


def test_truncated_database_is_damaged(tmp_path):
    path = tmp_path / "g.sqlite3"
    _big(path)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    _damaged(path, "malformed")


def test_a_file_cut_inside_its_header_is_damaged(tmp_path):
    path = tmp_path / "g.sqlite3"
    _filled(path).close()
    path.write_bytes(path.read_bytes()[:40])
    _damaged(path, "cut short: 40 bytes")


def test_damaged_page_is_damaged(tmp_path):
    path = tmp_path / "g.sqlite3"
    _big(path)
    data = bytearray(path.read_bytes())
    page = 4096
    data[3 * page:3 * page + 200] = b"\xff" * 200  # scribble over a b-tree page header
    path.write_bytes(bytes(data))
    _damaged(path, "malformed")


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
    _damaged(path, "integrity check: row 1 missing from index")


def test_foreign_database_is_refused(tmp_path):
    path = tmp_path / "g.sqlite3"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE notes (body TEXT)")
    db.execute("INSERT INTO notes VALUES ('mine')")
    db.commit()
    db.close()
    _refused(path, NotAStore, "an SQLite database of another application: no application id")


def test_wrong_schema_is_damaged(tmp_path):
    path = tmp_path / "g.sqlite3"
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    db.execute(f"PRAGMA user_version = {LATEST}")
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
    db.commit()
    db.close()
    _damaged(path, "tables missing: events, gadget, retracted")


def test_a_half_written_migration_is_damaged(tmp_path):
    path = tmp_path / "g.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)
    migrate(db, 0, LATEST - 1)
    db.execute("CREATE TABLE snapshots (game_id INTEGER)")  # the last update begun, not recorded
    db.close()
    _damaged(path, f"a half-written update: schema v{LATEST - 1} with parts of a later one")


def test_a_new_store_in_a_missing_folder_says_it_made_the_folder(tmp_path):
    with Store(tmp_path / "a" / "b" / "g.sqlite3") as store:
        assert store.notice == f"made the folder {tmp_path / 'a' / 'b'} for the new game " \
            "store g.sqlite3"
    with Store(tmp_path / "a" / "b" / "g.sqlite3") as store:
        assert store.notice is None
    with pytest.raises(NoStore, match="there is no game store at .* yet"):
        Store(tmp_path / "c" / "g.sqlite3", create=False)
    assert not (tmp_path / "c").exists()
    (tmp_path / "file").write_text("x")
    with pytest.raises(StoreError, match="file is not a folder"):
        Store(tmp_path / "file" / "g.sqlite3")


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


def test_an_append_with_no_tail_to_drop_adds_the_events_and_moves_the_head(tmp_path):
    with _filled(tmp_path / "g.sqlite3") as store:
        (gid,) = [g.id for g in store.games()]
        store.append(gid, 2, [Event("action", {"do": "y"})], finished=False, tail=False)
        info = store.game(gid)
        assert (info.head, info.length) == (3, 3)
        assert store.events(gid)[2] == Event("action", {"do": "y"})


def test_an_append_told_wrongly_there_is_no_tail_is_refused_and_saves_nothing(tmp_path):
    """The caller's word that nothing lies past the head is checked by the events' primary
    key: a tail there makes the insert fail, and nothing is written."""
    with _filled(tmp_path / "g.sqlite3") as store:
        (gid,) = [g.id for g in store.games()]
        store.set_head(gid, 1, finished=False)  # an undo: one event past the head
        before = (store.game(gid), store.events(gid))
        with pytest.raises(StoreError, match="could not save .*UNIQUE.*nothing was changed"):
            store.append(gid, 1, [Event("answer", {"key": "k", "value": 4})], finished=False,
                         tail=False)
        after = store.game(gid)
        assert (after.head, after.length, store.events(gid)) == (1, 2, before[1])
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


def test_the_store_answers_the_gadget_object_it_wrote_and_reads_it_again_after_a_failure(
        tmp_path):
    """One gadget writes its store: the object it last wrote (or read) for a game is
    answered without reading the row back; after a write that failed the file is read."""
    path = tmp_path / "g.sqlite3"
    store = Store(path)
    game = store.create_game("catacombs", {}, 1, "seeded")
    store.set_gadget(game, {"shown": 1})
    store.set_gadget_later(game, {"shown": 2})
    store.append(game, 0, [Event("action", {"do": "x"}), Event("action", {"do": "y"})],
                 finished=False)  # the object held goes in with the step's COMMIT
    db = sqlite3.connect(path)  # (no other process writes it while a gadget holds its lock)
    db.execute("UPDATE gadget SET data = '{\"shown\": 9}'")
    db.commit()
    db.close()
    assert store.gadget(game) == {"shown": 2}  # the store's own, not read back
    store.set_head(game, 1, finished=False)  # an undo: an event past the head
    with pytest.raises(StoreError, match="UNIQUE"):
        store.append(game, 1, [Event("action", {"do": "z"})], finished=False, tail=False)
    assert store.gadget(game) == {"shown": 9}  # what the file holds after the failure
    store.delete_game(game)
    assert store.gadget(game) == {}
    store.close()


def _on_disk(path: Path, game: int) -> str | None:
    """The gadget object as another connection reads it (what a restart would find)."""
    db = sqlite3.connect(path)
    try:
        row = db.execute("SELECT data FROM gadget WHERE game_id = ?", (game,)).fetchone()
    finally:
        db.close()
    return None if row is None else row[0]


def test_a_gadget_object_kept_later_that_is_not_json_costs_the_step_nothing(tmp_path, caplog):
    path = tmp_path / "g.sqlite3"
    store = Store(path)
    game = store.create_game("catacombs", {}, 1, "seeded")
    store.set_gadget(game, {"shown": 1})
    store.set_gadget_later(game, {"shown": {1, 2}})  # a set: no JSON for it
    store.append(game, 0, [Event("action", {"do": "x"})], finished=False)
    assert len(store.events(game)) == 1 and _on_disk(path, game) == '{"shown": 1}'
    assert "the gadget's object not kept" in caplog.text
    assert store.gadget(game) == {"shown": 1}  # what the file holds
    held = {"seats": {"elf": 1}}
    store.set_gadget_later(game, held)
    store.gadget(game)["shown"] = 3  # the answer is the caller's to change
    assert store.gadget(game) == held == {"seats": {"elf": 1}}
    store.close()


def test_a_gadget_object_kept_later_goes_in_with_the_next_write_or_at_close(tmp_path):
    path = tmp_path / "g.sqlite3"
    store = Store(path)
    game = store.create_game("catacombs", {}, 1, "seeded")
    other = store.create_game("catacombs", {}, 2, "seeded")
    store.set_gadget(game, {"seats": {"elf": 1}})
    store.set_gadget_later(game, {"seats": {"elf": 1}, "shown": 4})
    assert store.gadget(game) == {"seats": {"elf": 1}, "shown": 4}  # answered at once
    assert _on_disk(path, game) == '{"seats": {"elf": 1}}'  # not written: no transaction
    store.append(other, 0, [Event("action", {"do": "x"})], finished=False)  # any write
    assert _on_disk(path, game) == '{"seats": {"elf": 1}, "shown": 4}'  # in its COMMIT
    store.set_gadget_later(game, {"shown": 5})
    store.set_gadget(game, {"shown": 6})  # a write of its own replaces the one held
    store.append(other, 1, [Event("action", {"do": "y"})], finished=False)
    assert _on_disk(path, game) == '{"shown": 6}'
    store.set_gadget_later(other, {"shown": 1})
    store.delete_game(other)  # a game gone by then is passed over
    assert store.gadget(other) == {} and _on_disk(path, other) is None
    store.set_gadget_later(game, {"shown": 7})
    store.close()
    assert _on_disk(path, game) == '{"shown": 7}'  # a clean stop writes it


@pytest.mark.parametrize("value", [
    {"key": "first_by_direction", "value": "orc-2", "source": "table"},
    {"b": [1.5, float("nan"), float("-inf"), None, True, -0.0, 10 ** 30], "a": {"z": ("t", 1)}},
    "é \u2028 \"quoted\" \\", 3, [], {}])
def test_the_stored_json_is_what_json_dumps_writes(value):
    assert canonical(value) == json.dumps(value, sort_keys=True, separators=(",", ":"),
                                          ensure_ascii=False)
    assert json_writer((", ", ": "), ensure_ascii=True)(value) == json.dumps(value,
                                                                             sort_keys=True)


def test_the_stored_json_refuses_what_json_dumps_refuses():
    circle: dict = {}
    circle["again"] = circle
    for bad, error in (({"a": object()}, TypeError), ({1: 2, "a": 3}, TypeError),
                       (circle, ValueError)):
        for _ in range(2):  # the markers that found the circle are not kept for the next
            with pytest.raises(error):
                canonical(bad)
    assert canonical({"again": {}}) == '{"again":{}}'


def test_the_time_written_is_strftime_s(monkeypatch):
    for ns in (1_764_800_000_123_456_789, 1_764_800_059_999_999_000, 1_764_800_060_000_001_000,
               946_684_799_000_000_000):
        monkeypatch.setattr(time, "time_ns", lambda ns=ns: ns)
        at = datetime.fromtimestamp(ns // 1000 / 1e6, UTC)
        assert _now() == at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
