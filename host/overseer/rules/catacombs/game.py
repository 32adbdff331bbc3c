"""The Catacombs AI player as a game for the runner: each action names a rules procedure."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from overseer.rules.catacombs.state import Battle
from overseer.rules.procedure import Procedure, RulesError

Action = Callable[[Battle, dict[str, Any]], Procedure]


def _actions() -> dict[str, Action]:
    from overseer.rules.catacombs import activation, campaign, hidden_cave, party, rewards, setup

    return {
        "next_ai_piece": activation.next_ai_piece,
        "damage_piece": party.damage_piece,
        "update_hero": party.update_hero,
        "setup_room": setup.setup_room,
        "choose_lord": setup.choose_lord,
        "setup_lord_room": setup.setup_lord_room,
        "hidden_cave_setup": hidden_cave.hidden_cave_setup,
        "hidden_cave_collect": hidden_cave.hidden_cave_collect,
        "hidden_cave_visit": hidden_cave.hidden_cave_visit,
        "hidden_cave_leave": hidden_cave.hidden_cave_leave,
        "room_reward": rewards.room_reward,
        "campaign_start": campaign.campaign_start,
        "campaign_next": campaign.campaign_next,
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
