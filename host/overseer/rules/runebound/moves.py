"""The Runebound move table: the setup actions, then each hero's turn.

Setup: ``start``, ``place`` (last player to first), ``quest_counter`` (each player). A turn:
``travel`` and ``trade`` while moving, ``level_one`` or ``level_three`` (one Curse card a turn),
``claim_quest``, ``market`` in a freed town, ``end_turn``; ``knockout`` for any hero in play;
``correct`` mends the books (rules/runebound/books.py).
A refused move says why (its ``why_not`` reads the state).
"""

from __future__ import annotations

from collections.abc import Callable

from overseer.core.moves import Move, MoveTable
from overseer.core.procedure import Procedure
from overseer.rules.runebound.books import Correct, correct
from overseer.rules.runebound.curses import (
    Attempt,
    ClaimQuest,
    claim_quest,
    level_one,
    level_one_problem,
    level_three,
    level_three_problem,
    quest_problem,
)
from overseer.rules.runebound.knockouts import Knockout, knockout
from overseer.rules.runebound.market import Market, market, market_problem
from overseer.rules.runebound.movement import Trade, Travel, trade, travel
from overseer.rules.runebound.setup import (
    Place,
    QuestCounter,
    Start,
    phase_is,
    place,
    quest_counter,
    start,
)
from overseer.rules.runebound.state import (
    MOVEMENT,
    PLACEMENT,
    QUEST_COUNTERS,
    SETUP,
    RuneboundState,
)
from overseer.rules.runebound.turns import EndTurn, end_turn, in_play
from overseer.rules.runebound.victory import GameOver

State = RuneboundState


def _until_over(proc: Callable[[State, object], Procedure]) -> Callable[[State, object], Procedure]:
    """Run the procedure; when the game ends inside it, the action ends there."""
    def run(state: State, params: object) -> Procedure:
        try:
            yield from proc(state, params)
        except GameOver:
            return
    return run


def _phase(phase: str) -> tuple[Callable[[State], bool], Callable[[State], str]]:
    return (lambda s: phase_is(s, phase),
            lambda s: f"not now: the game is at {s.phase}, this is for {phase}")


def _problem(find: Callable[[State], str | None]) -> tuple[Callable[[State], bool],
                                                             Callable[[State], str]]:
    return (lambda s: find(s) is None), (lambda s: find(s) or "")


def _moving(state: State) -> str | None:
    if not in_play(state) or state.turn is None:
        return f"the game is not in play (phase: {state.phase})"
    if state.turn.step != MOVEMENT:
        return f"the Movement step is over (now: {state.turn.step})"
    return None


def _trading(state: State) -> str | None:
    problem = _moving(state)
    if problem is None and state.turn is not None and state.turn.traded:
        return "the trading pool was rolled this movement already"
    return problem


def _playing(state: State) -> str | None:
    return None if in_play(state) else f"the game is not in play (phase: {state.phase})"


def _move(name: str, label: str, params: type, proc: Callable[..., Procedure],
          when: tuple[Callable[[State], bool], Callable[[State], str]]) -> Move[State]:
    available, why_not = when
    return Move(name, label, params, _until_over(proc), available, why_not)


MOVES = MoveTable("Runebound", {m.name: m for m in (
    _move("start", "Start the game", Start, start, _phase(SETUP)),
    _move("place", "Place a hero", Place, place, _phase(PLACEMENT)),
    _move("quest_counter", "Take a quest counter", QuestCounter, quest_counter,
          _phase(QUEST_COUNTERS)),
    _move("travel", "Travel", Travel, travel, _problem(_moving)),
    _move("trade", "Roll the trading pool", Trade, trade, _problem(_trading)),
    _move("level_one", "Attempt a Level I card", Attempt, level_one,
          _problem(level_one_problem)),
    _move("level_three", "Face the Level III card", Attempt, level_three,
          _problem(level_three_problem)),
    _move("claim_quest", "Claim a quest", ClaimQuest, claim_quest, _problem(quest_problem)),
    _move("market", "Market step", Market, market, _problem(market_problem)),
    _move("knockout", "Knocked out", Knockout, knockout, _problem(_playing)),
    _move("end_turn", "End the turn", EndTurn, end_turn, _problem(_playing)),
    _move("correct", "Correct the books", Correct, correct, _problem(_playing)),
)})
