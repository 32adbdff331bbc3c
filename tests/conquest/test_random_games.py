"""Whole games with seeded chance and random (seeded) table answers: the books always balance
and every game ends."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from overseer import games
from overseer.core.chance import SeededChance
from overseer.core.procedure import ChooseOne, ChooseSome, EnterNumber, Runner, YesNo
from overseer.rules.conquest.state import TOKENS, ConquestState

SETUPS = [
    {"players": {"a": "sword", "b": "skull"}},
    {"players": {"a": "sword", "b": "skull", "c": "skull"}, "last_stand": True},
    {"players": {"a": "sword", "b": "skull", "c": "sword", "d": "skull"}, "draw_at_end": True,
     "health": 4},
    {"players": {"a": "skull", "b": "sword", "c": "sword"}, "last_stand": True,
     "draw_at_end": True, "health": 11},
]


def table(rng: random.Random, question):
    """A table that rarely hits (so that decks run out too) and reads short sequences."""
    if isinstance(question, ChooseSome):
        return tuple(o for o in question.options if rng.random() < 0.08)
    if question.key == "shot" and "end" in question.options and rng.random() < 0.6:
        return "end"
    if isinstance(question, ChooseOne):
        return rng.choice(question.options)
    if isinstance(question, YesNo):
        return rng.random() < 0.5
    assert not isinstance(question, EnterNumber)
    raise AssertionError(f"unexpected question {question}")


def balanced(state: ConquestState) -> None:
    assert sum(state.pools.values()) + state.bank == TOKENS
    assert min(*state.pools.values(), state.bank) >= 0
    places = [c for t in state.decks for c in state.decks[t] + state.discards[t] + state.retained[t]]
    places += [c for hand in state.hands.values() for c in hand] + state.in_play
    assert len(places) == len(set(places)) == 56
    assert Counter(state.cards[c].team for c in places) == {"sword": 28, "skull": 28}


@pytest.mark.parametrize("seed", range(24))
def test_seeded_game_balances_and_ends(seed: int) -> None:
    state = games.CONQUEST.build(SETUPS[seed % len(SETUPS)])
    rng = random.Random(seed)
    runner = Runner(games.CONQUEST, state, chance=SeededChance(seed), on_step=lambda _step: balanced(state))
    question = runner.begin({"do": "start"})
    for _ in range(400):
        while question is not None:
            question = runner.answer(table(rng, question))
        if state.over is not None:
            break
        player = state.acting_player()
        question = runner.begin({"do": "play", "player": player,
                                 "card": rng.choice(state.hands[player])})
    assert state.over is not None
    assert state.over.reason in ("pool_empty", "bank_empty", "cannot_play")
    kinds = [step.kind for step in runner.trace]
    assert kinds.count("game_over") == 1 and kinds[-1] == "game_over"
