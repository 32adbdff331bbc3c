"""Whose turn it is. The turn order is the base game's (clockwise from the first player: the
seat order of the setup); the expansion's rules that last a turn end with it (Trap Pits: no
boots for the rest of the turn after a fall)."""

from __future__ import annotations

from overseer.core.params import NoParams
from overseer.core.procedure import Procedure, Step
from overseer.rules.clank import rulebook
from overseer.rules.clank.kinds import StepKind
from overseer.rules.clank.state import ClankState


def end_turn(state: ClankState, params: NoParams) -> Procedure:
    ended = state.turn_player()
    boots = [p for p in state.fell]
    state.fell.clear()
    state.turn = (state.turn + 1) % len(state.players)
    state.turn_number += 1
    player = state.turn_player()
    again = f" {', '.join(boots)} may use boots again." if boots else ""
    yield Step(StepKind.TURN, rulebook.TRAP_PITS,
               f"{ended}'s turn ends; turn {state.turn_number}: {player}.{again}",
               {"ended": ended, "player": player, "number": state.turn_number,
                "boots_back": boots})
