"""The command line around the simulator: which game opens, options a resumed game cannot
take, `games list` for people, and no traceback for a user (broken pipe, Ctrl-C, no data)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from overseer import cli
from overseer.cli import main
from overseer.data import DATA_DIR
from overseer.session.session import Session
from overseer.session.store import Store

DEMO = str(DATA_DIR / "demo" / "catacombs.json")
HOST = str(Path(__file__).resolve().parents[2] / "host")


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        session = Session.new(store, "catacombs", json.loads(Path(DEMO).read_text()), seed=3)
        session.begin({"do": "next_ai_piece"})
    return path


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("options, named", [
    (["--seed", "4"], "--seed 4 applies"),
    (["--setup", DEMO, "--dice", "table"], f"--setup {DEMO} and --dice table apply"),
    (["--tokens", "physical"], "--tokens physical applies"),
])
def test_options_of_a_new_game_are_refused_for_a_resumed_one(db, capsys, options, named):
    code, out, err = run(capsys, "--plain", "--db", str(db), *options)
    assert code == 2 and out == ""
    assert err.strip() == (f"overseer: {named} to a new game, and game #1 would be resumed (it "
                           "keeps its own); add --new to start a new game with them")
    with Store(db) as store:
        assert [g.id for g in store.games()] == [1]


def test_games_resume_takes_no_new_game_options(db, capsys):
    with pytest.raises(SystemExit):
        main(["games", "resume", "1", "--seed", "3", "--db", str(db)])
    assert "unrecognized arguments: --seed 3" in capsys.readouterr().err


def test_a_conquest_setup_is_refused_by_name(tmp_path, capsys):
    conquest = next((Path(__file__).parents[1] / "scenarios" / "conquest").glob("*.json"))
    code, _, err = run(capsys, "--plain", "--new", "--setup", str(conquest), "--db",
                       str(tmp_path / "g.sqlite3"))
    assert code == 2 and "is a conquest setup; the gadget plays catacombs" in err


def test_the_simulator_wants_a_terminal(db, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", open(os.devnull))
    code, _, err = run(capsys, "--db", str(db))
    assert code == 2
    assert err.strip() == ("overseer: the simulator needs a terminal; --plain plays line by "
                           "line (for scripts and screen readers)")


def test_games_list_is_a_table_for_people(db, capsys):
    with Store(db) as store:
        Session.new(store, "catacombs", store.game(1).setup, seed=5).finish()
    code, out, _ = run(capsys, "games", "list", "--db", str(db))
    header, newest, first = out.splitlines()
    assert code == 0
    assert header.split() == ["id", "game", "title", "heroes", "round", "last", "played"]
    assert newest.split()[:2] == ["2", "catacombs"] and newest.endswith("finished")
    assert "Demo battle: two heroes against~" in first and "Elf, Barbarian" in first
    assert first.split()[0] == "1" and first.endswith("in play")
    assert first.index("Elf") == header.index("heroes")
    code, out, _ = run(capsys, "games", "list", "--db", str(db), "--game", "conquest")
    assert out == "No saved games.\n"


def test_games_list_json_is_for_machines(db, capsys):
    code, out, _ = run(capsys, "games", "list", "--json", "--db", str(db))
    [game] = [json.loads(line) for line in out.splitlines()]
    assert (game["id"], game["heroes"], game["round"]) == (1, ["Elf", "Barbarian"], 1)


def test_ctrl_c_is_a_message(monkeypatch, capsys):
    def interrupted(argv):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "dispatch", interrupted)
    code, _, err = run(capsys, "--plain")
    assert code == 130 and err == "\noverseer: stopped; every step taken is saved\n"


def _overseer(*argv, env=None, close_stdout=False):
    env = {**os.environ, "PYTHONPATH": HOST, **(env or {})}
    proc = subprocess.Popen([sys.executable, "-m", "overseer.cli", *argv], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    if close_stdout:
        proc.stdout.close()
        return proc.wait(timeout=60), b"", proc.stderr.read()
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def test_a_broken_pipe_is_quiet(db):
    code, _, err = _overseer("games", "list", "--json", "--db", str(db), close_stdout=True)
    assert (code, err) == (0, b"")


def test_a_missing_data_file_is_a_message(tmp_path):
    code, _, err = _overseer("--plain", "--db", str(tmp_path / "g.sqlite3"),
                             env={"OVERSEER_DATA": str(tmp_path / "nodata")})
    assert code == 2 and b"Traceback" not in err
    assert err.startswith(b"overseer: ") and b"cannot read" in err
