"""The shipped Catacombs tables load, say what is verified, and refuse a broken file."""

from pathlib import Path

import pytest

from overseer.core.records import DataError
from overseer.loaders import catacombs as catacombs_data
from overseer.rules.catacombs.damage_tokens import levels
from overseer.rules.catacombs.shot_choice import d12_band
from overseer.rules.catacombs.state import Shot
from tests.catacombs.driving import data_folder, edited


def test_shipped_tables():
    data = catacombs_data.default()
    assert {k: len(v) for k, v in data.damage_tokens.items()} == {1: 13, 2: 12, 3: 13}
    assert not data.tokens_verified
    printed = {t for t, row in data.behaviour.items() if row.verified}
    assert printed == {"brown", "blue", "black"}
    assert not data.behaviour["black"].is_verified("no_target")
    assert data.behaviour["black"].is_verified("tie_breaker")
    assert len(data.death_cards) == 6 and all(c["verified"] for c in data.death_cards)
    faces = [f for r in data.portal_trap for f in range(r["low"], r["high"] + 1)]
    assert sorted(faces) == list(range(1, 13))


def test_token_count_must_match_the_box(tmp_path: Path):
    folder = data_folder(tmp_path)
    edited(folder, "damage_tokens.toml", "count = 6", "count = 7")
    with pytest.raises(DataError, match="level 1 holds 14 tokens; the Red Box has 13"):
        catacombs_data.load(folder)


def test_unknown_criterion_is_refused(tmp_path: Path):
    folder = data_folder(tmp_path)
    edited(folder, "ai_behaviour.toml", 'primary = "most_gold"', 'primary = "tallest"')
    with pytest.raises(DataError, match=r"ai_behaviour.toml:\d+: record type 'brown', "
                                        r"field 'primary': 'tallest' is not one of"):
        catacombs_data.load(folder)


@pytest.mark.parametrize("text,want", [
    ("Melee", [1]), ("Missile+Chain", [1]), ("Melee+Target", [1]), ("Bite", [2]),
    ("Roll", [2]), ("Devour", [2]), ("Giant Fireball", [2]), ("Sword", [2]),
    ("Melee+Poison", [2]), ("Missile+Target", [2]), ("Melee+Critical", [3]),
    ("Roll+Critical", [3]), ("Boulder", [3, 3]),
])
def test_token_levels(text, want):
    assert levels(Shot.parse(text)) == want


def test_d12_bands():
    assert [d12_band(f, 2) for f in range(1, 13)] == [0] * 6 + [1] * 6
    assert [d12_band(f, 3) for f in range(1, 13)] == [0] * 4 + [1] * 4 + [2] * 4
    assert [d12_band(f, 5) for f in range(1, 13)] == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, None, None]
