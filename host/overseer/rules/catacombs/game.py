"""The Catacombs AI player as a game for the runner: each action names a rules procedure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from overseer.rules.catacombs.state import Battle
from overseer.rules.procedure import Procedure, RulesError

Action = Callable[[Battle, dict[str, Any]], Procedure]


def _actions() -> dict[str, Action]:
    from overseer.rules.catacombs import activation, party

    return {
        "next_ai_piece": activation.next_ai_piece,
        "damage_piece": party.damage_piece,
        "update_hero": party.update_hero,
    }


class CatacombsGame:
    """Dispatches an action (``{"do": name, ...}``) to its procedure."""

    def __init__(self) -> None:
        self.actions = _actions()

    def start(self, state: Battle, action: dict[str, Any]) -> Procedure:
        name = action.get("do")
        if name not in self.actions:
            raise RulesError(f"unknown Catacombs action {name!r}; known: "
                             f"{', '.join(sorted(self.actions))}")
        return self.actions[name](state, action)
