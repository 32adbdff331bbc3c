"""The Red Box campaigns (Red Box: Campaigns): the Monstrosity and the Pharaoh, their cards in
the printed order and the two choice points; and the cards a table enters when the card data
lacks them (the Red Box campaign rooms and Lords are not in the fan data).

The book draws the campaign paths as arrows that are not in its text; Overseer follows the
printed list order and says so in the trace, and asks the heroes at the printed choice points.
Actions: ``campaign_start``, ``campaign_next``. An entered card travels in the action that
needs it (``"card"`` of ``setup_room``, ``choose_lord``, ``setup_lord_room``,
``campaign_start``) and is kept in ``Battle.adventure``, so a refold of the log rebuilds it.
"""

from __future__ import annotations

import copy
import difflib
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
from overseer.rules.catacombs import cards
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.rulebook import CAMPAIGNS
from overseer.rules.catacombs.state import Battle, Piece, parse_sequence
from overseer.rules.procedure import ChooseOne, Procedure, RulesError, Step

BOTH = "both"

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


@cache
def _load(folder: Path | None = None) -> tuple[dict[str, dict[str, Any]],
                                               dict[str, list[dict[str, Any]]]]:
    path = (folder or DATA_DIR / "catacombs") / "campaigns.toml"
    camps = {r["id"]: r for r in load_table(path, "campaign", CAMPAIGN_FIELDS)}
    stages: dict[str, list[dict[str, Any]]] = {c: [] for c in camps}
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
    return camps, stages


def campaigns() -> dict[str, dict[str, Any]]:
    return _load()[0]


def stages(campaign: str) -> list[dict[str, Any]]:
    return _load()[1][campaign]


def campaign_start(battle: Battle, action: dict[str, Any]) -> Procedure:
    """``{"do": "campaign_start", "campaign": "monstrosity" | "pharaoh", "card": {...}
    (optional: the campaign Lord's card when the data lacks it)}``."""
    adventure = battle.adventure
    if adventure.campaign is not None:
        raise RulesError(f"the {adventure.campaign} campaign is already under way")
    camp = campaigns().get(action.get("campaign"))
    if camp is None:
        raise RulesError(f"no campaign {action.get('campaign')!r}; the Red Box has "
                         f"{', '.join(campaigns())}")
    start = camp["start"]
    lord = None
    if adventure.lord is not None:
        chosen = lord_card(battle, adventure.lord)["name"]
        if not same_name(chosen, start):
            raise RulesError(f"this game's Catacomb Lord is {chosen}; the {camp['name']} "
                             f"starts with the {start}")
        if "card" in action:
            raise RulesError(f"the {start} is already this game's Catacomb Lord: no card to "
                             "enter")
    elif "card" in action:
        lord = enter_lord(battle, start, action["card"])
    else:
        lord = _known_lord(battle, start)
    listed = stages(camp["id"])
    adventure.campaign = camp["id"]
    adventure.stage = 0
    adventure.visited = []
    yield Step(StepKind.CAMPAIGN, CAMPAIGNS, f"{camp['name']}: start with the {start}; then "
               + " > ".join(" or ".join(s["rooms"]) if s.get("choice") == "one"
                            else " and/or ".join(s["rooms"]) for s in listed)
               + " (the printed list order: the book's path arrows are not in its text)",
               {"campaign": camp["id"], "start": start,
                "stages": [list(s["rooms"]) for s in listed], "verified": False})
    # "Start: use the Monstrosity": Overseer reads the start as the campaign's Catacomb Lord.
    reading = f"the campaign's Catacomb Lord is the {start} (Overseer's reading of the start)"
    if adventure.lord is not None:
        yield Step(StepKind.CAMPAIGN_LORD, CAMPAIGNS, f"{reading}: already this game's Lord",
                   {"lord": adventure.lord, "known": True, "verified": False})
    elif lord is None:
        yield Step(StepKind.CAMPAIGN_LORD, CAMPAIGNS,
                   f"{reading}; its card is not in the card data: enter it (choose_lord with "
                   f"\"lord\": \"{start}\" and its \"card\") before a room with Mercenary icons "
                   "and before the Lair", {"lord": _slug(start), "known": False,
                                           "verified": False})
    else:
        yield Step(StepKind.CAMPAIGN_LORD, CAMPAIGNS, reading,
                   {"lord": lord["id"], "known": True, "entered": lord["source"] == ENTERED,
                    "verified": False})
        from overseer.rules.catacombs import setup

        yield from setup.fix_lord(battle, lord)


def campaign_next(battle: Battle, action: dict[str, Any]) -> Procedure:
    """``{"do": "campaign_next"}``: the next stage; at a choice point the heroes choose."""
    adventure = battle.adventure
    if adventure.campaign is None:
        raise RulesError("no campaign under way (campaign_start first)")
    listed = stages(adventure.campaign)
    if adventure.stage >= len(listed):
        raise RulesError(f"the {adventure.campaign} campaign is complete")
    stage = listed[adventure.stage]
    rooms = list(stage["rooms"])
    if stage.get("choice") == "one":
        # Red Box: Campaigns: the heroes visit either room, not both.
        rooms = [(yield ChooseOne(f"Which room comes next: {rooms[0]} or {rooms[1]}?",
                                  tuple(rooms), Key.CAMPAIGN_CHOICE))]
    elif stage.get("choice") == "any":
        # Red Box: Campaigns: the heroes may visit one of the rooms, or both, in their order.
        chosen = yield ChooseOne(f"Which do the heroes visit: {rooms[0]}, {rooms[1]} or both?",
                                 (*rooms, BOTH), Key.CAMPAIGN_CHOICE)
        if chosen != BOTH:
            rooms = [chosen]
        else:
            first = yield ChooseOne("Which room comes first?", tuple(rooms), Key.CAMPAIGN_FIRST)
            rooms = [first, *(r for r in rooms if r != first)]
    adventure.stage += 1
    adventure.visited.extend(rooms)
    what = {"battle": f"battle room, Room card level {stage.get('level')}",
            "special": "special room", "lord": "the Catacomb Lord's room"}[stage["kind"]]
    data: dict[str, Any] = {"campaign": adventure.campaign, "stage": stage["position"],
                            "rooms": rooms, "kind": stage["kind"], "level": stage.get("level")}
    note = ""
    if stage["kind"] == "battle":
        data["known"] = _known_room(battle, rooms[0]) is not None
        if not data["known"]:
            note = (f"; its Room card is not in the card data: enter it with setup_room's "
                    f"\"card\" (level {stage.get('level')}, its monsters, its reward)")
    elif stage["kind"] == "lord":
        data["known"] = adventure.lord is not None
        if not data["known"]:
            note = "; no Catacomb Lord is chosen yet: choose_lord (with its \"card\") first"
    yield Step(StepKind.CAMPAIGN_STAGE, CAMPAIGNS, f"stage {stage['position']} of {len(listed)}: "
               f"{' then '.join(rooms)} ({what}){note}", data)
    if adventure.stage == len(listed):
        yield Step(StepKind.CAMPAIGN_COMPLETE, CAMPAIGNS, "the campaign's last stage",
                   {"campaign": adventure.campaign})
    return rooms


# --------------------------------------------------------------------------- entered cards

ENTERED = "entered by the table"
# The fields of an entered card: those of a rooms.toml / lords.toml record the card shows
# (a room's level is its `difficulty` there; docs/data.md).
ROOM_CARD = ("level", *cards.QUADRANTS, "suppresses", "playmat", "reward_spell", "reward_gold")
LORD_CARD = ("health", "sequences", "mercenary", "minions", "playmats", "notes")


def _slug(name: str) -> str:
    return "-".join("".join(c if c.isalnum() else " " for c in name.lower().replace("'", ""))
                    .split())


def same_name(name: str, other: str) -> bool:
    return name.lower() == other.lower() or _slug(name) == _slug(other)


def _entered(table: dict[str, dict[str, Any]], name: str) -> dict[str, Any] | None:
    return next((r for r in table.values() if same_name(r["name"], name) or r["id"] == name), None)


def _known_room(battle: Battle, name: str) -> dict[str, Any] | None:
    try:
        return room_card(battle, name)
    except KeyError:
        return None


def _known_lord(battle: Battle, name: str) -> dict[str, Any] | None:
    try:
        return lord_card(battle, name)
    except KeyError:
        return None


def check_campaign_lord(battle: Battle, name: str) -> None:
    """During a campaign the game's Catacomb Lord is the campaign's (its start)."""
    under_way = battle.adventure.campaign
    if under_way is None:
        return
    start = campaigns()[under_way]["start"]
    if not same_name(name, start):
        raise RulesError(f"the {under_way} campaign's Catacomb Lord is the {start}, not {name}")


def room_card(battle: Battle, name: str) -> dict[str, Any]:
    """A Room card: the card data's, else one the table entered in this game (KeyError)."""
    try:
        return cards.room(name)
    except KeyError:
        entered = _entered(battle.adventure.entered_rooms, name)
        if entered is None:
            raise
        return entered


def lord_card(battle: Battle, name: str) -> dict[str, Any]:
    """A Catacomb Lord card: the card data's, else one the table entered (KeyError)."""
    try:
        return cards.lord(name)
    except KeyError:
        entered = _entered(battle.adventure.entered_lords, name)
        if entered is None:
            raise
        return entered


def room_for(battle: Battle, name: str, card: Any) -> dict[str, Any]:
    """The Room card ``setup_room`` names: known, or entered now (``card``; kept later with
    ``keep``). A room the data lacks and no card: refused, saying how to enter it."""
    if card is not None:
        return enter_room(battle, name, card)
    known = _known_room(battle, name)
    if known is None:
        raise RulesError(f"no Room card {name!r} in data/catacombs/rooms.toml: give its "
                         "\"card\" as the table reads it (" + ", ".join(ROOM_CARD) + ")")
    return known


def lord_for(battle: Battle, name: str, card: Any) -> dict[str, Any]:
    """The Catacomb Lord card an action names: known, or entered now (``card``)."""
    if card is not None:
        return enter_lord(battle, name, card)
    known = _known_lord(battle, name)
    if known is None:
        raise RulesError(f"no Catacomb Lord card {name!r} in data/catacombs/lords.toml: give "
                         "its \"card\" as the table reads it (" + ", ".join(LORD_CARD) + ")")
    return known


def keep(battle: Battle, record: dict[str, Any], kind: str) -> None:
    """Keep an entered card with the game (``kind``: room or lord); known cards are left."""
    if record["source"] == ENTERED:
        table = (battle.adventure.entered_rooms if kind == "room"
                 else battle.adventure.entered_lords)
        table[record["id"]] = record


def lord_piece(piece_id: str, record: dict[str, Any]) -> Piece:
    """The piece of an entered Catacomb Lord (a known one comes from ``cards``)."""
    return Piece(id=piece_id, name=record["name"], type="lord", order_tile="lord",
                 sequences=[parse_sequence(seq) for seq in record["sequences"]],
                 health=record["health"])


def _check_name(name: str, what: str) -> None:
    if not _slug(name):
        raise RulesError(f"an entered card needs the {what}'s name as printed (got {name!r})")


def _check_keys(card: Any, allowed: tuple[str, ...], what: str) -> dict[str, Any]:
    if not isinstance(card, dict):
        raise RulesError(f"{what}: the card is an object of " + ", ".join(allowed)
                         + f" (got {card!r})")
    for key in card:
        if key not in allowed:
            close = difflib.get_close_matches(str(key), allowed, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise RulesError(f"{what}: the card has no field {key!r}{hint} (fields: "
                             + ", ".join(allowed) + ")")
    return card


def _whole(value: Any, low: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise RulesError(f"{what} must be a whole number, {low} or more (got {value!r})")
    return value


def _names(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise RulesError(f"{what} must be a list of names (got {value!r})")
    return list(value)


def _monster_name(name: str, what: str) -> str:
    try:
        return cards.monster(name)["name"]
    except KeyError as err:
        raise RulesError(f"{what}: {err.args[0]} (enter its Monster card there first)") from None


def _entry(entry: Any, what: str, room: bool) -> str:
    """One 'N x Monster' entry, its monster checked; a room also takes Mercenary and Monster
    Metre icons."""
    try:
        count, name = cards.split_entry(entry) if isinstance(entry, str) else (0, "")
    except ValueError as err:
        raise RulesError(f"{what}: {err}") from None
    if not count:
        raise RulesError(f"{what}: entry {entry!r} should read 'N x Monster name'")
    if room and (name == cards.MERCENARY or cards.MONSTER_GROUP.match(name)):
        return entry
    return f"{count} x {_monster_name(name, what)}"


def _playmats(value: Any, most: int, what: str) -> list[str]:
    ids = _names(value, what)
    unknown = [p for p in ids if p not in cards.playmats()]
    if unknown or len(ids) > most:
        raise RulesError(f"{what}: at most {most} playmat ids of data/catacombs/playmats.toml "
                         f"(got {value!r})")
    return ids


def printed_levels(name: str) -> set[int]:
    """The Room card levels the campaign lists print beside a battle room of that name."""
    return {s["level"] for listed in _load()[1].values() for s in listed
            if s["kind"] == "battle" and "level" in s
            and any(same_name(r, name) for r in s["rooms"])}


def enter_room(battle: Battle, name: str, card: Any) -> dict[str, Any]:
    """A Room card the table enters (validated; not kept yet): ``{"level", "level1" ..
    "level4", "suppresses", "playmat", "reward_spell", "reward_gold"}``."""
    what = f"the {name} Room card"
    _check_name(name, "room")
    if _known_room(battle, name) is not None:
        raise RulesError(f"{name} is already known (the card data or entered in this game): "
                         "no card to enter")
    card = _check_keys(card, ROOM_CARD, what)
    printed = printed_levels(name)
    level = card.get("level", next(iter(printed)) if len(printed) == 1 else None)
    if level is None:
        raise RulesError(f"{what}: give its 'level' (the Room card level, 0 to 2)")
    if isinstance(level, bool) or not isinstance(level, int) or level not in (0, 1, 2) \
            or (printed and level not in printed):
        raise RulesError(f"{what}: level {level!r} is not "
                         + (f"the printed level ({', '.join(map(str, sorted(printed)))})"
                            if printed else "0, 1 or 2"))
    record: dict[str, Any] = {"id": _slug(name), "name": name, "set": ENTERED,
                              "difficulty": level}
    for quadrant in cards.QUADRANTS:
        entries = card.get(quadrant, [])
        if not isinstance(entries, list):
            raise RulesError(f"{what}: {quadrant} must be a list of entries (got {entries!r})")
        record[quadrant] = [_entry(e, f"{what}, {quadrant}", room=True) for e in entries]
    if not any(record[q] for q in cards.QUADRANTS):
        raise RulesError(f"{what}: a battle room needs at least one monster entry (level1 .. "
                         "level4)")
    record["suppresses"] = _names(card.get("suppresses", []), f"{what}: suppresses")
    if "playmat" in card:
        record["playmat"] = _playmats([card["playmat"]], 1, f"{what}: playmat")[0]
    if "reward_spell" in card:
        if not isinstance(card["reward_spell"], bool):
            raise RulesError(f"{what}: reward_spell must be true or false")
        record["reward_spell"] = card["reward_spell"]
    if "reward_gold" in card:
        record["reward_gold"] = _whole(card["reward_gold"], 1, f"{what}: reward_gold")
    return {**record, "source": ENTERED, "verified": False}


def enter_lord(battle: Battle, name: str, card: Any) -> dict[str, Any]:
    """A Catacomb Lord card the table enters (validated; not kept yet): ``{"health",
    "sequences", "mercenary", "minions", "playmats", "notes"}``."""
    what = f"the {name} Catacomb Lord card"
    _check_name(name, "lord")
    if _known_lord(battle, name) is not None:
        raise RulesError(f"{name} is already known (the card data or entered in this game): "
                         "no card to enter")
    card = _check_keys(card, LORD_CARD, what)
    missing = [k for k in ("health", "sequences", "mercenary", "minions") if k not in card]
    if missing:
        raise RulesError(f"{what}: give its " + ", ".join(missing))
    sequences = card["sequences"]
    if not isinstance(sequences, list) or not sequences or not all(
            isinstance(q, list) and q and all(isinstance(x, str) and x for x in q)
            for q in sequences):
        raise RulesError(f"{what}: sequences must be a list of shot lists (got {sequences!r})")
    mercenary = _names(card["mercenary"], f"{what}: mercenary")
    if not 1 <= len(mercenary) <= 2:
        raise RulesError(f"{what}: mercenary names one monster or two (got {mercenary!r})")
    minions = card["minions"]
    if not isinstance(minions, list) or not minions:
        raise RulesError(f"{what}: minions must list at least one entry (got {minions!r})")
    entries: list[Any] = []
    for entry in minions:
        if isinstance(entry, list):
            if len(entry) != 2:
                raise RulesError(f"{what}: a minion choice is a [left, right] pair")
            entries.append([_entry(e, f"{what}, minions", room=False) for e in entry])
        else:
            entries.append(_entry(entry, f"{what}, minions", room=False))
    record: dict[str, Any] = {
        "id": _slug(name), "name": name, "set": ENTERED,
        "health": _whole(card["health"], 1, f"{what}: health"),
        "playmats": _playmats(card.get("playmats", []), 2, f"{what}: playmats"),
        "mercenary": [_monster_name(m, f"{what}, mercenary") for m in mercenary],
        "minions": entries, "sequences": copy.deepcopy(sequences)}
    if "notes" in card:
        if not isinstance(card["notes"], str):
            raise RulesError(f"{what}: notes must be text")
        record["notes"] = card["notes"]
    return {**record, "source": ENTERED, "verified": False}
