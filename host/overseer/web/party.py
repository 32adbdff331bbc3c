"""The party page's content, made from the game's state in the gadget's thread (plain data:
the server reads it from another thread while the gadget plays on).

Each game's table makes it (``Table.page``): by default its state as the game's record writes
it, less what the table must not see (``Table.secret``: a Conquest hand and a deck, so the page
gives only how many cards each holds); Catacombs its party, its AI pieces, the Hidden Cave and
the campaign (app/catacombs_page.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from overseer.app.flow import table
from overseer.games import GameSpec


def summary(spec: GameSpec, state: Any, names: Mapping[str, str],
            seats: Mapping[str, int]) -> dict[str, Any]:
    """The party page of ``state`` (JSON-able), as the game's table makes it
    (``Table.page``)."""
    return {"game": spec.name, **table(spec.name).page(state, names, seats)}
