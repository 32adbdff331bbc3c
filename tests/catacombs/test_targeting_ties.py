"""The closest question's tie, the repeat shot's teammate and the wyvern rider, question by
question: which questions are asked, with which options, and the decision. The main cases are
the targeting_*closest_tie*, advanced_repeat_chosen_teammate and advanced_wyvern_rider
scenarios."""

from __future__ import annotations

from typing import Any

from overseer import games
from overseer.core.procedure import ChooseOne, ChooseSome, Runner, Step
from overseer.rules.catacombs.targeting import TIE

TILES = {"character_order": ["level-1", "level-2"], "monster_order": ["grey", "blue", "green"],
         "direction": ["left-to-right", "monster-to-hero"]}
HEROES = [{"id": "elf", "name": "Elf", "health": 8}, {"id": "dwarf", "name": "Dwarf", "health": 5},
          {"id": "mage", "name": "Mage", "health": 3}]
HARPY = {"id": "harpy", "name": "Harpy", "type": "blue", "order_tile": "level-1",
         "sequences": [["Melee"]]}


def start(pieces: list[dict[str, Any]], **scn: Any) -> Runner:
    """A battle with the table's questions left open; NEXT AI PIECE pressed once."""
    battle = games.CATACOMBS.build({"tiles": TILES,
                                    "heroes": HEROES, "pieces": pieces, **scn})
    runner = Runner(games.CATACOMBS, battle)
    runner.begin({"do": "next_ai_piece"})
    return runner


def target(runner: Runner) -> dict[str, Any]:
    return next(s.as_dict() for s in reversed(runner.trace) if s.kind == "target")


def kinds(runner: Runner) -> list[str]:
    return [s.kind for s in runner.trace if isinstance(s, Step)]


def test_the_closest_question_offers_tie_last_and_no_tie_costs_one_answer():
    runner = start([HARPY])
    question = runner.pending
    assert isinstance(question, ChooseOne) and question.key == "closest"
    assert question.options == ("elf", "dwarf", "mage", TIE)
    runner.answer("mage")
    assert target(runner)["target"] == "mage" and target(runner)["column"] == "primary"
    assert runner.pending is not None and runner.pending.key == "template"


def test_a_tie_of_three_asks_which_tie_and_an_empty_answer_is_asked_again():
    runner = start([HARPY])
    runner.answer(TIE)
    question = runner.pending
    assert isinstance(question, ChooseSome) and question.key == "equally_close"
    assert question.options == ("elf", "dwarf", "mage")
    runner.answer(())
    assert kinds(runner)[-1] == "reask" and "target" not in kinds(runner)
    assert runner.pending == question
    runner.answer(("elf", "mage"))
    decided = target(runner)
    assert decided["target"] == "mage" and decided["column"] == "secondary"
    assert decided["candidates"] == ["elf", "mage"]


def test_one_chosen_as_equally_close_is_the_closest():
    runner = start([HARPY])
    runner.answer(TIE)
    runner.answer(("elf",))
    decided = target(runner)
    assert decided["target"] == "elf" and decided["column"] == "primary"


def test_a_repeat_shot_without_an_advanced_target_asks_for_the_nearest_teammate_once():
    # Not advanced targeting: the enemy is the Active Target, so the repeat shot selects a
    # teammate itself; "nearest" has no next criterion, so the question offers no tie.
    necro = {"id": "necro", "name": "Necromancer", "type": "grey", "order_tile": "level-1",
             "sequences": [["Repeat"]]}
    orc = {"id": "orc", "name": "Orc", "type": "green", "order_tile": "level-2",
           "sequences": [["Melee"]]}
    goblin = {**orc, "id": "goblin", "name": "Goblin"}
    runner = start([necro, orc, goblin], heroes=HEROES[:1])
    question = runner.pending
    assert isinstance(question, ChooseOne) and question.key == "closest"
    assert question.options == ("orc", "goblin")
    runner.answer("orc")
    repeat = next(s.data for s in runner.trace if s.kind == "repeat")
    assert repeat == {"piece": "necro", "repeats": "orc"}
    assert runner.pending is not None and runner.pending.key == "template"


def test_a_teleported_teammate_is_not_a_repeat_target():
    necro = {"id": "necro", "name": "Necromancer", "type": "grey", "order_tile": "level-1",
             "sequences": [["Melee"], ["Repeat"]]}
    orc = {"id": "orc", "name": "Orc", "type": "green", "order_tile": "level-2",
           "sequences": [["Melee"]], "teleported": True}
    runner = start([necro, orc], heroes=HEROES[:1], options={"advanced_targeting": True})
    decided = target(runner)
    assert decided["target"] == "elf" and decided["column"] == "only"


def test_a_piece_riding_a_wyvern_is_not_offered_a_wyvern():
    battle = games.CATACOMBS.build({"tiles": TILES,
                                    "heroes": HEROES[:1], "pieces": [HARPY],
                                    "wyverns": ["wyvern-2"],
                                    "options": {"advanced_targeting": True}})
    battle.pieces["harpy"].riding = "wyvern-1"
    runner = Runner(games.CATACOMBS, battle)
    runner.begin({"do": "next_ai_piece"})
    decided = target(runner)
    assert decided["target"] == "elf" and decided["column"] == "only"
    assert battle.wyverns == ["wyvern-2"]
