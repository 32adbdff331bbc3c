"""Faults at the edges of the session (issue 23): token values outside any bag below the UI, in
a scenario file and in an import whose digest was recomputed; a data file with a byte that is
not UTF-8; a log edited before its last snapshot; files that never end. Each is refused with a
message that names what is wrong, and nothing changes."""

from __future__ import annotations

import json
import random
import shutil

import pytest

from overseer.cli import main
from overseer.core.procedure import AnswerError, DrawToken, Token
from overseer.core.records import DataError
from overseer.loaders import catacombs as catacombs_data
from overseer.session.events import Event, digest
from overseer.session.export import export_game
from overseer.session.session import SNAPSHOT_EVERY, Session
from overseer.session.store import Store
from tests.drivers.table_script import SCENARIOS, setup_of, step

OUT_OF_BAG = [Token(99), Token(-3), Token(1_000_000), Token(True, False), Token(2, 1)]  # type: ignore[arg-type]


def physical(store: Store) -> Session:
    game, setup = setup_of("catacombs/physical_tokens")
    session = Session.new(store, game, setup, seed=4)
    session.begin({"do": "next_ai_piece"})
    while not isinstance(session.pending, DrawToken):
        session.answer(2)  # the die the scenario rolls
    return session


@pytest.mark.parametrize("token", OUT_OF_BAG)
def test_a_token_outside_the_bag_is_refused_below_the_ui(tmp_path, token):
    with Store(tmp_path / "g.db") as store:
        session = physical(store)
        before = store.events(session.id)
        with pytest.raises(AnswerError, match="a value from 0 to 9"):
            session.answer(token)
        assert store.events(session.id) == before and isinstance(session.pending, DrawToken)
        session.answer(Token(3, True))  # a token of the bag is taken


def test_a_token_outside_the_bag_in_a_scenario_file_is_refused(tmp_path, capsys):
    doc = json.loads((SCENARIOS / "catacombs" / "physical_tokens.json").read_text())
    doc["tokens"] = [{"value": 99, "reset": False}]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    assert main(["scenario", str(path)]) == 2
    err = capsys.readouterr().err
    assert "a value from 0 to 9" in err and "Traceback" not in err


def test_a_token_outside_the_bag_in_an_import_with_its_digest_recomputed(tmp_path, capsys):
    with Store(tmp_path / "g.db") as store:
        session = physical(store)
        session.answer(Token(3, True))
        doc = export_game(store, session.id)
    for event in doc["events"]:
        if event["kind"] == "answer" and event["data"]["key"] == "token":
            event["data"]["value"] = {"value": 99, "reset": False}
    doc["digest"] = digest([Event(e["kind"], e["data"], e.get("seen", False))
                            for e in doc["events"]])
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(doc))
    target = tmp_path / "other.db"
    assert main(["games", "import", str(path), "--db", str(target)]) == 2
    err = capsys.readouterr().err
    assert "a value from 0 to 9" in err and "digest" not in err
    with Store(target) as store:
        assert store.games() == []


def test_a_data_file_with_a_byte_not_utf8_names_the_file_and_line(tmp_path):
    folder = tmp_path / "catacombs"
    shutil.copytree(catacombs_data.FOLDER, folder)
    monsters = folder / "monsters.toml"
    data = monsters.read_bytes()
    at = data.index(b"\n", data.index(b"\n") + 1) + 1  # the start of line 3
    monsters.write_bytes(data[:at] + b"# \xff\n" + data[at:])
    with pytest.raises(DataError) as err:
        catacombs_data.load(folder)
    assert str(err.value).startswith(f"{monsters}:3: not UTF-8 text (byte 0xff)")


def test_games_list_and_resume_catch_an_edit_before_the_last_snapshot(tmp_path, capsys):
    db = tmp_path / "g.db"
    game, setup = setup_of("catacombs/los_blocked")
    with Store(db) as store:
        session = Session.new(store, game, setup, seed=2)
        rng = random.Random(2)
        while session.head < SNAPSHOT_EVERY + 20:
            step(session, rng)
        assert store.snapshot_seqs(session.id, session._build)  # a snapshot is kept
        game_id = session.id
        seq = next(n for n, e in enumerate(store.events(game_id)) if e.kind == "chance")
    import sqlite3

    raw = sqlite3.connect(db)
    data = json.loads(raw.execute("SELECT data FROM events WHERE seq = ?", (seq,)).fetchone()[0])
    data["value"] = data["value"] + 1 if isinstance(data["value"], int) else {
        **data["value"], "value": (data["value"]["value"] + 1) % 4}
    raw.execute("UPDATE events SET data = ? WHERE seq = ?", (json.dumps(data), seq))
    raw.commit()
    raw.close()
    assert main(["games", "list", "--json", "--db", str(db)]) == 0
    [listed] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert "problem" in listed and f"event #{seq}" in listed["problem"]
    assert main(["games", "resume", str(game_id), "--json", "--db", str(db)]) == 2
    assert f"event #{seq}" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [("scenario",), ("replay",), ("games", "import")])
def test_a_file_that_never_ends_is_refused_not_read_for_ever(tmp_path, capsys, argv):
    extra = ("--db", str(tmp_path / "g.db")) if argv[0] == "games" else ()
    assert main([*argv, "/dev/zero", *extra]) == 2
    err = capsys.readouterr().err
    assert "/dev/zero: larger than 64 MB" in err
    assert not (tmp_path / "g.db").exists() or argv[0] == "games"


def test_recover_of_a_store_that_is_not_there_makes_nothing(tmp_path, capsys):
    typo = tmp_path / "typo" / "dir" / "x.db"
    assert main(["games", "recover", "--db", str(typo)]) == 0
    assert "nothing to recover" in capsys.readouterr().out
    assert not (tmp_path / "typo").exists()


def test_a_config_key_the_gadget_refuses_stops_games_list_too(tmp_path, capsys, monkeypatch):
    config = tmp_path / "box.toml"
    config.write_text('[nfc]\nprot = "/dev/ttyS0"\n')
    monkeypatch.setenv("OVERSEER_CONFIG", str(config))
    monkeypatch.delenv("OVERSEER_DB", raising=False)
    assert main(["games", "list"]) == 2
    assert "nfc.prot: unknown key; did you mean 'port'?" in capsys.readouterr().err


def test_a_huge_action_name_is_not_echoed_whole(tmp_path):
    from overseer.session.session import SessionError

    game, setup = setup_of("catacombs/los_blocked")
    with Store(tmp_path / "g.db") as store:
        session = Session.new(store, game, setup, seed=1)
        with pytest.raises((SessionError, ValueError)) as refused:
            session.begin({"do": "x" * 20_000_000})
        assert len(str(refused.value)) < 1000
        assert "characters" in str(refused.value) or "too long" in str(refused.value)
        assert store.events(session.id) == []
