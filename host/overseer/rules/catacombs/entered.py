"""Cards a table enters because the card data lacks them (the Red Box campaign rooms and Lords
are not in the fan data): validated as the table reads them off the card, kept in
``Battle.adventure`` (an entered card travels in the action that needs it: ``"card"`` of
``setup_room``, ``choose_lord``, ``setup_lord_room``, ``campaign_start``), so a refold of the
log rebuilds it. ``room_card`` and ``lord_card`` find a card in the data or among those
entered.
"""

from __future__ import annotations

import copy
import difflib
from typing import Any

from overseer.core.procedure import RulesError
from overseer.rules.catacombs import cards
from overseer.rules.catacombs.carddata import CatacombsData
from overseer.rules.catacombs.state import Battle, Piece, parse_sequence

ENTERED = "entered by the table"
Card = dict[str, Any]  # a card the data lacks, as the table reads it (an action's "card")
# The fields of an entered card: those of a rooms.toml / lords.toml record the card shows
# (a room's level is its `difficulty` there; docs/data.md).
ROOM_CARD = ("level", *cards.QUADRANTS, "suppresses", "playmat", "reward_spell", "reward_gold")
LORD_CARD = ("health", "sequences", "mercenary", "minions", "playmats", "notes")


def slug(name: str) -> str:
    """A card name as an id: ``"Catacomb Lord's Lair"`` -> ``catacomb-lords-lair``."""
    return "-".join("".join(c if c.isalnum() else " " for c in name.lower().replace("'", ""))
                    .split())


def same_name(name: str, other: str) -> bool:
    return name.lower() == other.lower() or slug(name) == slug(other)


def _entered(table: dict[str, dict[str, Any]], name: str) -> dict[str, Any] | None:
    return next((r for r in table.values() if same_name(r["name"], name) or r["id"] == name), None)


def known_room(battle: Battle, name: str) -> dict[str, Any] | None:
    try:
        return room_card(battle, name)
    except KeyError:
        return None


def known_lord(battle: Battle, name: str) -> dict[str, Any] | None:
    try:
        return lord_card(battle, name)
    except KeyError:
        return None


def check_campaign_lord(battle: Battle, name: str) -> None:
    """During a campaign the game's Catacomb Lord is the campaign's (its start)."""
    under_way = battle.adventure.campaign
    if under_way is None:
        return
    start = battle.data.campaigns[under_way]["start"]
    if not same_name(name, start):
        raise RulesError(f"the {under_way} campaign's Catacomb Lord is the {start}, not {name}")


def _stage(battle: Battle) -> dict[str, Any] | None:
    """The campaign stage under way (the last one ``campaign_next`` opened), or None."""
    adventure = battle.adventure
    if adventure.campaign is None or adventure.stage == 0:
        return None
    return battle.data.stages[adventure.campaign][adventure.stage - 1]


def stage_played(battle: Battle) -> bool:
    """The campaign's stage under way is done: no battle room (or Lair) of it waits to be set
    up (``Adventure.stage_waits``)."""
    return not battle.adventure.stage_waits


def campaign_allows(battle: Battle, lord: bool) -> bool:
    """No campaign, or its stage under way waits for a battle room (``lord``: the Lair)."""
    stage = _stage(battle)
    if battle.adventure.campaign is None:
        return True
    return stage is not None and battle.adventure.stage_waits \
        and (stage["kind"] == "lord") == lord


def check_campaign_room(battle: Battle, name: str | None, lord: bool) -> None:
    """Red Box: Campaigns: in a campaign the rooms come as its stages list them: a battle room
    is the stage's own (``name``: the Room card; None: any), the Lair (``lord``) its last;
    each once."""
    adventure = battle.adventure
    if adventure.campaign is None:
        return
    stage = _stage(battle)
    if stage is None:
        raise RulesError(f"the {adventure.campaign} campaign has not opened its first stage: "
                         "go on to the campaign's next stage first")
    chosen = [r for r in stage["rooms"] if r in adventure.visited] or list(stage["rooms"])
    rooms = " and ".join(chosen)
    where = f"the campaign's stage {stage['position']} is"
    if not adventure.stage_waits:
        what = "a special room" if stage["kind"] == "special" else "played"
        raise RulesError(f"{where} {what} ({rooms}): no battle to set up; the campaign's "
                         "next stage goes on")
    if stage["kind"] == "lord" and not lord:
        raise RulesError(f"{where} the Catacomb Lord's room: set up the Lord's room")
    if stage["kind"] != "lord" and lord:
        raise RulesError(f"{where} {rooms}, not the Catacomb Lord's room: set up a room")
    if name is not None and not lord and not any(
            same_name(name, r) or same_name(name, slug(r)) for r in chosen):
        raise RulesError(f"{where} {rooms}, not {name}")


def room_card(battle: Battle, name: str) -> dict[str, Any]:
    """A Room card: the card data's, else one the table entered in this game (KeyError)."""
    try:
        return battle.data.room(name)
    except KeyError:
        entered = _entered(battle.adventure.entered_rooms, name)
        if entered is None:
            raise
        return entered


def lord_card(battle: Battle, name: str) -> dict[str, Any]:
    """A Catacomb Lord card: the card data's, else one the table entered (KeyError)."""
    try:
        return battle.data.lord(name)
    except KeyError:
        entered = _entered(battle.adventure.entered_lords, name)
        if entered is None:
            raise
        return entered


def room_for(battle: Battle, name: str, card: Card | None) -> dict[str, Any]:
    """The Room card ``setup_room`` names: known, or entered now (``card``; kept later with
    ``keep``). A room the data lacks and no card: refused, saying how to enter it."""
    if card is not None:
        return enter_room(battle, name, card)
    known = known_room(battle, name)
    if known is None:
        raise RulesError(f"no Room card {name!r} in {battle.data.file('rooms.toml')}: give its "
                         "\"card\" as the table reads it (" + ", ".join(ROOM_CARD) + ")")
    return known


def lord_for(battle: Battle, name: str, card: Card | None) -> dict[str, Any]:
    """The Catacomb Lord card an action names: known, or entered now (``card``)."""
    if card is not None:
        return enter_lord(battle, name, card)
    known = known_lord(battle, name)
    if known is None:
        raise RulesError(f"no Catacomb Lord card {name!r} in {battle.data.file('lords.toml')}: "
                         "give its \"card\" as the table reads it (" + ", ".join(LORD_CARD)
                         + ")")
    return known


def keep(battle: Battle, record: dict[str, Any], kind: str) -> None:
    """Keep an entered card with the game (``kind``: room or lord); known cards are left."""
    if record["source"] == ENTERED:
        table = (battle.adventure.entered_rooms if kind == "room"
                 else battle.adventure.entered_lords)
        table[record["id"]] = record


def entered_lord_piece(piece_id: str, record: dict[str, Any]) -> Piece:
    """The piece of an entered Catacomb Lord (a known one comes from ``cards``)."""
    return Piece(id=piece_id, name=record["name"], type="lord", order_tile="lord",
                 sequences=[parse_sequence(seq) for seq in record["sequences"]],
                 health=record["health"])


def _check_name(name: str, what: str) -> None:
    if not slug(name):
        raise RulesError(f"an entered card needs the {what}'s name as printed (got {name!r})")


def _check_keys(card: Card, allowed: tuple[str, ...], what: str) -> Card:
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


def _monster_name(data: CatacombsData, name: str, what: str) -> str:
    try:
        return data.monster(name)["name"]
    except KeyError as err:
        raise RulesError(f"{what}: {err.args[0]} (enter its Monster card there first)") from None


def _entry(data: CatacombsData, entry: Any, what: str, room: bool) -> str:
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
    return f"{count} x {_monster_name(data, name, what)}"


def _playmats(data: CatacombsData, value: Any, most: int, what: str) -> list[str]:
    ids = _names(value, what)
    unknown = [p for p in ids if p not in data.playmats]
    if unknown or len(ids) > most:
        raise RulesError(f"{what}: at most {most} playmat ids of {data.file('playmats.toml')} "
                         f"(got {value!r})")
    return ids


def printed_levels(data: CatacombsData, name: str) -> set[int]:
    """The Room card levels the campaign lists print beside a battle room of that name."""
    return {s["level"] for listed in data.stages.values() for s in listed
            if s["kind"] == "battle" and "level" in s
            and any(same_name(r, name) for r in s["rooms"])}


def enter_room(battle: Battle, name: str, card: Card) -> dict[str, Any]:
    """A Room card the table enters (validated; not kept yet): ``{"level", "level1" ..
    "level4", "suppresses", "playmat", "reward_spell", "reward_gold"}``."""
    what = f"the {name} Room card"
    _check_name(name, "room")
    if known_room(battle, name) is not None:
        raise RulesError(f"{name} is already known (the card data or entered in this game): "
                         "no card to enter")
    card = _check_keys(card, ROOM_CARD, what)
    printed = printed_levels(battle.data, name)
    level = card.get("level", next(iter(printed)) if len(printed) == 1 else None)
    if level is None:
        raise RulesError(f"{what}: give its 'level' (the Room card level, 0 to 2)")
    if isinstance(level, bool) or not isinstance(level, int) or level not in (0, 1, 2) \
            or (printed and level not in printed):
        raise RulesError(f"{what}: level {level!r} is not "
                         + (f"the printed level ({', '.join(map(str, sorted(printed)))})"
                            if printed else "0, 1 or 2"))
    record: dict[str, Any] = {"id": slug(name), "name": name, "set": ENTERED,
                              "difficulty": level}
    for quadrant in cards.QUADRANTS:
        entries = card.get(quadrant, [])
        if not isinstance(entries, list):
            raise RulesError(f"{what}: {quadrant} must be a list of entries (got {entries!r})")
        record[quadrant] = [_entry(battle.data, e, f"{what}, {quadrant}", room=True)
                            for e in entries]
    if not any(record[q] for q in cards.QUADRANTS):
        raise RulesError(f"{what}: a battle room needs at least one monster entry (level1 .. "
                         "level4)")
    record["suppresses"] = _names(card.get("suppresses", []), f"{what}: suppresses")
    if "playmat" in card:
        record["playmat"] = _playmats(battle.data, [card["playmat"]], 1, f"{what}: playmat")[0]
    if "reward_spell" in card:
        if not isinstance(card["reward_spell"], bool):
            raise RulesError(f"{what}: reward_spell must be true or false")
        record["reward_spell"] = card["reward_spell"]
    if "reward_gold" in card:
        record["reward_gold"] = _whole(card["reward_gold"], 1, f"{what}: reward_gold")
    return {**record, "source": ENTERED, "verified": False}


def enter_lord(battle: Battle, name: str, card: Card) -> dict[str, Any]:
    """A Catacomb Lord card the table enters (validated; not kept yet): ``{"health",
    "sequences", "mercenary", "minions", "playmats", "notes"}``."""
    what = f"the {name} Catacomb Lord card"
    _check_name(name, "lord")
    if known_lord(battle, name) is not None:
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
            entries.append([_entry(battle.data, e, f"{what}, minions", room=False) for e in entry])
        else:
            entries.append(_entry(battle.data, entry, f"{what}, minions", room=False))
    record: dict[str, Any] = {
        "id": slug(name), "name": name, "set": ENTERED,
        "health": _whole(card["health"], 1, f"{what}: health"),
        "playmats": _playmats(battle.data, card.get("playmats", []), 2, f"{what}: playmats"),
        "mercenary": [_monster_name(battle.data, m, f"{what}, mercenary") for m in mercenary],
        "minions": entries, "sequences": copy.deepcopy(sequences)}
    if "notes" in card:
        if not isinstance(card["notes"], str):
            raise RulesError(f"{what}: notes must be text")
        record["notes"] = card["notes"]
    return {**record, "source": ENTERED, "verified": False}
