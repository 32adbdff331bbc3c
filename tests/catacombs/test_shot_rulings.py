"""Dagger, portal trap, move to random rune and the Poison deck: what the scenario files
(dagger_move, portal_trap_stays, move_to_rune_both_dice, poison_deck) cannot show, such as a
step that must not come or the cards a draw is offered."""

from __future__ import annotations

from typing import Any

import pytest

from overseer import games
from overseer.core.procedure import DrawToken, Runner, Token
from tests.catacombs.driving import drive_scenario

TILES = {"character_order": ["level-1"], "monster_order": ["brown", "grey"],
         "direction": ["left-to-right", "monster-to-hero"]}
RAT = {"id": "rat", "name": "Sewer Rat", "type": "brown", "order_tile": "level-1",
       "sequences": [["Melee+Poison"]]}


def battle_with(**scn: Any):
    return games.CATACOMBS.build({"tiles": TILES, **scn})


def poison_draw(poison: list[int]) -> tuple[Runner, DrawToken | None]:
    """The rat hits the elf, who holds ``poison``: the poison card question, if one comes."""
    battle = battle_with(heroes=[{"id": "elf", "health": 9, "poison": poison}],
                               pieces=[RAT])
    runner = Runner(games.CATACOMBS, battle)
    question = runner.begin({"do": "next_ai_piece"})
    assert question is not None and question.key == "template"
    question = runner.answer(True)
    assert isinstance(question, DrawToken) and question.pool == "level 2 damage token"
    question = runner.answer(Token(1))
    return runner, question if isinstance(question, DrawToken) else None


def test_the_poison_deck_leaves_out_the_cards_the_heroes_hold():
    runner, question = poison_draw([2, 2, 1])
    assert question is not None and question.pool == "poison card"
    assert sorted(t.value for t in question.remaining) == [1, 1, 1]
    assert runner.state.poison_deck == [1, 1, 1, 1, 2, 2]  # the game's cards, unchanged


def test_a_held_card_cannot_be_drawn():
    _, question = poison_draw([2, 2])
    assert question is not None
    with pytest.raises(ValueError, match="still in the poison card bag"):
        question.check(Token(2))


def test_every_card_held_is_a_lethal_dose():
    # Catacombs 3E: Poison Cards: no card left to draw, the hero dies (the base game's rule).
    runner, question = poison_draw([1, 1, 1, 1, 2, 2])
    assert question is None or question.pool != "poison card"
    empty = [s for s in runner.trace if s.kind == "poison_deck_empty"]
    assert len(empty) == 1 and empty[0].rule == "Catacombs 3E: Poison Cards (base game)"
    assert "lethal dose" in empty[0].text
    assert any(s.kind == "hero_down" for s in runner.trace)
    assert runner.state.heroes["elf"].poison == [1, 1, 1, 1, 2, 2]
    assert runner.state.heroes["elf"].health == 0


def test_a_dagger_that_hits_moves_without_a_ruling():
    battle, runner, err = drive_scenario({
        "tiles": TILES,
        "heroes": [{"id": "elf", "health": 9}],
        "pieces": [{"id": "thief", "type": "grey", "sequences": [["Dagger"]]}],
        "actions": [{"do": "next_ai_piece"}], "tokens": [2], "dice": [4, 1],
        "answers": []})
    assert err is None
    kinds = [s.kind for s in runner.trace]
    assert "dagger_move" not in kinds
    assert kinds.index("clock") < kinds.index("move_to_rune")
    assert battle.heroes["elf"].health == 7


@pytest.mark.parametrize("face,outcome,rolls", [(2, "teleported", []), (8, "random_rune", [3])])
def test_portal_trap_results_that_move_the_hero_rule_out_the_push(face, outcome, rolls):
    battle, runner, err = drive_scenario({
        "tiles": {**TILES, "monster_order": ["blue"]},
        "heroes": [{"id": "elf", "health": 9}],
        "pieces": [{"id": "sphinx", "type": "blue", "sequences": [["Portal Trap"]]}],
        "actions": [{"do": "next_ai_piece"}], "tokens": [1], "dice": [face, *rolls]})
    assert err is None
    assert [s.kind for s in runner.trace if s.kind in ("clock", "portal_push")] == []
    moved = next(s for s in runner.trace if s.kind in ("teleported", "move_to_rune"))
    assert moved.data["push"] is False and "no clock template push" in moved.text


def test_portal_trap_result_12_without_the_hidden_cave_offers_only_a_rune():
    battle, runner, err = drive_scenario({
        "tiles": {**TILES, "monster_order": ["blue"]},
        "heroes": [{"id": "elf", "health": 9}],
        "pieces": [{"id": "sphinx", "type": "blue", "sequences": [["Portal Trap"]]}],
        "actions": [{"do": "next_ai_piece"}], "tokens": [1], "dice": [12]})
    assert err is None
    last = runner.trace[-1]
    assert last.kind == "instruction" and last.data["hidden_cave"] is False
    assert "not in this game" in last.text


def test_a_clock_push_asks_nothing_and_says_both_ways_to_lay_the_template():
    # Red Box: Clock Template (errata): the face does not depend on the edge, so the step
    # gives both cases; no question about the edge is asked.
    battle, runner, err = drive_scenario({
        "tiles": TILES,
        "heroes": [{"id": "elf", "health": 9}],
        "pieces": [{"id": "wight", "type": "grey", "sequences": [["Melee+Fear"]]}],
        "actions": [{"do": "next_ai_piece"}], "tokens": [2], "dice": [8],
        "answers": [{"key": "template", "answer": True}]})
    assert err is None
    push = next(s for s in runner.trace if s.kind == "clock")
    assert push.data == {"who": "elf", "face": 8, "ruler": 3, "why": push.data["why"],
                         "half": False, "facing": "hero_start_zone", "at_edge_facing": "centre"}
    assert ("12 toward the Hero Start Zone, or at the playmat's edge flipped with 12 toward "
            "the centre; move toward 8 o'clock with Ruler 3") in push.text
