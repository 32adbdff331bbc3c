"""Scenario files: a game fixed from end to end, run through the rules, trace out.

A scenario (JSON, ``"format": 1``) names its game and fixes everything: options, the table
as laid, the dice results and token draws in order, the players' answers in order, and the
actions to take. ``run`` returns the trace and the final state; ``check`` compares them with
the scenario's ``expect`` (steps that must appear, in order) and ``expect_state``.
The format is described in docs/scenarios.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from overseer import games
from overseer.games import GAMES
from overseer.rules.procedure import (
    AnswerError,
    DrawToken,
    Pick,
    Question,
    Roll,
    RulesError,
    Runner,
    Token,
    describe,
)

FORMAT = 1


class ScenarioError(ValueError):
    """A scenario that cannot run: the message says what and where."""


def load(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ScenarioError(f"{path}: cannot read ({err.strerror})") from err
    try:
        scenario = json.loads(text)
    except json.JSONDecodeError as err:
        raise ScenarioError(f"{path}:{err.lineno}: not valid JSON ({err.msg})") from err
    if not isinstance(scenario, dict):
        raise ScenarioError(f"{path}: a scenario is a JSON object")
    fmt = scenario.get("format")
    if fmt != FORMAT:
        raise ScenarioError(f"{path}: 'format' must be {FORMAT} (got {fmt!r})")
    if scenario.get("game") not in GAMES:
        raise ScenarioError(f"{path}: 'game' must be one of {', '.join(GAMES)} "
                            f"(got {scenario.get('game')!r})")
    scenario["_path"] = str(path)
    return scenario


class Script:
    """Answers the rules' questions from the scenario's lists, in order."""

    def __init__(self, scenario: dict[str, Any]) -> None:
        self.dice = list(scenario.get("dice", []))
        self.tokens = list(scenario.get("tokens", []))
        self.picks = list(scenario.get("picks", []))
        self.answers = list(scenario.get("answers", []))
        self.used = {"dice": 0, "tokens": 0, "picks": 0, "answers": 0}

    def chance(self, question: Roll | DrawToken | Pick) -> Any:
        if isinstance(question, Roll):
            if not self.dice:
                raise ScenarioError(f"the scenario ran out of dice: the rules asked to "
                                    f"{describe(question).lower()}")
            self.used["dice"] += 1
            return self.dice.pop(0)
        if isinstance(question, Pick):
            if not self.picks:
                raise ScenarioError(f"the scenario ran out of picks: the rules asked to "
                                    f"{describe(question).lower()}")
            self.used["picks"] += 1
            return self.picks.pop(0)
        if not self.tokens:
            raise ScenarioError(f"the scenario ran out of tokens: the rules asked to "
                                f"{describe(question).lower()}")
        item = self.tokens.pop(0)
        self.used["tokens"] += 1
        if isinstance(item, int) and not isinstance(item, bool):
            item = {"value": item}
        if not isinstance(item, dict) or not isinstance(item.get("value"), int):
            raise ScenarioError(f"token #{self.used['tokens']} must be a number or "
                                f"{{\"value\": N, \"reset\": bool}} (got {item!r})")
        if "pool" in item and item["pool"] != question.pool:
            raise ScenarioError(f"token #{self.used['tokens']} is for the {item['pool']} bag "
                                f"but the rules drew from the {question.pool} bag")
        return Token(item["value"], bool(item.get("reset", False)))

    def answer(self, question: Question) -> Any:
        if not self.answers:
            raise ScenarioError(f"unanswered question [{question.key}]: {describe(question)}")
        item = self.answers.pop(0)
        self.used["answers"] += 1
        if not isinstance(item, dict) or "answer" not in item:
            raise ScenarioError(f"answer #{self.used['answers']} must be "
                                f"{{\"key\": ..., \"answer\": ...}} (got {item!r})")
        if item.get("key") != question.key:
            raise ScenarioError(f"answer #{self.used['answers']} is for [{item.get('key')}] "
                                f"but the rules asked [{question.key}]: {describe(question)}")
        return item["answer"]


def play(runner: Runner, script: Script, action: dict[str, Any]) -> None:
    """Take one action, answering every question from the script (``times`` is the
    scenario's, not the action's)."""
    question = runner.begin({k: v for k, v in action.items() if k != "times"})
    while question is not None:
        question = runner.answer(script.answer(question))


def run(scenario: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Run every action of the scenario. Returns (trace as dicts, final state as a dict)."""
    spec = games.get(scenario["game"])
    try:
        state = spec.build(scenario)
    except (KeyError, TypeError, ValueError) as err:
        raise ScenarioError(f"{scenario.get('_path', 'scenario')}: {err}") from err
    script = Script(scenario)
    runner = Runner(spec, state, chance=script.chance)
    actions = scenario.get("actions")
    if not isinstance(actions, list) or not actions:
        raise ScenarioError("'actions' must be a non-empty list")
    for n, action in enumerate(actions, 1):
        if not isinstance(action, dict) or "do" not in action:
            raise ScenarioError(f"action #{n} must be an object with 'do' (got {action!r})")
        for _ in range(int(action.get("times", 1))):
            try:
                play(runner, script, action)
            except (AnswerError, RulesError) as err:
                raise ScenarioError(f"action #{n} ({action['do']}): {err}") from err
    leftovers = [f"{len(getattr(script, k))} {k}" for k in ("dice", "tokens", "picks", "answers")
                 if getattr(script, k)]
    if leftovers and scenario.get("strict", True):
        raise ScenarioError(f"the scenario has unused {', '.join(leftovers)}")
    return [step.as_dict() for step in runner.trace], spec.state_dict(runner.state)


def _matches(expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list) and isinstance(actual, list | tuple):
        return len(expected) == len(actual) and all(map(_matches, expected, actual))
    return expected == actual


def check(scenario: dict[str, Any], trace: list[dict[str, Any]],
          final: dict[str, Any]) -> list[str]:
    """What the run got wrong against ``expect`` and ``expect_state``; empty when all hold."""
    problems = []
    position = 0
    for n, want in enumerate(scenario.get("expect", []), 1):
        for i in range(position, len(trace)):
            if _matches(want, trace[i]):
                position = i + 1
                break
        else:
            problems.append(f"expected step #{n} not found (in order): {json.dumps(want)}")
    if "expect_state" in scenario and not _matches(scenario["expect_state"], final):
        problems.append(f"final state differs: wanted {json.dumps(scenario['expect_state'])}")
    return problems
