"""The new game's first question: which game, asked only when the gadget plays more than one;
and every registered game's table is its own game's."""

from overseer import games
from overseer.app import catacombs, flows
from overseer.app.flow import NewGame, Table, table
from overseer.app.local import Local
from overseer.core.procedure import ChooseOne


class OtherTable(Table):
    game, label = "other", "Other game"

    def wizard(self, seats, pico):
        yield ChooseOne("Ready?", ("yes",), "ready")
        return NewGame({"format": 2, "game": "other", "setup": {}}, "seeded", ())


def test_one_game_asks_nothing_and_goes_to_its_questions():
    local = Local(lambda: flows.wizard((1, 2), True, {"catacombs": catacombs.TABLE}), "New",
                  leaves=False)
    assert local.ask is not None
    assert local.ask.question.key == "new_member"


def test_two_games_ask_which_then_run_the_chosen_games_questions():
    choice = {"catacombs": catacombs.TABLE, "other": OtherTable()}
    local = Local(lambda: flows.wizard((1, 2), True, choice), "New", leaves=False)
    assert local.ask is not None
    question = local.ask.question
    assert isinstance(question, ChooseOne) and question.options == ("catacombs", "other")
    assert local.ask.names == {"catacombs": "Catacombs", "other": "Other game"}
    local.answer("other")
    assert local.ask is not None and local.ask.question.key == "ready"
    local.answer("yes")
    assert local.done and local.result.game == "other"


def test_the_new_game_asks_among_every_registered_game():
    local = Local(lambda: flows.wizard((1, 2), True), "New", leaves=False)
    assert local.ask is not None and local.ask.question.options == tuple(games.GAMES)


def test_every_table_is_its_own_games():
    for game in games.GAMES:
        assert table(game).game == game == table(game).spec.name
