"""The command line around the simulator: which game opens, options a resumed game cannot
take, `games list` for people, and no traceback for a user (broken pipe, Ctrl-C, no data)."""

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from overseer.cli import command as cli
from overseer.cli import main
from overseer.core.records import DATA_DIR
from overseer.session.lock import acquire
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


def _games(db) -> list[int]:
    with Store(db) as store:
        return [g.id for g in store.games()]


def test_games_delete_asks_first(db, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("n\n"))
    code, out, err = run(capsys, "games", "delete", "1", "--db", str(db))
    assert (code, out) == (1, "")
    assert err.startswith("Delete game #1 (catacombs, Demo battle: two heroes against")
    assert "Elf, Barbarian, round 1, last played " in err
    assert err.endswith("? It cannot be undone. [y/N] overseer games delete: game #1 was not "
                        "deleted\n")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no answer at all
    code, _, err = run(capsys, "games", "delete", "1", "--db", str(db))
    assert code == 1 and "(no answer: add --yes to delete without being asked)" in err
    assert _games(db) == [1]
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))
    code, out, _ = run(capsys, "games", "delete", "1", "--db", str(db))
    assert (code, json.loads(out)) == (0, {"deleted": 1})
    assert _games(db) == []


def test_games_delete_yes_does_not_ask(db, capsys):
    code, out, err = run(capsys, "games", "delete", "1", "--yes", "--db", str(db))
    assert (code, json.loads(out), err) == (0, {"deleted": 1}, "")
    assert _games(db) == []


def test_games_delete_refuses_an_unknown_id_and_a_store_in_play(db, capsys, tmp_path):
    code, out, err = run(capsys, "games", "delete", "7", "--yes", "--db", str(db))
    assert (code, out, err) == (2, "", "overseer games delete: no saved game #7\n")
    with acquire(db):  # a gadget playing from this store holds its lock
        code, out, err = run(capsys, "games", "delete", "1", "--yes", "--db", str(db))
    assert code == 2 and out == ""
    assert err == (f"overseer games delete: game #1 was not deleted: a gadget is playing from "
                   f"this store (the game store {db} is in use by another overseer (pid "
                   f"{os.getpid()}); stop that one first, or give this one another store "
                   "(--db))\n")
    assert _games(db) == [1]
    missing = tmp_path / "none" / "g.sqlite3"
    code, _, err = run(capsys, "games", "delete", "1", "--yes", "--db", str(missing))
    assert code == 2 and f"there is no game store at {missing} yet" in err
    assert not missing.parent.exists()


@pytest.mark.parametrize("command", [["--plain"], ["games", "list"], ["games", "import", DEMO]])
def test_db_refuses_a_file_that_is_not_a_store(tmp_path, capsys, command):
    text = tmp_path / "notes.txt"
    text.write_text("my shopping list\n")
    foreign = tmp_path / "photos.sqlite3"
    db = sqlite3.connect(foreign)
    db.execute("CREATE TABLE photos (name TEXT)")
    db.commit()
    db.close()
    for path, why in ((text, "not an SQLite database"),
                      (foreign, "an SQLite database of another application")):
        before = path.read_bytes()
        code, out, err = run(capsys, *command, "--db", str(path))
        assert code == 2 and "Traceback" not in err
        assert f"{path} is not an Overseer game store ({why}" in err
        assert "it was left as it is: choose another file (--db or OVERSEER_DB)" in err
        assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt", "photos.sqlite3"]


def test_db_makes_a_new_stores_folders_and_says_so(tmp_path, capsys, monkeypatch):
    path = tmp_path / "new" / "folder" / "games.sqlite3"
    code, out, _ = run(capsys, "games", "list", "--db", str(path))
    assert code == 0 and out == f"No saved games: there is no game store at {path} yet (the " \
        "first game makes it).\n"
    assert not (tmp_path / "new").exists()  # listing makes no store
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = run(capsys, "--plain", "--db", str(path))
    assert code == 0 and path.is_file()
    assert err == f"overseer: made the folder {path.parent} for the new game store " \
        "games.sqlite3\n"


def test_the_way_back_to_a_game_names_its_store_unless_it_is_the_default(tmp_path):
    from overseer.cli.paths import store_option

    path = tmp_path / "games.sqlite3"
    assert store_option(path, {"OVERSEER_DB": str(path)}) == ""
    assert store_option(path, {"OVERSEER_DB": str(tmp_path / "other.sqlite3")}) == \
        f" --db {path}"


@pytest.mark.parametrize(("scenario", "actions", "where"), [
    ("setup_room_d12", 0, ""),  # no room yet
    ("setup_room_d12", 1, "Bholoth Cemetery"),  # a Room card of the data
    ("campaign_entered_room", 3, "Glaaoth"),  # a Room card the table entered
    ("campaign_entered_lord", 3, "Monstrosity"),  # the Lord's room: the Lord's card
])
def test_a_game_is_named_by_its_rooms_card_in_the_list(scenario, actions, where):
    """`games list` names a game begun on the gadget (no title) by its room's card, never
    by an id ("lord", "glaaoth")."""
    from overseer.app.flow import table
    from overseer.core.procedure import Runner
    from overseer.documents import checked
    from overseer.scenario import Script, play

    path = Path(__file__).parents[1] / "scenarios" / "catacombs" / f"{scenario}.json"
    doc, game, state = checked(json.loads(path.read_text()))
    script = Script(doc)
    runner = Runner(game, state, chance=script.chance)
    for action in doc["script"]["actions"][:actions]:
        play(runner, script, action)
    assert table("catacombs").where(runner.state) == where
    assert table("conquest").where(runner.state) == ""  # a game with no rooms


@pytest.mark.parametrize("plain", [False, True])
def test_new_asks_which_game_with_an_unfinished_game_in_the_store(db, capsys, monkeypatch,
                                                                   plain):
    """`scripts/run --new`, with or without --plain: the gadget asks "Which game?" although
    the store holds an unfinished Catacombs game (the one a bare `scripts/run` goes on with);
    nothing is stored before the questions are answered. The simulator's path runs the real
    virtual Pico; only Textual's terminal app is left out (its run is replaced by a look at
    the glass)."""
    seen: list[str] = []
    if plain:
        monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    else:
        from overseer.sim import app
        from overseer.sim.box import VirtualBox

        def booted(board: str = "unix") -> VirtualBox:  # the terminal check left out
            box = VirtualBox(board=board)
            box.power_on()
            return box

        def looked(running, again: str = "") -> int:
            try:
                seen.append(running.gadget.screen.title)
            finally:
                running.close()
            return 0

        monkeypatch.setattr(cli, "power_on", booted)
        monkeypatch.setattr(app, "run", looked)
    with Store(db) as store:
        assert store.last_unfinished("catacombs") is not None
    code, out, err = run(capsys, *(["--plain"] if plain else []), "--new", "--db", str(db))
    assert code == 0, err
    if plain:
        seen.append(next(line for line in out.splitlines() if line.startswith("[")))
    assert seen == ["[Which game?] (question)" if plain else "Which game?"]
    with Store(db) as store:
        assert [g.id for g in store.games()] == [1]
