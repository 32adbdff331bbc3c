"""Whole games played by a random table from the specs' legal actions: no exception, every
legal action accepted, and the end detected. Seeded: a failing seed replays."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from overseer import games
from overseer.core.params import fields
from overseer.core.procedure import RulesError, Runner
from tests.drivers import random_play
from tests.drivers.random_play import action, answer

GAMES_EACH = 200
MAX_ACTIONS = 2000

CATACOMBS_WEIGHTS = {"next_ai_piece": 6, "damage_piece": 4, "setup_room": 3, "room_reward": 3,
                     "update_hero": 0.3, "end_game": 1, "campaign_next": 2,
                     "hidden_cave_visit": 0.5,
                     # a campaign stops at its first room the data lacks (entered by hand)
                     "campaign_start": 0.2,
                     # a correction's number may be the one the piece holds (refused): the
                     # random table makes none (tests/app/test_books.py tests them)
                     "correct": 0.0}


def catacombs_setup(rng: random.Random) -> dict[str, Any]:
    heroes = [{"id": f"hero-{n}", "name": f"Hero {n}", "health": rng.randint(4, 12)}
              for n in range(1, rng.randint(1, 4) + 1)]
    return {"heroes": heroes, "options": {"advanced_targeting": rng.random() < 0.5,
                                          "los_blocked": rng.random() < 0.5}}


# A correction sets a number the table counted (rules/conquest/books.py): one the books cannot
# hold (a hand larger than it and its deck, what they already hold) is refused, so the random
# table does not make any (tests/app/test_conquest_books.py and tests/conquest/ test them).
CONQUEST_WEIGHTS = {"correct": 0.0}


def conquest_setup(rng: random.Random) -> dict[str, Any]:
    players = rng.choice([{"a": "sword", "b": "skull"},
                          {"a": "sword", "b": "skull", "c": "skull"},
                          {"a": "sword", "b": "skull", "c": "sword", "d": "skull"}])
    return {"players": players, "health": rng.randint(2, 8),
            "last_stand": rng.random() < 0.5, "draw_at_end": rng.random() < 0.5}


def play(name: str, setup: dict[str, Any], rng: random.Random,
         weights: dict[str, float]) -> tuple[int, Runner]:
    """Play to the end. A legal action must begin; the table's random answers may still be
    refused later (more than 10 pieces placed ...): then the state goes back, as the session
    refolds it."""
    spec = games.get(name)
    runner = Runner(spec, spec.build(setup))
    for n in range(MAX_ACTIONS):
        if spec.is_over(runner.state):
            return n, runner
        before = copy.deepcopy(runner.state)
        question = runner.begin(action(spec, runner.state, rng, weights))
        try:
            while question is not None:
                question = runner.answer(answer(question, rng))
        except RulesError:
            runner.state = before
    raise AssertionError(f"{name}: no end after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("chunk", range(4))
def test_random_catacombs_games_end(chunk: int) -> None:
    ended = []
    for seed in range(chunk * GAMES_EACH // 4, (chunk + 1) * GAMES_EACH // 4):
        rng = random.Random(seed)
        actions, runner = play("catacombs", catacombs_setup(rng), rng, CATACOMBS_WEIGHTS)
        ended.append(games.CATACOMBS.result(runner.state))
    assert all(ended)
    # both ends are reached: the party defeated, and the table ending the game
    assert any("defeated" in e for e in ended) and any("game is over" in e for e in ended)


@pytest.mark.parametrize("chunk", range(4))
def test_random_conquest_games_end(chunk: int) -> None:
    for seed in range(chunk * GAMES_EACH // 4, (chunk + 1) * GAMES_EACH // 4):
        rng = random.Random(seed)
        _, runner = play("conquest", conquest_setup(rng), rng, CONQUEST_WEIGHTS)
        assert games.CONQUEST.result(runner.state)


@pytest.mark.parametrize("name", ["catacombs", "conquest"])
def test_every_legal_action_begins(name: str) -> None:
    """In states met along random games, every move the spec lists as legal, with random
    parameters from its options, is accepted (it may then ask questions)."""
    spec = games.get(name)
    setup_of = catacombs_setup if name == "catacombs" else conquest_setup
    tried = 0
    for seed in range(20):
        rng = random.Random(seed)
        runner = Runner(spec, spec.build(setup_of(rng)))
        for _ in range(60):
            if spec.is_over(runner.state):
                break
            for move in spec.legal_actions(runner.state):
                if move.name == "correct":
                    continue  # a correction's number can be one the books cannot hold
                for _ in range(3):
                    params = random_play.params(move, runner.state, rng)
                    if params is None:
                        # only a move the table completes by entering a card the data lacks
                        assert "card" in {f.name for f in fields(move.params)}, move.name
                        continue
                    trial = Runner(spec, copy.deepcopy(runner.state))
                    trial.begin({"do": move.name, **params})  # raises if refused
                    tried += 1
            before = copy.deepcopy(runner.state)
            weights = CATACOMBS_WEIGHTS if name == "catacombs" else CONQUEST_WEIGHTS
            question = runner.begin(action(spec, runner.state, rng, weights))
            try:
                while question is not None:
                    question = runner.answer(answer(question, rng))
            except RulesError:
                runner.state = before
    assert tried > 100
