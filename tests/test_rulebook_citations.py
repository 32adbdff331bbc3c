"""Every rule a trace step cites comes from its game's rulebook module, and only the rulebook
modules name sections.

The traces are those of every scenario file (both games) and of a few seeded random games: each
step's ``rule`` must be a section of ``rules/<game>/rulebook.py``, its ``kind`` a member of the
game's ``StepKind``, and each question's key a member of its ``Key`` (or of
``procedure.ChanceKey``, the chance questions' own). The rules' source is read with ``ast``: no
module but ``rulebook.py`` writes a section's name.
"""

from __future__ import annotations

import ast
import copy
import importlib
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from overseer import documents, games
from overseer import scenario as scenarios
from overseer.core.procedure import ChanceKey, Die, Question, Roll, RulesError, Runner, Step
from overseer.rules.catacombs import kinds as catacombs_kinds
from overseer.rules.catacombs import rulebook as catacombs_rulebook
from tests.drivers import random_play
from tests.test_random_games import (
    CATACOMBS_WEIGHTS,
    CONQUEST_WEIGHTS,
    MAX_ACTIONS,
    catacombs_setup,
    conquest_setup,
)

ROOT = Path(__file__).parents[1]
RULES = ROOT / "host" / "overseer" / "rules"
SCENARIOS = sorted((ROOT / "tests" / "scenarios").glob("*/*.json"))
KINDS: dict[str, ModuleType] = {name: importlib.import_module(f"overseer.rules.{name}.kinds")
                                for name in games.GAMES}
SEEDS = range(6)
# How a section's name begins, as the rulebook modules write them.
SECTION_PREFIXES = ("Red Box:", "Ice Box:", "Conquest:", "Catacombs 3E:", "Room card (",
                    "Clank! Lairs and Lost Chambers:", "Cataclysm:")
# The names the rulebook modules build their sections from ("Red Box" ...), theirs alone.
BOOK_NAMES = {name for spec in games.GAMES.values() for name in vars(spec.rulebook)
              if name.startswith("_") and not name.startswith("__")}


def sections(rulebook: ModuleType) -> set[str]:
    """The section names a rulebook module defines (its public str constants)."""
    return {value for name, value in vars(rulebook).items()
            if name.isupper() and not name.startswith("_") and isinstance(value, str)}


class Recorder:
    """What a run asked and cited: its steps (from the runner's trace) and its questions."""

    def __init__(self) -> None:
        self.questions: list[Question] = []

    def seen(self, question: Question | None) -> Question | None:
        if question is not None:
            self.questions.append(question)
        return question


def run_scenario(path: Path) -> tuple[str, list[Step], list[Question]]:
    scn = documents.load(path)
    spec = games.get(scn["game"])
    script = scenarios.Script(scn)
    record = Recorder()

    def chance(question):
        record.seen(question)
        return script.chance(question)

    runner = Runner(spec, spec.build(scn["setup"]), chance=chance)
    for action in scn["script"]["actions"]:
        for _ in range(action.get("times", 1)):
            question = record.seen(runner.begin({k: v for k, v in action.items()
                                                 if k != "times"}))
            while question is not None:
                question = record.seen(runner.answer(script.answer(question)))
    return scn["game"], runner.trace, record.questions


def run_random(name: str, seed: int) -> tuple[list[Step], list[Question]]:
    """A whole random game (as tests/test_random_games.py plays them), every question kept."""
    spec = games.get(name)
    rng = random.Random(seed)
    setup = catacombs_setup(rng) if name == "catacombs" else conquest_setup(rng)
    # a game ended or stalled (a campaign room the data lacks) before any room asks nothing
    weights = {**CATACOMBS_WEIGHTS, "end_game": 0.1, "campaign_start": 0.0} \
        if name == "catacombs" else CONQUEST_WEIGHTS
    runner = Runner(spec, spec.build(setup))
    record = Recorder()
    for _ in range(MAX_ACTIONS):
        if spec.is_over(runner.state):
            return runner.trace, record.questions  # refused actions' steps included
        before = copy.deepcopy(runner.state)
        question = record.seen(runner.begin(random_play.action(spec, runner.state, rng,
                                                               weights)))
        try:
            while question is not None:
                question = record.seen(runner.answer(random_play.answer(question, rng)))
        except RulesError:
            runner.state = before
    raise AssertionError(f"{name} seed {seed}: no end after {MAX_ACTIONS} actions")


def problems(game: str, steps: list[Step], questions: list[Question]) -> list[str]:
    """What the steps and questions name that is not their game's: a rule, a kind, a key (the
    rules yield the enums' members themselves, not strings that happen to equal them)."""
    cited = sections(games.get(game).rulebook)
    step_kind, key = KINDS[game].StepKind, KINDS[game].Key
    found = [f"step {s.kind!s}: rule {s.rule!r} is not in rules/{game}/rulebook.py"
             for s in steps if s.rule not in cited]
    found += [f"step kind {s.kind!r} is not a {game} StepKind" for s in steps
              if not isinstance(s.kind, step_kind)]
    found += [f"question key {q.key!r} is not a {game} Key" for q in questions
              if not isinstance(q.key, key | ChanceKey)]
    found += [f"roll of {q.die!r}: not a Die" for q in questions
              if isinstance(q, Roll) and not isinstance(q.die, Die)]
    return found


@pytest.mark.parametrize("path", SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p in SCENARIOS])
def test_every_scenario_cites_its_rulebook(path: Path) -> None:
    game, steps, questions = run_scenario(path)
    assert steps
    assert problems(game, steps, questions) == []


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", ["catacombs", "conquest"])
def test_random_games_cite_their_rulebook(game: str, seed: int) -> None:
    steps, questions = run_random(game, seed)
    assert steps and questions
    assert problems(game, steps, questions) == []


def test_both_games_scenarios_are_run() -> None:
    assert {p.parent.name for p in SCENARIOS} == set(games.GAMES)


def test_a_rule_from_elsewhere_is_caught() -> None:
    step = Step(catacombs_kinds.StepKind.DAMAGE, "Catacombs 3E: damage (typo)", "")
    question = Roll("d20", "a die nobody has")  # type: ignore[arg-type]
    assert len(problems("catacombs", [step], [question])) == 2


def test_an_antient_moves_by_step_2s_special_exception() -> None:
    for name in ("antient", "ice_box_shots"):
        _, steps, _ = run_scenario(ROOT / "tests" / "scenarios" / "catacombs" / f"{name}.json")
        moves = [s for s in steps if s.kind == "move_to_rune" and s.data["why"] == "Antient"]
        assert moves and {s.rule for s in moves} == {catacombs_rulebook.ANTIENT}


# --------------------------------------------------------------------------- the source


def rules_modules() -> list[Path]:
    return sorted(p for p in RULES.rglob("*.py") if p.name != "rulebook.py")


def docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def section_literals(source: str) -> list[str]:
    """String literals (docstrings aside) that begin like a section's name, and names used
    to build one (the rulebook modules' private book names)."""
    tree = ast.parse(source)
    skip = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            if node.value.startswith(SECTION_PREFIXES):
                found.append(f"line {node.lineno}: {node.value!r}")
        elif isinstance(node, ast.alias) and node.name in BOOK_NAMES:
            found.append(f"imports {node.name}")
        elif isinstance(node, ast.Attribute) and node.attr in BOOK_NAMES:
            found.append(f"line {node.lineno}: uses {node.attr}")
    return found


def module_constants(path: Path, tree: ast.Module) -> dict[str, Any]:
    """The module-level names a rules module assigns (imports aside), with their values."""
    dotted = ".".join(path.relative_to(ROOT / "host").with_suffix("").parts)
    module = __import__(dotted, fromlist=["_"])
    names = [t.id for node in tree.body if isinstance(node, ast.Assign | ast.AnnAssign)
             for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
             if isinstance(t, ast.Name)]
    return {n: getattr(module, n, None) for n in names}


@pytest.mark.parametrize("path", rules_modules(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_only_the_rulebook_modules_name_sections(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert section_literals(source) == []
    cited = set().union(*(sections(spec.rulebook) for spec in games.GAMES.values()))
    copies = {n: v for n, v in module_constants(path, ast.parse(source)).items()
              if isinstance(v, str) and v in cited}
    assert copies == {}, f"{path.name} keeps its own copy of a section: use the rulebook's"


def test_the_source_check_catches_a_section_outside_the_rulebook() -> None:
    source = ('"""Red Box: a docstring may say where a rule is from."""\n'
              'from overseer.rules.catacombs.rulebook import _RED\n'
              'CAVE = "Red Box: Hidden Cave (Optional)"\n'
              'def f():\n    return Step("damage", "Catacombs 3E: damage", "")\n')
    assert len(section_literals(source)) == 3
