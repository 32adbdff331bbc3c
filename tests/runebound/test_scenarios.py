"""Every Runebound scenario file runs and meets its expectations."""

from __future__ import annotations

from pathlib import Path

import pytest

from overseer import documents, scenario

FILES = sorted((Path(__file__).resolve().parents[1] / "scenarios" / "runebound").glob("*.json"))


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 12


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    scn = documents.load(path)
    assert scn["game"] == "runebound" and scn["format"] == 2
    trace, final = scenario.run(scn)
    assert scn.get("expect") and scn.get("expect_state"), "a scenario must expect something"
    assert scenario.check(scn, trace, final) == []


def test_a_wrong_expectation_is_caught() -> None:
    """The check is not vacuous: the Level I scenario with another card expected fails."""
    scn = documents.load(FILES[[p.stem for p in FILES].index("level_one_claim_reveals_quest")])
    trace, final = scenario.run(scn)
    scn["expect"] = [{"step": "claim", "card": "savage-brood-i-1"}]
    scn["expect_state"] = {"heroes": {"ann": {"points": 2}}}
    assert len(scenario.check(scn, trace, final)) == 2
