"""Every registered game fills its record (games.GameSpec, made in app/registry/): its rules,
its data, its cards, the step kinds its lights read, its screens and its table. One registry
(``games.GAMES``) is what every layer reads."""

from __future__ import annotations

from types import ModuleType

import pytest

from overseer import games
from overseer.app import registry
from overseer.app.flow import Table, table
from overseer.core.books import CORRECT
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
    # its books: what a correction sets, and the move that sets one (core/books.py)
    assert spec.books is not None and CORRECT in spec.moves.moves
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


def first_answers(name: str) -> dict:
    """A new game of ``name`` from its table's own questions, each answered with its first
    row (a number with where it starts): the setup as the store would keep it."""
    from overseer.app.local import Local
    from overseer.core.procedure import ChooseOne, ChooseSome, EnterNumber

    local = Local(lambda: table(name).wizard((1, 2, 3, 4), False), "New", leaves=False)
    for _ in range(100):
        if local.done:
            return local.result.setup
        assert local.ask is not None
        question, start = local.ask.question, local.ask.start
        if isinstance(question, ChooseSome):
            local.answer(())
        elif isinstance(question, ChooseOne):
            local.answer(question.options[0])
        else:
            assert isinstance(question, EnterNumber)
            local.answer(start if start is not None else question.low)
    raise AssertionError("the new game's questions never ended")


@pytest.mark.parametrize("name", NAMES)
def test_a_move_the_rules_do_not_allow_opens_no_form_and_is_refused_with_its_reason(name):
    """The one policy: a menu item whose move is not available now opens no form; its press
    reaches the rules, which refuse it with the move's refusal before any question, and
    nothing changes."""
    from overseer.core.procedure import RulesError

    spec, own = games.get(name), table(name)
    state = spec.build(first_answers(name)["setup"])
    before = spec.state_dict(state)
    refused = [m for m in spec.moves.moves.values() if not m.available(state)]
    assert refused, f"{name}: every move is allowed before the game begins"
    for move in refused:
        assert own.form_of(move.name, state, own.labels(state)) is None, move.name
        with pytest.raises(RulesError) as err:
            spec.start(state, {"do": move.name})
        assert str(err.value) == move.refusal(state)
    assert spec.state_dict(state) == before
