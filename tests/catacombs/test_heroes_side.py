"""What the table enters for the heroes, and what follows (issue 26): each defect as a scenario
with fixed dice and draws and the exact decision; each refusal read with the state unchanged."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from overseer import games
from overseer.core.params import NOT_GIVEN, ParamError, from_json, given
from overseer.core.procedure import RulesError, Runner
from overseer.rules.catacombs.party import UpdateHero
from tests.catacombs.driving import drive_scenario

TILES = {"character_order": ["level-1", "level-2"], "monster_order": ["blue", "brown"],
         "direction": ["left-to-right", "monster-to-hero"]}
HARPY = {"id": "harpy", "name": "Harpy", "type": "blue", "order_tile": "level-1",
         "sequences": [["Missile"]]}


def drive(**scn: Any):
    return drive_scenario({"format": 1, "game": "catacombs", "tiles": TILES, **scn})


def kinds(runner: Runner) -> list[str]:
    return [str(s.kind) for s in runner.trace]


def step(runner: Runner, kind: str) -> dict[str, Any]:
    return next(s.as_dict() for s in runner.trace if s.kind == kind)


# --------------------------------------------------------------------------- the params layer


def test_the_params_layer_tells_not_given_from_set_to_none():
    left_out = from_json(UpdateHero, {"hero": "elf"}, "update_hero")
    assert left_out.away is NOT_GIVEN and given(left_out) == {"hero": "elf"}
    back = from_json(UpdateHero, {"hero": "elf", "away": None, "riding": None}, "update_hero")
    assert given(back) == {"hero": "elf", "riding": None, "away": None}
    with pytest.raises(ParamError, match="health: wanted a whole number, got null"):
        from_json(UpdateHero, {"hero": "elf", "health": None}, "update_hero")


# --------------------------------------------------------------------------- 1: teleport back


def test_1_back_from_teleport_puts_the_hero_on_the_playmat_and_the_ai_targets_it():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "name": "Elf", "health": 8, "away": "teleported"}],
        pieces=[HARPY], tokens=[1], dice=[3],
        actions=[{"do": "update_hero", "hero": "elf", "away": None}, {"do": "next_ai_piece"}])
    assert err is None and battle.heroes["elf"].away is None
    assert step(runner, "hero_updated")["away"] is None
    assert step(runner, "target") == {**step(runner, "target"), "target": "elf",
                                      "column": "only"}
    assert battle.heroes["elf"].health == 7


def test_1_a_hero_in_the_hidden_cave_is_not_brought_back_by_update_hero():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "health": 8, "away": "hidden_cave"}], pieces=[HARPY],
        actions=[{"do": "update_hero", "hero": "elf", "away": None}])
    assert isinstance(err, RulesError) and "leaving the Hidden Cave brings them back" in str(err)
    assert runner.trace == [] and battle.heroes["elf"].away == "hidden_cave"


# --------------------------------------------------------------------------- 2: dismount


def test_2_dismounted_the_hero_takes_no_damage_from_a_hit_on_its_mount():
    battle, runner, err = drive(
        heroes=[{"id": "knight", "name": "Knight", "health": 10, "riding": "horse"},
                {"id": "horse", "name": "Warhorse", "kind": "mount"}],
        pieces=[HARPY], tokens=[2], dice=[4],
        answers=[{"key": "closest", "answer": "horse"}],
        actions=[{"do": "update_hero", "hero": "knight", "riding": None},
                 {"do": "next_ai_piece"}])
    assert err is None and battle.heroes["knight"].riding is None
    assert step(runner, "invulnerable") == {**step(runner, "invulnerable"), "target": "horse"}
    assert "passes_to_rider" not in kinds(runner) and battle.heroes["knight"].health == 10


# --------------------------------------------------------------------------- 3: ride a wyvern


def test_3_a_wyvern_the_hero_rides_is_not_wild_and_the_ai_does_not_rush_at_it():
    battle, runner, err = drive(
        options={"advanced_targeting": True}, wyverns=["wyvern-1"],
        heroes=[{"id": "elf", "name": "Elf", "health": 8}], pieces=[HARPY], tokens=[0],
        actions=[{"do": "update_hero", "hero": "elf", "riding": "wyvern-1"},
                           {"do": "next_ai_piece"}])
    assert err is None and battle.wyverns == [] and battle.heroes["elf"].riding == "wyvern-1"
    assert step(runner, "rides") == {**step(runner, "rides"), "hero": "elf",
                                     "wyvern": "wyvern-1"}
    target = step(runner, "target")
    assert target["target"] == "elf" and target["column"] == "only"  # no wyvern to ride


def test_3_a_rider_knocked_off_a_wyvern_leaves_it_wild():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "name": "Elf", "health": 8, "riding": "wyvern-1"}],
        pieces=[HARPY], tokens=[1], dice=[5], actions=[{"do": "next_ai_piece"}])
    assert err is None and battle.heroes["elf"].riding is None
    assert kinds(runner)[-3:] == ["knocked_off", "wyvern_wild", "clock"]
    assert battle.wyverns == ["wyvern-1"]


def test_3_off_the_wyvern_it_is_wild_again():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "health": 8, "riding": "wyvern-1"}], pieces=[HARPY],
        actions=[{"do": "update_hero", "hero": "elf", "riding": None}])
    assert err is None and battle.wyverns == ["wyvern-1"]
    assert step(runner, "wyvern_wild")["wyvern"] == "wyvern-1"


@pytest.mark.parametrize("heroes,ride,message", [
    ([{"id": "elf"}, {"id": "cat", "kind": "familiar"}], ("cat", "wyvern-1"),
     "cat is a familiar: only heroes and allies ride"),
    ([{"id": "elf"}], ("elf", "wyvern-9"), "neither a Mount of the party nor a wild wyvern"),
    ([{"id": "elf"}, {"id": "dwarf", "riding": "pony"}, {"id": "pony", "kind": "mount"}],
     ("elf", "pony"), "dwarf already rides pony"),
    ([{"id": "elf"}, {"id": "dwarf"}], ("elf", "dwarf"), "dwarf is not a Mount"),
])
def test_3_a_ride_the_rules_refuse_changes_nothing(heroes, ride, message):
    battle = games.CATACOMBS.build({"heroes": heroes, "wyverns": ["wyvern-1"],
                                    "pieces": [HARPY]})
    before = copy.deepcopy(battle.as_dict())
    runner = Runner(games.CATACOMBS, battle)
    with pytest.raises(RulesError, match=message):
        runner.begin({"do": "update_hero", "hero": ride[0], "riding": ride[1]})
    assert runner.trace == [] and battle.as_dict() == before


# --------------------------------------------------------------------------- 4, 5: a death entered


def test_4_5_a_rider_s_death_entered_takes_the_mount_out_and_its_return_brings_it_back():
    battle, runner, err = drive(
        heroes=[{"id": "knight", "name": "Knight", "health": 3, "riding": "horse"},
                {"id": "elf", "name": "Elf", "health": 8},
                {"id": "horse", "name": "Warhorse", "kind": "mount"}],
        pieces=[HARPY], tokens=[1], dice=[2],
        actions=[{"do": "update_hero", "hero": "knight", "health": 0},
                 {"do": "next_ai_piece"},
                 {"do": "update_hero", "hero": "knight", "health": 2}])
    assert err is None
    assert kinds(runner)[:3] == ["hero_updated", "hero_down", "mount_removed"]
    assert step(runner, "target")["target"] == "elf"  # the Mount is no target while out
    assert step(runner, "mount_returns") == {**step(runner, "mount_returns"),
                                             "mount": "horse", "rider": "knight"}
    assert battle.heroes["horse"].away is None and battle.heroes["knight"].riding is None


def test_5_the_mount_returns_with_its_rider_at_the_next_room_s_setup():
    battle, runner, err = drive(
        heroes=[{"id": "knight", "name": "Knight", "health": 6, "riding": "horse"},
                {"id": "horse", "name": "Warhorse", "kind": "mount", "away": "with_rider"}],
        picks=["level-1", "level-2", "level-3", "level-4", "green", "blue", "brown", "grey",
               "orange", "purple", "target-1", "left-to-right", "monster-to-hero"],
        dice=[1], answers=[{"key": "start_zone_runes", "answer": 4}],
        actions=[{"do": "setup_room", "room": "bholoth-cemetery"}])
    assert err is None, err
    assert step(runner, "mount_returns")["mount"] == "horse"
    assert battle.heroes["horse"].away is None


# --------------------------------------------------------------------------- 6: a new room


def test_6_a_new_room_starts_every_hero_in_the_hero_start_zone():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "name": "Elf", "health": 8, "away": "teleported"},
                {"id": "dwarf", "name": "Dwarf", "health": 9, "away": "hidden_cave"}],
        picks=["level-1", "level-2", "level-3", "level-4", "green", "blue", "brown", "grey",
               "orange", "purple", "target-1", "target-2", "left-to-right",
               "monster-to-hero"],
        dice=[1], answers=[{"key": "start_zone_runes", "answer": 4}],
        actions=[{"do": "setup_room", "room": "bholoth-cemetery"}])
    assert err is None, err
    assert step(runner, "hero_start_zone")["heroes"] == ["elf", "dwarf"]
    assert [h.away for h in battle.heroes.values()] == [None, None]


def test_6_the_end_of_the_battle_phase_brings_teleported_heroes_back_and_unstuns():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "name": "Elf", "health": 8, "away": "teleported"},
                {"id": "dwarf", "name": "Dwarf", "health": 9, "status": ["stunned"]}],
        pieces=[HARPY], actions=[{"do": "damage_piece", "piece": "harpy", "by": "dwarf"}])
    assert err is None
    assert kinds(runner)[-2:] == ["room_won", "battle_phase_over"]
    assert step(runner, "battle_phase_over") == {
        **step(runner, "battle_phase_over"), "rule": "Catacombs 3E: Battle Phase (base game)",
        "back": ["elf"], "unstunned": ["dwarf"]}
    assert battle.heroes["elf"].away is None and not battle.heroes["dwarf"].stunned


# --------------------------------------------------------------------------- 7: the Hidden Cave

CAVE = ["Skeleton Warrior", "Savage Centaur", "Flame Salamander", "Zombie", "Orc"]


def test_7_a_second_hero_keeps_a_kind_the_first_already_keeps():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "name": "Elf", "health": 8},
                {"id": "dwarf", "name": "Dwarf", "health": 9}],
        hidden_cave={"targets": CAVE, "collected": {"elf": ["Orc"]}},
        pieces=[{"id": "orc-1", "card": "Orc"}, HARPY],
        actions=[{"do": "damage_piece", "piece": "orc-1", "by": "dwarf"}])
    assert err is None
    assert step(runner, "hidden_cave_collect") == {
        **step(runner, "hidden_cave_collect"), "hero": "dwarf", "monster": "Orc",
        "held": ["Orc"]}
    cave = battle.adventure.hidden_cave
    assert cave is not None and cave.held_by("elf") == ["Orc"] == cave.held_by("dwarf")


# --------------------------------------------------------------------------- 8: the Kraken's Antient


def test_8_the_kraken_s_antient_is_the_hero_s_choice_and_no_longer_the_ai_s():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "name": "Elf", "health": 8}],
        hidden_cave={"targets": CAVE, "collected": {"elf": CAVE}},
        antients=[{"id": "urthoth", "name": "Urthoth", "sequences": [["Melee"]]},
                  {"id": "golem", "name": "Stone Golem", "sequences": [["Melee"]]}],
        dice=[2], tokens=[2, 2],
        answers=[{"key": "hidden_cave_item", "answer": "Trident"},
                 {"key": "hidden_cave_antient", "answer": "golem"}],
        actions=[{"do": "hidden_cave_visit", "hero": "elf", "shot_icons": 0}])
    assert err is None
    assert step(runner, "hidden_cave_antient")["antient"] == "Stone Golem"
    assert battle.adventure.antients == {"elf": ["Stone Golem"]}
    assert list(battle.antients) == ["urthoth"]  # the only one the AI may still summon


def test_8_an_antient_not_among_the_unused_is_refused_before_anything_happens():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "health": 8}],
        hidden_cave={"targets": CAVE, "collected": {"elf": CAVE}},
        antients=[{"id": "urthoth", "sequences": [["Melee"]]}],
        actions=[{"do": "hidden_cave_visit", "hero": "elf", "shot_icons": 0,
                  "antient": "Tarrasque"}])
    assert isinstance(err, RulesError) and "not an unused Antient" in str(err)
    assert runner.trace == [] and list(battle.antients) == ["urthoth"]
    assert battle.heroes["elf"].away is None and battle.adventure.platinum == {}


# --------------------------------------------------------------------------- 9: Antients


def test_9_the_room_is_won_with_an_antient_still_on_the_playmat():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "name": "Elf", "health": 8}],
        pieces=[HARPY, {"id": "golem", "name": "Stone Golem", "type": "antient",
                        "order_tile": "antient", "sequences": [["Melee"]]}],
        actions=[{"do": "damage_piece", "piece": "harpy", "by": "elf"}])
    assert err is None and kinds(runner)[-2:] == ["piece_down", "room_won"]
    assert step(runner, "room_won")["rule"] == "Catacombs 3E: Battle Phase (base game)"


def test_9_a_frozen_monster_completes_the_room_too():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "name": "Elf", "health": 8}],
        pieces=[HARPY, {**HARPY, "id": "harpy-2", "frozen": True}],
        actions=[{"do": "damage_piece", "piece": "harpy", "by": "elf"}])
    assert err is None and kinds(runner)[-1] == "room_won"


# --------------------------------------------------------------------------- 10: rewards, campaigns


def test_10_no_reward_before_a_room_is_played():
    battle, runner, err = drive(heroes=[{"id": "elf", "health": 8}],
                                actions=[{"do": "room_reward", "gold": 2}])
    assert isinstance(err, RulesError) and "no room has been played yet" in str(err)
    assert runner.trace == [] and battle.heroes["elf"].gold == 0


@pytest.mark.parametrize("scn,message", [
    ({"campaign": "monstrosity", "stage": 0,
      "actions": [{"do": "setup_room", "room": "bholoth-cemetery"}]},
     "has not opened its first stage: go on to the campaign's next stage first"),
    ({"campaign": "monstrosity", "stage": 1, "actions": [
        {"do": "setup_room", "room": "bholoth-cemetery"}]},
     "no battle to set up"),
])
def test_10_in_a_campaign_another_room_is_refused(scn, message):
    battle, runner, err = drive(heroes=[{"id": "elf", "health": 8}], **scn)
    assert isinstance(err, RulesError) and message in str(err), err
    assert runner.trace == [] and battle.pieces == {} and battle.adventure.room is None


def test_10_the_stage_s_room_must_be_set_up_before_the_campaign_goes_on():
    battle = games.CATACOMBS.build({"heroes": [{"id": "elf", "health": 8}],
                                    "campaign": "monstrosity", "stage": 0})
    runner = Runner(games.CATACOMBS, battle)
    runner.begin({"do": "campaign_next"})
    assert battle.adventure.stage == 1 and battle.adventure.stage_waits
    before = copy.deepcopy(battle.as_dict())
    with pytest.raises(RulesError, match="stage 1 is Glaaoth, not bholoth-cemetery"):
        runner.begin({"do": "setup_room", "room": "bholoth-cemetery"})
    with pytest.raises(RulesError, match="not played yet: set up its room first"):
        runner.begin({"do": "campaign_next"})
    assert battle.as_dict() == before


# --------------------------------------------------------------------------- the base game


def test_poison_cards_worth_the_starting_health_kill_at_once():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "name": "Elf", "health": 8, "poison": [3]}],
        pieces=[HARPY], actions=[{"do": "update_hero", "hero": "elf", "poison": [3, 5]}])
    assert err is None and battle.heroes["elf"].health == 0
    assert kinds(runner)[-3:] == ["damage", "hero_down", "party_defeated"]
    assert runner.trace[-2].rule == "Catacombs 3E: Poison Cards (base game)"


@pytest.mark.parametrize("kind,rule", [("familiar", "Familiars"), ("ally", "Allies")])
def test_a_familiar_or_an_ally_is_not_poisoned_or_stunned(kind, rule):
    battle, runner, err = drive(
        heroes=[{"id": "cat", "name": "Cat", "kind": kind, "health": 4}],
        pieces=[{**HARPY, "sequences": [["Missile+Poison+Stun"]]}], tokens=[1], dice=[6],
        actions=[{"do": "next_ai_piece"}])
    assert err is None
    said = [s for s in runner.trace if s.kind == "no_effect"]
    assert [s.data["modifier"] for s in said] == ["poison", "stun"]
    assert {s.rule for s in said} == {f"Catacombs 3E: {rule} (base game)"}
    assert battle.heroes["cat"].poison == [] and not battle.heroes["cat"].stunned


@pytest.mark.parametrize("by,paid,said", [
    ("ally-1", {"elf": True, "ally-1": False}, "gold"),
    ("cat", {"elf": False, "cat": False}, "no_gold"),
    ("horse", {"elf": True, "horse": False}, "gold"),
])
def test_a_companion_s_kill_pays_its_hero_or_nobody(by, paid, said):
    battle, runner, err = drive(
        heroes=[{"id": "elf", "name": "Elf", "health": 8},
                {"id": "ally-1", "kind": "ally", "owner": "elf"},
                {"id": "cat", "kind": "familiar", "owner": "elf"},
                {"id": "horse", "kind": "mount", "owner": "elf"}],
        pieces=[{**HARPY, "id": "rat"}, {"id": "orc-1", "card": "Orc"}],
        actions=[{"do": "damage_piece", "piece": "orc-1", "by": by}])
    assert err is None
    reward = battle.data.monster("Orc")["reward"]
    assert {h: battle.heroes[h].gold for h in paid} == {
        h: (reward if v else 0) for h, v in paid.items()}
    assert kinds(runner)[-1] == said


# --------------------------------------------------------------------------- the moves built


def test_a_hero_s_ice_shot_freezes_a_piece_and_a_teammate_rushes_to_free_it():
    battle, runner, err = drive(
        options={"advanced_targeting": True},
        heroes=[{"id": "elf", "name": "Elf", "health": 8}],
        pieces=[HARPY, {"id": "orc-1", "card": "Orc", "order_tile": "level-2"}],
        answers=[{"key": "closest", "answer": "elf"}],
        actions=[{"do": "freeze_piece", "piece": "orc-1", "by": "elf"},
                 {"do": "next_ai_piece"}])
    assert err is None
    assert step(runner, "frozen") == {**step(runner, "frozen"),
                                      "rule": "Catacombs 3E: Ice Shots (base game)",
                                      "piece": "orc-1", "by": "elf"}
    target = step(runner, "target")
    assert target["target"] == "orc-1" and target["criterion"] == "frozen_teammate"
    assert "freed" in kinds(runner) and not battle.pieces["orc-1"].frozen


def test_an_antient_cannot_be_frozen_and_nothing_changes():
    battle = games.CATACOMBS.build({"heroes": [{"id": "elf"}], "pieces": [
        HARPY, {"id": "golem", "type": "antient", "order_tile": "antient",
                "sequences": [["Melee"]]}]})
    runner = Runner(games.CATACOMBS, battle)
    with pytest.raises(RulesError, match="immune to the ice shot"):
        runner.begin({"do": "freeze_piece", "piece": "golem"})
    assert runner.trace == [] and not battle.pieces["golem"].frozen


@pytest.mark.parametrize("catacomb,amount", [(True, 2), (False, 1)])
def test_a_hero_s_dagger_hits_for_2_or_1_then_the_hero_moves_to_a_rune(catacomb, amount):
    battle, runner, err = drive(
        heroes=[{"id": "yilleph", "name": "Yilleph", "health": 8}],
        pieces=[{**HARPY, "health": 3}, {"id": "orc-1", "card": "Orc"}], dice=[5],
        answers=[{"key": "catacomb_hero", "answer": catacomb}],
        actions=[{"do": "hero_dagger", "hero": "yilleph", "piece": "harpy"}])
    assert err is None
    assert step(runner, "piece_damaged")["amount"] == amount
    assert battle.pieces["harpy"].health == 3 - amount
    assert step(runner, "move_to_rune") == {**step(runner, "move_to_rune"), "hero": "yilleph",
                                            "rune": 5, "why": "dagger"}


def test_a_mount_recruited_at_the_stables_with_the_party_s_gold_pooled():
    battle, runner, err = drive(
        heroes=[{"id": "elf", "name": "Elf", "health": 8, "gold": 5},
                {"id": "dwarf", "name": "Dwarf", "health": 9, "gold": 6}],
        actions=[{"do": "recruit_mount", "hero": "elf", "mount": "Warhorse"}])
    assert err is None
    assert step(runner, "mount_recruited") == {
        **step(runner, "mount_recruited"), "rule": "Ice Box: Mounts, Hearthshire Stables Room "
        "Card", "hero": "elf", "mount": "warhorse-1", "paid": {"elf": 5, "dwarf": 3}}
    mount = battle.heroes["warhorse-1"]
    assert (mount.kind, mount.owner) == ("mount", "elf")
    assert (battle.heroes["elf"].gold, battle.heroes["dwarf"].gold) == (0, 3)


@pytest.mark.parametrize("heroes,action,message", [
    ([{"id": "elf", "gold": 7}], {"hero": "elf"}, "Recruit a Mount"),
    ([{"id": "elf", "gold": 9}, {"id": "horse", "kind": "mount", "owner": "elf"}],
     {"hero": "elf"}, "Recruit a Mount"),
    ([{"id": "elf", "gold": 9}, {"id": "dwarf", "gold": 1}],
     {"hero": "elf", "paid_by": ["dwarf"]}, "a Mount costs 8 gold; dwarf hold 1"),
])
def test_a_recruit_the_stables_refuse_changes_nothing(heroes, action, message):
    battle = games.CATACOMBS.build({"heroes": heroes})
    before = copy.deepcopy(battle.as_dict())
    runner = Runner(games.CATACOMBS, battle)
    with pytest.raises(RulesError, match=message):
        runner.begin({"do": "recruit_mount", **action})
    assert runner.trace == [] and battle.as_dict() == before


def test_in_a_campaign_a_mount_is_recruited_only_at_the_stables():
    battle = games.CATACOMBS.build({"heroes": [{"id": "elf", "gold": 9}],
                                    "campaign": "monstrosity", "stage": 3})
    runner = Runner(games.CATACOMBS, battle)
    with pytest.raises(RulesError, match="only at the Hearthshire Stables"):
        runner.begin({"do": "recruit_mount", "hero": "elf"})
    runner.begin({"do": "campaign_next"})
    runner.answer("Hearthshire Stables")
    assert runner.begin({"do": "recruit_mount", "hero": "elf"}) is None
    assert battle.heroes["mount-1"].owner == "elf"
