"""Conquest setups for the scenario runner and the session: ``build(setup, cards)`` and
``state_dict``.

``build`` takes the setup object and the card list (see ``setup.build_state``) and is
deterministic: chance enters only through the questions of the actions (the first-team roll,
the draws).
``FORMAT1_KEYS`` and ``format1_setup`` read the setup of a format 1 scenario, where it lies
under ``"setup"``. The actions' parameters are the move table's (``moves.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from overseer.rules.conquest.cards import Card
from overseer.rules.conquest.setup import build_state
from overseer.rules.conquest.state import ConquestState
from overseer.rules.conquest.state import state_dict as _state_dict

FORMAT1_KEYS = ("setup",)


def format1_setup(doc: dict[str, Any]) -> tuple[Any, str]:
    """The setup of a format 1 scenario (its ``"setup"`` object) and where it lies."""
    return doc.get("setup"), "setup"


def build(setup: dict[str, Any], cards: Mapping[str, Card]) -> ConquestState:
    """The state of ``setup`` on the loaded card list ``cards`` (the caller loads it:
    ``loaders.conquest.load_cards``)."""
    return build_state(setup, dict(cards))


def state_dict(state: ConquestState) -> dict[str, Any]:
    return _state_dict(state)
