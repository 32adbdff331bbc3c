"""Ice Box rules beside their scenario files: the conditional shot notation and its refusals,
the reactive shot in the card data, what a scenario cannot show (a shot not performed, a
piece removed), and refused hits that change nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from overseer import scenario
from overseer.core.records import DataError
from overseer.loaders import catacombs as catacombs_data
from overseer.rules.catacombs import cards
from overseer.rules.catacombs.state import Shot, parse_sequence
from tests.catacombs.driving import data_folder, drive_scenario, edited

SCENARIOS = Path(__file__).parents[1] / "scenarios" / "catacombs"


def load(name: str) -> dict:
    return json.loads((SCENARIOS / name).read_text(encoding="utf-8"))


# --------------------------------------------------------------------------- the notation

def test_a_condition_word_marks_the_shot_before_it():
    # Ice Box: Conditional Shot Operators: the burst (If Damage), the outlined burst (If Hit).
    assert parse_sequence(["Melee", "If Damage", "Rush"]) == [Shot("melee", must="damage"),
                                                               Shot("rush")]
    assert parse_sequence(["Missile+Poison", "if hit", "Then", "Summon:Orc"]) == [
        Shot("missile", ("poison",), must="hit"), Shot("summon", (), "Orc")]
    assert parse_sequence(["Rush", "Elastic", "Missile"]) == [Shot("rush"), Shot("missile")]


@pytest.mark.parametrize("sequence, message", [
    (["If Damage", "Melee"], "'If Damage' must follow a shot"),
    (["Melee", "If Damage", "If Hit", "Rush"], "'If Hit' must follow a shot"),
    (["Rush", "Melee", "If Hit"], "the condition on 'melee' needs a shot after it"),
])
def test_a_misplaced_condition_is_refused(sequence, message):
    with pytest.raises(ValueError, match=message):
        parse_sequence(sequence)


def _broken_monsters(tmp_path: Path, old: str, new: str) -> Path:
    """A copy of data/catacombs/ with its monsters.toml edited: the folder."""
    folder = data_folder(tmp_path)
    edited(folder, "monsters.toml", old, new)
    return folder


def test_a_card_with_a_misplaced_condition_fails_to_load_with_its_line(tmp_path):
    path = _broken_monsters(tmp_path, 'sequences = [["Melee"], ["Missile"]]',
                            'sequences = [["Melee"], ["Missile", "If Hit"]]')
    with pytest.raises(DataError, match=r"monsters\.toml:19: record monster 'orc', field "
                                        r"'sequences': the condition on 'missile' needs"):
        catacombs_data.load(path)


def test_a_reactive_shot_in_the_card_data_loads_and_a_connector_is_refused(tmp_path):
    good = _broken_monsters(tmp_path, 'sequences = [["Melee"], ["Missile"]]',
                            'sequences = [["Melee"], ["Missile"]]\nreactive = "Missile+Fear"')
    assert catacombs_data.load(good).monster("orc")["reactive"] == "Missile+Fear"
    (tmp_path / "bad").mkdir()
    bad = _broken_monsters(tmp_path / "bad", 'sequences = [["Melee"], ["Missile"]]',
                           'sequences = [["Melee"], ["Missile"]]\nreactive = "Then"')
    with pytest.raises(DataError, match=r"monsters\.toml:20: .*field 'reactive': 'Then' is not "
                                        "a shot"):
        catacombs_data.load(bad)


def test_no_card_in_the_data_has_reactive_health_the_books_print_none():
    data = catacombs_data.default()
    for table in (data.monsters, data.lords):
        assert not [r["name"] for r in table.values() if "reactive" in r]
    assert cards.piece_from_monster(data, "orc-1", "Orc").reactive is None


# --------------------------------------------------------------------------- what is not done

def shots_of(runner, piece: str) -> list[str]:
    return [s.data["shot"] for s in runner.trace if s.kind == "shot" and s.data["piece"] == piece]


def test_a_failed_condition_leaves_the_rest_of_the_sequence_unperformed():
    trace, _ = scenario.run(load("conditional_shots.json"))
    shots = [(s["piece"], s["shot"]) for s in trace if s["step"] == "shot"]
    assert shots == [("orc1", "melee"), ("orc2", "missile"), ("orc2", "melee"),
                     ("djinn", "vortex"), ("djinn", "missile")]


def test_a_summon_counts_only_its_own_effect_for_its_condition():
    # The summoned piece acts at once and hurts the elf; that damage is the Orc's, not the
    # summon shot's, so the summoner's melee is not performed (Overseer's ruling).
    scn = {"format": 1, "game": "catacombs", "title": "t",
           "tiles": {"character_order": ["lord", "level-1"], "monster_order": ["green"],
                     "direction": ["left-to-right", "monster-to-hero"]},
           "heroes": [{"id": "elf", "name": "Elf", "health": 10}],
           "pieces": [{"id": "lord", "name": "Lord", "type": "lord", "order_tile": "lord",
                       "health": 9, "sequences": [["Summon:Orc", "If Damage", "Melee"]]}],
           "actions": [{"do": "next_ai_piece"}],
           "dice": [3, 5], "tokens": [2],
           "answers": [{"key": "template", "answer": True}]}
    battle, runner, error = drive_scenario(scn)
    assert error is None and battle.heroes["elf"].health == 8
    condition = next(s for s in runner.trace if s.kind == "condition")
    assert condition.data["met"] is False
    assert shots_of(runner, "lord") == ["summon Orc"]
    assert shots_of(runner, "summoned-1") == ["melee"]


def test_a_destroyed_rider_takes_its_mount_off_the_playmat_and_the_mount_cannot_be_hit():
    battle, runner, error = drive_scenario(load("invulnerable_pieces.json"))
    assert error is None
    assert "horse" not in battle.pieces and battle.pieces["golem"].health == 5
    scn = load("invulnerable_pieces.json")
    scn["actions"].append({"do": "damage_piece", "piece": "horse", "amount": 1})
    _, _, error = drive_scenario(scn)
    assert error is not None and "no AI piece 'horse'" in str(error)


@pytest.mark.parametrize("modifier", ["Petrify", "Regeneration", "Transform", "Corrosion"])
def test_each_uncovered_modifier_is_named_for_the_table(modifier):
    scn = {"format": 1, "game": "catacombs", "title": "t",
           "tiles": {"character_order": ["level-1"], "monster_order": ["green"],
                     "direction": ["left-to-right", "monster-to-hero"]},
           "heroes": [{"id": "elf", "name": "Elf", "health": 10}],
           "pieces": [{"id": "orc", "name": "Orc", "type": "green",
                       "sequences": [[f"Missile+{modifier}"]]}],
           "actions": [{"do": "next_ai_piece"}], "tokens": [2], "dice": [12],
           "answers": []}
    trace, _ = scenario.run(scn)
    told = [s for s in trace if s["step"] == "instruction"]
    assert [(s["modifier"], s["implemented"]) for s in told] == [(modifier.lower(), False)]
    # a miss (zero token) hits nobody: nothing to resolve
    trace, _ = scenario.run({**scn, "tokens": [0], "dice": [], "answers": []})
    assert not [s for s in trace if s["step"] == "instruction"]


@pytest.mark.parametrize("action, message", [
    ({"do": "damage_piece", "piece": "wyv9", "amount": 1}, "no AI piece 'wyv9'"),
    ({"do": "damage_piece", "piece": "wyv1", "amount": 0}, "at least 1"),
    ({"do": "damage_piece", "piece": "horse", "amount": 1, "by": "orc"}, "no hero 'orc'"),
])
def test_a_refused_hit_changes_nothing(action, message):
    scn = load("invulnerable_pieces.json")
    scn["actions"] = [action]
    del scn["answers"], scn["dice"]
    battle, _, error = drive_scenario(scn)
    assert error is not None and message in str(error)
    assert battle.pieces["knight"].health == 2 and battle.pieces["knight"].riding == "horse"
    assert battle.wyverns == ["wyv1"]
