"""Battle room and Catacomb Lord room setup: refusals that change nothing, the Ice Box choices,
a room after a room, and determinism. The rules' exact decisions are in the setup_*.json
scenarios; these tests cover what a scenario file cannot show (state after a refusal, patched
card data)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from overseer import documents, games
from overseer.core.chance import SeededChance
from overseer.core.procedure import RulesError, Runner
from overseer.loaders import catacombs as catacombs_data
from overseer.rules.catacombs import cards
from overseer.rules.catacombs.carddata import CatacombsData
from tests.catacombs.driving import data_folder, drive_scenario

TILES = ["level-1", "level-2", "level-3", "level-4",
         "green", "blue", "brown", "grey", "orange", "purple"]


def base(**changes: Any) -> dict[str, Any]:
    return {"format": 1, "game": "catacombs", "heroes": [{"id": "elf", "health": 8}],
            "actions": [{"do": "setup_room", "room": "bholoth-cemetery"}], **changes}


def drive(scn: dict[str, Any], data: CatacombsData | None = None):
    """Run the scenario's actions on a battle we keep; returns (battle, runner, error)."""
    return drive_scenario(scn, data)


def steps(runner: Runner, kind: str) -> list[dict[str, Any]]:
    return [s.as_dict() for s in runner.trace if s.kind == kind]


def test_more_than_ten_pieces_is_refused_and_nothing_changes():
    # Red Box: Solo & Co-Op Mode Setup, note: 10 pieces at most. 5 + 3 + 3 units = 11.
    scn = base(dice=[2], picks=[*TILES, "target-1", "left-to-right", "monster-to-hero",
                                "orc", "troll", "minotaur"],
               answers=[{"key": "units", "answer": 5}, {"key": "units", "answer": 3},
                        {"key": "units", "answer": 3}],
               actions=[{"do": "setup_room", "room": "wychward-burrow"}])
    battle, runner, err = drive(scn)
    assert isinstance(err, RulesError)
    assert "would place 11 AI pieces" in str(err) and "at most 10" in str(err)
    assert battle.pieces == {} and battle.character_order == [] and battle.direction == []
    assert battle.options.playmat == "" and battle.adventure.last_playmat is None
    assert battle.heroes["elf"].target_tile is None
    assert not runner.busy


@pytest.mark.parametrize("changes,message", [
    ({"actions": [{"do": "setup_room", "room": "Nowhere"}]}, "no Room card 'Nowhere'"),
    ({"actions": [{"do": "setup_room"}]}, "room: missing"),
    ({"actions": [{"do": "choose_lord"}]}, "lord: missing"),
    ({"actions": [{"do": "setup_room", "room": "the-outer-bailey"}]},
     "has Mercenary icons: choose the Catacomb Lord first"),
    ({"actions": [{"do": "setup_room", "room": "bholoth-cemetery", "playmat": "moon"}]},
     "no playmat 'moon'"),
    ({"pieces": [{"id": "orc-9", "card": "Orc"}]}, "the battle is not over (orc-9"),
    ({"heroes": [{"id": f"h{n}"} for n in range(5)]}, "5 heroes but only 4 Hero Target tiles"),
    ({"heroes": [{"id": "wolf", "kind": "familiar"}]}, "at least one living hero"),
    ({"actions": [{"do": "setup_lord_room"}]}, "no Catacomb Lord: choose the Catacomb Lord first"),
    ({"actions": [{"do": "choose_lord", "lord": "Bob"}]}, "no Catacomb Lord card 'Bob'"),
    ({"lord": "vasesak-the-sorcerer",
      "actions": [{"do": "choose_lord", "lord": "phoshar-the-dragon"}]}, "chosen once for the game"),
])
def test_refusals(changes, message):
    battle, runner, err = drive(base(**changes))
    assert isinstance(err, RulesError), err
    assert message in str(err)
    assert runner.trace == []
    assert battle.options.playmat == ""


def test_a_familiar_and_a_dead_hero_get_no_hero_target_tile():
    scn = base(heroes=[{"id": "elf"}, {"id": "wolf", "kind": "familiar"},
                       {"id": "mage", "health": 0}],
               dice=[1], picks=[*TILES, "target-2", "left-to-right", "monster-to-hero"],
               answers=[{"key": "start_zone_runes", "answer": 2}])
    battle, runner, err = drive(scn)
    assert err is None
    assert [s["hero"] for s in steps(runner, "hero_target")] == ["elf"]
    assert battle.heroes["wolf"].target_tile is None and battle.heroes["mage"].target_tile is None


def test_the_next_room_replaces_the_destroyed_pieces_and_rerolls_the_playmat_just_played():
    scn = base(dice=[1, 1, 4],
               picks=[*TILES, "target-1", "left-to-right", "monster-to-hero"] * 2,
               answers=[{"key": "start_zone_runes", "answer": 2}] * 2,
               actions=[{"do": "setup_room", "room": "bholoth-cemetery"},
                        *[{"do": "damage_piece", "piece": p, "amount": 1}
                          for p in ("orc-1", "orc-2", "skeleton-warrior-1",
                                    "skeleton-warrior-2", "skeleton-warrior-3")],
                        {"do": "setup_room", "room": "bholoth-cemetery"}])
    battle, runner, err = drive(scn)
    assert err is None
    # Red Box: Solo & Co-Op Mode Setup: the playmat just played (rune 1) is rolled again.
    assert steps(runner, "reroll")[0]["face"] == 1
    assert battle.options.playmat == "rune-4"
    assert sorted(battle.pieces) == ["orc-1", "orc-2", "skeleton-warrior-1",
                                     "skeleton-warrior-2", "skeleton-warrior-3"]
    assert all(p.alive for p in battle.pieces.values())
    assert battle.round == 1 and battle.acted == []


def test_the_same_seed_gives_the_same_setup():
    def trace(seed: int) -> list[dict[str, Any]]:
        scn = base(mercenary="Orc", actions=[{"do": "setup_room", "room": "krhlot"}])
        battle = games.CATACOMBS.build(documents.setup_of(scn, games.CATACOMBS))
        runner = Runner(games.CATACOMBS, battle, chance=SeededChance(seed))
        question = runner.begin(scn["actions"][0])
        while question is not None:
            question = runner.answer(3)  # the only table question: runes in the zone
        return [s.as_dict() for s in runner.trace]

    assert trace(7) == trace(7)
    assert any(trace(7) != trace(seed) for seed in (8, 9, 10))


# --------------------------------------------------------------------------- Ice Box choices

ICE_LORD = '''
[[lord]]
id = "ice-lord"
name = "Ice Lord"
set = "Test"
health = 6
playmats = ["rune-1", "castle-mivroih"]
mercenary = ["Orc", "Zombie"]
minions = ["2 x Orc", ["2 x Troll", "1 x Minotaur"]]
sequences = [["Melee"], ["Missile"]]
source = "test card"
verified = false
'''


@pytest.fixture
def ice_lord(tmp_path: Path) -> CatacombsData:
    """The card data with one Catacomb Lord: the Ice Lord above."""
    folder = data_folder(tmp_path)
    (folder / "lords.toml").write_text(ICE_LORD, encoding="utf-8")
    return catacombs_data.load(folder)


@pytest.mark.parametrize("merc_roll,mercenary", [(6, "Orc"), (7, "Zombie")])
def test_mercenary_choice_by_d12_once_for_the_game(ice_lord, merc_roll, mercenary):
    # Red Box: Catacomb Lord Room Setup: 1-6 top, 7-12 bottom; Ice Box: chosen once.
    battle, runner, err = drive(base(dice=[merc_roll], actions=[
        {"do": "choose_lord", "lord": "ice-lord"}, {"do": "choose_lord", "lord": "ice-lord"}]),
        ice_lord)
    assert battle.adventure.mercenary == mercenary
    assert steps(runner, "mercenary")[0]["rule"] == "Ice Box: Catacomb Lord Setup Choices"
    assert isinstance(err, RulesError) and "chosen once" in str(err)


@pytest.mark.parametrize("mat_roll,playmat,minion_roll,minion", [
    (6, "rune-1", 7, "Minotaur"), (7, "castle-mivroih", 6, "Troll")])
def test_lord_room_playmat_and_minion_choices(ice_lord, mat_roll, playmat, minion_roll, minion):
    scn = base(lord="ice-lord", mercenary="Orc", dice=[mat_roll, minion_roll],
               picks=["lord", *TILES, "target-1", "left-to-right", "monster-to-hero"],
               answers=[{"key": "start_zone_runes", "answer": 2}],
               actions=[{"do": "setup_lord_room"}])
    battle, runner, err = drive(scn, ice_lord)
    assert err is None
    assert battle.options.playmat == playmat
    assert steps(runner, "playmat")[0]["how"] == "lord_d12"
    assert steps(runner, "minion_choice")[0]["chosen"].endswith(minion)
    names = [p.name for p in battle.pieces.values()]
    assert minion in names and names[-1] == "Ice Lord"
    assert battle.character_order[0] == "lord"


def test_lord_data_names_its_playmats_so_nothing_is_asked(ice_lord):
    scn = base(lord="ice-lord", mercenary="Orc", dice=[12, 12],
               picks=["lord", *TILES, "target-1", "left-to-right", "monster-to-hero"],
               actions=[{"do": "setup_lord_room"}])
    battle, runner, err = drive(scn, ice_lord)
    assert err is None  # no answers given: none was needed (castle: no rune count)
    assert [p.id for p in battle.pieces.values()] == ["orc-1", "orc-2", "minotaur-1", "ice"]


def test_suppression_lasts_while_any_unit_lives():
    scn = base(dice=[2], picks=[*TILES, "target-1", "left-to-right", "monster-to-hero"],
               answers=[{"key": "start_zone_runes", "answer": 2}],
               actions=[{"do": "setup_room", "room": "fortress-of-nale"}])
    battle, _, err = drive(scn)
    assert err is None
    assert battle.suppressed_shots() == ["Missile", "Ice", "Fireball", "Target"]
    battle.adventure.suppression["centaur-1"] = ["Missile", "Roll"]
    battle.pieces["siren-1"].health = 0
    assert battle.suppressed_shots() == ["Missile", "Roll"]


def test_every_room_of_the_data_resolves_its_fixed_monsters():
    data = catacombs_data.default()
    for record in data.rooms.values():
        for quadrant in cards.QUADRANTS:
            for entry in record[quadrant]:
                count, name = cards.split_entry(entry)
                assert count >= 1
                if name != cards.MERCENARY and not cards.MONSTER_GROUP.match(name):
                    assert data.monster(name)["name"] == name


def test_a_monster_card_with_its_units_in_the_data_asks_nothing():
    data = catacombs_data.default()
    data = replace(data, monsters={key: dict(record, units=2) if record["level"] == 2
                                   else record for key, record in data.monsters.items()})
    scn = base(dice=[3], picks=[*TILES, "target-1", "left-to-right", "monster-to-hero",
                                "orc", "troll"],
               actions=[{"do": "setup_room", "room": "oakheart-hall"}],
               answers=[{"key": "units", "answer": 1},  # the level 1 card has no units
                        {"key": "start_zone_runes", "answer": 2}])
    battle, runner, err = drive(scn, data)
    assert err is None
    metre = [s["units"] for s in steps(runner, "monster_metre")]
    assert metre[1] == 2 and sorted(battle.pieces)[-2:] == ["troll-1", "troll-2"]
