"""data/clank/: it loads, what the book does not print is marked unverified, and a broken copy
names its file, line, record and field."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from overseer.core.records import DataError
from overseer.loaders import clank as clank_data
from overseer.rules.clank import rulebook

FOLDER = Path(__file__).resolve().parents[2] / "data" / "clank"


def test_the_data_loads_with_every_room_and_monster_the_rules_name() -> None:
    data = clank_data.load()
    assert clank_data.default() is clank_data.default()
    assert [r.id for r in data.rooms.values() if r.kind == "lair"] == [
        "living-statue-lair", "medusas-lair", "sphinxs-lair"]
    assert data.token_ids() == ["living-statue-1", "living-statue-2", "living-statue-3",
                                "medusa", "sphinx"]
    assert len(data.new_safe_tiles()) == 2
    assert [s.id for s in data.spaces_of("mad-bazaar")] == [
        "mad-bazaar/mystic-brew", "mad-bazaar/magic-salve", "mad-bazaar/showcase",
        "mad-bazaar/stolen-goods"]
    assert {s.offering: s.reward for s in data.spaces_of("temple-of-gold")} == {
        2: ("heal-1", "lockpick"), 3: ("heal-2",), 5: ("heal-1", "big-secret"),
        8: ("heal-1", "artifact")}
    assert data.rooms["medusas-lair"].section == rulebook.MEDUSAS_LAIR
    assert data.cards["hoard-keeper"].vp_per_gold == 5


def test_what_the_book_does_not_print_is_unverified() -> None:
    data = clank_data.load()
    assert all(not t.verified for t in data.base_safe_tiles())
    assert all(t.verified for t in data.new_safe_tiles())
    assert all(not s.verified for s in data.spaces_of("aegis-shrine"))
    assert all(not s.verified for s in data.spaces_of("temple-of-gold"))
    assert data.spaces["spirit-altar/altar"].verified
    assert not data.cards["cave-bat-wings"].verified
    for table in (data.safe_tiles, data.rooms, data.spaces, data.monsters, data.cards,
                  data.topics):
        for record in table.values():
            assert record.source and (record.verified or "not printed" in record.source
                                      or "assumption" in record.source)


def broken(tmp_path: Path, name: str, old: str, new: str) -> Path:
    folder = tmp_path / "clank"
    shutil.copytree(FOLDER, folder)
    text = (folder / name).read_text(encoding="utf-8")
    assert old in text
    (folder / name).write_text(text.replace(old, new, 1), encoding="utf-8")
    return folder


@pytest.mark.parametrize("name,old,new,message", [
    ("spaces.toml", 'room = "spirit-altar"', 'room = "spirit-alter"',
     r"spaces.toml:\d+: record space 'spirit-altar/altar', field 'room': 'spirit-alter' is not a room"),
    ("spaces.toml", 'room = "mad-bazaar"', 'room = "umbroka-vessna"',
     r"field 'room': Treasury of Umbroka Vessna takes no cubes"),
    ("rooms.toml", 'section = "SPIRIT_ALTAR"', 'section = "SPIRIT_ALTER"',
     r"rooms.toml:\d+: record room 'spirit-altar', field 'section': 'SPIRIT_ALTER' is not one of"),
    ("rooms.toml", 'id = "sphinxs-lair"', 'id = "sphinx-lair"',
     r"rooms.toml: field 'id': no room sphinxs-lair \(the rules name it\)"),
    ("monsters.toml", 'lair = "medusas-lair"', 'lair = "mad-bazaar"',
     r"monsters.toml:\d+: record monster 'medusa', field 'lair': 'mad-bazaar' is not a lair"),
    ("cards.toml", "vp_per_gold = 5", "vp_per_gold = 5\nvp = 1",
     r"record card 'hoard-keeper', field 'vp_per_gold': a card has vp or vp_per_gold"),
    ("safe_tiles.toml", 'set = "expansion"', 'set = "base"',
     r"safe_tiles.toml: field 'set': 1 expansion safe tiles; the expansion has 2"),
    ("spaces.toml", 'reward = ["heal-2"]', 'reward = ["heal-3"]',
     r"field 'reward': item 'heal-3' is not one of"),
    ("lookups.toml", 'id = "setup"', 'id = "medusa"',
     r"lookups.toml:\d+: record topic 'medusa', field 'id': 'medusa' is already a room"),
])
def test_a_broken_file_says_where(tmp_path: Path, name: str, old: str, new: str,
                                  message: str) -> None:
    with pytest.raises(DataError, match=message):
        clank_data.load(broken(tmp_path, name, old, new))
