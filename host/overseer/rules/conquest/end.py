"""When a Conquest game ends and who wins (Conquest: Winning the Game)."""

from __future__ import annotations

from overseer.core.procedure import Facts, Procedure, Step
from overseer.rules.conquest import rulebook
from overseer.rules.conquest.kinds import StepKind
from overseer.rules.conquest.state import TEAM_NAMES, TEAMS, ConquestState, Over

REASONS = {
    "pool_empty": "a team has lost all its Health Tokens",
    "bank_empty": "the Health Bank is used up",
    "cannot_play": "a player cannot play a card from their hand",
}


class GameOver(Exception):
    """Raised inside a procedure once the game has ended: the rest of the turn is not played.
    The action's top level catches it (``moves._until_over``)."""


def winner(state: ConquestState) -> str | None:
    """Conquest: Winning the Game - most Health Tokens wins; on a tie, most cards left in the
    team's hands. Ruling: still tied, the game is drawn (None)."""
    sword, skull = state.pools["sword"], state.pools["skull"]
    if sword != skull:
        return "sword" if sword > skull else "skull"
    sword, skull = state.cards_in_hand("sword"), state.cards_in_hand("skull")
    if sword != skull:
        return "sword" if sword > skull else "skull"
    return None


def result(state: ConquestState) -> str | None:
    """The game's end as the table reads it (who won, why, the tie break), or ``None``."""
    over = state.over
    if over is None:
        return None
    tie = over.tokens["sword"] == over.tokens["skull"]
    who = f"{TEAM_NAMES[over.winner]} wins" if over.winner else "A draw"
    how = (", the tie on tokens broken by cards in hand" if tie and over.winner else
           ", tied on tokens and cards in hand" if tie else "")
    return f"{who}{how}: {REASONS[over.reason]}."


def finish(state: ConquestState, reason: str, detail: str,
           said: tuple[str, Facts] | None = None) -> Procedure:
    """Conquest: Winning the Game - the game ends at once: record the result, then stop the
    turn by raising ``GameOver``. ``said``: ``detail`` as a template and its facts."""
    win = winner(state)
    state.over = Over(reason=reason, winner=win, tokens=dict(state.pools),
                      cards_in_hand={t: state.cards_in_hand(t) for t in TEAMS})
    tie = state.pools["sword"] == state.pools["skull"]
    how = ("tie on tokens, broken by cards in hand" if tie and win else
           "tie on tokens and cards in hand: a draw (ruling)" if tie else "most tokens")
    result = f"{TEAM_NAMES[win]} wins ({how})" if win else f"no winner ({how})"
    because, facts = said if said is not None else ("{detail}", {"detail": detail})
    yield Step(StepKind.GAME_OVER, rulebook.WINNING,
               f"Game over: {REASONS[reason]} ({because}). {result}.",
               {"reason": reason, "winner": win, "tokens": dict(state.pools),
                "cards_in_hand": dict(state.over.cards_in_hand), "tie_break": bool(tie and win)},
               facts)
    raise GameOver(reason)
