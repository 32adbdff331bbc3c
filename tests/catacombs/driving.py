"""Shared by the Catacombs tests: run a scenario's actions on a battle the test keeps."""

from typing import Any

from overseer import games, scenario
from overseer.rules.procedure import RulesError, Runner


def drive_scenario(scn: dict[str, Any]):
    """Returns (battle, runner, the error that stopped it or None)."""
    battle = games.CATACOMBS.build(scenario.setup_of(scn, games.CATACOMBS))
    script = scenario.Script(scn)
    runner = Runner(games.CATACOMBS, battle, chance=script.chance)
    try:
        for action in scenario.script_of(scn)["actions"]:
            scenario.play(runner, script, action)
    except (RulesError, scenario.ScenarioError) as err:
        return battle, runner, err
    return battle, runner, None
