"""Conquest for the scenario runner and the session: ``build`` and ``state_dict``.

``build`` takes a scenario (or a stored session setup) with a ``"setup"`` object (see
``setup.build_state``) and is deterministic: chance enters only through the questions of the
actions (the first-team roll, the draws).
"""

from __future__ import annotations

from typing import Any

from overseer.rules.conquest.carddata import load_cards
from overseer.rules.conquest.game import ConquestGame
from overseer.rules.conquest.setup import build_state
from overseer.rules.conquest.state import ConquestState
from overseer.rules.conquest.state import state_dict as _state_dict


def build(scenario: dict[str, Any]) -> tuple[ConquestGame, ConquestState]:
    return ConquestGame(), build_state(scenario.get("setup"), load_cards())


def state_dict(state: ConquestState) -> dict[str, Any]:
    return _state_dict(state)
