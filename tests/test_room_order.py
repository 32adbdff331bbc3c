"""The house's floors: which room of host/overseer may import which, and no circles.

A room is a folder of the package (``core/``, ``session/``...), one game's rules
(``rules/catacombs``...) or a top-level module (``games``, ``documents``...). ``ALLOWED`` lists,
room by room from the ground up, every room it may import; the test reads every import of every
module with ``ast`` (at module level, inside a function, under ``if TYPE_CHECKING:`` alike: an
import inside a function hides a dependency, it does not remove it) and refuses:

- an import of a room its entry does not list (an upward or sideways import);
- an entry no import uses any more (the table must show the real order, docs/architecture.md);
- a circle of modules importing each other, anywhere in the package;
- an import inside a function in the rules (they load whole, at once).

``ALLOWED`` is ordered: each room may list only rooms above it in the table (lower floors), so
a room never imports, through any path, a room that imports it.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).parents[1] / "host" / "overseer"
GAMES = ("catacombs", "conquest", "clank", "runebound")
RULES = tuple(f"rules/{g}" for g in GAMES)

# room -> the rooms it may import; the ground floor first.
ALLOWED: dict[str, set[str]] = {
    "overseer": set(),  # the package's face: the version and RULES_VERSION
    "core/": set(),
    "ports/": {"core/"},
    "rules/": set(),  # the package of the games' rules (what they share is in core/)
    **{game: {"core/"} for game in RULES},
    "games": {"core/"},  # the records' type and the registry they are put in (app/registry/)
    "loaders/": {"core/", *RULES},
    "screens/": {"core/", *RULES, "games"},
    "documents": {"core/", "games"},
    "scenario": {"core/", "documents"},
    "session/": {"overseer", "core/", "documents", "games"},
    "devices/": {"core/", "ports/", "games"},
    "app/": {"core/", "ports/", *RULES, "loaders/", "screens/",
             "games", "session/"},
    "sim/": {"core/", "ports/", "screens/", "games", "documents", "session/", "devices/",
             "app/"},
    "web/": {"core/", "ports/", "screens/", "games", "session/", "app/"},
    "cli/": {"overseer", "core/", "ports/", "screens/", "games", "documents", "scenario",
             "session/", "devices/", "app/", "sim/", "web/"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def room(module: str) -> str:
    """The room of a module: its folder under overseer (one game's rules apart), or itself."""
    parts = module.split(".")[1:]
    if not parts:
        return "overseer"
    if parts[0] == "rules" and len(parts) > 1 and parts[1] in GAMES:
        return f"rules/{parts[1]}"
    return parts[0] + "/" if (PACKAGE / parts[0]).is_dir() else parts[0]


def imports(path: Path) -> list[tuple[str, int]]:
    """Every module of the package that ``path`` imports, anywhere in it, with the line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            # ``from overseer.x import y``: y is a module when there is one by that name
            for alias in node.names:
                inner = f"{node.module}.{alias.name}"
                found.append((inner if inner in MODULES else node.module, node.lineno))
    return [(name, line) for name, line in found if name in MODULES]


GRAPH = {name: imports(path) for name, path in MODULES.items()}


def test_every_room_is_in_the_table_and_lists_only_lower_floors():
    rooms = {room(m) for m in MODULES}
    assert rooms == set(ALLOWED), "rooms not in ALLOWED, or entries with no room"
    seen: set[str] = set()
    for name, allowed in ALLOWED.items():
        assert allowed <= seen, f"{name} lists a room on its own floor or above: {allowed - seen}"
        seen.add(name)


@pytest.mark.parametrize("source", sorted(ALLOWED))
def test_a_room_imports_only_what_the_table_allows(source):
    wrong = sorted(f"{MODULES[m].relative_to(PACKAGE.parent)}:{line} imports {target}"
                   for m, edges in GRAPH.items() if room(m) == source
                   for target, line in edges
                   if room(target) != source and room(target) not in ALLOWED[source])
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("source", sorted(ALLOWED))
def test_the_table_lists_no_edge_that_is_not_there(source):
    used = {room(t) for m, edges in GRAPH.items() if room(m) == source for t, _ in edges}
    stale = ALLOWED[source] - used
    assert not stale, f"{source}: ALLOWED lists {sorted(stale)}, which it no longer imports"


def circle_through(start: str) -> list[str] | None:
    """A path start -> ... -> start through the module graph, or None."""
    stack, seen = [(start, [start])], set()
    while stack:
        node, path = stack.pop()
        for target in sorted({t for t, _ in GRAPH[node]}):
            if target == start:
                return [*path, start]
            if target not in seen:
                seen.add(target)
                stack.append((target, [*path, target]))
    return None


def test_no_module_is_in_a_circle():
    circles = [c for m in MODULES if (c := circle_through(m)) is not None]
    assert not circles, "\n".join(" -> ".join(c) for c in circles)


def test_the_rules_import_nothing_inside_a_function():
    lines = []
    for name, path in MODULES.items():
        if room(name) in ("rules/", *RULES):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                    lines += [f"{name}:{inner.lineno}" for inner in ast.walk(node)
                              if isinstance(inner, ast.Import | ast.ImportFrom)]
    assert not lines, f"imports inside a function: {sorted(set(lines))}"


def test_the_checks_see_every_import(tmp_path, monkeypatch):
    """The reader finds function-level and TYPE_CHECKING imports and ``from x import module``,
    and the circle finder finds a circle and only a circle."""
    code = tmp_path / "m.py"
    code.write_text("import os\ndef f():\n    from overseer.core import procedure\n"
                    "if TYPE_CHECKING:\n    from overseer.games import GameSpec\n")
    assert imports(code) == [("overseer.core.procedure", 3), ("overseer.games", 5)]
    monkeypatch.setitem(GRAPH, "a", [("b", 1)])
    monkeypatch.setitem(GRAPH, "b", [("a", 1)])
    monkeypatch.setitem(GRAPH, "c", [("a", 1)])
    assert circle_through("a") == ["a", "b", "a"]
    assert circle_through("c") is None
    assert room("overseer.rules.catacombs.state") == "rules/catacombs"
    assert room("overseer.rules.books") == "rules/"
    assert room("overseer.session.store") == "session/"
    assert room("overseer.games") == "games"


@pytest.mark.parametrize("module", ["overseer.rules.catacombs.shots",
                                    "overseer.rules.catacombs.no_target",
                                    "overseer.rules.catacombs.activation",
                                    "overseer.rules.catacombs.party",
                                    "overseer.rules.catacombs.adventure",
                                    "overseer.rules.catacombs.campaign",
                                    "overseer.rules.catacombs.hidden_cave",
                                    "overseer.rules.catacombs.moves",
                                    "overseer.rules.conquest.moves",
                                    "overseer.session.session",
                                    "overseer.app.controller"])
def test_a_module_imports_first_in_a_fresh_interpreter(module):
    """No module leans on another having been imported before it (an order a circle hides)."""
    run = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True,
                         text=True, cwd=PACKAGE.parent, check=False,
                         env={"PYTHONPATH": str(PACKAGE.parent)})
    assert run.returncode == 0, run.stderr
