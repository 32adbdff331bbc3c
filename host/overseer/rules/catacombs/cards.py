"""Card data for Catacombs from data/catacombs/: monsters, Catacomb Lord setup cards, Room cards,
and the playmats the setup chooses from.

The card texts are not in the rulebooks; the records come from fan transcriptions and are
marked unverified. Loaded once, validated (file, line, field on error), names cross-checked
(a room or lord naming a monster that is not a card fails to load). Format: docs/data.md.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from overseer.data import (
    DATA_DIR,
    DataError,
    Field,
    at_least,
    field_line,
    list_of,
    load_table,
    one_of,
)
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


def _sequences(value: Any) -> str | None:
    if not value:
        return "needs at least one shot sequence"
    for seq in value:
        if not isinstance(seq, list) or not seq or not all(isinstance(s, str) for s in seq):
            return f"each sequence must be a non-empty list of shot names (got {seq!r})"
        try:  # known shots and modifiers; a condition word needs a shot before and after it
            parse_sequence(seq)
        except ValueError as err:
            return str(err)
    return None


def _reactive(value: str) -> str | None:
    """Ice Box: Reactive Health: one shot, as a sequence writes it."""
    try:
        shots = parse_sequence([value])
    except ValueError as err:
        return str(err)
    return None if len(shots) == 1 else f"{value!r} is not a shot"


def _reactive_shot(record: dict[str, Any]) -> Shot | None:
    return Shot.parse(record["reactive"]) if "reactive" in record else None


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
    "units": Field(int, required=False, check=at_least(1)),  # pieces per card: not in the fan data
    "sequences": Field(list, check=_sequences),
    "reactive": Field(str, required=False, check=_reactive),  # not printed: absent in the data
}


def _index(records: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Card records by id and by lower-case name (both keys)."""
    table: dict[str, dict[str, Any]] = {}
    for record in records:
        table[record["id"]] = record
        table[record["name"].lower()] = record
    return table


def _find(table: dict[str, dict[str, Any]], name: str, what: str, file: str) -> dict[str, Any]:
    record = table.get(name) or table.get(name.lower())
    if record is None:
        raise KeyError(f"no {what} {name!r} in data/catacombs/{file}")
    return record


@cache
def monsters(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """Monster records by id and by name (both keys)."""
    return _index(load_table(path or DATA_DIR / "catacombs" / "monsters.toml", "monster",
                             MONSTER_FIELDS))


def monster(name: str) -> dict[str, Any]:
    return _find(monsters(), name, "monster card", "monsters.toml")


def piece_from_monster(piece_id: str, name: str) -> Piece:
    """An AI piece for one unit of a monster card."""
    record = monster(name)
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


# --------------------------------------------------------------------------- shared checks

COUNT_ENTRY = re.compile(r"^([1-9][0-9]?) x (.+)$")
MONSTER_GROUP = re.compile(r"^Level ([1-4]) Monster Group$")
MERCENARY = "Mercenary"


def _count_entries(value: Any) -> str | None:
    for entry in value:
        if not isinstance(entry, str) or not COUNT_ENTRY.match(entry):
            return f"entry {entry!r} should read 'N x Monster name'"
    return None


def split_entry(entry: str) -> tuple[int, str]:
    """``"2 x Orc"`` -> ``(2, "Orc")``."""
    found = COUNT_ENTRY.match(entry)
    if found is None:
        raise ValueError(f"entry {entry!r} should read 'N x Monster name'")
    return int(found.group(1)), found.group(2)


def _check_names(path: Path, record: dict[str, Any], table: str, field: str,
                 names: list[str], allowed: tuple[str, ...] = ()) -> None:
    """Every monster named in ``names`` must be a card of monsters.toml (file, line, field)."""
    for name in names:
        if name in allowed or MONSTER_GROUP.match(name):
            continue
        if name.lower() not in monsters() and name not in monsters():
            raise DataError(path, field_line(path, record["_line"], field),
                            f"{table} {record['id']!r}", field,
                            f"{name!r} is not a monster of data/catacombs/monsters.toml")


# --------------------------------------------------------------------------- lords

def _minions(value: Any) -> str | None:
    """Each minion entry is 'N x Monster', or a [left, right] pair of them (a D12 choice)."""
    for entry in value:
        pair = entry if isinstance(entry, list) else [entry]
        if len(pair) not in (1, 2) or (isinstance(entry, list) and len(pair) != 2):
            return f"a choice must be a [left, right] pair (got {entry!r})"
        problem = _count_entries(pair)
        if problem:
            return problem
    return None if value else "needs at least one minion entry"


def _one_or_two(value: Any) -> str | None:
    if not 1 <= len(value) <= 2:
        return f"needs one or two entries (a D12 choice), got {len(value)}"
    return list_of(str)(value)


LORD_FIELDS = {
    "id": Field(str),
    "name": Field(str),
    "set": Field(str),
    "health": Field(int, check=at_least(1)),
    "playmats": Field(list, check=lambda v: list_of(str)(v) or (
        None if len(v) <= 2 else "at most two playmats (left, right)")),
    "mercenary": Field(list, check=_one_or_two),
    "minions": Field(list, check=_minions),
    "sequences": Field(list, check=_sequences),
    "reactive": Field(str, required=False, check=_reactive),  # not printed: absent in the data
    "notes": Field(str, required=False),
}


@cache
def lords(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """Catacomb Lord setup cards by id and by lower-case name."""
    path = path or DATA_DIR / "catacombs" / "lords.toml"
    records = load_table(path, "lord", LORD_FIELDS)
    known = playmats()
    for record in records:
        for pm in record["playmats"]:
            if pm not in known:
                raise DataError(path, field_line(path, record["_line"], "playmats"),
                                f"lord {record['id']!r}", "playmats",
                                f"{pm!r} is not a playmat of data/catacombs/playmats.toml")
        _check_names(path, record, "lord", "mercenary", record["mercenary"])
        minion_names = [split_entry(e)[1] for entry in record["minions"]
                        for e in (entry if isinstance(entry, list) else [entry])]
        _check_names(path, record, "lord", "minions", minion_names)
    return _index(records)


def lord(name: str) -> dict[str, Any]:
    return _find(lords(), name, "Catacomb Lord card", "lords.toml")


def piece_from_lord(piece_id: str, name: str) -> Piece:
    """The Catacomb Lord's piece (Red Box: Catacomb Lord Room Setup)."""
    record = lord(name)
    return Piece(id=piece_id, name=record["name"], type="lord", order_tile="lord",
                 sequences=[parse_sequence(seq) for seq in record["sequences"]],
                 health=record["health"], reactive=_reactive_shot(record))


# --------------------------------------------------------------------------- rooms

QUADRANTS = ("level1", "level2", "level3", "level4")
ROOM_FIELDS = {
    "id": Field(str),
    "name": Field(str),
    "set": Field(str),
    "difficulty": Field(int, check=one_of(0, 1, 2)),
    "suppresses": Field(list, check=list_of(str)),
    **{q: Field(list, check=_count_entries) for q in QUADRANTS},
    "playmat": Field(str, required=False),
    "reward_spell": Field(bool, required=False),
    "reward_gold": Field(int, required=False, check=at_least(1)),
    "notes": Field(str, required=False),
}


@cache
def rooms(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """Room cards by id and by lower-case name."""
    path = path or DATA_DIR / "catacombs" / "rooms.toml"
    records = load_table(path, "room", ROOM_FIELDS)
    known = playmats()
    for record in records:
        if "playmat" in record and record["playmat"] not in known:
            raise DataError(path, field_line(path, record["_line"], "playmat"),
                            f"room {record['id']!r}", "playmat",
                            f"{record['playmat']!r} is not a playmat of "
                            "data/catacombs/playmats.toml")
        for quadrant in QUADRANTS:
            _check_names(path, record, "room", quadrant,
                         [split_entry(e)[1] for e in record[quadrant]], (MERCENARY,))
        if not any(record[q] for q in QUADRANTS):
            raise DataError(path, record["_line"], f"room {record['id']!r}", "level1",
                            "a battle room needs at least one monster")
    return _index(records)


def room(name: str) -> dict[str, Any]:
    return _find(rooms(), name, "Room card", "rooms.toml")


# --------------------------------------------------------------------------- playmats

PLAYMAT_RULES = ("catacombs", "keystone", "castle")
PLAYMAT_FIELDS = {
    "id": Field(str),
    "name": Field(str),
    "die": Field(str, check=one_of("rune", "d12", "none")),
    "face": Field(int, required=False, check=one_of(*range(1, 13))),
    "rule": Field(str, check=one_of(*PLAYMAT_RULES)),
    "start_zone_runes": Field(int, required=False, check=one_of(2, 3, 4)),
    "unverified_fields": Field(list, required=False, check=list_of(str)),
}


@cache
def playmats(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """Playmats by id. Rune Die faces 1-6 and D12 faces 2-12 must each be held once."""
    path = path or DATA_DIR / "catacombs" / "playmats.toml"
    table: dict[str, dict[str, Any]] = {}
    faces: dict[tuple[str, int], str] = {}
    for record in load_table(path, "playmat", PLAYMAT_FIELDS):
        die, face = record["die"], record.get("face")
        where = field_line(path, record["_line"], "face")
        if die != "none":
            low = 1 if die == "rune" else 2
            high = 6 if die == "rune" else 12
            if face is None or not low <= face <= high:
                raise DataError(path, where, f"playmat {record['id']!r}", "face",
                                f"a {die} playmat needs a face from {low} to {high}")
            if (die, face) in faces:
                raise DataError(path, where, f"playmat {record['id']!r}", "face",
                                f"{die} face {face} is already playmat {faces[die, face]!r}")
            faces[die, face] = record["id"]
        table[record["id"]] = record
    for die, low, high in (("rune", 1, 6), ("d12", 2, 12)):
        missing = [f for f in range(low, high + 1) if (die, f) not in faces]
        if missing:
            raise DataError(path, None, None, "face",
                            f"no {die} playmat for face(s) {', '.join(map(str, missing))}")
    return table


def playmat_on(die: str, face: int) -> dict[str, Any]:
    """The playmat a Rune Die or D12 result names."""
    for record in playmats().values():
        if record["die"] == die and record.get("face") == face:
            return record
    raise KeyError(f"no {die} playmat for face {face}")


def playmat_label(record: dict[str, Any]) -> str:
    """How the trace names a playmat: its name, or its chart number when unnamed."""
    if record["name"]:
        return record["name"]
    die = "Rune Die" if record["die"] == "rune" else "D12"
    return f"the {die} {record['face']} playmat (unnamed in the book)"
