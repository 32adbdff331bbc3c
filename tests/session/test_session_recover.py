"""`overseer games recover`: a damaged store's readable games saved into a new store, the
damaged file kept aside byte for byte."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from pathlib import Path

import pytest

from overseer.cli import main
from overseer.session import lock
from overseer.session.events import Event
from overseer.session.migrations import LATEST
from overseer.session.recover import NothingToRecover, recover
from overseer.session.session import Session
from overseer.session.store import Store, StoreDamaged
from tests.drivers.table_script import setup_of, step

PAGE = 4096


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def played(tmp_path) -> tuple[Path, dict[int, list[Event]]]:
    """A store of six Catacombs games, 40 inputs each, written through to the main file."""
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        rng = random.Random(1)
        game, setup = setup_of("catacombs/los_blocked")
        for seed in range(6):
            session = Session.new(store, game, setup, seed=seed)
            for _ in range(40):
                step(session, rng)
        store.set_gadget(2, {"seats": {"h1": 1}})
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        logs = {g.id: store.events(g.id) for g in store.games()}
    return path, logs


def _check_recovered(path: Path, logs: dict[int, list[Event]], damaged_sha: str):
    """The new store is sound and every game in it replays; the damaged file is kept."""
    report = recover(path)
    assert _sha(report.aside) == damaged_sha
    assert report.aside.parent == path.parent
    assert report.aside.name.startswith(path.name + ".damaged-")
    with Store(path) as store:
        assert store.integrity() == ["ok"] and store.version() == LATEST
        for info in store.games():
            events = store.events(info.id)
            assert events == logs[info.id][:len(events)]
            Session.resume(store, info.id)  # it replays
    return report


def test_a_bad_page_loses_only_the_games_on_it(played):
    path, logs = played
    data = bytearray(path.read_bytes())
    data[-PAGE:-PAGE + 100] = b"\xff" * 100  # scribble over the last page's b-tree header
    path.write_bytes(bytes(data))
    with pytest.raises(StoreDamaged):
        Store(path)
    report = _check_recovered(path, logs, _sha(path))
    assert [g.id for g in report.saved] == sorted(logs)  # the list of games was whole
    broken = [g for g in report.saved if g.broke]
    assert broken and len(broken) < len(logs)
    with Store(path) as store:
        for game in report.saved:
            if not game.broke:
                assert store.events(game.id) == logs[game.id]
        assert store.gadget(2) == {"seats": {"h1": 1}}
    assert any("the rest of its log could not be read" in line for line in report.lines())


def test_a_truncated_store_keeps_what_was_before_the_cut(played):
    path, logs = played
    data = path.read_bytes()
    path.write_bytes(data[:-3 * PAGE])  # a copy that stopped three pages short
    report = _check_recovered(path, logs, _sha(path))
    assert report.saved and sum(g.events for g in report.saved) < sum(map(len, logs.values()))


def test_a_store_cut_in_half_says_what_it_lost(played):
    path, logs = played
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    report = _check_recovered(path, logs, _sha(path))
    assert [g.id for g in report.saved] == sorted(logs)  # their setups, at least
    assert any(g.broke for g in report.saved) and all(len(line) < 140 for line in report.lines()[2:])


def test_a_half_written_migration_is_recovered_whole(played):
    path, logs = played
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {LATEST - 1}")  # the last migration's table is there
    db.commit()
    db.close()
    with pytest.raises(StoreDamaged, match="half-written update"):
        Store(path)
    report = _check_recovered(path, logs, _sha(path))
    assert [(g.id, g.events, g.broke) for g in report.saved] == \
        [(gid, len(log), None) for gid, log in sorted(logs.items())]
    with Store(path) as store:
        assert [g.id for g in store.games()] == sorted(logs, reverse=True)  # the same order


def test_a_sound_or_foreign_file_has_nothing_to_recover(played, tmp_path):
    path, _ = played
    before = _sha(path)
    with pytest.raises(NothingToRecover, match="is sound; nothing to recover"):
        recover(path)
    text = tmp_path / "notes.txt"
    text.write_text("not a store\n")
    with pytest.raises(NothingToRecover, match="not an Overseer game store"):
        recover(text)
    with pytest.raises(NothingToRecover, match="there is no game store at"):
        recover(tmp_path / "none.sqlite3")
    assert _sha(path) == before and text.read_text() == "not a store\n"
    assert list(tmp_path.glob("*.damaged-*")) == []


def test_a_store_in_use_is_not_recovered(played):
    path, _ = played
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    before = _sha(path)
    with lock.acquire(path), pytest.raises(lock.StoreInUse, match="in use by another"):
        recover(path)
    assert _sha(path) == before and not list(path.parent.glob("*.damaged-*"))


def test_the_command_line_reports_then_recovers(played, capsys):
    path, logs = played
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    assert main(["games", "list", "--db", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    assert err.startswith(f"overseer games list: the game store {path} is damaged (")
    assert f"`overseer games recover --db {path}` saves what can be read" in err
    assert main(["--plain", "--db", str(path)]) == 2
    assert "is damaged" in capsys.readouterr().err
    assert main(["games", "recover", "--db", str(path)]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out.startswith("the damaged store (SQLite: database disk image is "
                                        "malformed) is kept as ")
    assert "holds the " in out.splitlines()[1]
    assert main(["games", "list", "--db", str(path)]) == 0
    assert main(["games", "recover", "--db", str(path)]) == 0
    assert capsys.readouterr().out.endswith("is sound; nothing to recover\n")


def test_the_doctor_names_recover_for_a_damaged_store(played):
    from overseer.cli.doctor import check_store, parser

    path, _ = played
    args = parser().parse_args(["--db", str(path)])
    assert check_store(args).ok
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    found = check_store(args)
    assert not found.ok and f"the game store {path} is damaged" in found.text
    assert found.fix == f"overseer games recover --db {path} saves what can be read into a " \
        "new store and keeps the damaged file aside"
    text = path.with_name("notes.txt")
    text.write_text("mine\n")
    found = check_store(parser().parse_args(["--db", str(text)]))
    assert not found.ok and "is not an Overseer game store" in found.text
