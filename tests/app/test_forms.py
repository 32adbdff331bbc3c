"""A move's parameters asked as questions: what is asked, what is filled in, what is left."""

from __future__ import annotations

from overseer import games
from overseer.app.forms import NONE, askable, form
from overseer.core.procedure import ChooseOne, EnterNumber

SETUP = {"heroes": [{"id": "elf", "name": "Elf"}, {"id": "dwarf", "name": "Dwarf"}],
         "pieces": [{"id": "rat-1", "card": "Sewer Rat"}, {"id": "rat-2", "card": "Sewer Rat"}]}


def run(proc, answers):
    asked = []
    question = next(proc)
    try:
        while True:
            asked.append(question)
            question = proc.send(answers[question.key])
    except StopIteration as stop:
        return asked, stop.value


def test_damage_piece_asks_the_piece_the_amount_and_the_hero():
    battle = games.CATACOMBS.build(SETUP)
    move = games.CATACOMBS.moves.moves["damage_piece"]
    asked, action = run(form(move, battle), {"piece": "rat-2", "amount": 3, "by": "elf"})
    assert [type(q) for q in asked] == [ChooseOne, EnterNumber, ChooseOne]
    assert asked[0].options == ("rat-1", "rat-2")
    assert asked[2].options == ("elf", "dwarf", NONE)
    assert action == {"do": "damage_piece", "piece": "rat-2", "amount": 3, "by": "elf"}


def test_an_optional_choice_can_be_left_out():
    battle = games.CATACOMBS.build(SETUP)
    move = games.CATACOMBS.moves.moves["damage_piece"]
    _, action = run(form(move, battle), {"piece": "rat-1", "amount": 1, "by": NONE})
    assert action == {"do": "damage_piece", "piece": "rat-1", "amount": 1}


def test_a_single_option_is_taken_without_asking():
    battle = games.CATACOMBS.build({**SETUP, "pieces": SETUP["pieces"][:1]})
    move = games.CATACOMBS.moves.moves["damage_piece"]
    asked, action = run(form(move, battle), {"amount": 2, "by": NONE})
    assert [q.key for q in asked] == ["amount", "by"]
    assert action["piece"] == "rat-1"


def test_a_move_without_options_for_a_required_field_is_not_askable():
    battle = games.CATACOMBS.build(SETUP)
    assert not askable(games.CATACOMBS.moves.moves["hidden_cave_leave"], battle)
    assert askable(games.CATACOMBS.moves.moves["damage_piece"], battle)
