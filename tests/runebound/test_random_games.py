"""Whole Runebound games played by a random table from the spec's legal actions, from the
setup to the end: no exception, every legal action accepted, the books always add up, and the
end detected (a winner who meets the victory condition, or the ruling's end). Seeded: a
failing seed replays."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from overseer import games
from overseer.core.procedure import Runner
from overseer.rules.runebound.state import CURSED, FREED, RuneboundState
from tests.drivers import random_play
from tests.drivers.random_play import action, answer

GAMES = 120
MAX_ACTIONS = 3000
WEIGHTS = {"level_one": 5, "level_three": 5, "claim_quest": 5, "travel": 3, "end_turn": 2,
           "trade": 1, "market": 1, "knockout": 0.3,
           # a correction sets what the table counted (rules/runebound/books.py), and one the
           # books already hold is refused: tests/app/test_pack_books.py plays them
           "correct": 0}
SPEC = games.get("runebound")


def setup(rng: random.Random) -> dict[str, Any]:
    players = [f"hero-{n}" for n in range(1, rng.randint(1, 4) + 1)]
    return {"players": players, "counters": rng.choice(["gadget", "table"]),
            "trading_dice": rng.choice(["gadget", "table"])}


def consistent(state: RuneboundState) -> None:
    """Every Curse card is in exactly one place, and the towns agree with the heroes."""
    data = state.data
    places = [c for t in state.towns.values() for c in t.stack + t.quests] + state.returned
    places += [c for h in state.heroes.values() for c in h.claimed]
    if state.phase not in ("setup", "placement"):
        assert sorted(places) == sorted(data.cards)
    for hero in state.heroes.values():
        curses = Counter((data.cards[c].curse, data.cards[c].level) for c in hero.claimed)
        assert max(curses.values(), default=0) <= 1  # one card a level a deck
        assert hero.xp == hero.gold == state.points(hero.id)
        assert all(state.towns[t].freed_by == hero.id for t in hero.freed)
    for town in state.towns.values():
        if town.status == FREED:
            assert not town.stack and not town.quests and town.freed_by
        if town.status == CURSED:
            assert town.curse and any(data.cards[c].level == 3 for c in town.stack)


def play(seed: int) -> tuple[int, Runner]:
    rng = random.Random(seed)
    runner = Runner(SPEC, SPEC.build(setup(rng)))
    for n in range(MAX_ACTIONS):
        if SPEC.is_over(runner.state):
            return n, runner
        question = runner.begin(action(SPEC, runner.state, rng, WEIGHTS))
        while question is not None:
            question = runner.answer(answer(question, rng))
        consistent(runner.state)
    raise AssertionError(f"seed {seed}: no end after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("chunk", range(4))
def test_random_games_end(chunk: int) -> None:
    for seed in range(chunk * GAMES // 4, (chunk + 1) * GAMES // 4):
        _, runner = play(seed)
        state = runner.state
        over = state.over
        assert over is not None and over.reason == "victory"
        result = SPEC.result(state)
        assert result is not None and result.endswith("victory points and a town freed.")
        kinds = [step.kind for step in runner.trace]
        assert kinds.count("game_over") == 1 and kinds[-1] == "game_over"
        if over.reason == "victory":
            winner = state.heroes[over.winner]
            assert winner.freed and state.points(winner.id) >= state.threshold()
            # the first to get there: nobody else had met the condition before
            others = [h for h in state.heroes.values() if h.id != winner.id]
            assert not any(h.freed and state.points(h.id) >= state.threshold() for h in others)
        else:
            assert over.reason == "no_curses_left" and not state.towns_with(CURSED)


def test_every_legal_action_begins() -> None:
    """In states met along random games, every move the spec lists as legal, with random
    parameters from its options, is accepted (it may then ask questions)."""
    tried = 0
    for seed in range(12):
        rng = random.Random(seed)
        runner = Runner(SPEC, SPEC.build(setup(rng)))
        for _ in range(80):
            if SPEC.is_over(runner.state):
                break
            for move in SPEC.legal_actions(runner.state):
                if WEIGHTS.get(move.name) == 0:
                    continue  # a correction's number can be the one the books hold
                params = random_play.params(move, runner.state, rng)
                assert params is not None, move.name
                trial = Runner(SPEC, copy.deepcopy(runner.state))
                trial.begin({"do": move.name, **params})  # raises if refused
                tried += 1
            question = runner.begin(action(SPEC, runner.state, rng, WEIGHTS))
            while question is not None:
                question = runner.answer(answer(question, rng))
    assert tried > 500


def test_both_ends_and_every_move_are_reached() -> None:
    reasons, moves = Counter(), Counter()
    for seed in range(40):
        _, runner = play(seed)
        assert runner.state.over is not None
        reasons[runner.state.over.reason] += 1
        moves.update(step.kind for step in runner.trace)
    assert reasons["victory"] > 30
    assert {"claim", "town_freed", "market", "knockout", "trade", "sale"} <= set(moves)
