"""The Catacombs card and setup data: every file loads, the fan records are unverified with their
source, the printed facts are as the book lists them, and each kind of malformed file is
refused with its file, line and field."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from overseer import games
from overseer.core.records import DataError
from overseer.loaders import catacombs as catacombs_data
from overseer.loaders import catacombs as catacombs_loader
from overseer.rules.catacombs.state import Shot
from tests.catacombs.driving import data_folder, drive_scenario, edited

FOLDER = catacombs_data.FOLDER
ROOT = Path(__file__).resolve().parents[2]
FAN = ROOT.parent / "shared" / "data"
DATA = catacombs_loader.default()


def test_every_data_file_loads():
    assert len(DATA.monsters) == 44
    assert len(DATA.lords) == 8
    assert len(DATA.rooms) == 66
    assert len(DATA.playmats) == 6 + 11 + 3
    assert set(DATA.campaigns) == {"monstrosity", "pharaoh"}
    assert DATA.cave_items == ("Champion's Helm", "Dagger of Deception", "Delilah's Potion",
                               "Trident")
    assert DATA.tiles and DATA.behaviour  # the battle tables load alongside
    for path in FOLDER.glob("*.toml"):
        assert path.read_text(encoding="utf-8").strip(), path


def test_the_data_is_loaded_once_and_shared_by_every_battle():
    assert catacombs_loader.default() is DATA
    first = games.CATACOMBS.build({"heroes": [{"id": "elf"}]})
    second = games.CATACOMBS.build({"heroes": [{"id": "elf"}]})
    assert first.data is DATA and second.data is DATA


def test_cards_are_found_by_id_or_name_in_any_case():
    assert DATA.monster("orc") is DATA.monster("Orc") is DATA.monster("ORC")
    assert DATA.room("the-outer-bailey")["name"] == "The Outer Bailey"
    assert DATA.lord("Phoshar the Dragon")["id"] == "phoshar-the-dragon"
    with pytest.raises(KeyError, match="no monster card 'Orcs' in data/catacombs/monsters.toml"):
        DATA.monster("Orcs")
    assert DATA.playmat_on("rune", 3)["id"] == "rune-3"


@pytest.mark.parametrize("kind", ["monsters", "lords", "rooms"])
def test_fan_records_are_unverified_and_name_their_source(kind):
    for record in getattr(DATA, kind).values():
        assert record["verified"] is False
        assert re.search(r"Junni01/Catacomb-Keeper, \w+\.js at commit [0-9a-f]{40}",
                         record["source"]), record["source"]


def test_printed_facts_are_verified():
    for record in DATA.playmats.values():
        assert record["verified"] is True
        if not record["name"]:  # numbered but unnamed: its rule is a reading, not print
            assert "rule" in record.get("unverified_fields", []) or record["die"] == "rune"
    for camp in DATA.campaigns:
        assert all(s["verified"] for s in DATA.stages[camp])


def test_campaign_rooms_in_the_printed_order():
    rooms = {c: [" | ".join(s["rooms"]) for s in DATA.stages[c]] for c in ("monstrosity",
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
               for s in DATA.stages[c] if "choice" in s}
    assert choices == {"monstrosity-4": "any", "pharaoh-2": "one"}


def test_suppression_and_shadow_notes_survive_the_conversion():
    assert DATA.monster("Siren")["suppresses"] == ["Missile", "Ice", "Fireball", "Target"]
    assert "suppresses read from" in DATA.monster("Siren")["source"]
    phantom = DATA.monster("phantom")
    assert phantom["health"] == 1 and "source health 0" in phantom["source"]


@pytest.mark.skipif(not FAN.is_dir(), reason="the shared fan data is not beside the repository")
def test_the_converter_reproduces_the_committed_files(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "import_fan_data"), str(FAN),
                           str(tmp_path)], capture_output=True, text=True, check=True)
    assert "monsters.toml (44 records)" in done.stdout
    for name in ("monsters.toml", "lords.toml", "rooms.toml"):
        assert (tmp_path / name).read_text() == (FOLDER / name).read_text(), name


# --------------------------------------------------------------------------- malformed data


def broken(tmp_path: Path, name: str, old: str, new: str) -> tuple[Path, int]:
    """A copy of data/catacombs/ whose file ``name`` has ``old`` replaced; returns that file
    and the changed line."""
    text = (FOLDER / name).read_text(encoding="utf-8")
    path = edited(data_folder(tmp_path), name, old, new)
    same = next((i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b),
                min(len(old), len(new)))
    same += new[same:same + 1] == "\n"  # a field added on a line of its own
    return path, text[:text.index(old) + same].count("\n") + 1


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
    path, line = broken(tmp_path, name, old, new)
    with pytest.raises(DataError) as caught:
        catacombs_data.load(path.parent)
    text = str(caught.value)
    assert str(path) in text and f"field '{field}'" in text and message in text, text
    assert f"{path}:{line}:" in text, text


def test_a_playmat_chart_with_a_hole_is_refused(tmp_path):
    path, _ = broken(tmp_path, "playmats.toml", 'die = "rune"\nface = 6', 'die = "none"')
    with pytest.raises(DataError, match=r"field 'face': no rune playmat for face\(s\) 6"):
        catacombs_data.load(path.parent)


def test_a_toml_syntax_error_gives_its_line(tmp_path):
    path, line = broken(tmp_path, "rooms.toml", "difficulty = 0\n", "difficulty = = 0\n")
    with pytest.raises(DataError, match=re.escape(f"{path}:{line}:") + ".*not valid TOML"):
        catacombs_data.load(path.parent)


def test_sequences_hold_shots_only_no_connectors():
    # Red Box: AI Player Behaviour, step 5: Elastic is read as Then; the data keeps neither
    # connector, so a sequence is its shots in order.
    for records in (DATA.monsters, DATA.lords):
        for record in records.values():
            for sequence in record["sequences"]:
                for text in sequence:
                    assert Shot.parse(text).kind not in ("then", "elastic"), record["name"]


# --------------------------------------------------------------------------- heroes.toml


def test_the_heroes_load_with_their_source():
    heroes = catacombs_data.heroes()
    assert list(heroes) == ["elf", "ulom", "yilleph"]
    assert heroes["ulom"]["name"] == "Ulom the Merman" and heroes["ulom"]["side"] == "catacomb"
    assert all(r["source"].startswith("000_") and r["verified"] for r in heroes.values())
    assert catacombs_loader.default_heroes() is catacombs_loader.default_heroes()  # loaded once


HERO_CASES = [
    ('kind = "hero"\nside = "base"', 'kind = "wizard"\nside = "base"', "kind",
     "'wizard' is not one of 'hero', 'familiar'"),
    ('side = "base"', 'side = "red"', "side", "'red' is not one of 'base', 'catacomb'"),
    ('name = "Elf"', 'nmae = "Elf"', "nmae", "unknown field; did you mean 'name'?"),
    ('id = "ulom"', 'id = "elf"', "id", "duplicate id 'elf'"),
]


@pytest.mark.parametrize("old,new,field,message", HERO_CASES,
                         ids=[c[2] for c in HERO_CASES])
def test_a_malformed_hero_names_file_line_and_field(tmp_path, old, new, field, message):
    path, line = broken(tmp_path, "heroes.toml", old, new)
    with pytest.raises(DataError) as caught:
        catacombs_data.heroes(path.parent)
    text = str(caught.value)
    assert f"{path}:{line}:" in text and f"field '{field}'" in text and message in text, text


def test_a_misspelt_hero_table_is_refused_with_the_right_one(tmp_path):
    path = edited(data_folder(tmp_path), "heroes.toml", "[[hero]]\nid = \"ulom\"",
                  "[[heroes]]\nid = \"ulom\"")
    line = path.read_text(encoding="utf-8").splitlines().index("[[heroes]]") + 1
    with pytest.raises(DataError, match=re.escape(f"{path}:{line}: unknown table 'heroes'; did "
                                                  "you mean 'hero'?")):
        catacombs_data.heroes(path.parent)


# --------------------------------------------------------------------------- a folder of one's own


def test_a_bad_record_in_a_named_folder_gives_its_file_and_line(tmp_path):
    path, line = broken(tmp_path, "monsters.toml", "health = 1\nreward = 1",
                        "health = -2\nreward = 1")
    with pytest.raises(DataError, match=re.escape(f"{path}:{line}: record monster 'orc', field "
                                                  "'health': -2 is below 1")):
        catacombs_data.load(path.parent)


def test_a_name_pointing_nowhere_names_the_folder_it_was_looked_up_in(tmp_path):
    path, _ = broken(tmp_path, "rooms.toml", 'level1 = ["2 x Centaur", "1 x Orc", "2 x Mercenary"]',
                     'level1 = ["2 x Centaurus"]')
    with pytest.raises(DataError, match=re.escape(f"not a monster of {path.parent}/monsters.toml")):
        catacombs_data.load(path.parent)


def test_a_good_named_folder_builds_a_battle_on_its_own_cards(tmp_path):
    folder = data_folder(tmp_path)
    edited(folder, "monsters.toml", 'name = "Orc"\nfamily = "Dungeon"\nlevel = 1\nhealth = 1',
           'name = "Orc"\nfamily = "Dungeon"\nlevel = 1\nhealth = 7')
    data = catacombs_data.load(folder)
    assert data.where == str(folder) and data.monster("Orc")["health"] == 7
    battle, runner, err = drive_scenario({
        "format": 1, "game": "catacombs", "heroes": [{"id": "elf"}],
        "pieces": [{"id": "orc-1", "card": "Orc"}],
        "actions": [{"do": "damage_piece", "piece": "orc-1", "amount": 2}]}, data)
    assert err is None and battle.data is data
    assert battle.pieces["orc-1"].health == 5  # 7 from the folder's card, less 2
    assert games.CATACOMBS.build({"pieces": [{"id": "orc-1", "card": "Orc"}]}) \
        .pieces["orc-1"].health == 1  # the shipped data is untouched
    with pytest.raises(KeyError, match=re.escape(f"no Room card 'Nowhere' in {folder}/rooms.toml")):
        data.room("Nowhere")
