"""`overseer replay` and `overseer games ...` against a real store file."""

from __future__ import annotations

import json
import random

import pytest

from overseer.cli import main
from overseer.cli.paths import ConfigError, store_path
from overseer.session.session import Session
from overseer.session.store import Store
from tests.drivers.table_script import setup_of, step


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        rng = random.Random(1)
        for name in ("catacombs/los_blocked", "conquest/turn_order_3_players"):
            game, setup = setup_of(name)
            session = Session.new(store, game, setup, seed=1)
            for _ in range(6):
                step(session, rng)
    return path


def _run(capsys, *argv: str) -> tuple[int, list, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def test_list_resume_export_import_replay_delete(db, tmp_path, capsys):
    code, games, _ = _run(capsys, "games", "list", "--json", "--db", str(db))
    assert code == 0 and [g["game"] for g in games] == ["conquest", "catacombs"]
    code, [resumed], _ = _run(capsys, "games", "resume", "--json", "--db", str(db), "--game",
                              "catacombs")
    assert resumed["id"] == games[1]["id"] and resumed["events"] == games[1]["events"]
    assert "heroes" in resumed["state"] and resumed["can_undo"]
    out = tmp_path / "cat.json"
    code, [done], _ = _run(capsys, "games", "export", str(games[1]["id"]), str(out), "--db",
                           str(db))
    assert code == 0 and done["file"] == str(out)
    code, lines, _ = _run(capsys, "replay", str(out))
    assert code == 0 and lines[-1]["final"] == resumed["state"]
    assert lines[0]["step"] == "active_character"
    code, [imported], err = _run(capsys, "games", "import", str(out), "--db", str(db))
    assert code == 0 and imported == {"already_stored": games[1]["id"], "store": str(db)}
    assert err == (f"overseer games import: {out} is already in the store as game "
                   f"#{games[1]['id']}; nothing was imported\n")
    other = tmp_path / "other.sqlite3"
    code, [imported], err = _run(capsys, "games", "import", str(out), "--db", str(other))
    assert (code, imported, err) == (0, {"imported": 1, "store": str(other)}, "")
    code, [gone], _ = _run(capsys, "games", "delete", str(games[0]["id"]), "--yes", "--db",
                           str(db))
    assert gone == {"deleted": games[0]["id"]}
    code, games, _ = _run(capsys, "games", "list", "--json", "--db", str(db), "--game",
                          "conquest")
    assert games == []


def _saved(db) -> list:
    with Store(db) as store:
        return [(g.as_dict(), store.events(g.id)) for g in store.games()]


def test_errors_are_clear_and_change_nothing(db, tmp_path, capsys):
    before = _saved(db)
    code, _, err = _run(capsys, "games", "delete", "99", "--db", str(db))
    assert code == 2 and err.strip() == "overseer games delete: no saved game #99"
    bad = tmp_path / "bad.json"
    bad.write_text('{"kind": "overseer-game", "format": 1, "ga')
    code, _, err = _run(capsys, "games", "import", str(bad), "--db", str(db))
    assert code == 2 and "truncated?" in err
    code, _, err = _run(capsys, "replay", str(bad))
    assert code == 2 and err.startswith("overseer replay: ") and "truncated?" in err
    code, _, err = _run(capsys, "games", "resume", "--json", "--db", str(db), "--game",
                        "conquest")
    assert code == 0
    assert _saved(db) == before


def test_a_file_that_is_not_a_store_is_refused_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "games.sqlite3"
    path.write_bytes(b"garbage" * 200)
    code, games, err = _run(capsys, "games", "list", "--json", "--db", str(path))
    assert code == 2 and games == []
    assert err == (f"overseer games list: {path} is not an Overseer game store (not an SQLite "
                   "database); it was left as it is: choose another file (--db or "
                   "OVERSEER_DB)\n")
    assert path.read_bytes() == b"garbage" * 200 and sorted(tmp_path.iterdir()) == [path]


def test_store_path_precedence(tmp_path):
    config = tmp_path / "overseer.toml"
    config.write_text('[session]\ndatabase = "saves/games.db"\n')
    env = {"OVERSEER_CONFIG": str(config)}
    assert store_path(None, env) == tmp_path / "saves" / "games.db"
    assert store_path(None, {**env, "OVERSEER_DB": "/x/env.db"}).as_posix() == "/x/env.db"
    assert store_path("/x/cli.db", {**env, "OVERSEER_DB": "/x/env.db"}).as_posix() == "/x/cli.db"
    assert store_path(None, {"OVERSEER_CONFIG": str(tmp_path / "none.toml")}).name == \
        "games.sqlite3"
    config.write_text("[session\n")
    with pytest.raises(ConfigError, match="overseer.toml"):
        store_path(None, env)
