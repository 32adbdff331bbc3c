"""The Runebound rules cite only their rulebook module, yield only their own step kinds and
question keys, use every member of them, and import their modules without cycles.

The traces are those of every Runebound scenario file and of seeded random games. The source is
read with ``ast``: no module but ``rulebook.py`` writes a section's name, every import of a
sibling module is at module level, and the sibling imports form no cycle.
"""

from __future__ import annotations

import ast
import json
import random
from enum import StrEnum
from pathlib import Path

import pytest

from overseer import documents, games
from overseer import scenario as scenarios
from overseer.core.procedure import ChanceKey, Question, Runner, Step
from overseer.rules.runebound import rulebook
from overseer.rules.runebound.kinds import Key, StepKind
from tests.drivers import random_play

from .test_random_games import WEIGHTS, setup

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "host" / "overseer" / "rules" / "runebound"
SCENARIOS = sorted((ROOT / "tests" / "scenarios" / "runebound").glob("*.json"))
SPEC = games.get("runebound")
SECTIONS = {v for k, v in vars(rulebook).items() if k.isupper() and isinstance(v, str)}


def problems(steps: list[Step], questions: list[Question]) -> list[str]:
    found = [f"step {s.kind}: rule {s.rule!r} is not in rulebook.py" for s in steps
             if s.rule not in SECTIONS]
    found += [f"step kind {s.kind!r} is not a StepKind" for s in steps
              if not isinstance(s.kind, StepKind)]
    found += [f"question key {q.key!r} is not a Key" for q in questions
              if not isinstance(q.key, Key | ChanceKey)]
    return found


def run_scenario(path: Path) -> tuple[list[Step], list[Question]]:
    scn = documents.load(path)
    script = scenarios.Script(scn)
    asked: list[Question] = []

    def chance(question):
        asked.append(question)
        return script.chance(question)

    runner = Runner(SPEC, SPEC.build(scn["setup"]), chance=chance)
    for action in scn["script"]["actions"]:
        for _ in range(action.get("times", 1)):
            question = runner.begin({k: v for k, v in action.items() if k != "times"})
            while question is not None:
                asked.append(question)
                question = runner.answer(script.answer(question))
    return runner.trace, asked


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_scenario_cites_the_rulebook(path: Path) -> None:
    steps, questions = run_scenario(path)
    assert steps and problems(steps, questions) == []


@pytest.mark.parametrize("seed", range(4))
def test_random_games_cite_the_rulebook(seed: int) -> None:
    rng = random.Random(seed)
    runner = Runner(SPEC, SPEC.build(setup(rng)))
    asked: list[Question] = []
    while not SPEC.is_over(runner.state):
        question = runner.begin(random_play.action(SPEC, runner.state, rng, WEIGHTS))
        while question is not None:
            asked.append(question)
            question = runner.answer(random_play.answer(question, rng))
    assert asked and problems(runner.trace, asked) == []


def test_a_rule_from_elsewhere_is_caught() -> None:
    step = Step(StepKind.CLAIM, "Cataclysm: Curse Cards, Level IV", "")
    assert len(problems([step], [])) == 1


# --------------------------------------------------------------------------- the source


def modules() -> list[Path]:
    return sorted(PACKAGE.glob("*.py"))


def section_literals(source: str) -> list[str]:
    """String literals (docstrings aside) that begin like a section's name, or that equal one."""
    tree = ast.parse(source)
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.ClassDef | ast.FunctionDef) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [f"line {n.lineno}: {n.value!r}" for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
            and (n.value.startswith("Cataclysm:") or n.value in SECTIONS)]


@pytest.mark.parametrize("path", [p for p in modules() if p.name != "rulebook.py"],
                         ids=lambda p: p.stem)
def test_only_the_rulebook_names_sections(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert section_literals(source) == []
    assert "_BOOK" not in source


def test_the_source_check_catches_a_section() -> None:
    assert len(section_literals('x = "Cataclysm: Knockouts"\n')) == 1


def referenced(enum: type[StrEnum]) -> set[StrEnum]:
    found = set()
    for path in modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == enum.__name__ and node.attr in enum.__members__:
                found.add(enum[node.attr])
    return found


@pytest.mark.parametrize("enum", [StepKind, Key], ids=lambda e: e.__name__)
def test_every_member_is_used_and_reads_as_its_string(enum: type[StrEnum]) -> None:
    assert referenced(enum) == set(enum)
    for member in enum:
        assert member == member.value == member.name.lower()
        assert json.dumps({member: member}) == json.dumps({member.value: member.value})


def imports(path: Path) -> tuple[set[str], list[str]]:
    """(sibling modules imported at module level, imports found inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prefix = "overseer.rules.runebound"
    top: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == prefix:
                top.update(a.name for a in node.names)
            elif node.module.startswith(prefix + "."):
                top.add(node.module.removeprefix(prefix + ".").split(".")[0])
    inner = [f"line {n.lineno}" for f in ast.walk(tree)
             if isinstance(f, ast.FunctionDef) for n in ast.walk(f)
             if isinstance(n, ast.Import | ast.ImportFrom)]
    return top, inner


def test_imports_are_at_module_level_and_without_cycles() -> None:
    graph = {}
    for path in modules():
        top, inner = imports(path)
        assert inner == [], f"{path.name} imports inside a function: {inner}"
        graph[path.stem] = top - {"__init__"}
    done: set[str] = set()

    def visit(name: str, stack: tuple[str, ...]) -> None:
        assert name not in stack, f"import cycle: {' -> '.join((*stack, name))}"
        if name in done:
            return
        for nxt in graph.get(name, ()):
            visit(nxt, (*stack, name))
        done.add(name)

    for name in graph:
        visit(name, ())
    assert len(done) == len(graph) >= 10
