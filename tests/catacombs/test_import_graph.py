"""The Catacombs rules modules import each other without cycles.

The graph is read with ``ast`` from every module of ``overseer.rules.catacombs``: an edge for
each import of a sibling module, at module level or inside a function (a function-level import
hides a cycle, it does not break it). Imports under ``if TYPE_CHECKING:`` never run and are
left out.

Only the modules in ``CHECKED`` must be in no cycle for now: the state <-> adventure <->
cards/campaign/hidden_cave/damage_tokens cycle is being broken separately. To widen the test,
add modules to ``CHECKED``; once every cycle is gone, set ``CHECKED = set(MODULES)``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = "overseer.rules.catacombs"
FOLDER = Path(__file__).parents[2] / "host" / "overseer" / "rules" / "catacombs"
MODULES = sorted(p.stem for p in FOLDER.glob("*.py") if p.stem != "__init__")
CHECKED = {"activation", "shots", "no_target", "shot_choice", "targeting", "modifiers", "clock",
           "order"}


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST) -> set[str]:
    """The sibling modules a module's code imports (``TYPE_CHECKING`` blocks left out)."""
    found: set[str] = set()
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _type_checking_only(node):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == PACKAGE:
                found.update(a.name for a in node.names)
            elif node.module.startswith(PACKAGE + "."):
                found.add(node.module.removeprefix(PACKAGE + ".").split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + "."):
                    found.add(alias.name.removeprefix(PACKAGE + ".").split(".")[0])
        todo.extend(ast.iter_child_nodes(node))
    return found & set(MODULES)


def graph() -> dict[str, set[str]]:
    return {m: _imports(ast.parse((FOLDER / f"{m}.py").read_text(encoding="utf-8")))
            for m in MODULES}


def cycle_through(edges: dict[str, set[str]], start: str) -> list[str] | None:
    """A path start -> ... -> start, or None when ``start`` is in no cycle."""
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        node, path = stack.pop()
        for nxt in sorted(edges[node]):
            if nxt == start:
                return [*path, start]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, [*path, nxt]))
    return None


def test_the_graph_covers_every_module_of_the_package():
    edges = graph()
    assert set(edges) == set(MODULES) and CHECKED <= set(MODULES)
    assert "shots" in edges["activation"] and "shots" in edges["no_target"]


@pytest.mark.parametrize("module", sorted(CHECKED))
def test_module_is_in_no_import_cycle(module):
    cycle = cycle_through(graph(), module)
    assert cycle is None, " -> ".join(cycle)


def test_the_cycle_finder_sees_function_level_imports():
    tree = ast.parse("def f():\n    from overseer.rules.catacombs.activation import activate\n"
                     "if TYPE_CHECKING:\n    from overseer.rules.catacombs import party\n")
    assert _imports(tree) == {"activation"}
    assert cycle_through({"a": {"b"}, "b": {"a"}, "c": {"a"}}, "a") == ["a", "b", "a"]
    assert cycle_through({"a": {"b"}, "b": {"a"}, "c": {"a"}}, "c") is None


@pytest.mark.parametrize("module", ["shots", "no_target", "activation", "party"])
def test_module_imports_first_in_a_fresh_interpreter(module):
    run = subprocess.run([sys.executable, "-c", f"import {PACKAGE}.{module}"],
                         capture_output=True, text=True, cwd=FOLDER.parents[3], check=False,
                         env={"PYTHONPATH": str(FOLDER.parents[2])})
    assert run.returncode == 0, run.stderr
