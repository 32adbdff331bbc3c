"""Load data/catacombs/ (or a folder the user names) into one ``CatacombsData``, validated.

The only place the Catacombs data files are read: every record is checked against its field
schema, names are cross-checked (a room or lord naming a monster that is not a card, a playmat
that is not in playmats.toml), and the first problem stops the load with a ``DataError``
naming file, line, record and field. The rules receive the result (``Battle.data``) and never
read a file. Loading once per folder is the caller's affair (``games.catacombs_data``).
Format: docs/data.md.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from overseer.core.procedure import Token
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
from overseer.rules.catacombs.carddata import Behaviour, CatacombsData, Record
from overseer.rules.catacombs.cards import (
    COUNT_ENTRY,
    FAMILY_TYPE,
    MERCENARY,
    MONSTER_GROUP,
    QUADRANTS,
    split_entry,
)
from overseer.rules.catacombs.state import ENEMY_KINDS, parse_sequence

FOLDER = DATA_DIR / "catacombs"

# --------------------------------------------------------------------------- shared checks


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


def _count_entries(value: Any) -> str | None:
    for entry in value:
        if not isinstance(entry, str) or not COUNT_ENTRY.match(entry):
            return f"entry {entry!r} should read 'N x Monster name'"
    return None


def _by_id(records: list[Record]) -> dict[str, Record]:
    return {r["id"]: r for r in records}


def _beside(path: Path, name: str) -> str:
    """How a message names another file of the folder: data/catacombs/monsters.toml."""
    return f"{'data/catacombs' if path.parent == FOLDER else path.parent}/{name}"


def _names(monsters: dict[str, Record]) -> set[str]:
    """What a room or lord may call a monster: its id or its name, in any case."""
    return {*monsters, *(r["name"].lower() for r in monsters.values())}


def _check_names(path: Path, known: set[str], record: Record, table: str, field: str,
                 names: list[str], allowed: tuple[str, ...] = ()) -> None:
    """Every monster named in ``names`` must be a card of monsters.toml (file, line, field)."""
    for name in names:
        if name in allowed or MONSTER_GROUP.match(name):
            continue
        if name not in known and name.lower() not in known:
            raise DataError(path, field_line(path, record["_line"], field),
                            f"{table} {record['id']!r}", field,
                            f"{name!r} is not a monster of {_beside(path, 'monsters.toml')}")


def _check_playmat(path: Path, playmats: dict[str, Record], record: Record, table: str,
                   field: str, playmat: str) -> None:
    if playmat not in playmats:
        raise DataError(path, field_line(path, record["_line"], field),
                        f"{table} {record['id']!r}", field,
                        f"{playmat!r} is not a playmat of {_beside(path, 'playmats.toml')}")


# --------------------------------------------------------------------------- the battle tables

CRITERIA = ("most_gold", "least_gold", "most_poison", "least_health", "most_health",
            "without_items", "most_items", "closest")
NO_TARGET = ("retreat_half_clock", "toward_obstacle", "advance", "random_clock", "random_rune")
PREFERENCES = ("poison", "ranged", "melee", "none")

BEHAVIOUR_FIELDS = {
    "id": Field(str),
    "family": Field(str),
    "ruler": Field(int, check=one_of(1, 2, 3)),
    "shot_preference": Field(str, check=one_of(*PREFERENCES)),
    "primary": Field(str, check=one_of(*CRITERIA)),
    "secondary": Field(str, check=one_of(*CRITERIA)),
    "tie_breaker": Field(str, check=one_of(*CRITERIA)),
    "no_target": Field(str, check=one_of(*NO_TARGET)),
    "unverified_fields": Field(list, required=False, check=list_of(str)),
}
TILE_FIELDS = {
    "id": Field(str),
    "set": Field(str, check=one_of("character_order", "monster_order", "direction",
                                   "hero_target")),
    "text": Field(str),
    "colour": Field(str, required=False, check=one_of("green", "blue")),
    "low": Field(int, required=False, check=at_least(1)),
    "high": Field(int, required=False, check=at_least(1)),
}
TOKEN_FIELDS = {
    "id": Field(str),
    "level": Field(int, check=one_of(1, 2, 3)),
    "value": Field(int, check=at_least(0)),
    "reset": Field(bool, required=False),
    "count": Field(int, check=at_least(1)),
}
# Red Box: Components: 13 level 1, 12 level 2 and 13 level 3 damage tokens.
TOKENS_PER_LEVEL = {1: 13, 2: 12, 3: 13}
DEATH_FIELDS = {
    "id": Field(str),
    "name": Field(str),
    "effect": Field(str, check=one_of("dies", "poison", "lose_health", "gain_health",
                                      "reckless", "stunned")),
    "amount": Field(int, check=at_least(0)),
}
PORTAL_FIELDS = {
    "id": Field(str),
    "low": Field(int, check=one_of(*range(1, 13))),
    "high": Field(int, check=one_of(*range(1, 13))),
    "damage": Field(int, check=at_least(0)),
    "outcome": Field(str, check=one_of("teleported", "rush", "random_rune", "hidden_cave")),
}
POISON_FIELDS = {"id": Field(str), "value": Field(int, check=at_least(0)),
                 "count": Field(int, check=at_least(1))}


def _behaviour(folder: Path) -> dict[str, Behaviour]:
    return {r["id"]: Behaviour(
        r["id"], r["family"], r["ruler"], r["shot_preference"], r["primary"], r["secondary"],
        r["tie_breaker"], r["no_target"], r["verified"], tuple(r.get("unverified_fields", ())),
        r["source"]) for r in load_table(folder / "ai_behaviour.toml", "type", BEHAVIOUR_FIELDS)}


def _damage_tokens(folder: Path) -> tuple[dict[int, tuple[Token, ...]], bool]:
    """The bag of each level, and whether every token value is printed."""
    path = folder / "damage_tokens.toml"
    records = load_table(path, "token", TOKEN_FIELDS)
    pools: dict[int, list[Token]] = {1: [], 2: [], 3: []}
    for r in records:
        pools[r["level"]].extend([Token(r["value"], r.get("reset", False))] * r["count"])
    for level, want in TOKENS_PER_LEVEL.items():
        if len(pools[level]) != want:
            raise DataError(path, None, f"level {level}", "count",
                            f"level {level} holds {len(pools[level])} tokens; the Red Box has "
                            f"{want}")
    return {k: tuple(v) for k, v in pools.items()}, all(r["verified"] for r in records)


# --------------------------------------------------------------------------- monsters


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


def _lords(path: Path, known: set[str], playmats: dict[str, Record]) -> dict[str, Record]:
    records = load_table(path, "lord", LORD_FIELDS)
    for record in records:
        for pm in record["playmats"]:
            _check_playmat(path, playmats, record, "lord", "playmats", pm)
        _check_names(path, known, record, "lord", "mercenary", record["mercenary"])
        minion_names = [split_entry(e)[1] for entry in record["minions"]
                        for e in (entry if isinstance(entry, list) else [entry])]
        _check_names(path, known, record, "lord", "minions", minion_names)
    return _by_id(records)


# --------------------------------------------------------------------------- rooms

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


def _rooms(path: Path, known: set[str], playmats: dict[str, Record]) -> dict[str, Record]:
    records = load_table(path, "room", ROOM_FIELDS)
    for record in records:
        if "playmat" in record:
            _check_playmat(path, playmats, record, "room", "playmat", record["playmat"])
        for quadrant in QUADRANTS:
            _check_names(path, known, record, "room", quadrant,
                         [split_entry(e)[1] for e in record[quadrant]], (MERCENARY,))
        if not any(record[q] for q in QUADRANTS):
            raise DataError(path, record["_line"], f"room {record['id']!r}", "level1",
                            "a battle room needs at least one monster")
    return _by_id(records)


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


def _playmats(path: Path) -> dict[str, Record]:
    """Playmats by id. Rune Die faces 1-6 and D12 faces 2-12 must each be held once."""
    table: dict[str, Record] = {}
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


# --------------------------------------------------------------------------- campaigns

CAMPAIGN_FIELDS = {"id": Field(str), "name": Field(str), "start": Field(str)}
STAGE_FIELDS = {
    "id": Field(str),
    "campaign": Field(str),
    "position": Field(int, check=at_least(1)),
    "kind": Field(str, check=one_of("battle", "special", "lord")),
    "rooms": Field(list, check=list_of(str)),
    "level": Field(int, required=False, check=one_of(0, 1, 2)),
    "choice": Field(str, required=False, check=one_of("one", "any")),
}


def _campaigns(path: Path) -> tuple[dict[str, Record], dict[str, tuple[Record, ...]]]:
    camps = _by_id(load_table(path, "campaign", CAMPAIGN_FIELDS))
    stages: dict[str, list[Record]] = {c: [] for c in camps}
    for r in load_table(path, "stage", STAGE_FIELDS):
        if r["campaign"] not in camps:
            raise DataError(path, field_line(path, r["_line"], "campaign"), f"stage {r['id']!r}",
                            "campaign",
                            f"{r['campaign']!r} is not a [[campaign]] of the file")
        want = 2 if "choice" in r else 1
        if len(r["rooms"]) != want:
            raise DataError(path, field_line(path, r["_line"], "rooms"), f"stage {r['id']!r}",
                            "rooms",
                            f"a {'choice ' if want == 2 else ''}stage lists {want} room(s)")
        stages[r["campaign"]].append(r)
    for camp, listed in stages.items():
        listed.sort(key=lambda r: r["position"])
        if [r["position"] for r in listed] != list(range(1, len(listed) + 1)):
            raise DataError(path, None, f"campaign {camp!r}", "position",
                            "stage positions must run 1, 2, 3 ... without gaps")
    return camps, {c: tuple(listed) for c, listed in stages.items()}


# --------------------------------------------------------------------------- the Hidden Cave

ITEM_FIELDS = {"id": Field(str), "name": Field(str)}
SETTING_FIELDS = {"id": Field(str), "value": Field(int)}


def _hidden_cave(path: Path) -> tuple[tuple[str, ...], Record]:
    """The four items beside the card, and the token level setting."""
    items = load_table(path, "item", ITEM_FIELDS)
    settings = _by_id(load_table(path, "setting", SETTING_FIELDS))
    if "token_level" not in settings or settings["token_level"]["value"] not in (1, 2, 3):
        start = settings.get("token_level", {}).get("_line")
        raise DataError(path, field_line(path, start, "value"), "setting 'token_level'",
                        "value", "token_level must be set to 1, 2 or 3")
    return tuple(r["name"] for r in items), settings["token_level"]


# --------------------------------------------------------------------------- heroes

HERO_SIDES = ("base", "catacomb")
HERO_FIELDS = {
    "id": Field(str),
    "name": Field(str),
    "kind": Field(str, check=one_of(*ENEMY_KINDS)),
    "side": Field(str, check=one_of(*HERO_SIDES)),
    "notes": Field(str, required=False),
}


def heroes(folder: Path | None = None) -> dict[str, Record]:
    """The heroes of ``folder``'s heroes.toml (data/catacombs/ by default) by id, checked: the
    ones a new game lists and whose cards get tags. The rules never read them (a battle's heroes
    come from its setup), so they are not part of ``CatacombsData``; ``default_heroes`` keeps
    the default folder's."""
    path = (FOLDER if folder is None else folder) / "heroes.toml"
    records = load_table(path, "hero", HERO_FIELDS, alone=True)
    return _by_id(records)


# --------------------------------------------------------------------------- the whole folder


def load(folder: Path | None = None) -> CatacombsData:
    """Every file of ``folder`` (data/catacombs/ by default), checked; ``DataError`` (file,
    line, record, field) at the first problem."""
    where = FOLDER if folder is None else folder
    tokens, tokens_verified = _damage_tokens(where)
    poison = load_table(where / "poison_cards.toml", "card", POISON_FIELDS)
    playmats = _playmats(where / "playmats.toml")
    monsters = _by_id(load_table(where / "monsters.toml", "monster", MONSTER_FIELDS))
    camps, stages = _campaigns(where / "campaigns.toml")
    items, token_level = _hidden_cave(where / "hidden_cave.toml")
    return CatacombsData(
        behaviour=_behaviour(where),
        tiles=_by_id(load_table(where / "tiles.toml", "tile", TILE_FIELDS)),
        damage_tokens=tokens,
        death_cards=tuple(load_table(where / "death_cards.toml", "card", DEATH_FIELDS)),
        portal_trap=tuple(load_table(where / "portal_trap.toml", "result", PORTAL_FIELDS)),
        poison_cards=tuple(v for r in poison for v in [r["value"]] * r["count"]),
        tokens_verified=tokens_verified,
        poison_verified=all(r["verified"] for r in poison),
        monsters=monsters,
        lords=_lords(where / "lords.toml", _names(monsters), playmats),
        rooms=_rooms(where / "rooms.toml", _names(monsters), playmats),
        playmats=playmats,
        campaigns=camps,
        stages=stages,
        cave_items=items,
        cave_token_level=token_level["value"],
        cave_token_level_verified=token_level["verified"],
        **({} if folder is None else {"where": str(folder)}),
    )


@cache
def default() -> CatacombsData:
    """data/catacombs/, loaded and validated once: every battle built from it shares the one
    value (the rules compare its records by identity)."""
    return load()


@cache
def default_heroes() -> dict[str, Record]:
    """data/catacombs/heroes.toml by id, loaded and validated once: the new game's list, the
    hero cards a tap names."""
    return heroes()
