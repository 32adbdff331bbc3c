"""Refused actions and answers: a clear message, and nothing changed."""

from __future__ import annotations

import copy

import pytest

from overseer import games
from overseer.core.procedure import AnswerError, ChooseSome, RulesError, Runner
from overseer.rules.conquest.scenario import state_dict
from overseer.rules.conquest.shots import FriendlyFireError

# p1 (Sword): salavi, mayra, serangan, witch-hunter; p2 (Skull): ughurth, formilus,
# phalomoru, lenore; the Skull Team first, p2 draws the Phoenix (skull 5).
DEAL = ["salavi", "mayra", "serangan", "witch-hunter",
        "ughurth", "formilus", "phalomoru", "lenore", "phoenix"]


def started(**setup: object) -> Runner:
    state = games.CONQUEST.build({"players": {"p1": "sword", "p2": "skull"}, "first": "skull", **setup})
    draws = list(DEAL)

    def chance(question):
        """The dealt cards first, then the first card left in the deck."""
        card = next((c for c in draws if c in question.options), question.options[0])
        if card in draws:
            draws.remove(card)
        return card

    runner = Runner(games.CONQUEST, state, chance=chance)
    assert runner.begin({"do": "start"}) is None
    return runner


def refused(runner: Runner, action: dict, message: str) -> None:
    before = copy.deepcopy(state_dict(runner.state))
    with pytest.raises(RulesError, match=message):
        runner.begin(action)
    assert state_dict(runner.state) == before
    assert not runner.busy


def test_card_not_in_hand() -> None:
    refused(started(), {"do": "play", "player": "p2", "card": "skull-20"},
            "skull-20 is not in p2's hand: it is still in the deck$")


def test_card_of_the_other_team() -> None:
    refused(started(), {"do": "play", "player": "p2", "card": "salavi"},
            "salavi is a Sword Team card; p2 plays for the Skull Team")


def test_playing_out_of_turn() -> None:
    refused(started(), {"do": "play", "player": "p1", "card": "salavi"},
            r"it is p2's turn \(skull1, Skull Team\), not p1's")


def test_unknown_card_player_and_action() -> None:
    runner = started()
    refused(runner, {"do": "play", "player": "p2", "card": "excalibur"},
            "there is no Conquest card 'excalibur'")
    refused(runner, {"do": "play", "player": "zed", "card": "ughurth"},
            "'player' must be one of p1, p2")
    refused(runner, {"do": "play", "player": "p2", "card": ["ughurth"]},
            r'play: card: wanted a string, got \["ughurth"\]')
    refused(runner, {"do": "play", "card": "ughurth"}, r"play: player: missing \(a string\)")
    refused(runner, {"do": "flick"}, "unknown action 'flick'; known: start, play")
    refused(runner, {"do": "start"}, "already started")


def test_play_before_start() -> None:
    state = games.CONQUEST.build({"players": {"p1": "sword", "p2": "skull"}})
    refused(Runner(games.CONQUEST, state), {"do": "play", "player": "p1", "card": "salavi"},
            "the game has not started")


def test_hit_on_a_teammate_is_refused_and_the_shot_can_be_answered_again() -> None:
    runner = started()
    question = runner.begin({"do": "play", "player": "p2", "card": "formilus"})
    assert isinstance(question, ChooseSome) and question.key == "hits"
    assert question.options == ("sword1", "sword2")
    before = copy.deepcopy(state_dict(runner.state))
    for answer in (["skull2"], ["sword1", "skull1"]):
        with pytest.raises(FriendlyFireError, match="is a teammate, and there is no friendly fire"):
            runner.answer(answer)
        assert state_dict(runner.state) == before
    # the error is both a refused answer and a rules refusal
    assert issubclass(FriendlyFireError, AnswerError) and issubclass(FriendlyFireError, RulesError)
    assert runner.answer(["sword1"]) is None
    assert runner.state.pools == {"sword": 7, "skull": 9}


def test_bad_answers_change_nothing() -> None:
    runner = started()
    runner.begin({"do": "play", "player": "p2", "card": "lenore"})
    runner.answer("none")        # ability, read off the card
    runner.answer(False)         # no armour icon
    assert runner.answer(["sword2"]).key == "power_wave"
    before = copy.deepcopy(state_dict(runner.state))
    for bad in ("salavi", "skull-20", 3):
        with pytest.raises(AnswerError):
            runner.answer(bad)
        assert state_dict(runner.state) == before
    with pytest.raises(RulesError, match="finish the current action first"):
        runner.begin({"do": "play", "player": "p1", "card": "salavi"})
    assert runner.answer("ughurth") is None
    assert runner.state.pools["sword"] == 5


def test_nothing_is_played_after_the_game_is_over() -> None:
    runner = started(health=1)
    runner.begin({"do": "play", "player": "p2", "card": "formilus"})
    assert runner.answer(["sword1"]) is None
    assert runner.state.over is not None
    refused(runner, {"do": "play", "player": "p1", "card": "salavi"}, "it is over")


def test_a_correction_the_books_cannot_hold_is_refused() -> None:
    runner = started()
    for action, words in (
            ({"do": "correct", "book": "hand-p1", "value": 29}, "can hold at most"),
            ({"do": "correct", "book": "bank", "value": 25}, "24 Health Tokens in all"),
            ({"do": "correct", "book": "pool-sword", "value": 8}, "nothing to correct"),
            ({"do": "correct", "book": "deck", "value": 3}, "'book' must be one of")):
        refused(runner, action, words)
