"""The game names (catacombs, conquest, clank, runebound) appear in the code of host/overseer only
in the registry and each game's own modules: every other module reads a game through its record
(``games.GAMES``), so a fifth game plugs in with its own modules and one registry line.

The code is read with ``ast``: module names, names, attributes, arguments and string constants
count; comments and docstrings (prose that may name a game for the reader) do not.

Allowed, and why:
- ``rules/<game>/``: the game's own rules package;
- ``loaders/<game>.py``: its data loader (its data folder is named after it);
- ``screens/<game>.py``: its screens module (its faces and short forms: its screens facet);
- ``app/<game>.py`` and ``app/<game>_<job>.py``: its table module and the forms and pages it
  splits off by job (Catacombs' new-game questions, heroes' forms, cards, web page);
- ``app/registry/``: the registry (one line a game) and each game's record, which joins them.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "host" / "overseer"
GAMES = ("catacombs", "conquest", "clank", "runebound")
NAMED = re.compile("|".join(GAMES), re.IGNORECASE)


def allowed(relative: str) -> bool:
    for game in GAMES:
        if relative.startswith(f"rules/{game}/") or relative in (
                f"loaders/{game}.py", f"screens/{game}.py", f"app/{game}.py"):
            return True
        if re.fullmatch(rf"app/{game}_[a-z]+\.py", relative):
            return True
    return relative.startswith("app/registry/")


def docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                found.add(id(first.value))
    return found


def words(node: ast.AST, prose: set[int]) -> list[str]:
    """The code words a node writes (a name, an attribute, a module, a string)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose:
        return [node.value]
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.alias):
        return [node.name, node.asname or ""]
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, ast.keyword):
        return [node.arg or ""]
    return []


def hits(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    prose = docstrings(tree)
    return sorted({f"{getattr(node, 'lineno', 0)}: {word!r}" for node in ast.walk(tree)
                   for word in words(node, prose) if NAMED.search(word)})


def test_the_game_names_are_only_in_the_registry_and_the_games_own_modules():
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if not allowed(relative) and (named := hits(path)):
            found[relative] = named[:5]
    assert found == {}


def test_the_check_sees_a_game_name_in_code_and_not_in_prose(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('"""Catacombs is named here, in prose."""\n# and clank in a comment\n'
                      'GAME = "runebound"\nfrom overseer.rules.conquest import moves\n')
    assert hits(sample) == ["3: 'runebound'", "4: 'overseer.rules.conquest'"]
    assert allowed("app/catacombs_new.py") and allowed("app/registry/clank.py")
    assert not allowed("app/shell.py") and not allowed("screens/pages.py")
