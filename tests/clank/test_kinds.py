"""The Clank! step kinds and question keys: every member is used by the rules, and each reads
and writes as its string (so traces, scenario files and logs hold plain strings)."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path

import pytest

from overseer import games
from overseer.rules.clank import kinds
from overseer.screens import clank as clank_screens
from tests.test_shared_names import referenced

RULES = Path(__file__).resolve().parents[2] / "host" / "overseer" / "rules" / "clank"


@pytest.mark.parametrize("enum", [kinds.StepKind, kinds.Key], ids=lambda e: e.__name__)
def test_every_member_is_used_by_the_rules(enum: type[StrEnum]) -> None:
    assert referenced(RULES, enum) == set(enum)


@pytest.mark.parametrize("enum", [kinds.StepKind, kinds.Key], ids=lambda e: e.__name__)
def test_a_member_reads_and_writes_as_its_string(enum: type[StrEnum]) -> None:
    for member in enum:
        assert member == member.value == member.name.lower()
        assert json.dumps({member: member}) == json.dumps({member.value: member.value})


def test_the_spec_shows_clank_on_its_own_screens() -> None:
    assert games.CLANK.screens is clank_screens.SCREENS and games.CLANK.main_move is None
    assert games.get("clank") is games.CLANK


def test_every_step_kind_has_a_key_word_on_the_glass() -> None:
    """Each Clank! step shows a key word of its own (not its kind), from the facts it has."""
    from overseer.core.procedure import Step
    facts = {"player": "P1", "room": "aegis-shrine", "tokens": [], "monster": "medusa",
             "card": "hoard-keeper", "trophy": "medusa", "gold": 2, "taken": True,
             "offering": 5, "fell": True, "topic": "setup", "line": 1, "total": 3}
    for kind in kinds.StepKind:
        face = clank_screens.step_face(Step(kind, "rule", "text", facts), str)
        assert face is not None and face.key, kind
