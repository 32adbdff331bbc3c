"""Whole Clank! games played by a random table from the spec's legal actions, from the setup to
the end: no exception, every legal action begins, the books stay consistent, every step cites
the Clank! rulebook. Seeded: a failing seed replays."""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

from overseer import games
from overseer.core.procedure import Question, RulesError, Runner, Step
from overseer.rules.clank.state import ClankState
from tests.drivers import random_play
from tests.test_rulebook_citations import problems

SPEC = games.CLANK
GAMES = 60
MAX_ACTIONS = 3000
# Many turns before the end; the look-ups only read.
WEIGHTS = {"end_game": 0.1, "look_up": 0.3, "end_turn": 2, "reveal": 2, "enter": 4,
           "place_cube": 4, "fight": 4}


def setup(rng: random.Random) -> dict[str, Any]:
    players = [f"p{n}" for n in range(1, rng.randint(1, 4) + 1)]
    chosen: dict[str, Any] = {"players": players, "first_game": rng.random() < 0.5}
    if rng.random() < 0.5:
        chosen["base_safe_tiles"] = rng.randint(2, 6)
    return chosen


def consistent(state: ClankState) -> None:
    """Every monster token is in one place (treasury, a lair, a supply, set aside), cubes sit
    in placed rooms, one a room a player, and the Temple's offerings match its cubes (a column
    taken by another offering of its size is shared: Overseer's ruling)."""
    data = state.data
    held = [t.id for p in state.players.values() for t in p.trophies if t.kind == "token"]
    places = state.treasury + [t for ts in state.lairs.values() for t in ts] + held
    gone = [t for t in data.token_ids() if t not in places]
    assert sorted(places + gone) == sorted(data.token_ids())
    assert len(places) == len(set(places))
    assert all(data.monster_of(t).lair in state.placed for ts in state.lairs.values()
               for t in ts)
    rooms = Counter((p, data.spaces[s].room) for s, p in state.cubes.items())
    assert all(n == 1 for n in rooms.values())
    assert all(data.spaces[s].room in state.placed for s in state.cubes)
    for player in state.players.values():
        temple = [s for s in state.cubes_of(player.id) if s.startswith("temple-of-gold/")]
        if temple:
            assert data.spaces[temple[0]].offering == player.offering
        elif player.offering is not None:  # a column shared with the first to offer there
            assert any(data.spaces[s].offering == player.offering for s in state.cubes
                       if s.startswith("temple-of-gold/"))


def play(seed: int) -> tuple[Runner, list[Question], int]:
    rng = random.Random(seed)
    runner = Runner(SPEC, SPEC.build(setup(rng)),
                    on_step=lambda _step: consistent(runner.state))
    asked: list[Question] = []
    refusals = 0
    for _ in range(MAX_ACTIONS):
        if SPEC.is_over(runner.state):
            return runner, asked, refusals
        before = copy.deepcopy(runner.state)
        action = random_play.action(SPEC, runner.state, rng, WEIGHTS)
        question = runner.begin(action)  # a legal action must begin
        try:
            while question is not None:
                asked.append(question)
                question = runner.answer(random_play.answer(question, rng))
        except RulesError:  # the table's random answers may be refused: back, as a session
            refusals += 1
            runner.state = before
        consistent(runner.state)
    raise AssertionError(f"seed {seed}: no end after {MAX_ACTIONS} actions")


def test_random_games_end_and_cite_the_rulebook() -> None:
    kinds: Counter[str] = Counter()
    for seed in range(GAMES):
        runner, asked, _ = play(seed)
        assert SPEC.result(runner.state)
        trace: list[Step] = runner.trace
        assert problems("clank", trace, asked) == []
        assert [s.kind for s in trace].count("game_over") == 1
        kinds.update(str(s.kind) for s in trace)
    # the games reach the expansion's rules, not only the setup and the end
    for kind in ("lair_tokens", "cube", "defeat", "trophy", "teleport", "trap_pit", "tally"):
        assert kinds[kind] > 0, kind


def test_every_legal_action_begins() -> None:
    """In states met along random games, every move the spec lists as legal, with random
    parameters from its options, is accepted (it may then ask questions)."""
    tried: Counter[str] = Counter()
    for seed in range(12):
        rng = random.Random(seed)
        runner = Runner(SPEC, SPEC.build(setup(rng)))
        for _ in range(60):
            if SPEC.is_over(runner.state):
                break
            for move in SPEC.legal_actions(runner.state):
                for _ in range(3):
                    params = random_play.params(move, runner.state, rng)
                    if params is None:  # a required field with nothing to choose now
                        continue
                    Runner(SPEC, copy.deepcopy(runner.state)).begin({"do": move.name, **params})
                    tried[move.name] += 1
            before = copy.deepcopy(runner.state)
            question = runner.begin(random_play.action(SPEC, runner.state, rng,
                                                       {**WEIGHTS, "end_game": 0}))
            try:
                while question is not None:
                    question = runner.answer(random_play.answer(question, rng))
            except RulesError:
                runner.state = before
    # a name is typed; a correction's value depends on its book (tests/app/test_pack_books.py)
    untried = set(SPEC.moves.names()) - set(tried) - {"enter_trophy", "correct"}
    assert untried == set(), untried
