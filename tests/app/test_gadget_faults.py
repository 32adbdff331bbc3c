"""The box that never dies: each fault the gadget meets at an input ends on a clear screen, the
box goes on, and the store is as it was (issue 23). The gadget here is the real shell on a real
SQLite store; the faults are real ones (a store with no room left, an immutable file or a
store connection that refuses writes, an edited log, a bug raised inside a flow)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from overseer.app import calls, shell
from overseer.session.session import Session
from overseer.session.store import Store
from tests.app.faulty_table import contents
from tests.drivers.table_script import setup_of
from tools.table import NEXT, OK, Table

pytestmark = pytest.mark.faults


def new_game(path: Path, name: str = "catacombs/battle_end_party_defeated", seed: int = 3,
             actions: tuple[dict[str, Any], ...] = ()) -> int:
    game, setup = setup_of(name)
    with Store(path) as store:
        session = Session.new(store, game, setup, seed=seed)
        for action in actions:
            session.begin(action)
        return session.id


# ------------------------------------------------------------------ the loop's guard


def test_a_bug_at_an_input_is_a_screen_the_journal_gets_its_traceback(tmp_path, monkeypatch,
                                                                      caplog):
    path = tmp_path / "games.db"
    new_game(path)
    table = Table(path)
    before = contents(path)

    def broken(*args, **kwargs):
        raise IndexError("a bug")

    monkeypatch.setattr(calls, "apply", broken)
    faults = len(shell.faults)
    screen = table.press(NEXT)  # the AI piece would act: the session call raises
    assert screen.key == "Not done"
    assert "a fault inside Overseer (IndexError)" in " ".join(screen.lines)
    assert len(shell.faults) == faults + 1
    assert any(r.exc_info and "a bug" in str(r.exc_info[1]) for r in caplog.records)
    monkeypatch.undo()
    table.read()  # the message away: the game as the store holds it
    assert table.screen.key == "Battle"
    assert table.press(OK).title == "Menu"  # and the box goes on
    assert contents(path) == before
    table.close()


# ------------------------------------------------------------------ a full or read-only store

FAULTY = Path(__file__).with_name("faulty_table.py")
ROOT = Path(__file__).resolve().parents[2]
PATH = os.pathsep.join((str(ROOT / "host"), str(ROOT)))  # overseer, and tools/ for its table


def on_faulty_disk(tmp_path: Path, kind: str, how: str) -> dict[str, Any]:
    """faulty_table.py on a copy of ``tmp_path/games.db`` in a mount namespace of its own: a
    tmpfs of 2 MB filled by the script (``full``), or a read-only bind mount of the folder."""
    disk = tmp_path / "disk"
    disk.mkdir()
    shutil.copy(tmp_path / "games.db", disk / "games.db")
    store = disk / "games.db"
    if how == "full":
        mount = (f"mount -t tmpfs -o size=2m tmpfs {disk} && cp {tmp_path / 'games.db'} "
                 f"{store}")
    else:
        mount = f"mount --bind {disk} {disk} && mount -o remount,ro,bind {disk}"
    run = subprocess.run(
        ["unshare", "-m", "sh", "-c", f'{mount} && exec "$0" "$@"', sys.executable,
         str(FAULTY), str(store), kind, how], capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": PATH})
    if run.returncode != 0 and not run.stdout:
        if "unshare" in run.stderr or "mount" in run.stderr:
            pytest.skip(f"no mount namespace here: {run.stderr.strip()[:200]}")
        raise AssertionError(run.stderr)
    return json.loads(run.stdout.splitlines()[-1])


@pytest.mark.parametrize("how", ["full", "read-only"])
@pytest.mark.parametrize("kind", ["next", "form", "dice", "undo", "tap", "new game"])
def test_each_input_on_a_full_or_read_only_disk_is_not_saved_and_said(tmp_path, how, kind):
    undo = kind == "undo"
    new_game(tmp_path / "games.db", "catacombs/battle_end_room_won" if undo else
             "catacombs/battle_end_party_defeated", actions=({"do": "next_ai_piece"},)
             if undo else ())
    before = contents(tmp_path / "games.db")
    seen = on_faulty_disk(tmp_path, kind, how)
    assert seen["opened"][0] not in ("Not done", "Not taken"), seen  # the game opened
    if kind == "tap":  # a hero's card at the idle screen begins nothing: a message
        assert seen["key"] != "Not done" and seen["faults"] == 0, seen
    else:
        assert seen["key"] == "Not taken", seen
        assert seen["text"].startswith("Not saved"), seen
        assert ("full" in seen["text"]) if how == "full" else ("read-only" in seen["text"])
        assert str(tmp_path) not in seen["text"]  # words, not the store's path, on the glass
    assert seen["faults"] == 0 and seen["same"], seen  # a refusal, not a fault; nothing changed
    assert seen["next_key"] != "Not taken"  # OK: the box goes on
    if how == "read-only":
        assert contents(tmp_path / "disk" / "games.db") == before


def _chattr(flag: str, path: Path) -> bool:
    chattr = shutil.which("chattr")
    return chattr is not None and subprocess.run(
        [chattr, flag, str(path)], capture_output=True).returncode == 0


def test_a_store_that_cannot_be_written_opens_its_game_and_says_not_saved(tmp_path):
    path = tmp_path / "games.db"
    new_game(path)
    before = contents(path)
    if os.geteuid() == 0:
        if not _chattr("+i", path):
            pytest.skip("no chattr +i here, and root ignores a read-only mode")
    else:
        path.chmod(0o444)
    try:
        table = Table(path)
        assert table.gadget.store.read_only or table.screen.key == "Battle"
        assert table.screen.key == "Battle"  # the game opens
        screen = table.press(NEXT)
        assert screen.key == "Not taken" and " ".join(screen.lines).startswith("Not saved")
        table.close()
    finally:
        if os.geteuid() == 0:
            _chattr("-i", path)
        else:
            path.chmod(0o644)
    assert contents(path) == before


# ------------------------------------------------------------------ a game that does not replay


@pytest.mark.parametrize("damage", ["an edited roll", "card data changed"])
def test_a_game_that_no_longer_replays_is_set_aside_and_said(tmp_path, damage):
    path = tmp_path / "games.db"
    game = new_game(path, actions=({"do": "next_ai_piece"},))
    db = sqlite3.connect(path)
    if damage == "an edited roll":
        seq, data = db.execute("SELECT seq, data FROM events WHERE kind = 'chance'"
                               " ORDER BY seq").fetchone()
        edited = {**json.loads(data), "value": {"value": 3, "reset": False}}
        db.execute("UPDATE events SET data = ? WHERE seq = ?", (json.dumps(edited), seq))
    else:  # a monster its setup names is gone from the data under it
        setup = json.loads(db.execute("SELECT setup FROM games").fetchone()[0])
        setup["setup"]["pieces"][0]["type"] = "violet"
        db.execute("UPDATE games SET setup = ?", (json.dumps(setup),))
    db.commit()
    db.close()
    before = contents(path)
    table = Table(path)
    screen = table.screen
    assert screen.key == "Set aside"
    text = " ".join(" ".join(page.lines) for page in table.read())
    assert f"Game #{game} (Catacombs) no longer replays" in text
    assert table.screen.title in ("Which game?", "Who joins the party?")  # a new game
    assert table.gadget.store.gadget(game)["aside"]
    table.close()
    assert contents(path) == before  # the game is kept as it was: it still exports
    again = Table(path)
    assert again.screen.title in ("Which game?", "Who joins the party?")  # not asked again
    again.close()


# ------------------------------------------------------------------ a battle the rules end


def test_a_battle_the_rules_end_reopens_at_its_unread_steps(tmp_path):
    path = tmp_path / "games.db"
    new_game(path)
    table = Table(path)
    table.press(NEXT)
    assert table.session.finished
    table.close()  # the power goes before the table read the end
    again = Table(path)
    pages = again.read()
    assert "Party defeated" in [p.key for p in pages] or any(
        "defeated" in " ".join(p.lines) for p in pages), pages
    assert again.screen.key == "Game over"
    again.close()
    third = Table(path)  # read: the next start opens a new game
    assert third.screen.title in ("Which game?", "Who joins the party?")
    third.close()


# ------------------------------------------------------------------ Clank!: a fight with no lair


def test_clank_fight_monster_with_the_player_in_no_lair_is_refused(tmp_path):
    path = tmp_path / "games.db"
    new_game(path, "clank/sphinx_swords", actions=(
        {"do": "setup"}, {"do": "reveal", "room": "sphinxs-lair"}))
    table = Table(path)
    table.read()
    before = contents(path)
    faults = len(shell.faults)
    table.press(OK)
    screen = table.pick("Fight monster")
    assert screen.key == "Not taken"
    assert "Fight monster: nothing to choose from now" in " ".join(screen.lines)
    assert len(shell.faults) == faults
    table.press(OK)
    assert table.screen.key != "Not taken"
    table.close()
    assert contents(path) == before

