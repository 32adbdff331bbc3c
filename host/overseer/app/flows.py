"""The first new-game question: which game (each registered game's table, app/flow.py). With one
game there is nothing to ask."""

from __future__ import annotations

from collections.abc import Mapping

from overseer.app.flow import NewGame, Table, tables
from overseer.app.local import Ask, LocalProcedure
from overseer.core.procedure import ChooseOne


def wizard(seats: tuple[int, ...], pico: bool,
           choice: Mapping[str, Table] | None = None) -> LocalProcedure:
    """Which game (when there is a choice: ``choice``, every registered game's table by
    default), then that game's questions; returns a ``NewGame``."""
    choice = tables() if choice is None else choice
    game = next(iter(choice))
    if len(choice) > 1:
        game = yield Ask(ChooseOne("Which game?", tuple(choice), "new_game"),
                         names={g: t.label for g, t in choice.items()})
    new: NewGame = yield from choice[game].wizard(seats, pico)
    return new
