"""Which game the play command opens, and a new game from a setup file of either format."""

import argparse
import json

import pytest

from overseer import documents
from overseer.core.records import DATA_DIR
from overseer.session.session import Session
from overseer.session.store import Store
from overseer.sim import opening

DEMO = DATA_DIR / "demo" / "catacombs.json"


def args(**given) -> argparse.Namespace:
    fields = {"new": False, "setup": None, "seed": None, "dice": None, "tokens": None,
              "game_id": None}
    return argparse.Namespace(**{**fields, **given})


@pytest.mark.parametrize("fmt", [1, 2])
def test_a_new_game_from_either_format_with_physical_tokens(tmp_path, fmt):
    path = DEMO
    if fmt == 2:
        path = tmp_path / "demo2.json"
        path.write_text(documents.dumps(documents.upgrade(json.loads(DEMO.read_text()))))
    with Store(tmp_path / "games.sqlite3") as store:
        game_id = opening.choose_game(store, args(new=True, setup=str(path), seed=3,
                                                  tokens="physical"))
        stored = store.game(game_id)
        assert (stored.setup["format"], stored.seed, stored.dice) == (2, 3, "pico")
        assert stored.setup["setup"]["options"] == {"los_blocked": False,
                                                    "physical_tokens": True,
                                                    "physical_poison": True}
        state = Session.resume(store, game_id).state
        assert state.options.physical_tokens and state.options.physical_poison
        assert sorted(state.heroes) == ["barbarian", "elf"]


def test_the_last_unfinished_game_opens_else_the_gadget_asks(tmp_path):
    with Store(tmp_path / "games.sqlite3") as store:
        assert opening.choose_game(store, args()) is None  # the gadget's new-game questions
        first = opening.choose_game(store, args(new=True, setup=str(DEMO)))
        assert opening.choose_game(store, args()) == first
        second = opening.choose_game(store, args(new=True, setup=str(DEMO), dice="table"))
        assert store.game(second).dice == "table"
        assert opening.choose_game(store, args()) == second
        Session.resume(store, second).finish()
        assert opening.choose_game(store, args()) == first
        assert opening.choose_game(store, args(game_id=second)) == second
        with pytest.raises(opening.OptionError, match="--seed 1 applies to a new game, and game "
                           f"#{second} would be resumed"):
            opening.choose_game(store, args(game_id=second, seed=1))
        assert opening.choose_game(store, args(new=True, seed=5)) is None  # the gadget's seed
