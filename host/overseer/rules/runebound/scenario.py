"""Runebound setups for the scenario runner and the session: ``build(setup, data)`` and
``state_dict``.

``build`` takes the setup object (see ``setup.build_state``) and the loaded box data
(``games.RUNEBOUND.build`` passes the data loaded once) and is deterministic: chance enters
only through the questions of the actions (the deal, the draws, the gadget's trading dice).
``FORMAT1_KEYS`` and ``format1_setup`` read a format 1 document, where the setup lies under
``"setup"``. The actions' parameters are the move table's (``moves.py``).
"""

from __future__ import annotations

from typing import Any

from overseer.rules.runebound.components import RuneboundData
from overseer.rules.runebound.setup import build_state
from overseer.rules.runebound.state import RuneboundState
from overseer.rules.runebound.state import state_dict as _state_dict

FORMAT1_KEYS = ("setup",)


def format1_setup(doc: dict[str, Any]) -> tuple[Any, str]:
    return doc.get("setup"), "setup"


def build(setup: dict[str, Any], data: RuneboundData) -> RuneboundState:
    return build_state(setup, data)


def state_dict(state: RuneboundState) -> dict[str, Any]:
    return _state_dict(state)


def names(state: RuneboundState) -> dict[str, str]:
    """Display names by id: heroes, towns, terrain, curses, Curse cards, encounter tokens."""
    data = state.data
    found = {h.id: h.name for h in state.heroes.values()}
    found.update((t.id, t.name) for t in data.towns.values())
    found.update((t.id, t.name) for t in data.terrain.values())
    found.update((c.id, c.title) for c in data.curses.values())
    found.update((c, data.card_title(c)) for c in data.cards)
    found.update((t.id, t.name) for t in data.tokens.values())
    return found
