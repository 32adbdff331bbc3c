"""Campaigns and room level rewards: refusals that change nothing, and the cases the
campaign_*.json and rewards_*.json scenarios do not show."""

from __future__ import annotations

from typing import Any

import pytest

from overseer.core.procedure import RulesError
from overseer.loaders import catacombs as catacombs_data
from overseer.rules.catacombs.carddata import CatacombsData
from tests.catacombs.driving import data_folder, drive_scenario, edited

WON = [{"id": "orc-1", "card": "Orc", "health": 0}]  # a room just won: its rewards are due


def drive(data: CatacombsData | None = None, **scn: Any):
    scn = {"format": 1, "game": "catacombs", "heroes": [{"id": "elf", "health": 8, "gold": 1}],
           "pieces": WON, **scn}
    return drive_scenario(scn, data)


def test_the_monstrosity_inn_or_stables_choice_can_take_one():
    battle, runner, err = drive(campaign="monstrosity", stage=3,
                                answers=[{"key": "campaign_choice",
                                          "answer": "Hearthshire Stables"}],
                                actions=[{"do": "campaign_next"}])
    assert err is None and battle.adventure.visited == ["Hearthshire Stables"]
    assert battle.adventure.stage == 4


@pytest.mark.parametrize("scn,message", [
    ({"actions": [{"do": "campaign_next"}]}, "no campaign under way"),
    ({"actions": [{"do": "campaign_start", "campaign": "sphinx"}]}, "no campaign 'sphinx'"),
    ({"campaign": "pharaoh", "actions": [{"do": "campaign_start", "campaign": "pharaoh"}]},
     "already under way"),
    ({"campaign": "pharaoh", "stage": 12, "actions": [{"do": "campaign_next"}]},
     "campaign is complete"),
])
def test_campaign_refusals(scn, message):
    battle, runner, err = drive(**{"pieces": [], **scn})
    assert isinstance(err, RulesError) and message in str(err), err
    assert runner.trace == [] and battle.adventure.visited == []


def test_a_single_survivor_takes_the_spell_without_a_question():
    battle, runner, err = drive(actions=[{"do": "room_reward", "room": "Glaaoth",
                                          "spell": True}])
    assert err is None
    assert battle.adventure.spells == {"elf": ["a Spell card"]}
    assert [s.kind for s in runner.trace] == ["reward_spell"]
    assert "reshuffle the Spell deck" in runner.trace[0].text


def test_reward_icons_from_the_room_data(tmp_path):
    folder = data_folder(tmp_path)  # the Outer Bailey's card with 3 gold
    edited(folder, "rooms.toml", 'name = "The Outer Bailey"\n',
           'name = "The Outer Bailey"\nreward_gold = 3\n')
    battle, runner, err = drive(catacombs_data.load(folder),
                                actions=[{"do": "room_reward", "room": "the-outer-bailey"}])
    assert err is None and battle.heroes["elf"].gold == 4
    assert runner.trace[0].data["verified"] is False  # fan data, not the printed card


@pytest.mark.parametrize("scn,message", [
    ({"pieces": [{"id": "orc-1", "card": "Orc"}],
      "actions": [{"do": "room_reward", "room": "Glaaoth", "gold": 2}]},
     "the Battle Phase is not over: orc-1"),
    ({"actions": [{"do": "room_reward", "room": "Glaaoth", "gold": "2"}]},
     "gold: wanted a whole number (or null), got \"2\""),
    ({"actions": [{"do": "room_reward", "room": "Glaaoth", "spell": "yes"}]},
     "spell: wanted true or false (or null), got \"yes\""),
    ({"heroes": [{"id": "elf", "health": 0}],
      "actions": [{"do": "room_reward", "room": "Glaaoth", "gold": 2}]},
     "no hero survived"),
    ({"pieces": [], "actions": [{"do": "room_reward", "room": "Glaaoth", "gold": 2}]},
     "no room has been played yet"),
])
def test_reward_refusals(scn, message):
    battle, runner, err = drive(**scn)
    assert isinstance(err, RulesError) and message in str(err), err
    assert runner.trace == [] and all(h.gold in (0, 1) for h in battle.heroes.values())


def test_reward_icons_not_in_the_data_are_read_off_the_card():
    """A room whose reward icons the data lacks: the table says what the Room card shows."""
    battle, runner, err = drive(
        actions=[{"do": "room_reward", "room": "Glaaoth"}],
        answers=[{"key": "reward_spell", "answer": False}, {"key": "reward_gold", "answer": 2}])
    assert err is None
    assert [s.kind for s in runner.trace] == ["reward_gold"]
    assert "verified" not in runner.trace[0].data  # the table read it off the card
    assert all(h.gold == 1 + 2 for h in battle.heroes.values() if h.alive)
