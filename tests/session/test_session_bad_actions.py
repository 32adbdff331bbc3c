"""An action the table (or a script) sends with an unknown key, a wrong type or an unknown
name: one clear message naming the action and the key, and nothing is stored."""

from __future__ import annotations

import json

import pytest

from overseer.core.procedure import RulesError
from overseer.session.events import canonical
from overseer.session.session import Session
from overseer.session.store import Store

SETUP = {"heroes": [{"id": "elf", "name": "Elf"}],
         "pieces": [{"id": "rat-1", "card": "Sewer Rat"}]}


@pytest.mark.parametrize("action, message", [
    ({"do": "damage_piece", "piece": "rat-1", "amunt": 2},
     "damage_piece: amunt: unknown key; did you mean 'amount'?"),
    ({"do": "damage_piece", "piece": "rat-1", "amount": "2"},
     'damage_piece: amount: wanted a whole number, got "2"'),
    ({"do": "damage_pice", "piece": "rat-1"},
     "Catacombs: do: unknown action 'damage_pice'; did you mean 'damage_piece'?"),
    ({"do": "update_hero", "hero": "elf", "helth": 3},
     "update_hero: helth: unknown key; did you mean 'health'?"),
    ({"do": "damage_piece", "amount": 1}, "damage_piece: piece: missing (a string)"),
])
def test_a_bad_action_is_refused_and_nothing_is_stored(tmp_path, action, message):
    with Store(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "catacombs", SETUP, seed=1)
        with pytest.raises(RulesError) as refused:
            session.begin(action)
        assert str(refused.value) == message
        assert session.head == 0 and store.events(session.id) == []


@pytest.mark.parametrize("name", ["next_ai_piece", "", "é ü", "a\x00b\n", "\ud800", "x" * 10_000])
def test_a_move_by_its_name_alone_is_held_as_its_json_gives_it_back(tmp_path, name):
    with Store(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "catacombs", SETUP, seed=1)
        action = {"do": name}
        checked = session._checked(action)
        assert checked == json.loads(canonical(action)) and checked is not action
