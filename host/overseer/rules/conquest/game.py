"""The Conquest game as the runner sees it: actions in, procedures out.

Actions (see docs/scenarios.md, "Conquest scenarios"):

* ``{"do": "start"}`` - the first team (a D12 unless the setup fixes it), the starting hands,
  and the first turn's beginning (its draw).
* ``{"do": "play", "player": P, "card": C}`` - P plays card C on their turn; the box then
  asks what it cannot see, finishes the turn (obstacle rush, tracker) and begins the next one.

An action the rules refuse raises ``RulesError`` before anything changes.
"""

from __future__ import annotations

from typing import Any

from overseer.rules.conquest.end import GameOver
from overseer.rules.conquest.play import check_play, play_turn
from overseer.rules.conquest.setup import start
from overseer.rules.conquest.state import ConquestState
from overseer.rules.procedure import Procedure, RulesError

ACTIONS = ("start", "play")


def _until_over(proc: Procedure) -> Procedure:
    """Run ``proc``; when the game ends inside it, the action ends there."""
    try:
        yield from proc
    except GameOver:
        return


class ConquestGame:
    def start(self, state: ConquestState, action: dict[str, Any]) -> Procedure:
        do = action.get("do")
        if do == "start":
            if state.started:
                raise RulesError("the game has already started")
            return _until_over(start(state))
        if do == "play":
            player, card = check_play(state, action)
            return _until_over(play_turn(state, player, card))
        raise RulesError(f"unknown action {do!r}; Conquest actions are {', '.join(ACTIONS)}")
