"""The terminal starts a game from a setup file of either format; --tokens physical lands in the
setup's options either way."""

import io
import json

import pytest

from overseer import scenario
from overseer.data import DATA_DIR
from overseer.session.store import Store
from overseer.terminal import open_session

DEMO = DATA_DIR / "demo" / "catacombs.json"


@pytest.mark.parametrize("fmt", [1, 2])
def test_a_new_game_from_either_format_with_physical_tokens(tmp_path, fmt):
    path = DEMO
    if fmt == 2:
        path = tmp_path / "demo2.json"
        path.write_text(scenario.dumps(scenario.upgrade(json.loads(DEMO.read_text()))))
    with Store(tmp_path / "games.sqlite3") as store:
        session = open_session(store, str(path), True, 3, "seeded", io.StringIO(), physical=True)
        stored = store.game(session.id).setup
        assert stored["format"] == 2
        assert stored["setup"]["options"] == {"los_blocked": False, "physical_tokens": True,
                                              "physical_poison": True}
        assert session.state.options.physical_tokens and session.state.options.physical_poison
        assert sorted(session.state.heroes) == ["barbarian", "elf"]
