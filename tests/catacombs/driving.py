"""Shared by the Catacombs tests: run a scenario's actions on a battle the test keeps, and card
data from a folder the test edits."""

import shutil
from pathlib import Path
from typing import Any

from overseer import documents, games, scenario
from overseer.core.procedure import RulesError, Runner
from overseer.loaders import catacombs as catacombs_data
from overseer.rules.catacombs import scenario as catacombs
from overseer.rules.catacombs.carddata import CatacombsData


def drive_scenario(scn: dict[str, Any], data: CatacombsData | None = None):
    """Returns (battle, runner, the error that stopped it or None). ``data``: the card data to
    build the battle on (the shipped data by default)."""
    setup = documents.setup_of(scn, games.CATACOMBS)
    battle = games.CATACOMBS.build(setup) if data is None else catacombs.build(setup, data)
    script = scenario.Script(scn)
    runner = Runner(games.CATACOMBS, battle, chance=script.chance)
    try:
        for action in documents.script_of(scn)["actions"]:
            scenario.play(runner, script, action)
    except (RulesError, documents.ScenarioError) as err:
        return battle, runner, err
    return battle, runner, None


def data_folder(tmp_path: Path) -> Path:
    """A copy of data/catacombs/ for a test to edit."""
    folder = tmp_path / "catacombs"
    shutil.copytree(catacombs_data.FOLDER, folder)
    return folder


def edited(folder: Path, name: str, old: str, new: str) -> Path:
    """``folder``'s file ``name`` with its first ``old`` replaced by ``new``."""
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path
