"""The Catacombs card and setup data: every file loads, the fan records are unverified with their
source, the printed facts are as the book lists them, and each kind of malformed file is
refused with its file, line and field."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from overseer.data import DATA_DIR, DataError
from overseer.rules.catacombs import campaign, cards, hidden_cave, tables

FOLDER = DATA_DIR / "catacombs"
ROOT = Path(__file__).resolve().parents[2]
FAN = ROOT.parent / "shared" / "data"


def unique(table: dict) -> list[dict]:
    return list({id(r): r for r in table.values()}.values())


def test_every_data_file_loads():
    assert len(unique(cards.monsters())) == 44
    assert len(unique(cards.lords())) == 8
    assert len(unique(cards.rooms())) == 66
    assert len(cards.playmats()) == 6 + 11 + 3
    assert set(campaign.campaigns()) == {"monstrosity", "pharaoh"}
    assert hidden_cave.item_names() == ["Champion's Helm", "Dagger of Deception",
                                        "Delilah's Potion", "Trident"]
    assert tables.load().tiles  # the lead's tables load alongside
    for path in FOLDER.glob("*.toml"):
        assert path.read_text(encoding="utf-8").strip(), path


@pytest.mark.parametrize("records", [cards.monsters, cards.lords, cards.rooms])
def test_fan_records_are_unverified_and_name_their_source(records):
    for record in unique(records()):
        assert record["verified"] is False
        assert re.search(r"Junni01/Catacomb-Keeper, \w+\.js at commit [0-9a-f]{40}",
                         record["source"]), record["source"]


def test_printed_facts_are_verified():
    for record in cards.playmats().values():
        assert record["verified"] is True
        if not record["name"]:  # numbered but unnamed: its rule is a reading, not print
            assert "rule" in record.get("unverified_fields", []) or record["die"] == "rune"
    for camp in campaign.campaigns():
        assert all(s["verified"] for s in campaign.stages(camp))


def test_campaign_rooms_in_the_printed_order():
    rooms = {c: [" | ".join(s["rooms"]) for s in campaign.stages(c)] for c in ("monstrosity",
                                                                               "pharaoh")}
    assert rooms["monstrosity"] == [
        "Glaaoth", "Ehanostha", "Zhamanok", "Amaranth Inn | Hearthshire Stables", "Sacthurag",
        "Izchak the Merchant", "Thothazhon", "Urnehath", "Catacomb Lord's Lair",
        "Althea the Healer"]
    assert rooms["pharaoh"] == [
        "Dephaoth", "Crypt of Shaurath | Alewife Tavern", "Yornathor", "Rharhlos", "Abotharur",
        "Izchak the Merchant", "Althea the Healer", "Othagoth", "Ubornath", "Amaranth Inn",
        "Zhamanok", "Catacomb Lord's Lair"]
    choices = {s["id"]: s.get("choice") for c in ("monstrosity", "pharaoh")
               for s in campaign.stages(c) if "choice" in s}
    assert choices == {"monstrosity-4": "any", "pharaoh-2": "one"}


def test_suppression_and_shadow_notes_survive_the_conversion():
    assert cards.monster("Siren")["suppresses"] == ["Missile", "Ice", "Fireball", "Target"]
    assert "suppresses read from" in cards.monster("Siren")["source"]
    phantom = cards.monster("phantom")
    assert phantom["health"] == 1 and "source health 0" in phantom["source"]


@pytest.mark.skipif(not FAN.is_dir(), reason="the shared fan data is not beside the repository")
def test_the_converter_reproduces_the_committed_files(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "import_fan_data"), str(FAN),
                           str(tmp_path)], capture_output=True, text=True, check=True)
    assert "monsters.toml (44 records)" in done.stdout
    for name in ("monsters.toml", "lords.toml", "rooms.toml"):
        assert (tmp_path / name).read_text() == (FOLDER / name).read_text(), name


# --------------------------------------------------------------------------- malformed data


def broken(tmp_path: Path, name: str, old: str, new: str, count: int = 1) -> tuple[Path, int]:
    """A copy of data file ``name`` with ``old`` replaced; returns it and the changed line."""
    text = (FOLDER / name).read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / name
    path.write_text(text.replace(old, new, count), encoding="utf-8")
    same = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
                min(len(old), len(new)))
    same += new[same:same + 1] == "\n"  # a field added on a line of its own
    return path, text[:text.index(old) + same].count("\n") + 1


def loader(name: str) -> Callable[[Path], object]:
    return {
        "monsters.toml": lambda p: cards.monsters(p),
        "lords.toml": lambda p: cards.lords(p),
        "rooms.toml": lambda p: cards.rooms(p),
        "playmats.toml": lambda p: cards.playmats(p),
        "campaigns.toml": lambda p: campaign._load(p.parent),
        "hidden_cave.toml": lambda p: hidden_cave._data(p.parent),
    }[name]


CASES = [
    ("monsters.toml", 'name = "Orc"\nfamily = "Dungeon"', 'name = "Orc"\nfamily = "Goblin"',
     "family", "'Goblin' is not one of"),
    ("monsters.toml", "health = 1\nreward = 1", "health = 0\nreward = 1", "health",
     "0 is below 1"),
    ("monsters.toml", 'sequences = [["Melee"], ["Missile"]]', "sequences = []", "sequences",
     "needs at least one shot sequence"),
    ("monsters.toml", 'disc_size = "Medium"', 'disc_size = "Medium"\ncolour = "Green"', "colour",
     "unknown field"),
    ("lords.toml", 'mercenary = ["Skeleton Warrior"]', 'mercenary = ["Skeleton Warrior", "Orc", '
     '"Zombie"]', "mercenary", "needs one or two entries"),
    ("lords.toml", 'mercenary = ["Skeleton Warrior"]', 'mercenary = ["Skeleton Lord"]',
     "mercenary", "'Skeleton Lord' is not a monster"),
    ("lords.toml", 'minions = ["4 x Zombie", "2 x Troll", "2 x Flame Wraith"]',
     'minions = ["4 x Zombie", ["2 x Troll", "2 x Orc", "1 x Ghoul"]]', "minions",
     "a choice must be a [left, right] pair"),
    ("lords.toml", 'minions = ["4 x Zombie", "2 x Troll", "2 x Flame Wraith"]',
     'minions = ["4 x Zombie", ["2 x Troll", "2 x Trolls"]]', "minions",
     "'Trolls' is not a monster"),
    ("lords.toml", "playmats = []", 'playmats = ["rune-9"]', "playmats",
     "'rune-9' is not a playmat"),
    ("rooms.toml", 'level1 = ["2 x Centaur", "1 x Orc", "2 x Mercenary"]',
     'level1 = ["two x Centaur"]', "level1", "should read 'N x Monster name'"),
    ("rooms.toml", 'level1 = ["2 x Centaur", "1 x Orc", "2 x Mercenary"]',
     'level1 = ["2 x Centaurus"]', "level1", "'Centaurus' is not a monster"),
    ("rooms.toml", "difficulty = 0\n", "difficulty = 3\n", "difficulty", "3 is not one of"),
    ("rooms.toml", "difficulty = 0\n", 'difficulty = 0\nplaymat = "moon"\n', "playmat",
     "'moon' is not a playmat"),
    ("playmats.toml", "face = 6\n", "face = 5\n", "face", "rune face 5 is already playmat"),
    ("playmats.toml", "face = 12\n", "face = 1\n", "face", "needs a face from 2 to 12"),
    ("playmats.toml", 'rule = "keystone"', 'rule = "lava"', "rule", "'lava' is not one of"),
    ("campaigns.toml", 'campaign = "pharaoh"\nposition = 3', 'campaign = "sphinx"\nposition = 3',
     "campaign", "'sphinx' is not a [[campaign]]"),
    ("campaigns.toml", 'rooms = ["Crypt of Shaurath", "Alewife Tavern"]',
     'rooms = ["Crypt of Shaurath"]', "rooms", "a choice stage lists 2 room(s)"),
    ("campaigns.toml", 'choice = "one"', 'choice = "all"', "choice", "'all' is not one of"),
    ("hidden_cave.toml", "value = 1\n", "value = 4\n", "value", "token_level must be set"),
]


@pytest.mark.parametrize("name,old,new,field,message", CASES,
                         ids=[f"{c[0]}:{c[3]}:{n}" for n, c in enumerate(CASES)])
def test_malformed_data_names_file_line_and_field(tmp_path, name, old, new, field, message):
    if name in ("campaigns.toml", "hidden_cave.toml"):
        for other in FOLDER.glob("*.toml"):
            shutil.copy(other, tmp_path / other.name)
    path, line = broken(tmp_path, name, old, new)
    with pytest.raises(DataError) as caught:
        loader(name)(path)
    text = str(caught.value)
    assert str(path) in text and f"field '{field}'" in text and message in text, text
    assert f"{path}:{line}:" in text, text


def test_a_playmat_chart_with_a_hole_is_refused(tmp_path):
    path, _ = broken(tmp_path, "playmats.toml", 'die = "rune"\nface = 6', 'die = "none"')
    with pytest.raises(DataError, match=r"field 'face': no rune playmat for face\(s\) 6"):
        cards.playmats(path)


def test_a_toml_syntax_error_gives_its_line(tmp_path):
    path, line = broken(tmp_path, "rooms.toml", "difficulty = 0\n", "difficulty = = 0\n")
    with pytest.raises(DataError, match=re.escape(f"{path}:{line}:") + ".*not valid TOML"):
        cards.rooms(path)


def test_sequences_hold_shots_only_no_connectors():
    # Red Box: AI Player Behaviour, step 5: Elastic is read as Then; the data keeps neither
    # connector, so a sequence is its shots in order.
    from overseer.rules.catacombs.state import Shot

    for records in (cards.monsters(), cards.lords()):
        for record in unique(records):
            for sequence in record["sequences"]:
                for text in sequence:
                    assert Shot.parse(text).kind not in ("then", "elastic"), record["name"]
