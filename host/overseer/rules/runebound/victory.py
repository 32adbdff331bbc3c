"""When a Cataclysm game ends and who wins (Cataclysm: Winning the Game).

The check runs after every change that can decide it: each Curse card claimed and each town
freed. The first hero who has freed a town and holds at least 15 minus the number of players
in victory points wins at once.
"""

from __future__ import annotations

from overseer.core.procedure import Procedure, Step
from overseer.rules.runebound import rulebook
from overseer.rules.runebound.kinds import StepKind
from overseer.rules.runebound.state import CURSED, OVER, Over, RuneboundState


class GameOver(Exception):
    """Raised inside a procedure once the game has ended: the rest of the action is not
    played. The action's top level catches it (``moves._until_over``)."""


def result(state: RuneboundState) -> str | None:
    """The game's end as the table reads it (who won, with how many victory points), or
    ``None`` while it goes on."""
    over = state.over
    if over is None:
        return None
    if over.winner is not None:
        return f"{over.points[over.winner]} victory points and a town freed."
    return "No town is cursed any more: no Curse card is left to claim."


def _points(state: RuneboundState) -> dict[str, int]:
    return {h: state.points(h) for h in state.heroes}


def _end(state: RuneboundState, reason: str, winner: str | None) -> None:
    state.over = Over(reason=reason, winner=winner, points=_points(state))
    state.phase = OVER


def check(state: RuneboundState, hero: str) -> Procedure:
    """Cataclysm: Winning the Game - ``hero``'s points or freed towns just changed."""
    points, needed = state.points(hero), state.threshold()
    freed = state.heroes[hero].freed
    name = state.heroes[hero].name
    facts = {"hero": hero, "points": points, "needed": needed, "freed": list(freed)}
    if freed and points >= needed:
        _end(state, "victory", hero)
        yield Step(StepKind.GAME_OVER, rulebook.WINNING,
                   f"{name} wins: {points} victory points (at least {needed} needed with "
                   f"{len(state.players)} players) and a town freed.",
                   {**facts, "reason": "victory", "winner": hero})
        raise GameOver("victory")
    missing = [] if points >= needed else [f"{needed - points} more victory points"]
    if not freed:
        missing.append("a town freed")
    yield Step(StepKind.VICTORY_CHECK, rulebook.WINNING,
               f"{name}: {points} of {needed} victory points, "
               f"{len(freed)} town(s) freed; still needs {' and '.join(missing)}.",
               {**facts, "won": False})


def nothing_left(state: RuneboundState) -> Procedure:
    """Overseer's ruling: once no town is cursed, no Curse card is left to claim and the
    victory points can no longer change; the game ends without a winner."""
    if state.towns_with(CURSED):
        return
    _end(state, "no_curses_left", None)
    yield Step(StepKind.GAME_OVER, rulebook.WINNING,
               "No town is cursed any more: no Curse card is left to claim and nobody has won; "
               "the game ends without a winner (Overseer's ruling).",
               {"reason": "no_curses_left", "winner": None, "points": _points(state)})
    raise GameOver("no_curses_left")
