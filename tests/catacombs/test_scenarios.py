"""Every Catacombs scenario file runs and meets its expectations."""

from pathlib import Path

import pytest

from overseer import documents, scenario

FILES = sorted((Path(__file__).parents[1] / "scenarios" / "catacombs").glob("*.json"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    scn = documents.load(path)
    assert scn.get("expect") or scn.get("expect_state"), "a scenario must expect something"
    trace, final = scenario.run(scn)
    assert scenario.check(scn, trace, final) == []
