"""The Catacombs cards as the rules read them: the AI type of each monster family, how a Room
card or a Minions box writes its entries (``"2 x Orc"``), and the AI pieces a Monster or
Catacomb Lord card brings.

The records themselves are in ``Battle.data`` (``carddata.CatacombsData``); the card texts are
not in the rulebooks and come from fan transcriptions, marked unverified. Format: docs/data.md.
"""

from __future__ import annotations

import re
from typing import Any

from overseer.rules.catacombs.carddata import CatacombsData
from overseer.rules.catacombs.state import Piece, Shot, parse_sequence

# Red Box: AI Player Attack Behaviour names the character types by colour; the monster families
# and their colours are those of the Red Box issue text and components list.
FAMILY_TYPE = {
    "Vermin": "brown",
    "Mythological": "blue",
    "Dungeon": "green",
    "Infernal": "orange",
    "Undead": "grey",
    "Zombie": "purple",
    "Wraith Knight": "black",
}

COUNT_ENTRY = re.compile(r"^([1-9][0-9]?) x (.+)$")
MONSTER_GROUP = re.compile(r"^Level ([1-4]) Monster Group$")
MERCENARY = "Mercenary"
QUADRANTS = ("level1", "level2", "level3", "level4")


def split_entry(entry: str) -> tuple[int, str]:
    """``"2 x Orc"`` -> ``(2, "Orc")``."""
    found = COUNT_ENTRY.match(entry)
    if found is None:
        raise ValueError(f"entry {entry!r} should read 'N x Monster name'")
    return int(found.group(1)), found.group(2)


def _reactive_shot(record: dict[str, Any]) -> Shot | None:
    return Shot.parse(record["reactive"]) if "reactive" in record else None


def piece_from_monster(data: CatacombsData, piece_id: str, name: str) -> Piece:
    """An AI piece for one unit of a monster card (KeyError: no such card)."""
    record = data.monster(name)
    return Piece(
        id=piece_id,
        name=record["name"],
        type=FAMILY_TYPE[record["family"]],
        order_tile=f"level-{record['level']}",
        sequences=[parse_sequence(seq) for seq in record["sequences"]],
        health=record["health"],
        reward=record["reward"],
        flying=record.get("flying", False),
        reactive=_reactive_shot(record),
    )


def piece_from_lord(data: CatacombsData, piece_id: str, name: str) -> Piece:
    """The Catacomb Lord's piece (Red Box: Catacomb Lord Room Setup)."""
    record = data.lord(name)
    return Piece(id=piece_id, name=record["name"], type="lord", order_tile="lord",
                 sequences=[parse_sequence(seq) for seq in record["sequences"]],
                 health=record["health"], reactive=_reactive_shot(record))


def playmat_label(record: dict[str, Any]) -> str:
    """How the trace names a playmat: its name, or its chart number when unnamed."""
    if record["name"]:
        return record["name"]
    die = "Rune Die" if record["die"] == "rune" else "D12"
    return f"the {die} {record['face']} playmat (unnamed in the book)"
