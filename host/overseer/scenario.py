"""Scenario files run: a game fixed from end to end, played through the rules, trace out.

A scenario (JSON, read and checked by ``overseer.documents``) names its game and fixes
everything: the setup (options, the table as laid), the script (the actions to take, the dice
results, token draws, blind picks and the players' answers, in order) and what must come out.
``run`` returns the trace and the final state; ``check`` compares them with the scenario's
``expect`` (steps that must appear, in order) and ``expect_state``.
"""

from __future__ import annotations

import json
from typing import Any

from overseer.core.procedure import (
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
from overseer.documents import ScenarioError, checked, failure, script_of

# --------------------------------------------------------------------------- running


class Script:
    """Answers the rules' questions from the scenario's lists, in order."""

    def __init__(self, scenario: dict[str, Any]) -> None:
        script = script_of(scenario)
        self.dice = list(script.get("dice", []))
        self.tokens = list(script.get("tokens", []))
        self.picks = list(script.get("picks", []))
        self.answers = list(script.get("answers", []))
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


def _play_all(runner: Runner, script: Script, actions: list[dict[str, Any]],
              strict: bool) -> None:
    for n, action in enumerate(actions, 1):
        for _ in range(action.get("times", 1)):
            try:
                play(runner, script, action)
            except (AnswerError, RulesError) as err:
                raise ScenarioError(f"action #{n} ({action['do']}): {err}") from err
    leftovers = [f"{len(getattr(script, k))} {k}" for k in ("dice", "tokens", "picks", "answers")
                 if getattr(script, k)]
    if leftovers and strict:
        raise ScenarioError(f"the scenario has unused {', '.join(leftovers)}")


def run(scenario: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Run every action of a scenario of either format (checked first). Returns (trace as
    dicts, final state as a dict)."""
    where = scenario.get("_path", "scenario")
    try:
        doc, game, state = checked({k: v for k, v in scenario.items() if k != "_path"})
    except (KeyError, TypeError, ValueError) as err:
        raise failure(where, err) from err
    actions = doc["script"].get("actions")
    if not actions:
        raise ScenarioError(f"{where}: 'actions' must be a non-empty list")
    script = Script(doc)
    runner = Runner(game, state, chance=script.chance)
    try:
        _play_all(runner, script, actions, doc.get("strict", True))
    except ScenarioError as err:
        raise ScenarioError(f"{where}: {err}") from err
    return [step.as_dict() for step in runner.trace], game.state_dict(runner.state)


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


# --------------------------------------------------------------------------- writing
