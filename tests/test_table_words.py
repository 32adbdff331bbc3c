"""No developer text in what the table reads: a move's name (``choose_lord``,
``hidden_cave_visit``) is the code's word, never the glass's or the log's. A step's sentence,
a question, a refusal (a move's ``why_not``, a ``RulesError``) says what to do in words ("choose
the Catacomb Lord first"), not which action to send.

The code is read with ``ast``: every string constant with a space in it (a sentence) in the
rules, the table modules and the screens counts; docstrings do not. Allowed: a refusal that
begins with the action's name (``"correct: 'value' must be ..."``, a parameter error for a
caller of the JSON interface) and a sentence that shows the JSON shape (``{"do": ...}``).
Only names with an underscore are looked for: ``play``, ``enter``, ``travel`` are words."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from overseer import games

PACKAGE = Path(__file__).parents[1] / "host" / "overseer"


def docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def move_names() -> list[str]:
    names = {name for spec in games.GAMES.values() for name in spec.moves.moves if "_" in name}
    assert {"choose_lord", "setup_room", "hidden_cave_visit", "update_hero"} <= names
    return sorted(names, key=len, reverse=True)


def sentences_naming_a_move() -> list[str]:
    named = re.compile(r"\b(" + "|".join(move_names()) + r")\b")
    found = []
    for folder in ("rules", "app", "screens"):
        for path in sorted((PACKAGE / folder).rglob("*.py")):
            tree = ast.parse(path.read_text())
            prose = docstrings(tree)
            for node in ast.walk(tree):
                if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) \
                        or id(node) in prose or " " not in node.value:
                    continue
                for match in named.finditer(node.value):
                    if node.value.startswith(f"{match[0]}:") or '{"do": ' in node.value:
                        continue
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {match[0]} in "
                                 f"{node.value!r}")
    return found


def test_no_sentence_the_table_reads_names_a_move_by_its_code_name():
    assert sentences_naming_a_move() == []
