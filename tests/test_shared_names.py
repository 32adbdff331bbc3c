"""The names the rules and the screens share are StrEnums: step kinds, question keys, dice,
target kinds (``rules/<game>/kinds.py``, ``procedure.Die``).

A screen reads them through the enums, never as string literals, so a member renamed breaks at
import (and here), not on the glass. Every Catacombs kind has a face on the gadget or is listed
as shown plain, every key a short form or is listed as titled by its prompt. Every member is
used by the rules, and each equals its string, so traces, scenario files and logs are unchanged.
"""

from __future__ import annotations

import ast
import json
from enum import StrEnum
from pathlib import Path

import pytest

from overseer import games
from overseer.core.procedure import DIE_FACES, ChanceKey, Die
from overseer.rules.catacombs import end
from overseer.rules.catacombs import kinds as catacombs_kinds
from overseer.rules.clank import kinds as clank_kinds
from overseer.rules.conquest import kinds as conquest_kinds
from overseer.rules.runebound import kinds as runebound_kinds
from overseer.screens import catacombs as catacombs_screens
from overseer.screens import clank as clank_screens
from overseer.screens import conquest as conquest_screens
from overseer.screens import facet, pages
from overseer.screens import runebound as runebound_screens

HOST = Path(__file__).parents[1] / "host" / "overseer"
SCREEN_AND_APP = sorted([*(HOST / "screens").glob("*.py"), *(HOST / "app").glob("*.py")])
ENUMS: list[type[StrEnum]] = [catacombs_kinds.StepKind, catacombs_kinds.Key,
                              catacombs_kinds.TargetKind, conquest_kinds.StepKind,
                              conquest_kinds.Key, Die, ChanceKey]
# What a step, a question or a roll is read by on the screens.
READ = {"kind", "key", "die"}
SHARED_VALUES = {str(m) for enum in (catacombs_kinds.StepKind, catacombs_kinds.Key,
                                     conquest_kinds.StepKind, conquest_kinds.Key, ChanceKey, Die)
                 for m in enum}


def cases(function: str, source: str) -> list[ast.pattern]:
    """The value patterns of the ``match`` statements of ``function``."""
    tree = ast.parse(source)
    body = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == function)
    found: list[ast.pattern] = []
    for match in (n for n in ast.walk(body) if isinstance(n, ast.Match)):
        for case in match.cases:
            todo = [case.pattern]
            while todo:
                pattern = todo.pop()
                if isinstance(pattern, ast.MatchOr):
                    todo.extend(pattern.patterns)
                else:
                    found.append(pattern)
    return found


def members(patterns: list[ast.pattern], enum: type[StrEnum]) -> set[StrEnum]:
    """The enum members the patterns name; a pattern that names none fails. ``K`` is the
    Catacombs screens' namespace of the step kinds (the same members, read without the
    Enum class's attribute hook)."""
    named = set()
    for pattern in patterns:
        assert isinstance(pattern, ast.MatchValue), ast.unparse(pattern)
        value = pattern.value
        assert isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) \
            and value.value.id in (enum.__name__, "K"), \
            f"case {ast.unparse(value)}: not a {enum.__name__}"
        named.add(enum[value.attr])
    return named


def test_every_catacombs_step_kind_has_a_face_or_is_shown_plain() -> None:
    source = (HOST / "screens" / "catacombs.py").read_text(encoding="utf-8")
    faced = members(cases("step_face", source), catacombs_kinds.StepKind)
    assert not faced & catacombs_screens.PLAIN
    assert faced | catacombs_screens.PLAIN == set(catacombs_kinds.StepKind)


def test_the_activation_summary_reads_step_kinds_only() -> None:
    source = (HOST / "screens" / "catacombs.py").read_text(encoding="utf-8")
    assert members(cases("_line", source), catacombs_kinds.StepKind)


def test_every_catacombs_key_has_a_short_form_or_is_titled_by_its_prompt() -> None:
    short = set(catacombs_screens.SHORT)
    assert all(isinstance(k, catacombs_kinds.Key) for k in short)
    assert not short & catacombs_screens.BY_PROMPT
    assert short | catacombs_screens.BY_PROMPT == set(catacombs_kinds.Key)
    assert all(len(text) <= pages.TITLE_COLUMNS for text in catacombs_screens.SHORT.values())


def test_the_games_screens_are_the_ones_checked_here() -> None:
    """Every game has its screens module's facet (a step's key word, a question's short
    title)."""
    assert games.CATACOMBS.screens is catacombs_screens.SCREENS
    assert games.CLANK.screens is clank_screens.SCREENS
    assert games.RUNEBOUND.screens is runebound_screens.SCREENS
    assert games.CONQUEST.screens is conquest_screens.SCREENS
    assert all(facet.of(game).short is module.SHORT for game, module in (
        ("catacombs", catacombs_screens), ("conquest", conquest_screens),
        ("clank", clank_screens), ("runebound", runebound_screens)))


def test_every_pack_key_has_a_short_form() -> None:
    """The Clank! and Runebound questions the table answers (not the gadget's draws) are
    titled by a short form that fits the title bar."""
    for screens, kinds, drawn in ((clank_screens, clank_kinds, {"safe_tile"}),
                                  (runebound_screens, runebound_kinds,
                                   {"deal", "curse_card", "quest", "trading_die"})):
        assert set(kinds.Key) - drawn <= set(screens.SHORT)
        assert all(len(text) <= pages.TITLE_COLUMNS for text in screens.SHORT.values())


def test_every_conquest_step_kind_has_a_face_and_every_key_a_short_form() -> None:
    source = (HOST / "screens" / "conquest.py").read_text(encoding="utf-8")
    faced = members(cases("step_face", source), conquest_kinds.StepKind)
    assert not faced & set(conquest_screens.KEYS)
    assert faced | set(conquest_screens.KEYS) == set(conquest_kinds.StepKind)
    assert set(conquest_screens.SHORT) == set(conquest_kinds.Key)
    assert all(len(short) <= pages.TITLE_COLUMNS for short in conquest_screens.SHORT.values())


def test_every_die_has_a_name_on_the_glass() -> None:
    assert set(pages.DIE_NAMES) == set(Die) == set(DIE_FACES)
    assert all(isinstance(d, Die) for d in pages.DIE_NAMES)


def _shared(value: object) -> bool:
    """A string one of the shared enums has (a step kind, a key, a die): such a literal must
    be read through its enum. Other kinds (a hero's kind, a log event's) are not these."""
    return isinstance(value, str) and value in SHARED_VALUES


def literal_reads(source: str) -> list[str]:
    """Where a screen or app module reads a kind, key or die against a string literal:
    ``x.kind == "target"``, ``x.key in ("a", "b")``, or a ``match x.kind`` with ``case "a"``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr in READ for s in sides):
                for side in sides:
                    items = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) \
                        else [side]
                    if any(isinstance(i, ast.Constant) and _shared(i.value) for i in items):
                        found.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Match):
            for case in node.cases:
                for sub in ast.walk(case.pattern):
                    if isinstance(sub, ast.MatchValue) and isinstance(sub.value, ast.Constant) \
                            and _shared(sub.value.value):
                        found.append(f"line {sub.lineno}: case {ast.unparse(sub)}")
    return found


@pytest.mark.parametrize("path", SCREEN_AND_APP, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_screens_and_app_read_kinds_and_keys_through_the_enums(path: Path) -> None:
    assert literal_reads(path.read_text(encoding="utf-8")) == []


def test_the_literal_check_catches_a_string() -> None:
    source = ('if step.kind == "target": pass\nif q.key in ("los", "template"): pass\n'
              'match step.kind:\n    case "shot" | StepKind.MOVE: pass\n'
              'if step.kind == StepKind.TARGET: pass\nif hero.kind == "familiar": pass\n')
    assert len(literal_reads(source)) == 3


def referenced(folder: Path, enum: type[StrEnum]) -> set[StrEnum]:
    """The members of ``enum`` the modules of ``folder`` name (``Enum.MEMBER``)."""
    found = set()
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id == enum.__name__ and node.attr in enum.__members__:
                found.add(enum[node.attr])
    return found


@pytest.mark.parametrize("game", ["catacombs", "conquest"])
def test_every_member_is_used_by_the_rules(game: str) -> None:
    module = {"catacombs": catacombs_kinds, "conquest": conquest_kinds}[game]
    folder = HOST / "rules" / game
    # A battle's end is said with its Outcome as the step kind (moves._end_said).
    said = {module.StepKind(o) for o in end.Outcome} if game == "catacombs" else set()
    assert referenced(folder, module.StepKind) | said == set(module.StepKind)
    assert referenced(folder, module.Key) == set(module.Key)
    if game == "catacombs":
        kinds = catacombs_kinds.TargetKind
        assert referenced(folder, kinds) == set(kinds)


def member_aliases(source: str, names: set[str]) -> set[str]:
    """The module-level names bound to an enum member (``SHOT = StepKind.SHOT``, or several in
    one tuple assignment) that the module never reads: an alias left unused would count its
    member as used above."""
    tree = ast.parse(source)
    bound: set[str] = set()
    for node in tree.body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target, value = node.targets[0], node.value
        pairs = (zip(target.elts, value.elts, strict=True)
                 if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
                 else [(target, value)])
        for name, member in pairs:
            if isinstance(name, ast.Name) and isinstance(member, ast.Attribute) \
                    and isinstance(member.value, ast.Name) and member.value.id in names:
                bound.add(name.id)
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return bound - read


@pytest.mark.parametrize("game", ["catacombs", "conquest"])
def test_a_member_bound_to_a_module_name_is_read_there(game: str) -> None:
    names = {enum.__name__ for enum in ENUMS}
    unread = {path.name: member_aliases(path.read_text(encoding="utf-8"), names)
              for path in (HOST / "rules" / game).glob("*.py")}
    assert {name: left for name, left in unread.items() if left} == {}


def test_the_alias_check_catches_an_unread_alias() -> None:
    source = ("SHOT, MOVE = StepKind.SHOT, StepKind.MOVE\nLOS = Key.LOS\n"
              "def f():\n    return SHOT, Key.TEMPLATE\n")
    assert member_aliases(source, {"StepKind", "Key"}) == {"MOVE", "LOS"}


@pytest.mark.parametrize("enum", ENUMS, ids=lambda e: f"{e.__module__}.{e.__name__}")
def test_a_member_reads_and_writes_as_its_string(enum: type[StrEnum]) -> None:
    """What keeps traces, scenario files and session logs byte for byte as before."""
    for member in enum:
        assert member == member.value and str(member) == f"{member}" == member.value
        assert json.dumps({member: member}) == json.dumps({member.value: member.value})
        assert member.value == member.name.lower()


def test_every_runebound_step_kind_has_a_key_word_on_the_glass() -> None:
    from overseer.core.procedure import Step
    facts = {"town": "tamalir", "terrain": "plains", "token": "green", "number": 1,
             "matches": 2, "choice": "market", "gold": 1, "level": 1, "card": "c",
             "pay": 3, "points": 1, "needed": 13, "hero": "hero-1"}
    for kind in runebound_kinds.StepKind:
        face = runebound_screens.step_face(Step(kind, "rule", "text", facts), str)
        assert face is not None and face.key, kind
