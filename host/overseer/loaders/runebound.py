"""Load data/runebound/ (or a folder the user names) into one ``RuneboundData``, validated.

The only place the Runebound data files are read: every record is checked against its field
schema, names are cross-checked (a town on a terrain that is not in terrain.toml, a card of a
curse that is not a deck, a counter revealing an unknown curse), the book's deck shape is
checked (five decks of three Level I, two Level II and one Level III card) and the counters
must be one a town with one for each deck. The first problem stops the load with a
``DataError`` naming file, line, record and field. Format: docs/data.md, "Runebound".
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from overseer.core.records import (
    DATA_DIR,
    DataError,
    Field,
    field_line,
    list_of,
    load_table,
    one_of,
)
from overseer.rules.runebound.components import (
    CARDS_PER_LEVEL,
    DESTROYED,
    Counter,
    Curse,
    CurseCard,
    Face,
    RuneboundData,
    Terrain,
    Token,
    Town,
)

FOLDER = DATA_DIR / "runebound"
# Cataclysm: Setup, step 1 - five Curse decks.
DECKS = 5

TOWN_FIELDS = {"id": Field(str), "name": Field(str), "terrain": Field(str),
               "name_printed": Field(bool, required=False)}
TERRAIN_FIELDS = {"id": Field(str), "name": Field(str)}
FACE_FIELDS = {"id": Field(str), "terrain": Field(list, check=list_of(str))}
CURSE_FIELDS = {"id": Field(str), "name": Field(str)}
CARD_FIELDS = {"id": Field(str), "curse": Field(str), "level": Field(int, check=one_of(1, 2, 3)),
               "name": Field(str)}
COUNTER_FIELDS = {"id": Field(str), "reveals": Field(str)}
TOKEN_FIELDS = {"id": Field(str), "name": Field(str)}


def _fail(path: Path, record: dict, table: str, field: str, message: str) -> DataError:
    return DataError(path, field_line(path, record["_line"], field), f"{table} {record['id']!r}",
                     field, message)


def _terrain(folder: Path) -> tuple[dict[str, Terrain], tuple[Face, ...]]:
    path = folder / "terrain.toml"
    terrain = {r["id"]: Terrain(r["id"], r["name"], r["verified"], r["source"])
               for r in load_table(path, "terrain", TERRAIN_FIELDS)}
    faces = []
    for r in load_table(path, "face", FACE_FIELDS):
        for t in r["terrain"]:
            if t not in terrain:
                raise _fail(path, r, "face", "terrain", f"{t!r} is not a [[terrain]] of the file")
        if not r["terrain"]:
            raise _fail(path, r, "face", "terrain", "a face shows at least one terrain")
        faces.append(Face(r["id"], tuple(r["terrain"]), r["verified"], r["source"]))
    return terrain, tuple(faces)


def _towns(folder: Path, terrain: dict[str, Terrain]) -> dict[str, Town]:
    path = folder / "towns.toml"
    towns = {}
    for r in load_table(path, "town", TOWN_FIELDS):
        if r["terrain"] not in terrain:
            raise _fail(path, r, "town", "terrain",
                        f"{r['terrain']!r} is not a terrain of {folder.name}/terrain.toml")
        towns[r["id"]] = Town(r["id"], r["name"], r["terrain"], r["verified"], r["source"],
                              r.get("name_printed", False))
    return towns


def _curses(folder: Path) -> tuple[dict[str, Curse], dict[str, CurseCard]]:
    path = folder / "curses.toml"
    curses = {r["id"]: Curse(r["id"], r["name"], r["verified"], r["source"])
              for r in load_table(path, "curse", CURSE_FIELDS)}
    if len(curses) != DECKS:
        raise DataError(path, None, None, None,
                        f"{len(curses)} [[curse]] records; the book has {DECKS} Curse decks")
    cards: dict[str, CurseCard] = {}
    for r in load_table(path, "card", CARD_FIELDS):
        if r["curse"] not in curses:
            raise _fail(path, r, "card", "curse", f"{r['curse']!r} is not a [[curse]] of the file")
        cards[r["id"]] = CurseCard(r["id"], r["curse"], r["level"], r["name"], r["verified"],
                                   r["source"])
    for curse in curses:
        for level, count in CARDS_PER_LEVEL.items():
            have = sum(1 for c in cards.values() if c.curse == curse and c.level == level)
            if have != count:
                raise DataError(path, None, f"curse {curse!r}", "level",
                                f"{have} Level {level} card(s); each curse has {count}")
    return curses, cards


def _counters(folder: Path, curses: dict[str, Curse], towns: int) -> dict[str, Counter]:
    path = folder / "counters.toml"
    counters = {}
    for r in load_table(path, "counter", COUNTER_FIELDS):
        if r["reveals"] != DESTROYED and r["reveals"] not in curses:
            raise _fail(path, r, "counter", "reveals",
                        f"{r['reveals']!r} is neither {DESTROYED!r} nor a curse of "
                        f"{folder.name}/curses.toml")
        counters[r["id"]] = Counter(r["id"], r["reveals"], r["verified"], r["source"])
    if len(counters) != towns:
        raise DataError(path, None, None, None,
                        f"{len(counters)} counters for {towns} towns: one a town")
    for curse in curses:
        if sum(1 for c in counters.values() if c.reveals == curse) != 1:
            raise DataError(path, None, None, "reveals",
                            f"the curse {curse!r} needs exactly one counter")
    return counters


def load(folder: Path | None = None) -> RuneboundData:
    """The box data of ``folder`` (data/runebound/ by default), checked."""
    folder = FOLDER if folder is None else Path(folder)
    terrain, faces = _terrain(folder)
    towns = _towns(folder, terrain)
    curses, cards = _curses(folder)
    counters = _counters(folder, curses, len(towns))
    tokens = {r["id"]: Token(r["id"], r["name"], r["verified"], r["source"])
              for r in load_table(folder / "tokens.toml", "token", TOKEN_FIELDS)}
    where = "data/runebound" if folder == FOLDER else str(folder)
    return RuneboundData(towns=towns, terrain=terrain, faces=faces, curses=curses, cards=cards,
                         counters=counters, tokens=tokens, where=where)


@cache
def default() -> RuneboundData:
    """data/runebound/, loaded once: every game built from it shares the one value."""
    return load()
