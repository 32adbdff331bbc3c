"""The new game's first question: which game, asked only when the gadget plays more than one."""

import dataclasses

from overseer.app import catacombs, flows
from overseer.app.flow import NewGame
from overseer.app.local import Local
from overseer.core.procedure import ChooseOne


def other_wizard(seats, pico):
    yield ChooseOne("Ready?", ("yes",), "ready")
    return NewGame({"format": 2, "game": "other", "setup": {}}, "seeded", ())


def test_one_game_asks_nothing_and_goes_to_its_questions():
    local = Local(lambda: flows.wizard((1, 2), True, {"catacombs": catacombs.FLOW}), "New",
                  leaves=False)
    assert local.ask is not None
    assert local.ask.question.key == "new_member"


def test_two_games_ask_which_then_run_the_chosen_games_questions():
    other = dataclasses.replace(catacombs.FLOW, game="other", label="Other game",
                                wizard=other_wizard)
    choice = {"catacombs": catacombs.FLOW, "other": other}
    local = Local(lambda: flows.wizard((1, 2), True, choice), "New", leaves=False)
    assert local.ask is not None
    question = local.ask.question
    assert isinstance(question, ChooseOne) and question.options == ("catacombs", "other")
    assert local.ask.names == {"catacombs": "Catacombs", "other": "Other game"}
    local.answer("other")
    assert local.ask is not None and local.ask.question.key == "ready"
    local.answer("yes")
    assert local.done and local.result.game == "other"


def test_every_flow_is_its_own_games():
    for game, flow in flows.FLOWS.items():
        assert flow.game == game == flow.spec.name
