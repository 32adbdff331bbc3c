"""Load data/clank/ (or a folder the user names) into one ``ClankData``, validated.

The only place the Clank! data files are read: every record is checked against its field
schema, names are cross-checked (a space in a room that is not in rooms.toml, a monster whose
lair is not a lair, a section that is not in the rulebook module), and the first problem stops
the load with a ``DataError`` naming file, line, record and field. The rules receive the result
(``ClankState.data``). ``default()`` loads data/clank/ once. Format: docs/data.md.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from overseer.core.records import (
    DATA_DIR,
    DataError,
    Field,
    at_least,
    field_line,
    list_of,
    load_table,
    one_of,
)
from overseer.rules.clank import rulebook
from overseer.rules.clank.records import (
    CUBES_FROM,
    LAIR,
    MAD_BAZAAR,
    MONSTERS,
    REWARD_PARTS,
    ROOM_KINDS,
    ROOMS,
    TEMPLE_OF_GOLD,
    Card,
    ClankData,
    Monster,
    Room,
    SafeTile,
    Space,
    Topic,
)
from overseer.rules.clank.setup import NEW_SAFE_TILES, SAFE_TILES_USED

FOLDER = DATA_DIR / "clank"
Record = dict[str, Any]



def _sections() -> list[str]:
    return [n for n, v in vars(rulebook).items()
            if n.isupper() and not n.startswith("_") and isinstance(v, str)]


def _lines(value: Any) -> str | None:
    return list_of(str)(value) or (None if value else "needs at least one line")


SAFE_TILE_FIELDS = {
    "id": Field(str),
    "name": Field(str),
    "set": Field(str, check=one_of("base", "expansion")),
    "find": Field(str),
}
ROOM_FIELDS = {
    "id": Field(str),
    "name": Field(str),
    "kind": Field(str, check=one_of(*ROOM_KINDS)),
    "cubes_from": Field(str, check=one_of(*CUBES_FROM)),
    "section": Field(str, check=one_of(*_sections())),
    "rules": Field(list, check=_lines),
}
SPACE_FIELDS = {
    "id": Field(str),
    "room": Field(str),
    "name": Field(str),
    "offering": Field(int, required=False, check=at_least(1)),
    "reward": Field(list, required=False, check=list_of(str, choices=tuple(REWARD_PARTS))),
    "effect": Field(list, required=False, check=_lines),
}
MONSTER_FIELDS = {
    "id": Field(str),
    "name": Field(str),
    "tokens": Field(int, check=at_least(1)),
    "lair": Field(str),
    "swords": Field(int, check=at_least(0)),
    "skills": Field(int, required=False, check=at_least(1)),
    "secret_tome": Field(bool, required=False),
    "defeat": Field(str),
    "trophy": Field(str),
    "vp": Field(int, check=at_least(0)),
    "ignores_tunnel_monsters": Field(bool, required=False),
    "section": Field(str, check=one_of(*_sections())),
}
CARD_FIELDS = {
    "id": Field(str),
    "name": Field(str),
    "kind": Field(str, check=one_of("monster", "device")),
    "swords": Field(int, required=False, check=at_least(0)),
    "defeat": Field(str, required=False),
    "trophy": Field(str),
    "vp": Field(int, required=False, check=at_least(0)),
    "vp_per_gold": Field(int, required=False, check=at_least(1)),
    "section": Field(str, check=one_of(*_sections())),
}
TOPIC_FIELDS = {
    "id": Field(str),
    "name": Field(str),
    "section": Field(str, check=one_of(*_sections())),
    "rules": Field(list, check=_lines),
}


def _fail(path: Path, record: Record, table: str, field: str, message: str) -> DataError:
    return DataError(path, field_line(path, record["_line"], field), f"{table} {record['id']!r}",
                     field, message)


def _safe_tiles(path: Path) -> dict[str, SafeTile]:
    records = load_table(path, "tile", SAFE_TILE_FIELDS)
    new = [r for r in records if r["set"] == "expansion"]
    if len(new) != NEW_SAFE_TILES:
        raise DataError(path, None, None, "set", f"{len(new)} expansion safe tiles; the "
                        f"expansion has {NEW_SAFE_TILES}")
    if len(records) < SAFE_TILES_USED:
        raise DataError(path, None, None, "set", f"{len(records)} safe tiles in all; a game "
                        f"uses {SAFE_TILES_USED}")
    return {r["id"]: SafeTile(r["id"], r["name"], r["set"], r["find"], r["verified"],
                              r["source"]) for r in records}


def _missing(path: Path, found: dict[str, Any], wanted: tuple[str, ...], what: str) -> None:
    """The rooms and monsters the rules name must all be in the file."""
    missing = [w for w in wanted if w not in found]
    if missing:
        raise DataError(path, None, None, "id", f"no {what} {', '.join(missing)} (the rules "
                        "name it)")


def _rooms(path: Path) -> dict[str, Room]:
    rooms = {r["id"]: Room(r["id"], r["name"], r["kind"], r["cubes_from"],
                           getattr(rulebook, r["section"]), tuple(r["rules"]), r["verified"],
                           r["source"]) for r in load_table(path, "room", ROOM_FIELDS)}
    _missing(path, rooms, ROOMS, "room")
    return rooms


def _spaces(path: Path, rooms: dict[str, Room]) -> dict[str, Space]:
    spaces: dict[str, Space] = {}
    for r in load_table(path, "space", SPACE_FIELDS):
        room = rooms.get(r["room"])
        if room is None:
            raise _fail(path, r, "space", "room", f"{r['room']!r} is not a room of rooms.toml")
        if room.cubes_from == "none":
            raise _fail(path, r, "space", "room", f"{room.name} takes no cubes "
                        "(cubes_from = \"none\")")
        if ("offering" in r) != (room.id == TEMPLE_OF_GOLD) or \
                ("reward" in r) != ("offering" in r):
            raise _fail(path, r, "space", "offering", "a Temple of Gold column, and only one, "
                        "has an offering and a reward")
        if ("effect" in r) != (room.id == MAD_BAZAAR):
            raise _fail(path, r, "space", "effect", "a Mad Bazaar stall, and only one, has an "
                        "effect")
        spaces[r["id"]] = Space(r["id"], r["room"], r["name"], r.get("offering"),
                                tuple(r.get("reward", ())), tuple(r.get("effect", ())),
                                r["verified"], r["source"])
    for room in rooms.values():
        if room.cubes_from != "none" and not any(s.room == room.id for s in spaces.values()):
            raise DataError(path, None, f"room {room.id!r}", "room",
                            f"{room.name} takes cubes but has no space in {path.name}")
    return spaces


def _monsters(path: Path, rooms: dict[str, Room]) -> dict[str, Monster]:
    monsters: dict[str, Monster] = {}
    for r in load_table(path, "monster", MONSTER_FIELDS):
        lair = rooms.get(r["lair"])
        if lair is None or lair.kind != LAIR:
            raise _fail(path, r, "monster", "lair", f"{r['lair']!r} is not a lair of rooms.toml")
        monsters[r["id"]] = Monster(
            r["id"], r["name"], r["tokens"], r["lair"], r["swords"], r.get("skills"),
            r.get("secret_tome", False), r["defeat"], r["trophy"], r["vp"],
            r.get("ignores_tunnel_monsters", False), getattr(rulebook, r["section"]),
            r["verified"], r["source"])
    _missing(path, monsters, MONSTERS, "monster")
    return monsters


def _cards(path: Path, monsters: dict[str, Monster]) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for r in load_table(path, "card", CARD_FIELDS):
        if r["id"] in monsters:
            raise _fail(path, r, "card", "id", f"{r['id']!r} is a monster token of "
                        "monsters.toml")
        if "vp" in r and "vp_per_gold" in r:
            raise _fail(path, r, "card", "vp_per_gold", "a card has vp or vp_per_gold, not both")
        cards[r["id"]] = Card(r["id"], r["name"], r["kind"], r.get("swords"), r.get("defeat"),
                              r["trophy"], r.get("vp"), r.get("vp_per_gold"),
                              getattr(rulebook, r["section"]), r["verified"], r["source"])
    return cards


def _topics(path: Path, taken: set[str]) -> dict[str, Topic]:
    topics: dict[str, Topic] = {}
    for r in load_table(path, "topic", TOPIC_FIELDS):
        if r["id"] in taken:
            raise _fail(path, r, "topic", "id", f"{r['id']!r} is already a room, monster or card")
        topics[r["id"]] = Topic(r["id"], r["name"], getattr(rulebook, r["section"]),
                                tuple(r["rules"]), r["verified"], r["source"])
    return topics


def load(folder: Path | None = None) -> ClankData:
    """Every file of ``folder`` (data/clank/ by default), checked; ``DataError`` (file, line,
    record, field) at the first problem."""
    where = FOLDER if folder is None else folder
    rooms = _rooms(where / "rooms.toml")
    monsters = _monsters(where / "monsters.toml", rooms)
    cards = _cards(where / "cards.toml", monsters)
    return ClankData(
        safe_tiles=_safe_tiles(where / "safe_tiles.toml"),
        rooms=rooms,
        spaces=_spaces(where / "spaces.toml", rooms),
        monsters=monsters,
        cards=cards,
        topics=_topics(where / "lookups.toml", {*rooms, *monsters, *cards}),
    )


@cache
def default() -> ClankData:
    """data/clank/, loaded once: every game built from it shares the one value."""
    return load()
