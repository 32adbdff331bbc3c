"""Shared by the Catacombs tests: run a scenario's actions on a battle the test keeps."""

from typing import Any

from overseer import scenario
from overseer.rules.catacombs import scenario as catacombs
from overseer.rules.procedure import RulesError, Runner


def drive_scenario(scn: dict[str, Any]):
    """Returns (battle, runner, the error that stopped it or None)."""
    game, battle = catacombs.build(scenario.setup_of(scn, catacombs))
    script = scenario.Script(scn)
    runner = Runner(game, battle, chance=script.chance)
    try:
        for action in scenario.script_of(scn)["actions"]:
            scenario.play(runner, script, action)
    except (RulesError, scenario.ScenarioError) as err:
        return battle, runner, err
    return battle, runner, None
