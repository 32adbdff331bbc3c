"""A Runebound game driven step by step for the unit tests: the book's example deal (Tamalir
curse-2, Riverwatch the Savage Brood, Vynelvale and Dawnsmoor destroyed, Forge curse-3,
Frostgate curse-4, Greyhaven curse-5), then placements and quest counters."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from overseer import games
from overseer.core.params import ask_of, fields
from overseer.core.procedure import Pick, Question, RulesError, Runner
from overseer.rules.runebound.state import state_dict

DEAL = {"tamalir": "sign-curse-2", "riverwatch": "sign-savage-brood", "vynelvale": "comet-1",
        "forge": "sign-curse-3", "dawnsmoor": "comet-2", "frostgate": "sign-curse-4"}


class Table:
    """Chance from a list of wanted picks (the first option otherwise); answers by key."""

    def __init__(self, picks: list[str] | None = None) -> None:
        self.picks = list(picks or [])

    def __call__(self, question: Any) -> Any:
        assert isinstance(question, Pick)
        wanted = next((p for p in self.picks if p in question.options), None)
        if wanted is not None:
            self.picks.remove(wanted)
            return wanted
        return question.options[0]


def new(players: list[str], **setup: Any) -> Runner:
    spec = games.get("runebound")
    deal = list(DEAL.values())
    return Runner(spec, spec.build({"players": players, **setup}), chance=Table(deal))


def act(runner: Runner, action: dict[str, Any], *answers: Any) -> Question | None:
    """Begin an action and give answers in order; returns the question still waiting."""
    question = runner.begin(action)
    for value in answers:
        assert question is not None, f"no question left for {value!r}"
        question = runner.answer(value)
    return question


def opened(players: list[str], towns: list[str], **setup: Any) -> Runner:
    """Started, placed (town n for player n) and quest counters taken: turn 1 begins."""
    runner = new(players, **setup)
    assert act(runner, {"do": "start"}) is None
    for hero, town in reversed(list(zip(players, towns, strict=True))):
        act(runner, {"do": "place", "hero": hero, "town": town})
    for hero, token in zip(players, ("green", "red", "blue", "yellow"), strict=False):
        act(runner, {"do": "quest_counter", "hero": hero, "token": token})
    return runner


def menu(runner: Runner, move: str, field: str) -> list[str]:
    """What the gadget's menu offers for one parameter of a move now."""
    params = games.get("runebound").moves.moves[move].params
    ask = next(ask_of(f) for f in fields(params) if f.name == field)
    assert ask.options is not None
    return list(ask.options(runner.state))


def refused(runner: Runner, action: dict[str, Any], message: str) -> None:
    """The action is refused with ``message`` and nothing changes."""
    before = copy.deepcopy(state_dict(runner.state))
    with pytest.raises(RulesError, match=message):
        runner.begin(action)
    assert state_dict(runner.state) == before
    assert not runner.busy
