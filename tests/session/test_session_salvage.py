"""A damaged page costs at most the games whose rows are on it: ``games recover`` reads the
pages one by one where SQLite cannot (a scribbled root page of ``games``, a damaged header), and
a seeded fuzz of single-page scribbles checks that every game whose pages were not hit is saved
whole. 20 scribbles by default; ``-m long`` runs 1,000 (``OVERSEER_PAGE_FUZZ`` sets how many).
"""

from __future__ import annotations

import json
import os
import random
import sqlite3
from pathlib import Path

import pytest

from overseer.session import salvage
from overseer.session.events import Event
from overseer.session.recover import recover
from overseer.session.session import Session
from overseer.session.store import Store, StoreDamaged
from tests.drivers.table_script import setup_of, step

GAMES = 10


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> tuple[bytes, dict[int, list[Event]], dict[int, set[int]]]:
    """A store of ten Catacombs games, 30 inputs each, closed (its WAL checkpointed): its
    bytes, each game's log, and the games on each page."""
    path = tmp_path_factory.mktemp("salvage") / "games.sqlite3"
    with Store(path) as store:
        rng = random.Random(3)
        game, setup = setup_of("catacombs/los_blocked")
        for seed in range(GAMES):
            session = Session.new(store, game, setup, seed=seed)
            for _ in range(30):
                step(session, rng)
        store.set_gadget(2, {"seats": {"h1": 1}})
        logs = {g.id: store.events(g.id) for g in store.games()}
    pages = salvage.scan(path).pages
    return path.read_bytes(), logs, pages


def _root(data: bytes, table: str, tmp: Path) -> int:
    path = tmp / "probe.sqlite3"
    path.write_bytes(data)
    db = sqlite3.connect(path)
    try:
        return db.execute("SELECT rootpage FROM sqlite_master WHERE name = ?",
                          (table,)).fetchone()[0]
    finally:
        db.close()


def _saved(path: Path) -> dict[int, list[Event]]:
    with Store(path) as store:
        assert store.integrity() == ["ok"]
        return {g.id: store.events(g.id) for g in store.games()}


def test_the_pages_alone_hold_every_game(template, tmp_path):
    data, logs, pages = template
    path = tmp_path / "games.sqlite3"
    path.write_bytes(data)
    found = salvage.scan(path)
    assert sorted(found.games) == sorted(logs)
    for game_id, log in logs.items():
        assert [Event(kind, json.loads(d), bool(s)) for kind, d, s in found.log(game_id)] == log
    assert found.gadget[2] == '{"seats": {"h1": 1}}'


@pytest.mark.parametrize("table", ["games", "events"])
def test_a_scribbled_root_page_loses_no_game(template, tmp_path, table):
    """The games' root page holds every game's row: the rows are found on the leaves. The
    events' root holds a few events as its keys (a table WITHOUT ROWID keeps whole rows in
    its interior pages): those games are cut there, every other one is whole."""
    data, logs, pages = template
    root = _root(data, table, tmp_path)
    damaged = bytearray(data)
    rng = random.Random(table)
    damaged[(root - 1) * 4096:root * 4096] = rng.randbytes(4096)
    path = tmp_path / "games.sqlite3"
    path.write_bytes(bytes(damaged))
    with pytest.raises(StoreDamaged):
        Store(path)
    report = recover(path)
    assert len(report.saved) == GAMES and not report.lost, report.lines()
    saved = _saved(path)
    hit = pages.get(root, set()) if table == "events" else set()
    assert {g: log for g, log in saved.items() if g not in hit} == \
        {g: log for g, log in logs.items() if g not in hit}
    assert all(saved[g] == logs[g][:len(saved[g])] for g in hit)


def test_a_scribbled_header_is_a_damaged_store_and_recovered_whole(template, tmp_path):
    data, logs, _ = template
    damaged = random.Random(100).randbytes(100) + data[100:]
    path = tmp_path / "games.sqlite3"
    path.write_bytes(damaged)
    with pytest.raises(StoreDamaged, match="its SQLite header is damaged"):
        Store(path)
    report = recover(path)
    assert len(report.saved) == GAMES, report.lines()
    assert _saved(path) == logs
    assert report.aside.read_bytes() == damaged  # kept byte for byte


def scribbles(template, tmp_path: Path, count: int, seed: int) -> None:
    data, logs, pages = template
    rng = random.Random(seed)
    total = len(data) // 4096
    path = tmp_path / "games.sqlite3"
    for trial in range(count):
        page = rng.randrange(1, total + 1)
        damaged = bytearray(data)
        start = (page - 1) * 4096
        if rng.random() < 0.5:  # the whole page
            damaged[start:start + 4096] = rng.randbytes(4096)
        else:  # a stretch of it
            a = rng.randrange(4096)
            b = rng.randrange(a, 4097)
            damaged[start + a:start + b] = rng.randbytes(b - a)
        for side in ("", "-wal", "-shm"):
            Path(f"{path}{side}").unlink(missing_ok=True)
        for old in tmp_path.glob("games.sqlite3.damaged-*"):
            old.unlink()
        path.write_bytes(bytes(damaged))
        try:
            Store(path).close()
        except StoreDamaged:
            recover(path)
        hit = pages.get(page, set())
        with Store(path) as store:
            saved = {g.id: store.events(g.id) for g in store.games() if g.id not in hit}
        for game_id, log in logs.items():
            if game_id not in hit:
                assert saved.get(game_id) == log, (seed, trial, page, game_id)


def test_single_page_scribbles_save_every_game_not_hit(template, tmp_path):
    scribbles(template, tmp_path, 20, seed=23)


@pytest.mark.long
def test_a_thousand_single_page_scribbles(template, tmp_path):
    scribbles(template, tmp_path, int(os.environ.get("OVERSEER_PAGE_FUZZ", "1000")), seed=2323)
