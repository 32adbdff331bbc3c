"""A game's move table: each action the table can take, its typed parameters, the procedure
that performs it and when it is available (boardgame.io's moves, with questions).

``MoveTable.start`` is the one place an action dict enters the rules: it finds the move, checks
it is available now, reads the parameters into their dataclass (``params.from_json``) and starts
the procedure with them. ``legal`` lists the moves available in a state: what the app's menus
show and what the random-game tests play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from functools import cached_property
from typing import Any, Generic, TypeVar

from overseer.core.params import ParamError, from_json
from overseer.core.procedure import Procedure, RulesError, Said
from overseer.core.shapes import suggestion

S = TypeVar("S")


@dataclass(frozen=True)
class Move(Generic[S]):
    """One action: ``{"do": name, **params}``."""

    name: str
    label: str  # how a menu names it
    params: type  # a frozen dataclass of ``params.param`` fields
    procedure: Callable[[S, Any], Procedure]
    available: Callable[[S], bool]
    why_not: str | Callable[[S], str]  # said when the move is not available now

    def refusal(self, state: S) -> str:
        return str(self.refused(state))

    def refused(self, state: S) -> RulesError:
        """Why the move is not available now, as a refusal (its facts, where the reason has
        them, for the table's names)."""
        why = self.why_not if isinstance(self.why_not, str) else self.why_not(state)
        if isinstance(why, Said):
            return RulesError(f"{self.label}: {why}", f"{self.label}: {why.template}", why.facts)
        return RulesError(f"{self.label}: {why}")


@dataclass(frozen=True)
class MoveTable(Generic[S]):
    game: str
    moves: Mapping[str, Move[S]]
    upgrade: Callable[[dict[str, Any]], dict[str, Any]] | None = None  # older action shapes

    @cached_property
    def _bare(self) -> dict[Any, tuple[Move[S], Any]]:
        """The moves without parameters, each with its (frozen) parameters, by name."""
        return {name: (move, move.params()) for name, move in self.moves.items()
                if not fields(move.params)}

    def names(self) -> list[str]:
        return list(self.moves)

    def legal(self, state: S) -> list[Move[S]]:
        return [m for m in self.moves.values() if m.available(state)]

    def parse(self, action: dict[str, Any]) -> tuple[Move[S], Any]:
        """The move and its typed parameters; ``ParamError`` (a ``RulesError``-like refusal)
        names the field. Nothing is changed."""
        if not isinstance(action, dict):
            raise ParamError(self.game, "", f"an action is an object with 'do' (got {action!r})")
        if self.upgrade is not None:
            action = self.upgrade(action)
        name = action.get("do")
        move = self.moves.get(name) if isinstance(name, str) else None
        if move is None or not isinstance(name, str):
            hint = suggestion(name, self.moves) if isinstance(name, str) else \
                f"known: {', '.join(self.moves)}"
            said = repr(name)
            if len(said) > 60:  # a name of megabytes is not echoed whole
                said = f"{said[:57]}... ({len(said):,} characters)"
            raise ParamError(self.game, "do", f"unknown action {said}; {hint}")
        data = {k: v for k, v in action.items() if k != "do"}
        return move, from_json(move.params, data, name)

    def start(self, state: S, action: dict[str, Any]) -> Procedure:
        name = action.get("do") if type(action) is dict and len(action) == 1 else None
        # {"do": name} of a move without parameters (the common press) needs no parsing; of a
        # move the rules do not allow now (a menu item's press: its form opens only when the
        # move is allowed), the refusal says why before its parameters are missed.
        bare = self._bare.get(name) if isinstance(name, str) else None
        if bare is not None:
            move, params = bare
        else:
            move = self.moves.get(name) if isinstance(name, str) else None
            if move is not None and not move.available(state):
                raise move.refused(state)
            try:
                move, params = self.parse(action)
            except ParamError as err:
                raise RulesError(str(err)) from None
        if not move.available(state):
            raise move.refused(state)
        return move.procedure(state, params)
