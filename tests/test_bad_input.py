"""Bad input reaches the user as one clear message, never a traceback, and changes nothing:
a count that is no count, absurd numbers, JSON nested a hundred thousand deep, a file that is
not UTF-8, in scenario files, session setups and actions, and exported games."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from overseer.cli import main
from overseer.core.shapes import MAX_DEPTH, MAX_NUMBER, BadInput, check_plain
from overseer.session.export import ExportError, import_game, read_export, write_export
from overseer.session.session import Session, SessionError
from overseer.session.store import Store
from tests.drivers.table_script import step

SCENARIO = {  # runs as it is (tests/test_scenario_keys.py has the same)
    "format": 2, "game": "catacombs", "title": "bad input",
    "setup": {
        "options": {"los_blocked": False},
        "tiles": {"character_order": ["level-1"], "monster_order": ["green"],
                  "direction": ["left-to-right", "monster-to-hero"]},
        "heroes": [{"id": "elf", "health": 8, "gold": 2}, {"id": "dwarf", "health": 6}],
        "pieces": [{"id": "orc", "type": "green", "sequences": [["Missile"]]}],
    },
    "script": {"actions": [{"do": "next_ai_piece"}], "tokens": [{"value": 0}],
               "answers": [{"key": "closest", "answer": "elf"}]},
}
DEEP = 100_000


def deep_json(depth: int = DEEP) -> str:
    return '{"format": 2, "game": "catacombs", "setup": ' + "[" * depth + "]" * depth + "}"


def deep_object(depth: int = DEEP) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = {"x": value}
    return value


def with_value(doc: dict[str, Any], path: tuple, value: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    where: Any = doc
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return doc


def run_cli(args: list[str], capsys: pytest.CaptureFixture) -> str:
    """``overseer ARGS``: exit status 2 and one line on stderr, no traceback; that line."""
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    return lines[0]


# ---------------------------------------------------------------------- scenario files

SCENARIO_CASES = [
    (("script", "actions", 0, "times"), "abc",
     'script.actions[0].times: wanted a whole number, got "abc"'),
    (("script", "actions", 0, "times"), -3, "script.actions[0].times: wanted 1 to 1000"),
    (("script", "actions", 0, "times"), 10 ** 30,
     "script.actions[0].times: a 31-digit number is out of range"),
    (("setup", "heroes", 0, "health"), -10 ** 30,
     "setup.heroes[0].health: minus a 31-digit number is out of range"),
    (("setup", "heroes", 0, "gold"), 10 ** 400,
     "setup.heroes[0].gold: a 401-digit number is out of range"),
    (("script", "tokens", 0), -10 ** 30, "script.tokens[0]: minus a 31-digit number is out"),
    (("setup", "heroes", 0, "health"), MAX_NUMBER + 1, "setup.heroes[0].health: 1000001 is out"),
]


@pytest.mark.parametrize(("path", "value", "message"), SCENARIO_CASES,
                         ids=[f"{c[0][-1]}={str(c[1])[:12]}" for c in SCENARIO_CASES])
def test_a_bad_count_or_an_absurd_number_in_a_scenario(tmp_path: Path, capsys, path, value,
                                                       message) -> None:
    file = tmp_path / "s.json"
    file.write_text(json.dumps(with_value(SCENARIO, path, value)))
    line = run_cli(["scenario", str(file)], capsys)
    assert line.startswith(f"overseer scenario: {file}: {message}"), line


def test_the_base_scenario_runs(tmp_path: Path, capsys) -> None:
    file = tmp_path / "s.json"
    file.write_text(json.dumps(SCENARIO))
    assert main(["scenario", str(file)]) == 0


@pytest.mark.parametrize("text", [deep_json(), '{"a": ' * DEEP + "1" + "}" * DEEP],
                         ids=["lists", "objects"])
def test_json_nested_a_hundred_thousand_deep(tmp_path: Path, capsys, text: str) -> None:
    file = tmp_path / "deep.json"
    file.write_text(text)
    line = run_cli(["scenario", str(file)], capsys)
    assert line == (f"overseer scenario: {file}: nested too deeply to read (lists or objects "
                    f"inside each other thousands of times)")


def test_json_nested_deeper_than_any_scenario_is_refused_by_its_path(tmp_path: Path,
                                                                     capsys) -> None:
    file = tmp_path / "deep.json"
    file.write_text(json.dumps(with_value(SCENARIO, ("setup", "options"), deep_object(40))))
    line = run_cli(["scenario", str(file)], capsys)
    assert f"nested more than {MAX_DEPTH} levels deep" in line and "setup.options.x.x" in line


def test_a_number_thousands_of_digits_long(tmp_path: Path, capsys) -> None:
    file = tmp_path / "digits.json"
    file.write_text('{"format": 2, "game": "catacombs", "setup": {"x": ' + "9" * 5000 + "}}")
    line = run_cli(["scenario", str(file)], capsys)
    assert line == f"overseer scenario: {file}: not valid JSON (a number thousands of digits long)"


def test_a_file_that_is_not_utf8(tmp_path: Path, capsys) -> None:
    file = tmp_path / "latin1.json"
    text = json.dumps(with_value(SCENARIO, ("title",), "Mara\u00fcder"), ensure_ascii=False)
    file.write_bytes(text.encode("latin-1"))
    at = text.index("\u00fc")
    line = run_cli(["scenario", str(file)], capsys)
    assert line == (f"overseer scenario: {file}: not UTF-8 text (byte 0xfc at offset {at}); "
                    f"save the file as UTF-8")


# ---------------------------------------------------------------------- sessions


@pytest.fixture
def store(tmp_path: Path):
    with Store(tmp_path / "games.sqlite3") as s:
        yield s


def test_an_absurd_number_in_a_session_setup_stores_nothing(store: Store) -> None:
    setup = with_value(SCENARIO, ("setup", "heroes", 0, "health"), -10 ** 30)
    with pytest.raises(SessionError, match="setup.heroes\\[0\\].health: minus a 31-digit number"):
        Session.new(store, "catacombs", setup)
    with pytest.raises(SessionError, match="nested more than"):
        Session.new(store, "catacombs", with_value(SCENARIO, ("setup",), deep_object(DEEP)))
    assert store.games() == []


def playing(store: Store) -> Session:
    session = Session.new(store, "catacombs", {k: SCENARIO[k] for k in ("format", "game",
                                                                      "setup")}, seed=1)
    step(session, random.Random(1))
    return session


@pytest.mark.parametrize(("action", "message"), [
    ({"do": "damage_piece", "piece": "orc", "amount": 10 ** 30},
     "action.amount: a 31-digit number is out of range"),
    ({"do": "damage_piece", "piece": "orc", "amount": -10 ** 30},
     "action.amount: minus a 31-digit number is out of range"),
    ({"do": "update_hero", "hero": "elf", "poison": [10 ** 30]},
     "action.poison\\[0\\]: a 31-digit number is out of range"),
    ({"do": "update_hero", "hero": "elf", "health": float("inf")},
     "action.health: Infinity is out of range"),
    ({"do": "update_hero", "hero": "elf", "items": deep_object(DEEP)},
     "action.items.x.x.* nested more than"),
], ids=["huge", "minus-huge", "in-a-list", "infinite", "deep"])
def test_an_absurd_action_is_refused_and_changes_nothing(store: Store, action, message) -> None:
    session = playing(store)
    before = (session.state_dict(), session.events, session.head)
    with pytest.raises(SessionError, match=f"the action is refused: {message}"):
        session.begin(action)
    assert (session.state_dict(), session.events, session.head) == before
    assert store.events(session.id) == before[1]


# ---------------------------------------------------------------------- exports


@pytest.fixture
def exported(store: Store, tmp_path: Path) -> Path:
    return write_export(store, playing(store).id, tmp_path / "game.json")


def refused_import(store: Store, path: Path, capsys, message: str) -> None:
    before = [(g.id, g.length) for g in store.games()]
    with pytest.raises(ExportError, match=message):
        import_game(store, path)
    assert [(g.id, g.length) for g in store.games()] == before
    line = run_cli(["games", "import", str(path), "--db", str(store.path)], capsys)
    assert line.startswith("overseer games import: ") and "Traceback" not in line
    for command in (["replay", str(path)],):
        assert run_cli(command, capsys).startswith("overseer replay: ")


def test_an_export_that_is_not_utf8(store: Store, exported: Path, capsys) -> None:
    exported.write_bytes(exported.read_bytes().replace(b'"kind"', b'"k\xe9ind"', 1))
    refused_import(store, exported, capsys, "not UTF-8 text \\(byte 0xe9 at offset")


def test_an_export_nested_a_hundred_thousand_deep(store: Store, exported: Path,
                                                  capsys) -> None:
    exported.write_text(deep_json())
    refused_import(store, exported, capsys, "nested too deeply to read")


def test_an_absurd_number_in_an_exports_setup_or_events(store: Store, exported: Path,
                                                        capsys) -> None:
    doc = json.loads(exported.read_text())
    good = copy.deepcopy(doc)
    doc["setup"]["setup"]["heroes"][0]["health"] = -10 ** 30
    exported.write_text(json.dumps(doc))
    refused_import(store, exported, capsys,
                   "setup.setup.heroes\\[0\\].health: minus a 31-digit number is out of range")
    doc = copy.deepcopy(good)
    doc["events"][0]["data"]["amount"] = 10 ** 30
    exported.write_text(json.dumps(doc))
    refused_import(store, exported, capsys,
                   "events\\[0\\].data.amount: a 31-digit number is out of range")
    exported.write_text(json.dumps(good))
    assert read_export(exported)["game"] == "catacombs"  # the good file still reads


# ---------------------------------------------------------------------- the check itself


def test_check_plain_takes_plain_json_and_names_the_first_bad_place() -> None:
    doc = {"a": [1, -2.5, "x", None, True, {"b": MAX_NUMBER}], "c": -MAX_NUMBER}
    assert check_plain(doc) is doc
    with pytest.raises(BadInput, match="^a\\[1\\]: 10000000 is out of range"):
        check_plain({"a": [1, 10 ** 7, 10 ** 8]})
    with pytest.raises(BadInput, match="a key must be a string"):
        check_plain({1: 2})
    with pytest.raises(BadInput, match="not plain JSON data \\(a set\\)"):
        check_plain({"a": {1, 2}})
    with pytest.raises(BadInput, match="NaN is out of range"):
        check_plain([float("nan")])
