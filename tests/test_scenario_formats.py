"""Format 1 and format 2 scenario files: a format 1 file runs as it always did, and the same
file converted to format 2 prints the same trace and final state."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from overseer import documents, scenario
from overseer.cli import main

SCENARIOS = Path(__file__).resolve().parent / "scenarios"
FILES = sorted(SCENARIOS.glob("*/*.json"))
DOCS = {path: json.loads(path.read_text(encoding="utf-8")) for path in FILES}
FORMAT1 = [path for path, doc in DOCS.items() if doc["format"] == 1]
FORMAT2 = [path for path, doc in DOCS.items() if doc["format"] == 2]


def ids(paths: list[Path]) -> list[str]:
    return [f"{p.parent.name}/{p.stem}" for p in paths]


def cli_output(capsys, *argv: str) -> list[str]:
    assert main(["scenario", *argv]) == 0
    return capsys.readouterr().out.splitlines()


def test_both_formats_are_in_the_repository_for_both_games():
    counts = Counter((doc["game"], doc["format"]) for doc in DOCS.values())
    assert counts[("catacombs", 1)] >= 30 and counts[("conquest", 1)] >= 10
    assert counts[("catacombs", 2)] >= 3 and counts[("conquest", 2)] >= 2


@pytest.mark.parametrize("path", FORMAT1, ids=ids(FORMAT1))
def test_format_1_as_is_and_converted_print_the_same(path, tmp_path, capsys):
    as_is = cli_output(capsys, str(path))
    converted = tmp_path / path.name
    converted.write_text(documents.dumps(documents.upgrade(DOCS[path])), encoding="utf-8")
    assert json.loads(converted.read_text(encoding="utf-8"))["format"] == 2
    assert cli_output(capsys, str(converted)) == as_is
    final = json.loads(as_is[-1])["final"]
    trace = [json.loads(line) for line in as_is[:-1]]
    assert scenario.check(DOCS[path], trace, final) == []


@pytest.mark.parametrize("path", FORMAT1, ids=ids(FORMAT1))
def test_upgrade_puts_every_key_where_format_2_keeps_it(path):
    old = DOCS[path]
    new = documents.upgrade(old)
    assert new["format"] == 2 and new["game"] == old["game"]
    for key, value in old.items():
        if key in documents.SCRIPT_KEYS:
            assert new["script"][key] == value
        elif key in ("title", "description", "expect", "expect_state", "strict"):
            assert new[key] == value
        elif old["game"] == "conquest":
            assert key in ("format", "game", "setup") and new["setup"] == old["setup"]
        elif key not in ("format", "game"):
            assert new["setup"][key] == value
    # and nothing comes from anywhere else
    assert set(new) - {"setup", "script"} <= set(old)
    assert all(old[k] == v for k, v in new["script"].items())
    if old["game"] == "catacombs":
        assert all(old[k] == v for k, v in new["setup"].items())


@pytest.mark.parametrize("path", FORMAT2, ids=ids(FORMAT2))
def test_a_format_2_file_upgrades_to_itself(path, capsys):
    assert documents.upgrade(DOCS[path]) == DOCS[path]
    assert cli_output(capsys, str(path), "--upgrade") == \
        path.read_text(encoding="utf-8").splitlines()


def test_upgrade_flag_prints_format_2_and_runs_nothing(tmp_path, capsys):
    path = SCENARIOS / "catacombs" / "los_blocked.json"
    printed = json.loads("\n".join(cli_output(capsys, str(path), "--upgrade")))
    assert printed == documents.upgrade(DOCS[path])
    assert list(printed) == ["format", "game", "title", "setup", "script", "expect",
                             "expect_state"]
    assert set(printed["script"]) == {k for k in DOCS[path] if k in documents.SCRIPT_KEYS}


def test_setup_and_script_of_either_format():
    from overseer.rules.catacombs import scenario as catacombs
    from overseer.rules.conquest import scenario as conquest

    one = DOCS[SCENARIOS / "catacombs" / "los_blocked.json"]
    two = documents.upgrade(one)
    assert documents.setup_of(one, catacombs) == documents.setup_of(two, catacombs) == two["setup"]
    assert documents.script_of(two) == two["script"]
    assert documents.script_of(one)["actions"] == two["script"]["actions"]
    c1 = DOCS[SCENARIOS / "conquest" / "stunned_4_players.json"]
    assert documents.setup_of(c1, conquest) == documents.upgrade(c1)["setup"] == c1["setup"]


def test_strict_and_description_survive_the_upgrade(tmp_path, capsys):
    doc = {**DOCS[SCENARIOS / "catacombs" / "los_blocked.json"], "strict": False,
           "description": "a longer note", "dice": [5, 5, 5]}
    new = documents.upgrade(doc)
    assert (new["strict"], new["description"], new["script"]["dice"]) == \
        (False, "a longer note", [5, 5, 5])
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    one.write_text(json.dumps(doc))
    two.write_text(documents.dumps(new))
    assert cli_output(capsys, str(one)) == cli_output(capsys, str(two))  # leftover dice allowed
    with pytest.raises(documents.ScenarioError, match="unused 2 dice"):
        scenario.run({**new, "strict": True})
