"""The one view builder on a form (no session needed): its question with the cards that answer
it, and a tapped card through the controller, as every tap goes."""

from __future__ import annotations

import pytest

from overseer.app import controller as c
from overseer.app import view
from overseer.app.flow import table
from overseer.app.local import Ask, Local, LocalProcedure
from overseer.core.procedure import AnswerError, ChooseOne, EnterNumber
from overseer.ports.events import Button, Press, Tap

PIECES = ("orc-1", "orc-2", "troll-1")


def damage() -> LocalProcedure:
    """A grouped answer: a tapped Orc card names both orcs (answered as given, narrowed next)."""
    piece = yield Ask(ChooseOne("Which AI piece was hit?", PIECES, "form_piece"),
                      names={"orc-1": "Orc A", "orc-2": "Orc B", "troll-1": "Troll"},
                      cards={("monster", "orc"): "monster:orc"})
    amount = yield Ask(EnterNumber("How much damage?", "form_amount", 1, 20), start=1,
                       remember=True)
    return {"do": "damage_piece", "piece": piece, "amount": amount}


def test_a_forms_view_carries_the_cards_that_answer_it_and_the_number_remembered() -> None:
    flow = table("catacombs")
    local = Local(damage, "Damage", leaves=True)
    built = view.build(flow, None, 0, {}, local)
    assert built.question == ChooseOne("Which AI piece was hit?", PIECES, "form_piece")
    assert built.cards == {("monster", "orc"): "monster:orc"}
    assert built.tap_answers == frozenset({"monster:orc"})
    assert built.names["orc-2"] == "Orc B" and built.title == "Damage" and built.back_leaves
    assert not built.can_undo and built.undo_refusal == "nothing has been entered yet"
    local.answer("orc-2")
    assert view.build(flow, None, 0, {}, local).number_start == 1
    assert view.build(flow, None, 0, {}, local, {"form_amount": 4}).number_start == 4


def test_a_card_tapped_on_a_forms_question_is_an_answer_the_form_takes_as_given() -> None:
    local = Local(damage, "Damage", leaves=True)
    app, _ = c.start(view.build(table("catacombs"), None, 0, {}, local))
    while app.reading:
        app, _ = c.handle(app, Press(Button.OK))
    app, effects = c.handle(app, Tap("catacombs", "monster", "orc"))
    assert effects == (c.Answer("monster:orc"),) and app.waiting == c.Answer("monster:orc")
    with pytest.raises(AnswerError):
        local.answer("monster:goblin")  # no card of the question gives it: refused
    local.answer("monster:orc")  # not an option of the list: a card's answer, taken
    assert local.answers == ["monster:orc"] and local.ask is not None
