"""Every Conquest scenario file runs and meets its expectations."""

from __future__ import annotations

from pathlib import Path

import pytest

from overseer import documents, scenario

FILES = sorted((Path(__file__).resolve().parents[1] / "scenarios" / "conquest").glob("*.json"))


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 10


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    scn = documents.load(path)
    assert scn["game"] == "conquest"
    trace, final = scenario.run(scn)
    assert scn.get("expect") or scn.get("expect_state"), "a scenario must expect something"
    assert scenario.check(scn, trace, final) == []
