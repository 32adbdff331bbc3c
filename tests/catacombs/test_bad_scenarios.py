"""Bad scenario files give clear errors that say what and where."""

import json
from pathlib import Path

import pytest

from overseer import documents, scenario
from overseer.cli import main

BASE = {
    "format": 1, "game": "catacombs",
    "tiles": {"character_order": ["level-1"], "monster_order": ["green"],
              "direction": ["left-to-right", "monster-to-hero"]},
    "heroes": [{"id": "elf", "health": 8}],
    "pieces": [{"id": "orc", "type": "green", "sequences": [["Missile"]]}],
    "actions": [{"do": "next_ai_piece"}],
    "tokens": [0],
}


def run(tmp_path: Path, **changes) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**BASE, **changes}))
    scenario.run(documents.load(path))


@pytest.mark.parametrize("changes,message", [
    ({"format": 3}, "s.json: format: wanted 1 or 2, got 3"),
    ({"game": "chess"}, 's.json: game: "chess" is not a game; known: catacombs, conquest'),
    ({"tokens": []}, "ran out of tokens: the rules asked to draw a token from the level 1"),
    ({"tokens": [0, 1]}, "unused 1 tokens"),
    ({"tokens": [5]}, "wanted a token still in the level 1 damage token bag"),
    ({"pieces": [{"id": "orc", "type": "green", "sequences": [["Melee"]]}]},
     r"unanswered question \[template\]: Place the Attack template"),
    ({"pieces": [{"id": "orc", "type": "green", "sequences": [["Melee"]]}],
      "answers": [{"key": "los", "answer": []}]}, r"answer #1 is for \[los\] but the rules asked \[template\]"),
    ({"pieces": [{"id": "orc", "type": "green", "sequences": [["Melee"]]}],
      "answers": [{"key": "template", "answer": "maybe"}]}, "wanted yes or no"),
    ({"pieces": [{"id": "orc", "type": "mauve", "sequences": [["Melee"]]}]},
     "pieces\\[0\\].type: 'mauve' has no row in ai_behaviour.toml"),
    ({"pieces": [{"id": "orc", "card": "Tarrasque"}]}, "no monster card 'Tarrasque'"),
    ({"tiles": {"character_order": ["level-9"]}}, "'level-9' is not a character order tile"),
    ({"heroes": [{"id": "orc"}]}, "ids used twice: orc"),
    ({"heroes": [{"id": "elf", "status": ["sleepy"]}]}, r'heroes\[0\].status\[0\]: "sleepy" is not a hero status'),
    ({"options": {"los": True}}, "options.los: unknown key; did you mean 'los_blocked'"),
    ({"actions": [{"do": "fly"}]}, r'actions\[0\].do: "fly" is not a Catacombs action'),
    ({"actions": [{"do": "damage_piece", "piece": "ogre"}]}, "no AI piece 'ogre'"),
    ({"actions": [{"do": "update_hero", "hero": "elf", "health": -1}]}, "health cannot be negative"),
    ({"actions": []}, "'actions' must be a non-empty list"),
])
def test_bad_scenario(tmp_path, changes, message):
    with pytest.raises(documents.ScenarioError, match=message):
        run(tmp_path, **changes)


def test_not_json(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text('{"format": 1,\n  "game": }')
    assert main(["scenario", str(path)]) == 2
    assert "s.json:2:11: not valid JSON" in capsys.readouterr().err  # line and column


def test_check_reports_a_wrong_expectation(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({**BASE, "expect": [{"step": "miss", "target": "dwarf"}]}))
    assert main(["scenario", str(path), "--check"]) == 1
    assert "expected step #1 not found" in capsys.readouterr().err
