"""What a session stores as its setup, and that games stored before format 2 still build.

A stored setup is a scenario-shaped document. Without ``"format": 2`` it is format 1 shaped:
the Catacombs setup keys at the top level, the Conquest setup under ``"setup"`` (what the
terminal and the table scripts stored before format 2); with it, the setup is under
``"setup"`` for every game. The same game folds the same from any of them."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from overseer import documents
from overseer.session.session import Session, SessionError
from overseer.session.store import Store
from tests.drivers.table_script import NOT_SETUP, step

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "games.sqlite3") as s:
        yield s


def shapes(name: str) -> dict[str, dict]:
    """One scenario file's setup in every shape a store may hold."""
    doc = json.loads((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
    assert doc["format"] == 1
    return {
        "format 1, no format key": {k: v for k, v in doc.items() if k not in NOT_SETUP},
        "format 1, the whole file": doc,
        "format 2, the setup part": {"format": 2, "game": doc["game"],
                                     "setup": documents.upgrade(doc)["setup"]},
        "format 2, the whole file": documents.upgrade(doc),
    }


def played(store: Store, game: str, setup: dict, steps: int) -> tuple[dict, list]:
    """A stored game of this setup, resumed from the store and played by the same scripted
    table; its state and trace."""
    game_id = store.create_game(game, setup, 11, "seeded")
    session = Session.resume(store, game_id)
    rng = random.Random(4)
    for _ in range(steps):
        if session.finished:
            break
        step(session, rng)
    again = Session.resume(store, game_id)
    assert (again.state_dict(), again.trace()) == (session.state_dict(), session.trace())
    return session.state_dict(), session.trace()


@pytest.mark.parametrize("name,steps", [("catacombs/shot_choice", 30),
                                        ("catacombs/antient", 30),
                                        ("conquest/turn_order_3_players", 60)])
def test_every_stored_shape_folds_to_the_same_game(store, name, steps):
    game = name.split("/")[0]
    results = {shape: played(store, game, setup, steps) for shape, setup in shapes(name).items()}
    first = next(iter(results.values()))
    assert len(first[1]) >= 20  # the games went somewhere
    assert all(result == first for result in results.values()), list(results)


def test_a_new_game_stores_its_setup_as_given(store):
    doc = documents.upgrade(json.loads((SCENARIOS / "catacombs/los_blocked.json").read_text()))
    session = Session.new(store, "catacombs", doc, seed=3)
    assert store.game(session.id).setup == doc
    assert Session.resume(store, session.id).state_dict() == session.state_dict()


@pytest.mark.parametrize("setup,message", [
    ({"heroes": [{"id": "elf", "helth": 8}]},
     r"heroes\[0\]\.helth: unknown key; did you mean 'health'\?"),
    ({"format": 2, "game": "catacombs", "setup": {"heroes": [{"id": "elf", "helth": 8}]}},
     r"setup\.heroes\[0\]\.helth: unknown key; did you mean 'health'\?"),
    ({"hereos": []}, "hereos: unknown key; did you mean 'heroes'"),
    ({"game": "conquest", "setup": {"players": {"a": "sword", "b": "skull"}}},
     "game: 'conquest' in a catacombs setup"),
    ({"format": 2, "game": "catacombs", "heroes": []}, "heroes: goes in 'setup' in format 2"),
])
def test_a_new_game_with_a_misspelt_setup_is_refused_and_stores_nothing(store, setup, message):
    with pytest.raises(SessionError, match="the catacombs setup does not build: " + message):
        Session.new(store, "catacombs", setup)
    assert store.games() == []
