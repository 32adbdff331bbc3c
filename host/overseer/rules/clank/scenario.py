"""Clank! setups for the scenario runner and the session: ``build(setup, data)``.

``build`` takes the setup object and the data (loaded outside the rules) and is deterministic:
chance enters only through the setup action's picks. ``FORMAT1_KEYS`` and ``format1_setup``
read a format 1 shaped document, where the setup lies under ``"setup"`` (as Conquest's).
"""

from __future__ import annotations

from typing import Any

from overseer.rules.clank.records import ClankData
from overseer.rules.clank.setup import build_state
from overseer.rules.clank.state import ClankState

FORMAT1_KEYS = ("setup",)


def format1_setup(doc: dict[str, Any]) -> tuple[Any, str]:
    return doc.get("setup"), "setup"


def build(setup: dict[str, Any], data: ClankData) -> ClankState:
    return build_state(setup, data)
