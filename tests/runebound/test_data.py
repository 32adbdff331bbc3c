"""data/runebound/ loads, says what the book prints and what it does not, and a broken copy
stops the load with file, line, record and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from overseer.core.records import DataError
from overseer.loaders import runebound as runebound_data

FOLDER = Path(__file__).resolve().parents[2] / "data" / "runebound"


def test_the_box_as_the_book_prints_it() -> None:
    data = runebound_data.load()
    assert len(data.curses) == 5
    for curse in data.curses:
        levels = [data.cards[c].level for c in data.deck(curse)]
        assert levels == [1, 1, 1, 2, 2, 3]  # Level I on top, then II, then III
    assert data.curses["savage-brood"].name == "Curse of the Savage Brood"
    assert data.cards["savage-brood-iii"].name == "The Dragon Destroyer"
    assert {t.name for t in data.towns.values()} >= {"Tamalir", "Vynelvale", "Riverwatch"}
    assert len(data.counters) == len(data.towns)
    assert sorted(c.reveals for c in data.counters.values() if c.reveals != "destroyed") == \
        sorted(data.curses)


def test_what_the_book_does_not_print_is_unverified() -> None:
    data = runebound_data.load()
    # terrain, dice faces, towns' terrain, the counters' mix and the tokens are not printed
    for records in (data.towns.values(), data.terrain.values(), data.faces,
                    data.counters.values(), data.tokens.values()):
        assert not any(r.verified for r in records)
    # the decks' shape is printed; a card's name only where the book names it
    assert all(c.verified for c in data.curses.values())
    named = [c.id for c in data.cards.values() if c.name]
    assert named == ["savage-brood-iii"]
    assert [c.id for c in data.curses.values() if c.name] == ["savage-brood"]
    assert data.curses["curse-2"].title == "curse-2 (name not printed)"


def broken(tmp_path: Path, name: str, old: str, new: str) -> Path:
    folder = tmp_path / "runebound"
    shutil.copytree(FOLDER, folder)
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize("name,old,new,message", [
    ("towns.toml", 'terrain = "river"', 'terrain = "lava"',
     r"towns.toml:\d+: record town 'riverwatch', field 'terrain': 'lava' is not a terrain"),
    ("towns.toml", 'name = "Forge"', 'nmae = "Forge"',
     r"towns.toml:\d+: record town 'forge', field 'nmae': unknown field"),
    ("curses.toml", 'curse = "curse-3"\nlevel = 1', 'curse = "curse-3"\nlevel = 2',
     r"curses.toml: record curse 'curse-3', field 'level': 2 Level 1 card\(s\); each curse has 3"),
    ("curses.toml", 'curse = "curse-4"\nlevel = 3', 'curse = "curse-9"\nlevel = 3',
     r"record card 'curse-4-iii', field 'curse': 'curse-9' is not a \[\[curse\]\]"),
    ("counters.toml", 'reveals = "curse-5"', 'reveals = "destroyed"',
     "the curse 'curse-5' needs exactly one counter"),
    ("counters.toml", 'reveals = "curse-5"', 'reveals = "curse-6"',
     r"counters.toml:\d+: record counter 'sign-curse-5', field 'reveals': 'curse-6' is neither"),
    ("terrain.toml", 'terrain = ["hills", "mountains"]', 'terrain = ["hills", "sky"]',
     r"terrain.toml:\d+: record face 'face-6', field 'terrain': 'sky' is not a \[\[terrain\]\]"),
    ("tokens.toml", "\nverified = false", "\nverified = \"no\"",
     r"tokens.toml:\d+: record token 'green', field 'verified': 'no' should be bool"),
])
def test_a_broken_file_names_file_line_record_and_field(tmp_path: Path, name: str, old: str,
                                                        new: str, message: str) -> None:
    folder = broken(tmp_path, name, old, new)
    with pytest.raises(DataError, match=message):
        runebound_data.load(folder)


def test_a_town_more_needs_a_counter_more(tmp_path: Path) -> None:
    folder = broken(tmp_path, "towns.toml", '[[town]]\nid = "greyhaven"',
                    '[[town]]\nid = "sudanya"\nname = "S"\nterrain = "plains"\nsource = "x"\n'
                    'verified = false\n\n[[town]]\nid = "greyhaven"')
    with pytest.raises(DataError, match="7 counters for 8 towns: one a town"):
        runebound_data.load(folder)


def test_a_folder_of_ones_own_loads_and_is_named(tmp_path: Path) -> None:
    folder = broken(tmp_path, "towns.toml", 'name = "Forge"', 'name = "The Forge"')
    data = runebound_data.load(folder)
    assert data.towns["forge"].name == "The Forge" and data.where == str(folder)
