"""The shot vocabulary: every shot and modifier on the cards is one the AI rules know; a name
they do not know is refused when a card or a scenario piece is read, with where and what."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from overseer import documents, scenario
from overseer.core.records import DataError
from overseer.loaders import catacombs as catacombs_data
from overseer.rules.catacombs import damage_tokens, modifiers, shots
from overseer.rules.catacombs.shot_choice import prefers
from overseer.rules.catacombs.state import (
    APPLIED_MODIFIERS,
    BY_HAND,
    BY_HAND_MODIFIERS,
    CHARACTER_DAMAGE,
    MODIFIERS,
    MOVES,
    RANGED,
    SHOT_KINDS,
    Shot,
    parse_sequence,
)
from tests.catacombs.driving import data_folder, edited

DATA = catacombs_data.default()


def every_shot() -> list[tuple[str, str]]:
    """(card name, shot text) for every shot of every monster and Catacomb Lord card."""
    found = []
    for table in (DATA.monsters, DATA.lords):
        for record in table.values():
            for sequence in record["sequences"]:
                found += [(record["name"], text) for text in sequence]
    return found


def test_every_card_shot_and_modifier_is_known():
    shots_seen = every_shot()
    assert len(shots_seen) > 100  # both files were read
    for name, text in shots_seen:
        shot = Shot.parse(text)
        assert shot.kind in SHOT_KINDS, (name, text)
        assert set(shot.modifiers) <= MODIFIERS, (name, text)
        if shot.kind == "summon":
            assert DATA.monster(shot.summons), (name, text)


def test_the_fan_cards_use_every_by_hand_modifier_and_the_numbered_poison():
    parsed = [Shot.parse(text) for _, text in every_shot()]
    used = {m for shot in parsed for m in shot.modifiers}
    assert BY_HAND_MODIFIERS <= used
    assert {"poison", "critical", "chain", "fear", "stun"} <= used
    assert any(shot.amount("poison") == 2 for shot in parsed)


def test_the_books_modifiers_are_known():
    # Red Box: capture coin, poison, critical, chain, target, fear; Ice Box: reckless, Death card.
    for name in ("Capture Coin", "Poison", "Critical", "Chain", "Target", "Fear", "Reckless",
                 "Death Card"):
        assert Shot.parse(f"Melee+{name}").modifiers == (name.lower().replace(" ", "_"),)
    assert {"capture_coin", "poison", "critical", "chain", "target", "fear", "reckless",
            "death_card"} <= APPLIED_MODIFIERS


def test_the_vocabulary_is_one_partition_the_rules_use():
    groups = (CHARACTER_DAMAGE, RANGED, MOVES, BY_HAND)
    assert sum(len(g) for g in groups) == len(SHOT_KINDS)  # no name in two groups
    assert not APPLIED_MODIFIERS & BY_HAND_MODIFIERS
    assert shots.NO_DAMAGE_RANGED <= RANGED
    assert shots.TOKEN_SHOTS <= CHARACTER_DAMAGE | RANGED
    assert damage_tokens.HEAVY <= SHOT_KINDS
    assert damage_tokens.IGNORED <= MODIFIERS
    assert modifiers.ON_TARGET <= APPLIED_MODIFIERS
    assert modifiers.LIVING <= modifiers.ON_TARGET


def test_a_modifier_with_a_number_is_that_modifier():
    shot = Shot.parse("Melee+Poison (2)")
    assert (shot.kind, shot.modifiers, shot.amount("poison")) == ("melee", ("poison",), 2)
    assert shot.label == "melee + poison (2)"
    assert Shot.parse("Melee+Poison").amount("poison") == 1
    assert damage_tokens.levels(shot) == [2]  # a modified shot
    assert prefers("poison", parse_sequence(["Melee+Poison (2)", "Melee"]))


@pytest.mark.parametrize("text,message", [
    ("Meele+Poison", "'Meele' is not a shot the AI rules know (did you mean 'melee'?)"),
    ("Melee+Posion", "'Posion' is not a modifier the AI rules know (did you mean 'poison'?)"),
    ("Melee+Stun (2)", "the stun modifier takes no number"),
    ("Melee+Poison (0)", "a modifier's number is at least 1"),
    ("Summon:", "a summon shot names its monster"),
    ("Summon", "a summon shot names its monster"),
    ("Xyzzy", "known: bite, boomerang"),
])
def test_unknown_names_are_refused(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        Shot.parse(text)


@pytest.mark.parametrize("file,old,new,record,bad", [
    ("monsters.toml", 'sequences = [["Melee"], ["Missile"]]',
     'sequences = [["Melee"], ["Meele+Poison"]]', "monster 'orc'", "'Meele'"),
    ("lords.toml", '"Shield", "Melee+Stun", "Melee"', '"Shield", "Melee+Stunned", "Melee"',
     "lord 'vasesak-the-sorcerer'", "'Stunned'"),
])
def test_a_card_with_an_unknown_name_does_not_load(tmp_path: Path, file, old, new, record, bad):
    path = edited(data_folder(tmp_path), file, old, new)
    text = path.read_text(encoding="utf-8")
    line = text[:text.index(new)].count("\n") + 1
    with pytest.raises(DataError) as caught:
        catacombs_data.load(path.parent)
    message = str(caught.value)
    assert message.startswith(f"{path}:{line}: record {record}, field 'sequences': ")
    assert f"{bad} is not a" in message


def test_a_scenario_piece_with_an_unknown_name_is_refused(tmp_path: Path):
    path = tmp_path / "s.json"
    path.write_text("""{"format": 1, "game": "catacombs",
      "tiles": {"character_order": ["level-1"], "monster_order": ["green"],
                "direction": ["left-to-right", "monster-to-hero"]},
      "heroes": [{"id": "elf"}],
      "pieces": [{"id": "orc", "type": "green", "sequences": [["Rush", "Meele+Poison"]]}],
      "actions": [{"do": "next_ai_piece"}], "expect": [{"step": "shot"}]}""")
    with pytest.raises(documents.ScenarioError,
                       match=r"s\.json: pieces\[0\]\.sequences\[0\]: 'Meele\+Poison': 'Meele' is "
                             r"not a shot the AI rules know \(did you mean 'melee'\?\)"):
        scenario.run(documents.load(path))
