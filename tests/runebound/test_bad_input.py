"""Refused actions and answers: a clear message, and nothing changed."""

from __future__ import annotations

import copy

import pytest

from overseer.core.procedure import AnswerError, EnterNumber
from overseer.rules.runebound.state import state_dict
from tests.runebound.helpers import act, menu, new, opened, refused

SB = "savage-brood"


def test_a_town_with_a_figure_is_refused() -> None:
    runner = new(["ann", "bo"])
    act(runner, {"do": "start"})
    act(runner, {"do": "place", "hero": "bo", "town": "riverwatch"})
    refused(runner, {"do": "place", "hero": "ann", "town": "riverwatch"},
            r"Riverwatch already has a figure in it \(bo\): no figure may be placed in a town "
            "with a figure")
    # the menu offers only the towns without a figure, and only the hero placing next
    assert menu(runner, "place", "town") == ["tamalir", "vynelvale", "forge", "dawnsmoor",
                                             "frostgate", "greyhaven"]
    assert menu(runner, "place", "hero") == ["ann"]


def test_heroes_are_placed_from_the_last_player_to_the_first() -> None:
    runner = new(["ann", "bo", "cy"])
    act(runner, {"do": "start"})
    refused(runner, {"do": "place", "hero": "ann", "town": "forge"},
            "heroes are placed from the last player to the first: cy places next, not ann")
    act(runner, {"do": "place", "hero": "cy", "town": "forge"})
    refused(runner, {"do": "place", "hero": "cy", "town": "tamalir"}, "cy is already placed")
    refused(runner, {"do": "place", "hero": "bo", "town": "atlantis"},
            "there is no town 'atlantis'")


def test_a_second_level_one_card_from_one_deck_is_refused() -> None:
    runner = opened(["ann", "bo"], ["riverwatch", "tamalir"])
    assert act(runner, {"do": "level_one", "hero": "ann"}, True) is None
    assert runner.state.heroes["ann"].claimed == [f"{SB}-i-1"]
    act(runner, {"do": "end_turn", "hero": "ann"})
    act(runner, {"do": "end_turn", "hero": "bo"})
    refused(runner, {"do": "level_one", "hero": "ann"},
            "Attempt a Level I card: ann already has a Level I card of the Curse of the Savage "
            f"Brood \\({SB}-i-1\\): a hero claims only one Level I card from each Curse deck")


def test_a_level_three_attempt_without_a_claimed_card_is_refused() -> None:
    runner = opened(["ann", "bo"], ["riverwatch", "tamalir"])
    refused(runner, {"do": "level_three", "hero": "ann"},
            "ann has no Level I or II card of the Curse of the Savage Brood claimed: only such a "
            "hero may face its Level III card")
    # a card of another deck does not count
    act(runner, {"do": "travel", "hero": "ann", "to": "tamalir"})
    act(runner, {"do": "level_one", "hero": "ann"}, True)
    for hero in ("ann", "bo"):
        act(runner, {"do": "end_turn", "hero": hero})
    act(runner, {"do": "travel", "hero": "ann", "to": "riverwatch"})
    refused(runner, {"do": "level_three", "hero": "ann"}, "has no Level I or II card of the "
            "Curse of the Savage Brood claimed")


def test_a_second_level_two_card_from_one_deck_is_refused() -> None:
    runner = opened(["ann", "bo", "cy"], ["riverwatch", "tamalir", "forge"])
    act(runner, {"do": "level_one", "hero": "ann"}, True)
    act(runner, {"do": "claim_quest", "hero": "ann", "quest": f"{SB}-ii-1"})
    act(runner, {"do": "end_turn", "hero": "ann"})
    act(runner, {"do": "travel", "hero": "bo", "to": "riverwatch"})
    act(runner, {"do": "level_one", "hero": "bo"}, True)  # reveals the other quest
    assert runner.state.towns["riverwatch"].quests == [f"{SB}-ii-2"]
    act(runner, {"do": "end_turn", "hero": "bo"})
    act(runner, {"do": "end_turn", "hero": "cy"})
    refused(runner, {"do": "claim_quest", "hero": "ann", "quest": f"{SB}-ii-2"},
            f"ann already has a Level II card of the Curse of the Savage Brood \\({SB}-ii-1\\)")
    refused(runner, {"do": "claim_quest", "hero": "ann", "quest": f"{SB}-iii"},
            "Claim a quest: ann already has a Level II card")


def test_a_quest_not_revealed_is_refused() -> None:
    runner = opened(["ann", "bo"], ["riverwatch", "tamalir"])
    refused(runner, {"do": "claim_quest", "hero": "ann", "quest": f"{SB}-ii-1"},
            "Claim a quest: no quest is revealed")
    act(runner, {"do": "level_one", "hero": "ann"}, True)
    refused(runner, {"do": "claim_quest", "hero": "ann", "quest": f"{SB}-ii-2"},
            f"'{SB}-ii-2' is not a revealed quest \\(revealed: {SB}-ii-1\\)")


def test_a_destroyed_town_cannot_be_entered() -> None:
    runner = opened(["ann", "bo"], ["riverwatch", "tamalir"])
    refused(runner, {"do": "travel", "hero": "ann", "to": "vynelvale"},
            "Vynelvale is destroyed: it cannot be entered")
    refused(runner, {"do": "travel", "hero": "ann", "to": "lava"},
            "'lava' is neither a town nor a terrain")


def test_one_attempt_an_adventure_step_and_no_travel_after_it() -> None:
    runner = opened(["ann", "bo"], ["riverwatch", "tamalir"])
    act(runner, {"do": "level_one", "hero": "ann"}, False)
    refused(runner, {"do": "level_one", "hero": "ann"},
            "ann has attempted a Curse card this Adventure step already")
    refused(runner, {"do": "travel", "hero": "ann", "to": "forest"},
            "Travel: the Movement step is over")


def test_out_of_turn_and_in_the_wrong_phase() -> None:
    runner = new(["ann", "bo"])
    refused(runner, {"do": "place", "hero": "bo", "town": "forge"},
            "not now: the game is at setup, this is for placement")
    runner = opened(["ann", "bo"], ["riverwatch", "tamalir"])
    refused(runner, {"do": "travel", "hero": "bo", "to": "forest"}, "it is ann's turn, not bo's")
    refused(runner, {"do": "end_turn", "hero": "bo"}, "it is ann's turn, not bo's")
    refused(runner, {"do": "start"}, "not now: the game is at play")
    refused(runner, {"do": "quest_counter", "hero": "ann", "token": "blue"}, "not now")


def test_the_trading_pool_is_rolled_once() -> None:
    runner = opened(["ann", "bo"], ["riverwatch", "tamalir"])
    refused(runner, {"do": "trade", "hero": "ann", "trading": 0},
            "a trading pool needs at least one die")
    act(runner, {"do": "trade", "hero": "ann", "trading": 2}, 0)
    refused(runner, {"do": "trade", "hero": "ann", "trading": 2},
            "the trading pool was rolled this movement already")


def test_healing_above_the_trading_pool_is_refused_and_can_be_answered_again() -> None:
    runner = opened(["ann", "bo"], ["riverwatch", "tamalir"])
    question = act(runner, {"do": "trade", "hero": "ann", "trading": 2}, 1, "healing")
    assert isinstance(question, EnterNumber) and question.key == "healing"
    before = copy.deepcopy(state_dict(runner.state))
    for bad in (3, -1, "2"):
        with pytest.raises(AnswerError):
            runner.answer(bad)
        assert state_dict(runner.state) == before
    assert runner.answer(2).key == "sold"


def test_market_only_in_a_freed_town() -> None:
    runner = opened(["ann", "bo"], ["riverwatch", "tamalir"])
    refused(runner, {"do": "market", "hero": "ann"},
            "ann is not in a freed town \\(Riverwatch\\): Market steps may only be entered in a "
            "town freed of the curse")


def test_quest_counters_are_each_players_own() -> None:
    runner = new(["ann", "bo"])
    act(runner, {"do": "start"})
    act(runner, {"do": "place", "hero": "bo", "town": "forge"})
    act(runner, {"do": "place", "hero": "ann", "town": "tamalir"})
    act(runner, {"do": "quest_counter", "hero": "bo", "token": "red"})
    refused(runner, {"do": "quest_counter", "hero": "ann", "token": "red"},
            "bo already has the red token")
    refused(runner, {"do": "quest_counter", "hero": "bo", "token": "blue"},
            r"bo already has a quest counter \(red\)")
    refused(runner, {"do": "quest_counter", "hero": "ann", "token": "purple"},
            "there is no encounter token 'purple'")


def test_unknown_actions_and_keys_get_a_suggestion() -> None:
    runner = opened(["ann", "bo"], ["riverwatch", "tamalir"])
    refused(runner, {"do": "level_on", "hero": "ann"},
            "unknown action 'level_on'; did you mean 'level_one'")
    refused(runner, {"do": "trade", "hero": "ann", "tradin": 2},
            "trade: tradin: unknown key; did you mean 'trading'")
    refused(runner, {"do": "trade", "hero": "ann", "trading": "2"},
            'trade: trading: wanted a whole number, got "2"')


@pytest.mark.parametrize("setup,message", [
    ({"players": []}, "1 to 6 different hero ids"),
    ({"players": ["a", "a"]}, "1 to 6 different hero ids"),
    ({"players": ["a", "b", "c", "d", "e", "f", "g"]}, "1 to 6 different hero ids"),
    ({"players": ["a"], "counters": "dealer"}, 'counters: "dealer" is not who deals the counters; known: gadget, table'),
    ({"players": ["a"], "trading_dice": "pico"}, "not who rolls the trading dice"),
    ({"players": ["a"], "playrs": []}, "playrs: unknown key; did you mean 'players'"),
    ({"players": ["a"], "names": {"b": "Bo"}}, 'names.b: "b" is not a player; known: a'),
])
def test_bad_setups(setup: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new(**{"players": setup.pop("players"), **setup})
