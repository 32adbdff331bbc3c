"""Every registered game fills its record (games.GameSpec, made in app/registry/): its rules,
its data, its cards, the step kinds its lights read, its screens and its table. One registry
(``games.GAMES``) is what every layer reads."""

from __future__ import annotations

from types import ModuleType

import pytest

from overseer import games
from overseer.app import registry
from overseer.app.flow import Table, table
from overseer.core.moves import MoveTable
from overseer.core.records import DATA_DIR
from overseer.screens.facet import Screens

NAMES = list(registry.GAMES)


def test_the_registry_is_the_games_every_layer_reads():
    assert list(games.GAMES)[:len(NAMES)] == NAMES
    assert NAMES[0] == "catacombs"  # the gadget's own game, asked first


@pytest.mark.parametrize("name", NAMES)
def test_every_game_fills_its_record(name: str):
    spec = games.get(name)
    assert spec.name == name and spec.title
    assert isinstance(spec.moves, MoveTable) and spec.moves.moves
    assert isinstance(spec.rulebook, ModuleType)
    assert spec.main_move is None or spec.main_move in spec.moves.moves
    # its data: the shipped folder loads, and the default value is loaded once
    spec.data.load(DATA_DIR / name)
    assert spec.data.default() is spec.data.default()
    # its cards: kind -> id -> name, every name a non-empty string
    cards = spec.cards()
    assert all(isinstance(kind, str) and table_ and all(
        isinstance(card, str) and isinstance(label, str) and label
        for card, label in table_.items()) for kind, table_ in cards.items())
    # the step kinds its target light reads end a target
    kinds = spec.kinds
    assert kinds.actor_kind is None or kinds.actor_kind in kinds.target_ends
    assert isinstance(spec.screens, Screens)
    # its table: its own game's, every hook naming its own moves
    own = table(name)
    assert isinstance(own, Table) and own.game == name and own.label and own.spec is spec
    moves = set(spec.moves.moves)
    assert set(own.order) <= moves and set(own.short) <= moves
    assert set(own.forms) <= moves and set(own.prompts) <= moves


@pytest.mark.parametrize("name", NAMES)
def test_a_new_game_builds_from_its_wizards_setup(name: str):
    """The table's first new-game question is asked, and the record builds states."""
    proc = table(name).wizard((1, 2, 3, 4), True)
    first = next(proc)
    assert getattr(first, "question", first).key.startswith("new_")
