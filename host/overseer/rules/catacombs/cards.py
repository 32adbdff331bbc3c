"""Card data for Catacombs: monsters (and, through setup, lords and rooms), from data/catacombs/.

The card texts are not in the rulebooks; the records come from fan transcriptions and are
marked unverified. Loaded once, validated (file, line, field on error).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from overseer.data import DATA_DIR, Field, at_least, list_of, load_table, one_of
from overseer.rules.catacombs.state import Piece, Shot

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


def _sequences(value: Any) -> str | None:
    if not value:
        return "needs at least one shot sequence"
    for seq in value:
        if not isinstance(seq, list) or not seq or not all(isinstance(s, str) for s in seq):
            return f"each sequence must be a non-empty list of shot names (got {seq!r})"
    return None


MONSTER_FIELDS = {
    "id": Field(str),
    "name": Field(str),
    "family": Field(str, check=one_of(*FAMILY_TYPE)),
    "level": Field(int, check=one_of(1, 2, 3, 4)),
    "health": Field(int, check=at_least(1)),
    "reward": Field(int, check=at_least(0)),
    "set": Field(str),
    "disc_size": Field(str),
    "flying": Field(bool, required=False),
    "shadow": Field(bool, required=False),
    "nullifies": Field(list, required=False, check=list_of(str)),
    "reflects": Field(list, required=False, check=list_of(str)),
    "suppresses": Field(list, required=False, check=list_of(str)),
    "extra_info": Field(str, required=False),
    "sequences": Field(list, check=_sequences),
}


@cache
def monsters(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """Monster records by id and by name (both keys)."""
    records = load_table(path or DATA_DIR / "catacombs" / "monsters.toml", "monster",
                         MONSTER_FIELDS)
    table: dict[str, dict[str, Any]] = {}
    for record in records:
        table[record["id"]] = record
        table[record["name"].lower()] = record
    return table


def monster(name: str) -> dict[str, Any]:
    table = monsters()
    record = table.get(name) or table.get(name.lower())
    if record is None:
        raise KeyError(f"no monster card {name!r} in data/catacombs/monsters.toml")
    return record


def piece_from_monster(piece_id: str, name: str) -> Piece:
    """An AI piece for one unit of a monster card."""
    record = monster(name)
    return Piece(
        id=piece_id,
        name=record["name"],
        type=FAMILY_TYPE[record["family"]],
        order_tile=f"level-{record['level']}",
        sequences=[[Shot.parse(s) for s in seq] for seq in record["sequences"]],
        health=record["health"],
        reward=record["reward"],
        flying=record.get("flying", False),
    )
