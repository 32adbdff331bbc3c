"""The rules packages (Catacombs and Conquest) import their own modules without cycles, and
every import is at module level.

The graph is read with ``ast`` from every module of a package: an edge for each import of a
sibling module, at module level or inside a function (a function-level import hides a cycle,
it does not break it, so it is refused as well). Imports under ``if TYPE_CHECKING:`` never run
and are left out of the graph.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

HOST = Path(__file__).parents[2] / "host"
PACKAGES = ("overseer.rules.catacombs", "overseer.rules.conquest")


def folder(package: str) -> Path:
    return HOST.joinpath(*package.split("."))


def modules(package: str) -> list[str]:
    return sorted(p.stem for p in folder(package).glob("*.py") if p.stem != "__init__")


def tree(package: str, module: str) -> ast.Module:
    return ast.parse((folder(package) / f"{module}.py").read_text(encoding="utf-8"))


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(code: ast.AST, package: str, siblings: set[str]) -> set[str]:
    """The sibling modules a module's code imports (``TYPE_CHECKING`` blocks left out)."""
    found: set[str] = set()
    todo: list[ast.AST] = [code]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.If) and _type_checking_only(node):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module == package:
                found.update(a.name for a in node.names)
            elif node.module.startswith(package + "."):
                found.add(node.module.removeprefix(package + ".").split(".")[0])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(package + "."):
                    found.add(alias.name.removeprefix(package + ".").split(".")[0])
        todo.extend(ast.iter_child_nodes(node))
    return found & siblings


def graph(package: str) -> dict[str, set[str]]:
    names = modules(package)
    return {m: _imports(tree(package, m), package, set(names)) for m in names}


def function_level_imports(code: ast.AST) -> list[int]:
    """The lines of the imports made inside a function (of anything, not only siblings)."""
    lines = []
    for node in ast.walk(code):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            lines += [inner.lineno for inner in ast.walk(node)
                      if isinstance(inner, ast.Import | ast.ImportFrom)]
    return sorted(set(lines))


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


EVERY_MODULE = [(p, m) for p in PACKAGES for m in modules(p)]
IDS = [f"{p.rsplit('.', 1)[1]}.{m}" for p, m in EVERY_MODULE]


def test_the_graph_covers_every_module_of_both_packages():
    catacombs = graph("overseer.rules.catacombs")
    assert {"state", "adventure", "cards", "carddata", "campaign", "entered", "hidden_cave",
            "damage_tokens", "setup", "moves"} <= set(catacombs)
    assert "shots" in catacombs["activation"] and "shots" in catacombs["no_target"]
    assert "carddata" in catacombs["state"] and "adventure" in catacombs["state"]
    assert "play" in graph("overseer.rules.conquest")["moves"]


@pytest.mark.parametrize("package,module", EVERY_MODULE, ids=IDS)
def test_module_is_in_no_import_cycle(package, module):
    cycle = cycle_through(graph(package), module)
    assert cycle is None, " -> ".join(cycle)


@pytest.mark.parametrize("package,module", EVERY_MODULE, ids=IDS)
def test_module_imports_nothing_inside_a_function(package, module):
    lines = function_level_imports(tree(package, module))
    assert not lines, f"{package}.{module}: imports inside a function at line(s) {lines}"


def test_the_checks_see_function_level_imports_and_cycles():
    code = ast.parse("import os\ndef f():\n    from overseer.rules.catacombs.activation import x\n"
                     "if TYPE_CHECKING:\n    from overseer.rules.catacombs import party\n"
                     "class C:\n    def g(self):\n        import json\n")
    assert _imports(code, "overseer.rules.catacombs", {"activation", "party"}) == {"activation"}
    assert function_level_imports(code) == [3, 8]
    assert cycle_through({"a": {"b"}, "b": {"a"}, "c": {"a"}}, "a") == ["a", "b", "a"]
    assert cycle_through({"a": {"b"}, "b": {"a"}, "c": {"a"}}, "c") is None


@pytest.mark.parametrize("module", ["overseer.rules.catacombs.shots",
                                    "overseer.rules.catacombs.no_target",
                                    "overseer.rules.catacombs.activation",
                                    "overseer.rules.catacombs.party",
                                    "overseer.rules.catacombs.adventure",
                                    "overseer.rules.catacombs.campaign",
                                    "overseer.rules.catacombs.hidden_cave",
                                    "overseer.rules.catacombs.moves",
                                    "overseer.rules.conquest.moves"])
def test_module_imports_first_in_a_fresh_interpreter(module):
    run = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True,
                         text=True, cwd=HOST.parent, check=False, env={"PYTHONPATH": str(HOST)})
    assert run.returncode == 0, run.stderr
