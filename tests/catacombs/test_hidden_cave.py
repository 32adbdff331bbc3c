"""The Hidden Cave: who may enter, the Kraken's fight (tie, portal trap, physical tokens), and
refusals that change nothing. The main decisions are in the hidden_cave_*.json scenarios."""

from __future__ import annotations

from typing import Any

import pytest

from overseer import documents, scenario
from overseer.core.procedure import RulesError, Runner
from tests.catacombs.driving import drive_scenario

TARGETS = ["Skeleton Warrior", "Savage Centaur", "Flame Salamander", "Zombie", "Orc"]
ALL_ELF = {"targets": TARGETS, "collected": {"elf": TARGETS}}


def drive(**scn: Any):
    scn = {"format": 1, "game": "catacombs", "heroes": [{"id": "elf", "health": 8},
                                                       {"id": "dwarf", "health": 12}], **scn}
    return drive_scenario(scn)


def step(runner: Runner, kind: str) -> dict[str, Any]:
    return next(s.as_dict() for s in runner.trace if s.kind == kind)


def test_a_tie_goes_to_the_kraken_and_says_it_is_a_ruling():
    # 8 health: 2 tokens, no shot icons; 1 + 1 against a Kraken of 2.
    battle, runner, err = drive(hidden_cave=ALL_ELF, dice=[2], tokens=[1, 1],
                                picks=["Trident"],
                                actions=[{"do": "hidden_cave_visit", "hero": "elf",
                                          "shot_icons": 0}])
    assert err is None
    result = step(runner, "kraken_result")
    assert result["hero_wins"] is False and result["verified"] is False
    assert "Overseer ruling" in result["text"]
    assert battle.heroes["elf"].items == ["Trident"]


def test_the_portal_trap_sends_a_hero_in_without_the_collection():
    battle, runner, err = drive(hidden_cave={"targets": TARGETS}, dice=[1],
                                tokens=[2, 1, 1], answers=[{"key": "hidden_cave_item",
                                                            "answer": "Champion's Helm"}],
                                actions=[{"do": "hidden_cave_visit", "hero": "dwarf",
                                          "shot_icons": 0, "via": "portal_trap"}])
    assert err is None
    assert step(runner, "hidden_cave_enter")["via"] == "portal_trap"
    assert step(runner, "kraken")["tokens"] == 3  # 12 health // 4
    assert battle.heroes["dwarf"].health == 14 and battle.adventure.antients == {
        "dwarf": ["an unused Antient"]}


def test_physical_tokens_are_entered_not_taken_from_the_bag():
    battle, runner, err = drive(hidden_cave=ALL_ELF, options={"physical_tokens": True},
                                dice=[9], tokens=[3, 3, 3, 3],
                                answers=[{"key": "hidden_cave_item", "answer": "Trident"}],
                                actions=[{"do": "hidden_cave_visit", "hero": "elf",
                                          "shot_icons": 2}])
    assert err is None and step(runner, "kraken_result")["total"] == 12
    assert len(battle.damage[1].contents) == 13 and battle.damage[1].discards == []


def test_no_health_and_no_shot_icons_draws_nothing_and_the_kraken_wins():
    battle, runner, err = drive(heroes=[{"id": "elf", "health": 3}], hidden_cave=ALL_ELF,
                                dice=[1], picks=["Trident"],
                                actions=[{"do": "hidden_cave_visit", "hero": "elf",
                                          "shot_icons": 0}])
    assert err is None
    assert step(runner, "kraken")["tokens"] == 0
    assert step(runner, "kraken_result")["hero_wins"] is False


@pytest.mark.parametrize("scn,message", [
    ({"actions": [{"do": "hidden_cave_collect", "hero": "elf", "monster": "Orc"}]},
     "the Hidden Cave is not in this game"),
    ({"hidden_cave": {"targets": TARGETS},
      "actions": [{"do": "hidden_cave_setup"}]}, "set up once"),
    ({"actions": [{"do": "hidden_cave_setup", "pool": ["Orc", "Zombie", "Centaur", "Troll",
                                                       "Sewer Rat"]}]},
     "at least 5 different level 1 monsters"),
    ({"actions": [{"do": "hidden_cave_setup", "items": ["Trident"]}]}, "takes 4 item cards"),
    ({"hidden_cave": {"targets": TARGETS},
      "actions": [{"do": "hidden_cave_collect", "hero": "elf", "monster": "Troll"}]},
     "'Troll' is not one of the Hidden Cave monsters"),
    ({"hidden_cave": {"targets": TARGETS, "collected": {"elf": ["Orc"]}},
      "actions": [{"do": "hidden_cave_visit", "hero": "elf"}]}, "holds 1 of the 5"),
    ({"hidden_cave": ALL_ELF, "heroes": [{"id": "elf"}, {"id": "dwarf", "away": "hidden_cave"}],
      "actions": [{"do": "hidden_cave_visit", "hero": "elf"}]}, "one hero at a time"),
    ({"hidden_cave": ALL_ELF, "heroes": [{"id": "elf", "health": 0}],
      "actions": [{"do": "hidden_cave_visit", "hero": "elf"}]}, "the game is over"),
    ({"hidden_cave": ALL_ELF,
      "actions": [{"do": "hidden_cave_visit", "hero": "elf", "shot_icons": -1}]},
     "shot_icons must be a whole number"),
    ({"hidden_cave": ALL_ELF, "actions": [{"do": "hidden_cave_leave", "hero": "elf"}]},
     "no hero is in the Hidden Cave"),
    ({"hidden_cave": ALL_ELF, "actions": [{"do": "hidden_cave_visit", "hero": "ogre"}]},
     "no hero 'ogre'"),
])
def test_refusals_change_nothing(scn, message):
    battle, runner, err = drive(**scn)
    assert isinstance(err, RulesError) and message in str(err), err
    assert runner.trace == []
    assert all(h.away in (None, "hidden_cave") and h.items == [] for h in battle.heroes.values())
    cave = battle.adventure.hidden_cave
    assert cave is None or {h: cave.held_by(h) for h in cave.collected} == scn.get(
        "hidden_cave", {}).get("collected", {})


@pytest.mark.parametrize("cave,message", [
    ({"targets": TARGETS[:4]}, "must name 5 different monsters"),
    ({"targets": [*TARGETS[:4], "Tarrasque"]}, "no monster card 'Tarrasque'"),
    ({"targets": TARGETS, "collected": {"elf": ["Troll"]}}, "maps hero ids to target monsters"),
])
def test_a_bad_hidden_cave_in_a_scenario_is_refused(tmp_path, cave, message):
    scn = {"format": 1, "game": "catacombs", "heroes": [{"id": "elf"}], "hidden_cave": cave,
           "actions": [{"do": "hidden_cave_leave", "hero": "elf"}]}
    with pytest.raises(documents.ScenarioError, match=message):
        scenario.run(scn)
