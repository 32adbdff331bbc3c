"""Setting up a battle for the AI player: the playmat, the tiles, the monsters, where each
piece goes (Red Box: Solo & Co-Op Mode Setup; Catacomb Lord Room Setup; Rules for the
Catacombs & Castles Playmats; Ice Box: Catacomb Lord Setup Choices, Monster Suppression).

Two actions: ``{"do": "setup_room", "room": id}`` (``SetupRoom``) and ``{"do":
"setup_lord_room"}`` (``SetupLordRoom``), plus ``{"do": "choose_lord", "lord": id}``
(``ChooseLord``) which fixes the game's Catacomb Lord and its mercenary.
Each decides everything first (dice, draws, the table's answers), refuses a setup of more than
ten pieces, and only then lays the battle out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from overseer.core.params import param
from overseer.core.procedure import (
    ChooseOne,
    Die,
    EnterNumber,
    Pick,
    Procedure,
    Roll,
    RulesError,
    Step,
    YesNo,
)
from overseer.rules.catacombs import cards, placement
from overseer.rules.catacombs.carddata import CatacombsData
from overseer.rules.catacombs.entered import (
    ENTERED,
    Card,
    check_campaign_lord,
    check_campaign_room,
    entered_lord_piece,
    keep,
    lord_for,
    room_for,
    same_name,
)
from overseer.rules.catacombs.hidden_cave import AWAY
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.modifiers import mount_returns
from overseer.rules.catacombs.rulebook import (
    ENTERED_CARD,
    LORD_CHOICES,
    LORD_SETUP,
    ROOM_CARD,
    SETUP,
    SUPPRESSION,
)
from overseer.rules.catacombs.state import Battle, Piece, room_holders

# Red Box: Solo & Co-Op Mode Setup, note: at most 10 pieces are placed (M'othole; Thaggu).
MAX_PIECES = 10


@dataclass(frozen=True, slots=True)
class Group:
    """Units of one monster to place: from one room entry, Monster Metre icon or minion box."""

    name: str  # the monster card's name
    units: int
    order_tile: str  # the Character Order tile it acts and is placed under


# --------------------------------------------------------------------------- parameters


def needs_mercenary(room: dict[str, Any]) -> bool:
    """A Room card with Mercenary icons: set up once the game's Catacomb Lord is chosen."""
    return any(cards.split_entry(e)[1] == cards.MERCENARY
               for q in cards.QUADRANTS for e in room[q])


def room_ids(battle: Battle) -> list[str]:
    """The Room cards of the data that can be set up now (a room with Mercenary icons needs the
    game's Catacomb Lord chosen first; in a campaign, only its stage's own)."""
    lord = battle.adventure.mercenary is not None
    return sorted(r["id"] for r in battle.data.rooms.values()
                  if (lord or not needs_mercenary(r)) and campaign_room_ok(battle, r["name"]))


def campaign_room_ok(battle: Battle, name: str) -> bool:
    try:
        check_campaign_room(battle, name, lord=False)
    except RulesError:
        return False
    return True


def choosable_lords(battle: Battle) -> list[str]:
    """The Lords a table can choose from the data: any, or in a campaign the campaign's own
    (which the data lacks: the table enters its card)."""
    under_way = battle.adventure.campaign
    if under_way is None:
        return sorted(battle.data.lords)
    start = battle.data.campaigns[under_way]["start"]
    return [lord for lord in sorted(battle.data.lords) if same_name(lord, start)]


@dataclass(frozen=True, slots=True)
class SetupRoom:
    """``playmat``: the one the Room card names, when the data does not; ``card``: the Room
    card as the table reads it, when the data lacks it."""

    room: str = param(options=room_ids, prompt="Which Room card?")
    playmat: str | None = param(default=None)
    card: Card | None = param(default=None)


@dataclass(frozen=True, slots=True)
class ChooseLord:
    lord: str = param(options=choosable_lords, prompt="Which Catacomb Lord?")
    card: Card | None = param(default=None)


@dataclass(frozen=True, slots=True)
class SetupLordRoom:
    """``lord`` (with its ``card`` when the data lacks it): when no Lord was chosen yet."""

    lord: str | None = param(default=None)
    card: Card | None = param(default=None)


# --------------------------------------------------------------------------- chance helpers


def half_of_d12(roll: int) -> int:
    """A D12 choice between two: 0 (left, top) on 1-6, 1 (right, bottom) on 7-12."""
    return 0 if roll <= 6 else 1


def shuffle(pool: str, purpose: str, ids: list[str]) -> Procedure:
    """Lay ``ids`` out in a random order by blind draws; the last one needs no draw."""
    left, order = list(ids), []
    while left:
        if len(left) == 1:
            order.append(left.pop())
            break
        tile = yield Pick(pool, purpose, tuple(left))
        left.remove(tile)
        order.append(tile)
    return order


# --------------------------------------------------------------------------- the playmat


def _playmat_step(record: dict[str, Any], how: str, rule: str, text: str) -> Step:
    return Step(StepKind.PLAYMAT, rule, f"{text}: {cards.playmat_label(record)}",
                {"playmat": record["id"], "how": how, "rule_set": record["rule"],
                 "named_in_book": bool(record["name"])})


def _rune_die(data: CatacombsData, last: str | None) -> Procedure:
    # Red Box: Solo & Co-Op Mode Setup: Rune Die chart; roll again on the playmat just played.
    while True:
        face = yield Roll(Die.RUNE, "the playmat (Rune Die chart)")
        record = data.playmat_on("rune", face)
        if record["id"] != last:
            yield _playmat_step(record, "rune_die", SETUP, f"Rune Die {face}")
            return record
        yield Step(StepKind.REROLL, SETUP,
                   f"Rune Die {face}: {cards.playmat_label(record)} was just "
                   "played, roll again", {"die": "rune", "face": face, "why": "just_played"})


def choose_playmat(battle: Battle, named: str | None) -> Procedure:
    """The playmat of a battle room: the one the Room card names, else by Rune Die, or by D12
    when the table owns expansion playmats."""
    if named is not None:
        # Red Box: Solo & Co-Op Mode Setup: a Room card that names its playmat is obeyed.
        record = battle.data.playmats[named]
        yield _playmat_step(record, "card", SETUP, "the Room card names its playmat")
        return record
    owned = battle.adventure.owned_playmats
    last = battle.adventure.last_playmat
    if not owned:
        return (yield from _rune_die(battle.data, last))
    # Red Box: Solo & Co-Op Mode Setup: with expansion playmats roll the D12; roll again on a
    # playmat not owned or just played; 1 sends the choice to the Rune Die chart.
    while True:
        face = yield Roll(Die.D12, "the playmat (expansion playmat chart)")
        if face == 1:
            yield Step(StepKind.REROLL, SETUP, "D12 1: roll the Rune Die instead",
                       {"die": "d12", "face": 1, "why": "rune_die"})
            return (yield from _rune_die(battle.data, last))
        record = battle.data.playmat_on("d12", face)
        why = None if record["id"] in owned else "not_owned"
        if why is None and record["id"] == last:
            why = "just_played"
        if why is None:
            yield _playmat_step(record, "d12", SETUP, f"D12 {face}")
            return record
        yield Step(StepKind.REROLL, SETUP, f"D12 {face}: {cards.playmat_label(record)} "
                   f"{'is not owned' if why == 'not_owned' else 'was just played'}, roll again",
                   {"die": "d12", "face": face, "why": why})


def lord_playmats(data: CatacombsData, lord: dict[str, Any]) -> Procedure:
    """The playmat(s) on a Catacomb Lord setup card: from the data, else asked of the table
    (the fan data names none)."""
    if lord["playmats"]:
        return list(lord["playmats"])
    ids = tuple(data.playmats)
    left = yield ChooseOne(f"Which playmat does the {lord['name']} setup card show "
                           "(the left one when it shows two)?", ids, Key.LORD_PLAYMAT)
    second = yield YesNo("Does the setup card show a second playmat on the right?",
                         Key.LORD_SECOND_PLAYMAT)
    if not second:
        return [left]
    right = yield ChooseOne("Which playmat is on the right of the setup card?",
                            tuple(i for i in ids if i != left), Key.LORD_PLAYMAT_RIGHT)
    return [left, right]


def choose_lord_playmat(data: CatacombsData, lord: dict[str, Any]) -> Procedure:
    shown = yield from lord_playmats(data, lord)
    if len(shown) == 1:
        record = data.playmats[shown[0]]
        yield _playmat_step(record, "card", LORD_SETUP, "the setup card names its playmat")
        return record
    # Red Box: Catacomb Lord Room Setup, item 1: two playmats, D12 1-6 left, 7-12 right.
    roll = yield Roll(Die.D12, "the playmat (setup card: 1-6 left, 7-12 right)")
    record = data.playmats[shown[half_of_d12(roll)]]
    side = ("left", "right")[half_of_d12(roll)]
    yield _playmat_step(record, "lord_d12", LORD_SETUP, f"D12 {roll}: the {side} playmat")
    return record


# --------------------------------------------------------------------------- tiles


def _tiles_verified(battle: Battle, ids: list[str]) -> bool:
    return all(battle.data.tiles[t]["verified"] for t in ids)


def lay_tiles(battle: Battle, lord_room: bool) -> Procedure:
    """Character Order, Monster Order, Hero Target and Direction tiles; returns them."""
    data = battle.data
    character = [t["id"] for t in data.tiles_of("character_order")
                 if lord_room or t["id"] != "lord"]
    # Red Box: Solo & Co-Op Mode Setup: shuffle the Character Order tiles; the Catacomb Lord
    # tile only in a Lord room (Catacomb Lord Room Setup, item 2).
    character = yield from shuffle("Character Order tiles", "lay them out left to right",
                                   character)
    yield Step(StepKind.CHARACTER_ORDER, LORD_SETUP if lord_room else SETUP,
               "Character Order tiles, left to right: " + ", ".join(character),
               {"tiles": character, "verified": _tiles_verified(battle, character)})
    monster = yield from shuffle("Monster Order tiles", "lay them out left to right",
                                 [t["id"] for t in data.tiles_of("monster_order")])
    yield Step(StepKind.MONSTER_ORDER, SETUP,
               "Monster Order tiles, left to right: " + ", ".join(monster),
               {"tiles": monster, "verified": _tiles_verified(battle, monster)})
    # Red Box: Solo & Co-Op Mode Setup: one Hero Target tile to each hero, at random.
    targets: dict[str, str] = {}
    left = [t["id"] for t in data.tiles_of("hero_target")]
    for hero in (h for h in battle.heroes.values() if h.kind == "hero" and h.alive):
        tile = left[0] if len(left) == 1 else (
            yield Pick("Hero Target tiles", f"{hero.name}'s tile", tuple(left)))
        left.remove(tile)
        targets[hero.id] = tile
        yield Step(StepKind.HERO_TARGET, SETUP,
                   "{hero} gets Hero Target tile {tile} ({text})",
                   {"hero": hero.id, "tile": tile, "verified": data.tiles[tile]["verified"]},
                   {"hero": hero.ref, "tile": tile, "text": data.tiles[tile]['text']})
    direction = yield from draw_direction(battle)
    return character, monster, targets, direction


def draw_direction(battle: Battle) -> Procedure:
    """Red Box: Solo & Co-Op Mode Setup: draw two Direction tiles; a second of the first's
    colour is discarded and another drawn, until one is green and one blue."""
    tiles = battle.data.tiles
    left = [t["id"] for t in battle.data.tiles_of("direction")]
    first = yield Pick("Direction tiles", "the first Direction tile", tuple(left))
    left.remove(first)
    while True:
        if not left:
            raise RulesError("tiles.toml has no Direction tile of the second colour")
        second = left[0] if len(left) == 1 else (
            yield Pick("Direction tiles", "the second Direction tile", tuple(left)))
        left.remove(second)
        if tiles[second]["colour"] != tiles[first]["colour"]:
            break
        yield Step(StepKind.DIRECTION_DISCARD, SETUP,
                   f"'{tiles[second]['text']}' is {tiles[second]['colour']} like "
                   f"'{tiles[first]['text']}': discard it and draw again", {"tile": second})
    # Laid out green first, then blue: the book's placement example reads the green tile as the
    # first Direction tile (Overseer's reading; the tiles are read left to right).
    shown = sorted([first, second], key=lambda t: tiles[t]["colour"] != "green")
    yield Step(StepKind.DIRECTION, SETUP, "Direction tiles, left to right: " + ", ".join(
        f"{tiles[t]['text']} ({tiles[t]['colour']})" for t in shown)
        + " (green laid first: Overseer's reading)",
        {"tiles": shown, "drawn": [first, second], "verified": False})
    return shown


# --------------------------------------------------------------------------- monsters


def _units(record: dict[str, Any]) -> Procedure:
    """How many pieces a Monster card brings: its ``units`` field, else asked of the table."""
    if "units" in record:
        return record["units"]
    return (yield EnterNumber(f"How many {record['name']} pieces does its Monster card show?",
                              Key.UNITS, 1, MAX_PIECES))


def room_groups(battle: Battle, room: dict[str, Any]) -> Procedure:
    """The Room card's monsters as groups, Monster Metre icons drawn as Monster cards."""
    groups: list[Group] = []
    drawn: list[str] = []
    for level, quadrant in enumerate(cards.QUADRANTS, 1):
        for entry in room[quadrant]:
            count, name = cards.split_entry(entry)
            metre = cards.MONSTER_GROUP.match(name)
            if name == cards.MERCENARY:
                # setup_room refuses a room with Mercenary icons before the Lord is chosen
                assert battle.adventure.mercenary is not None
                groups.append(Group(battle.adventure.mercenary, count, f"level-{level}"))
            elif metre is None:
                groups.append(Group(battle.data.monster(name)["name"], count, f"level-{level}"))
            else:
                for _ in range(count):
                    group = yield from monster_metre(battle.data, int(metre.group(1)),
                                                     f"level-{level}", drawn)
                    groups.append(group)
    return groups


def monster_metre(data: CatacombsData, level: int, tile: str, drawn: list[str]) -> Procedure:
    """Red Box: Solo & Co-Op Mode Setup: a Monster Metre icon is a random Monster card of its
    level; all units of that monster are placed for it."""
    deck = sorted({r["id"] for r in data.monsters.values()
                   if r["level"] == level and r["id"] not in drawn})
    if not deck:
        raise RulesError(f"no level {level} Monster card left to draw")
    card = deck[0] if len(deck) == 1 else (
        yield Pick(f"level {level} Monster cards", "a Monster Metre icon", tuple(deck)))
    drawn.append(card)
    record = data.monster(card)
    units = yield from _units(record)
    yield Step(StepKind.MONSTER_METRE, SETUP, f"Monster Metre (level {level}): {record['name']}, "
               f"{units} piece{'s' if units != 1 else ''}",
               {"level": level, "monster": record["name"], "units": units, "verified": False})
    return Group(record["name"], units, tile)


def lord_minions(data: CatacombsData, lord: dict[str, Any]) -> Procedure:
    """The Minions box: fixed entries, and [left, right] choices by D12."""
    groups = []
    for entry in lord["minions"]:
        if isinstance(entry, list):
            # Red Box: Catacomb Lord Room Setup, item 3: D12 1-6 left, 7-12 right.
            roll = yield Roll(Die.D12, f"minions: {entry[0]} (1-6) or {entry[1]} (7-12)")
            chosen = entry[half_of_d12(roll)]
            yield Step(StepKind.MINION_CHOICE, LORD_SETUP, f"D12 {roll}: {chosen}",
                       {"roll": roll, "chosen": chosen, "options": list(entry)})
        else:
            chosen = entry
        count, name = cards.split_entry(chosen)
        record = data.monster(name)
        groups.append(Group(record["name"], count, f"level-{record['level']}"))
    return groups


def choose_mercenary(lord: dict[str, Any]) -> Procedure:
    """Red Box: Catacomb Lord Room Setup: two mercenaries, D12 1-6 top, 7-12 bottom."""
    options = lord["mercenary"]
    if len(options) == 1:
        return options[0]
    roll = yield Roll(Die.D12, f"mercenary: {options[0]} (1-6) or {options[1]} (7-12)")
    return options[half_of_d12(roll)]


# --------------------------------------------------------------------------- pieces


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")


def _order(data: CatacombsData, groups: list[Group], character: list[str],
           monster: list[str]) -> list[Group]:
    """Character Order tile order, then Monster Order tile order, then card order (the last an
    Overseer ruling: the book does not order monsters of the same tile and family)."""
    def key(item: tuple[int, Group]) -> tuple[int, int, int]:
        n, group = item
        family = cards.FAMILY_TYPE[data.monster(group.name)["family"]]
        return (character.index(group.order_tile) if group.order_tile in character
                else len(character), monster.index(family) if family in monster
                else len(monster), n)
    return [g for _, g in sorted(enumerate(groups), key=key)]


def make_pieces(battle: Battle, groups: list[Group]) -> list[Piece]:
    """One piece per unit, ids ``<monster>-<n>`` (unique among heroes and pieces)."""
    taken = set(battle.heroes)
    pieces = []
    for group in groups:
        n = 0
        for _ in range(group.units):
            n += 1
            while f"{_slug(group.name)}-{n}" in taken:
                n += 1
            piece = cards.piece_from_monster(battle.data, f"{_slug(group.name)}-{n}",
                                             group.name)
            piece.order_tile = group.order_tile
            taken.add(piece.id)
            pieces.append(piece)
    return pieces


def _check_total(total: int, what: str) -> None:
    if total > MAX_PIECES:
        raise RulesError(f"{what} would place {total} AI pieces; the setup places at most "
                         f"{MAX_PIECES} ({SETUP}, note on the maximum)")


def _check_fresh(battle: Battle) -> None:
    alive = room_holders(battle)
    if alive:
        raise RulesError(f"the battle is not over ({', '.join(alive)} still on the playmat): "
                         "a room is set up before its battle")
    heroes = [h for h in battle.heroes.values() if h.kind == "hero" and h.alive]
    tiles = battle.data.tiles_of("hero_target")
    if not heroes:
        raise RulesError("the setup needs at least one living hero (Hero Target tiles go to "
                         "heroes)")
    if len(heroes) > len(tiles):
        raise RulesError(f"{len(heroes)} heroes but only {len(tiles)} Hero Target tiles "
                         "(a party has at most four heroes)")


def _lay_out(battle: Battle, record: dict[str, Any], tiles: tuple, pieces: list[Piece],
             room_id: str | None) -> None:
    character, monster, targets, direction = tiles
    # A new battle: the last room's destroyed pieces leave, a new first round begins.
    battle.pieces.clear()
    battle.round, battle.acted = 1, []
    battle.options.playmat = record["id"]
    battle.adventure.last_playmat = record["id"]
    battle.adventure.room = room_id
    battle.adventure.rewarded = False
    battle.adventure.stage_waits = False  # a campaign's stage: its room is set up
    battle.character_order = character
    battle.monster_order = monster
    battle.direction = direction
    for hero in battle.heroes.values():
        hero.target_tile = None
    for hero_id, tile in targets.items():
        battle.heroes[hero_id].target_tile = tile
    battle.pieces.update((p.id, p) for p in pieces)


def heroic_forces_return(battle: Battle) -> Procedure:
    """Red Box: Solo & Co-Op Mode Setup: the Heroic Forces start the room in the Hero Start Zone:
    back from the Teleported! card or the Hidden Cave; a Mount out of play with its rider
    returns with the hero (Ice Box: Mounts)."""
    back = [h for h in battle.heroes.values() if h.alive and h.away in ("teleported", AWAY)]
    for hero in back:
        hero.away = None
    if back:
        yield Step(StepKind.HERO_START_ZONE, SETUP, "in the Hero Start Zone for this room: "
                   + ", ".join(h.name for h in back), {"heroes": [h.id for h in back]})
    for hero in list(battle.heroes.values()):
        yield from mount_returns(battle, hero)


def suppression_steps(battle: Battle, pieces: list[Piece], room: dict[str, Any] | None
                      ) -> Procedure:
    """Ice Box: Monster Suppression: a monster with a Suppresses box bars those shots from the
    heroes while it lives, from its placement on. The Room card's own box lasts the battle."""
    battle.adventure.suppression = {}
    battle.adventure.room_suppresses = list(room["suppresses"]) if room else []
    if battle.adventure.room_suppresses:
        yield Step(StepKind.ROOM_SUPPRESSION, ROOM_CARD, "the Room card suppresses the heroes' "
                   + ", ".join(battle.adventure.room_suppresses) + " for this battle",
                   {"shots": list(battle.adventure.room_suppresses), "verified": False})
    for piece in pieces:
        shots = battle.data.monster(piece.name).get("suppresses", []) if not piece.is_lord \
            else []
        if shots:
            battle.adventure.suppression[piece.id] = list(shots)
            yield Step(StepKind.SUPPRESSION, SUPPRESSION,
                       "while {piece} lives the heroes may not use: {shots}",
                       {"piece": piece.id, "shots": list(shots), "verified": False},
                       {"piece": piece.ref_id, "shots": ', '.join(shots)})


# --------------------------------------------------------------------------- actions


def setup_room(battle: Battle, params: SetupRoom) -> Procedure:
    """``{"do": "setup_room", "room": id, "playmat": id (when the card names one), "card":
    {...} (the Room card as the table reads it, when the data lacks it)}``."""
    check_campaign_room(battle, params.room, lord=False)
    room = room_for(battle, params.room, params.card)
    _check_fresh(battle)
    named = room.get("playmat") if params.playmat is None else params.playmat
    if named is not None and named not in battle.data.playmats:
        raise RulesError(f"no playmat {named!r} in {battle.data.file('playmats.toml')}")
    if needs_mercenary(room) and battle.adventure.mercenary is None:
        raise RulesError(f"{room['name']} has Mercenary icons: choose the Catacomb Lord first, "
                         "whose setup card names the mercenary")
    _check_total(sum(cards.split_entry(e)[0] for q in cards.QUADRANTS for e in room[q]
                     if not cards.MONSTER_GROUP.match(cards.split_entry(e)[1])), room["name"])
    entered = room["source"] == ENTERED
    yield Step(StepKind.ROOM, ENTERED_CARD if entered else ROOM_CARD, f"Battle Room: {room['name']}"
               + (" (its card as the table entered it)" if entered else ""),
               {"room": room["id"], "verified": room["verified"], "entered": entered})
    record = yield from choose_playmat(battle, named)
    tiles = yield from lay_tiles(battle, lord_room=False)
    groups = yield from room_groups(battle, room)
    _check_total(sum(g.units for g in groups), room["name"])
    ordered = _order(battle.data, groups, tiles[0], tiles[1])
    pieces = make_pieces(battle, ordered)
    runes = yield from placement.start_zone_runes(record, len(pieces))
    keep(battle, room, "room")
    _lay_out(battle, record, tiles, pieces, room["id"])
    yield from heroic_forces_return(battle)
    yield from placement.walk(battle, record, pieces, None, runes)
    yield from suppression_steps(battle, pieces, room)
    return [p.id for p in pieces]


def choose_lord(battle: Battle, params: ChooseLord) -> Procedure:
    """``{"do": "choose_lord", "lord": id, "card": {...} (when the data lacks it)}``: the
    game's Catacomb Lord, and its mercenary, once for the whole game (Ice Box: Catacomb Lord
    Setup Choices)."""
    if battle.adventure.mercenary is not None or battle.adventure.lord is not None:
        raise RulesError("the Catacomb Lord and its mercenary are chosen once for the game "
                         f"(already {battle.adventure.lord or '-'}, "
                         f"mercenary {battle.adventure.mercenary})")
    check_campaign_lord(battle, params.lord)
    lord = lord_for(battle, params.lord, params.card)
    return (yield from fix_lord(battle, lord))


def fix_lord(battle: Battle, lord: dict[str, Any]) -> Procedure:
    """The game's Catacomb Lord from here on, and its mercenary (a D12 for two)."""
    mercenary = yield from choose_mercenary(lord)
    keep(battle, lord, "lord")
    battle.adventure.lord = lord["id"]
    battle.adventure.mercenary = battle.data.monster(mercenary)["name"]
    yield Step(StepKind.MERCENARY, LORD_CHOICES if len(lord["mercenary"]) > 1 else LORD_SETUP,
               f"{lord['name']}: the mercenary for this game is {mercenary}",
               {"lord": lord["id"], "mercenary": mercenary, "verified": lord["verified"]})
    return mercenary


def setup_lord_room(battle: Battle, params: SetupLordRoom) -> Procedure:
    """``{"do": "setup_lord_room"}``: the Catacomb Lord's room for the game's lord (or
    ``"lord": id`` when none was chosen, with its ``"card"`` when the data lacks it)."""
    name = battle.adventure.lord or params.lord
    if name is None:
        raise RulesError("no Catacomb Lord: choose the Catacomb Lord first, or name the lord")
    if battle.adventure.lord is not None and params.card is not None:
        raise RulesError(f"{battle.adventure.lord} is already this game's Catacomb Lord: no "
                         "card to enter")
    if battle.adventure.lord is None:
        check_campaign_lord(battle, name)
    check_campaign_room(battle, None, lord=True)
    lord = lord_for(battle, name, params.card)
    _check_fresh(battle)
    least = sum(min(cards.split_entry(x)[0] for x in (e if isinstance(e, list) else [e]))
                for e in lord["minions"])
    _check_total(least + 1, lord["name"])
    yield Step(StepKind.LORD, LORD_SETUP, f"Catacomb Lord room: {lord['name']}",
               {"lord": lord["id"], "verified": lord["verified"]})
    record = yield from choose_lord_playmat(battle.data, lord)
    tiles = yield from lay_tiles(battle, lord_room=True)
    groups = yield from lord_minions(battle.data, lord)
    _check_total(sum(g.units for g in groups) + 1, lord["name"])
    pieces = make_pieces(battle, _order(battle.data, groups, tiles[0], tiles[1]))
    taken = set(battle.heroes) | {p.id for p in pieces}
    lord_id = _slug(lord["name"].split()[0])
    while lord_id in taken:
        lord_id += "-lord"
    lord_piece = (entered_lord_piece(lord_id, lord) if lord["source"] == ENTERED
                  else cards.piece_from_lord(battle.data, lord_id, lord["id"]))
    runes = yield from placement.start_zone_runes(record, len(pieces))
    keep(battle, lord, "lord")
    _lay_out(battle, record, tiles, [*pieces, lord_piece], "lord")
    battle.adventure.lord = lord["id"]
    yield from heroic_forces_return(battle)
    yield from placement.walk(battle, record, pieces, lord_piece, runes)
    yield from suppression_steps(battle, pieces, None)
    return [p.id for p in [*pieces, lord_piece]]
