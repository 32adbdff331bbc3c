"""The games the gadget plays (one ``Flow`` each, app/flow.py) and the first new-game question:
which game. With one game there is nothing to ask."""

from __future__ import annotations

from collections.abc import Mapping

from overseer.app import catacombs, clank, conquest, runebound
from overseer.app.flow import Flow, NewGame
from overseer.app.local import Ask, LocalProcedure
from overseer.core.procedure import ChooseOne

FLOWS: Mapping[str, Flow] = {flow.game: flow for flow in (catacombs.FLOW, conquest.FLOW,
                                                           clank.FLOW, runebound.FLOW)}


def wizard(seats: tuple[int, ...], pico: bool,
           flows: Mapping[str, Flow] = FLOWS) -> LocalProcedure:
    """Which game (when there is a choice), then that game's questions; returns a
    ``NewGame``."""
    game = next(iter(flows))
    if len(flows) > 1:
        game = yield Ask(ChooseOne("Which game?", tuple(flows), "new_game"),
                         names={g: f.label for g, f in flows.items()})
    new: NewGame = yield from flows[game].wizard(seats, pico)
    return new
