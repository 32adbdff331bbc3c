"""The games Overseer plays: ONE line each. A game is one record (``games.GameSpec``) made in its
own module here (app/registry/catacombs.py, ...), joining its rules, its data, its cards, its
screens and its table; ``install`` puts every one in ``games.GAMES``, lazily (a game's rules
are imported the first time it is looked up), where every layer reads it.

This package is on the app's floor (its records import the games' tables), so the layers below
never import it; they read ``games.GAMES``, which the app fills: the gadget (``Gadget``) calls
``install()`` when it starts, the command line (cli/) before any command runs, the tests'
conftest and the benches before they play (as gpiozero's callers set its pin factory). A
fifth game is its own modules and one line in ``GAMES`` below (a test's game:
``games.GAMES.add``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # games.py is imported by ``install``: ``overseer --help`` needs only the names
    from overseer.games import GameSpec


def _catacombs() -> GameSpec:
    from overseer.app.registry import catacombs

    return catacombs.GAME


def _conquest() -> GameSpec:
    from overseer.app.registry import conquest

    return conquest.GAME


def _clank() -> GameSpec:
    from overseer.app.registry import clank

    return clank.GAME


def _runebound() -> GameSpec:
    from overseer.app.registry import runebound

    return runebound.GAME


# The games in the order the new-game question lists them (the gadget's own game first).
GAMES: dict[str, Callable[[], GameSpec]] = {
    "catacombs": _catacombs,
    "conquest": _conquest,
    "clank": _clank,
    "runebound": _runebound,
}


def install() -> None:
    """Every game of ``GAMES`` in ``games.GAMES`` (again: nothing more)."""
    from overseer import games

    for name, make in GAMES.items():
        if name not in games.GAMES:
            games.GAMES.add(name, make)
