"""The Conquest move table: ``start`` once, then ``play`` a card on each turn; ``correct`` mends
the books and ``reread`` has the next card read off the card again (rules/conquest/books.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from overseer.core.moves import Move, MoveTable
from overseer.core.procedure import Procedure
from overseer.rules.conquest.books import Correct, correct, reread
from overseer.rules.conquest.end import GameOver
from overseer.rules.conquest.play import Play, check_play, play_turn
from overseer.rules.conquest.setup import start
from overseer.rules.conquest.state import ConquestState


def _until_over(proc: Procedure) -> Procedure:
    """Run ``proc``; when the game ends inside it, the action ends there."""
    try:
        yield from proc
    except GameOver:
        return


@dataclass(frozen=True, slots=True)
class Start:
    pass


def _start(state: ConquestState, params: Start) -> Procedure:
    return _until_over(start(state))


def _play(state: ConquestState, params: Play) -> Procedure:
    player, card = check_play(state, params)
    return _until_over(play_turn(state, player, card))


def _correct(state: ConquestState, params: Correct) -> Procedure:
    return _until_over(correct(state, params))


def _reread(state: ConquestState, params: Start) -> Procedure:
    return reread(state)


def _under_way(state: ConquestState) -> bool:
    return state.started and state.over is None


def _move(name: str, label: str, params: type, proc: Callable[..., Procedure],
          available: Callable[[ConquestState], bool], why_not: str) -> Move[ConquestState]:
    return Move(name, label, params, proc, available, why_not)


MOVES = MoveTable("Conquest", {m.name: m for m in (
    _move("start", "Start the game", Start, _start, lambda s: not s.started,
          "the game has already started"),
    _move("play", "Play a card", Play, _play,
          lambda s: s.started and s.over is None and s.acting_player() is not None,
          "the game has not started, or it is over"),
    _move("correct", "Correct the books", Correct, _correct, _under_way,
          "the game has not started, or it is over"),
    _move("reread", "Read next card again", Start, _reread, _under_way,
          "the game has not started, or it is over"),
)})
