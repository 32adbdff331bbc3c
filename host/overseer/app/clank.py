"""Clank! Catacombs (Lairs and Lost Chambers) at the table: what the shell (app/shell.py) needs
beyond the rules to keep a game's books on the five buttons.

- ``wizard``: the new game's questions (how many players, the first-game variant); the setup
  action begins at once (its safe-tile draw and the base box's safe tiles are the rules' own
  questions);
- the menu: what the turn's player did (a tile placed, a room entered, a cube, a fight, a
  trophy...), each move's parameters asked as questions; a cube is chosen from every space of
  a chamber, a taken one too, so that a space the rules refuse gets its reason on the glass;
- labels: short names for the lists, a record the book does not print marked "!";
- the glass between actions: whose turn, where they are, their trophies; the players' pages;
  a tapped room or monster card looks it up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from overseer.app.flow import NewGame, Table, TapActions, party_screens
from overseer.app.local import Ask, LocalProcedure
from overseer.core.moves import Move
from overseer.core.procedure import ChooseOne, EnterNumber, Question
from overseer.rules.clank import books, chambers, lairs, moving
from overseer.rules.clank.records import LAIR, MAD_BAZAAR, Space
from overseer.rules.clank.setup import MAX_PLAYERS
from overseer.rules.clank.state import PLACES, WAYSIDE_SHRINE, ClankState
from overseer.rules.clank.state import names as state_names
from overseer.screens.render import Screen

GAME = "clank"
UNPRINTED = "!"  # after a name in a list: the record is not printed in the book

# Menu labels short enough for the 8x16 list (15 characters).
SHORT = {
    "setup": "Set up",
    "reveal": "Tile placed",
    "enter": "Enter a room",
    "trap_pit": "Trap pit",
    "magic_barrier": "Magic barrier",
    "place_cube": "Place a cube",
    "aegis_shield": "Ghost attack",
    "fight": "Fight monster",
    "umbroka_loot": "Loot treasury",
    "take_trophy": "Take a TROPHY",
    "enter_trophy": "Other TROPHY",
    "end_turn": "End the turn",
    "end_game": "End the game",
    "look_up": "Look up",
    "correct": "Correct books",
}
ORDER = ("setup", "enter", "place_cube", "fight", "reveal", "umbroka_loot", "trap_pit",
         "magic_barrier", "aegis_shield", "take_trophy", "enter_trophy", "end_turn", "look_up",
         "correct", "end_game")
# The answers of the rules' own questions, as the lists show them.
ANSWERS = {
    moving.FIGHT: "Fight her", moving.STONE: "Turn to stone", moving.FALL: "Fall in",
    moving.AVOID: "Discard a card", moving.BOOTS: "Boots", moving.TELEPORT: "Teleport",
    lairs.SWORDS: "Swords", lairs.RIDDLE: "The riddle", chambers.GOLD: "3 gold",
    "artifact": "An artifact", "chest": "A chest",
    "heal-1": "Heal 1", "heal-2": "Heal 2", "lockpick": "Lockpick",
    "big-secret": "Big secret", books.EMPTY: "Empty",
}
# The moves' questions whose prompt is too long for the title bar, by move and field.
PROMPTS = {"reveal": {"room": "Which tile was placed?"},
           "aegis_shield": {"player": "Ghost attacks whom?"}}
# Room names too long for a list's row.
ROOM_SHORT = {"umbroka-vessna": "Umbroka Vessna", "living-statue-lair": "Statues' Lair"}
LOOK_UP_KINDS = {"rooms": "Lost chambers", "lairs": "Lairs", "monsters": "Monsters",
                 "cards": "TROPHY cards", "topics": "Other rules"}


# --------------------------------------------------------------------------- names


def _marked(name: str, verified: bool) -> str:
    return name if verified else name + UNPRINTED


def space_label(space: Space) -> str:
    """A cube space in a few characters: "5 gold", "Showcase", "Space 1"."""
    if space.offering is not None:
        label = f"{space.offering} gold"
    elif space.room == MAD_BAZAAR:
        label = space.name.removesuffix(" stall")
    else:
        label = space.name.rpartition(", ")[2].capitalize()
    return _marked(label, space.verified)


def labels(state: ClankState) -> dict[str, str]:
    """Display names by id, for lists and pages: the game's names, the places as a list
    shows them, the answers of the rules' questions; an unprinted record marked "!"."""
    data = state.data
    names = state_names(state)
    names.update((p, place.capitalize()) for p, place in PLACES.items())
    names.update(ANSWERS)
    names.update((s.id, space_label(s)) for s in data.spaces.values())
    names.update((c.id, _marked(c.name, c.verified)) for c in data.cards.values())
    names.update((r.id, _marked(ROOM_SHORT.get(r.id, r.name), r.verified))
                 for r in data.rooms.values())
    for player in state.players.values():
        names.update((t.id, _marked(t.name, t.verified)) for t in player.trophies)
    return names


def default_seats(state: ClankState, seats: tuple[int, ...]) -> dict[str, int]:
    """Each player at a seat of their own, in seat order."""
    return dict(zip(state.players, seats, strict=False))


def lights(state: ClankState, seats: Mapping[str, int],
           question: Question | None) -> dict[int, str]:
    """The seat of the player whose turn it is, on."""
    player = state.turn_player()
    return {seats[player]: "on"} if player is not None and player in seats else {}


# --------------------------------------------------------------------------- new game


VARIANT = {"off": "Off", "on": "On: first game"}


def player_ids(count: int) -> list[str]:
    return [f"P{n}" for n in range(1, count + 1)]


def wizard(seats: tuple[int, ...], pico: bool) -> LocalProcedure:
    """How many players (each at the next seat), the first-game variant; the setup action
    then draws the safe tiles."""
    most = min(MAX_PLAYERS, len(seats)) if seats else MAX_PLAYERS
    count = yield Ask(EnterNumber("How many players?", "new_players", 1, most), start=2)
    variant = yield Ask(ChooseOne("First game variant?", tuple(VARIANT), "new_first_game"),
                        names=VARIANT)
    players = player_ids(count)
    setup = {"players": players, "first_game": variant == "on"}
    return NewGame({"format": 2, "game": GAME, "setup": setup}, "seeded", ({"do": "setup"},),
                   dict(zip(players, seats, strict=False)))


# --------------------------------------------------------------------------- forms


def _chambers(state: ClankState) -> list[str]:
    """The lost chambers in the dungeon with cube spaces, where the player stands first (the
    Temple of Gold first from a wayside shrine)."""
    player = state.turn_player()
    where = state.players[player].where if player else None
    rooms = [r for r in state.placed if state.data.spaces_of(r)]

    def first(room: str) -> int:
        here = room == where or (where == WAYSIDE_SHRINE
                                 and state.data.rooms[room].cubes_from == "wayside_shrine")
        return 0 if here else 1
    return sorted(rooms, key=first)


def place_cube_form(state: ClankState, names: Mapping[str, str]) -> LocalProcedure:
    """Which chamber, then which of its spaces: every space, a taken one with its owner (the
    rules say why a space is refused, and nothing changes)."""
    rooms = _chambers(state)
    room = rooms[0] if len(rooms) == 1 else (yield Ask(
        ChooseOne("Which chamber?", tuple(rooms), "form_chamber"), names=names))
    spaces = state.data.spaces_of(room)
    shown = {s.id: space_label(s) + (f" ({state.cubes[s.id]})" if s.id in state.cubes else "")
             for s in spaces}
    space = spaces[0].id if len(spaces) == 1 else (yield Ask(
        ChooseOne("Which space?", tuple(shown), "form_space"), names=shown))
    return {"do": "place_cube", "player": state.turn_player(), "space": space}


def enter_trophy_form(state: ClankState, names: Mapping[str, str]) -> LocalProcedure:
    """A TROPHY card the data lacks: its victory points off the card; the buttons cannot
    spell, so it is named "TROPHY card N" (N: the cards entered so far, plus one)."""
    entered = sum(1 for p in state.players.values() for t in p.trophies if t.entered)
    vp = yield Ask(EnterNumber("Its victory points?", "form_vp", 0, 20), start=1)
    return {"do": "enter_trophy", "player": state.turn_player(),
            "name": f"TROPHY card {entered + 1}", "vp": vp}


def _topics(state: ClankState) -> dict[str, list[str]]:
    data = state.data
    return {"rooms": [r for r, room in data.rooms.items() if room.kind != LAIR],
            "lairs": [r for r, room in data.rooms.items() if room.kind == LAIR],
            "monsters": list(data.monsters), "cards": list(data.cards),
            "topics": list(data.topics)}


def look_up_form(state: ClankState, names: Mapping[str, str]) -> LocalProcedure:
    """What kind of thing, then which (a tapped room or monster card answers at once)."""
    groups = _topics(state)
    taps: dict[tuple[str, str], Any] = {("room", r): r for r in state.data.rooms}
    taps.update((("monster", m), m) for m in state.data.monsters)
    kind = yield Ask(ChooseOne("Look up what?", tuple(groups), "form_topic_kind"),
                     names=LOOK_UP_KINDS, cards=taps)
    if kind not in groups:
        return {"do": "look_up", "topic": kind}  # a tapped card
    topic = yield Ask(ChooseOne("Which one?", tuple(groups[kind]), "form_topic"),
                      names=names, cards=taps)
    return {"do": "look_up", "topic": topic}


def fight_form(state: ClankState, names: Mapping[str, str]) -> LocalProcedure:
    """The monster of the lair the player stands in; swords or the riddle where it has one."""
    monsters = tuple(lairs.here(state))
    monster = monsters[0] if len(monsters) == 1 else (yield Ask(
        ChooseOne("Which monster?", monsters, "form_monster"), names=names))
    ways = tuple(lairs.ways(state))
    way = ways[0] if len(ways) == 1 else (yield Ask(
        ChooseOne("Swords, or the riddle?", ways, "form_way"), names=names))
    return {"do": "fight", "player": state.turn_player(), "monster": monster, "way": way}


FORMS: dict[str, Callable[[ClankState, Mapping[str, str]], LocalProcedure]] = {
    "fight": fight_form,
    "place_cube": place_cube_form,
    "enter_trophy": enter_trophy_form,
    "look_up": look_up_form,
}


# --------------------------------------------------------------------------- the glass


def shown_refused(state: ClankState) -> tuple[str, ...]:
    """A cube while a chamber with spaces is in the dungeon, though every space is taken: the
    table hears why it cannot be placed."""
    return ("place_cube",) if state.playing and _chambers(state) else ()


def idle_key(state: ClankState, last: str | None) -> str:
    if not state.started:
        return "Set up"
    if state.over is not None:
        return "Game over"
    return f"{state.turn_player()}'s turn"


def _trophy_points(state: ClankState) -> str:
    return "Trophies: " + ", ".join(f"{p.id} {len(p.trophies)}" for p in state.players.values())


def status(state: ClankState, names: Mapping[str, str]) -> tuple[str, ...]:
    player = state.turn_player()
    if player is None:
        if state.over is not None:
            totals = state.over["totals"]
            return ("Trophy VP: " + ", ".join(f"{p} {v}" for p, v in totals.items()),)
        return ("The setup's steps come first",)
    where = state.room_name(state.players[player].where)
    return f"Turn {state.turn_number}: {player} in {where}", _trophy_points(state)


def _player_lines(state: ClankState, player: str, names: Mapping[str, str]) -> list[str]:
    p = state.players[player]
    lines = [f"In {state.room_name(p.where)}"]
    held = ", ".join(names.get(t.id, t.name) for t in p.trophies) or "none"
    lines.append(f"Trophies {len(p.trophies)}: {held}")
    cubes = ", ".join(names.get(s, s) for s in state.cubes_of(player)) or "none"
    lines.append(f"Cubes: {cubes}")
    lines.append(f"Temple offering: {p.offering} gold" if p.offering is not None
                 else "No Temple offering yet")
    if player in state.fell:
        lines.append("No boots this turn (trap pit)")
    if state.over is not None:
        lines.append(f"Trophy VP: {state.over['totals'][player]}")
    return lines


def _dungeon_lines(state: ClankState, names: Mapping[str, str]) -> list[str]:
    data = state.data
    placed = ", ".join(names.get(r, r) for r in state.placed) or "none yet"
    lines = [f"Placed: {placed}"]
    for lair, tokens in state.lairs.items():
        lines.append(f"{data.rooms[lair].name}: {len(tokens)} monster(s) left")
    lines.append(f"Treasury: {len(state.treasury)} monster token(s)")
    return lines


def party_pages(state: ClankState, names: Mapping[str, str], heading: str
                ) -> tuple[Screen, ...]:
    """A page (or two) a player: where, trophies, cubes, offering; then the dungeon."""
    heading = "Players" if heading == "Party" else heading
    return party_screens([*((heading, p, _player_lines(state, p, names))
                            for p in state.players),
                          ("Dungeon", "", _dungeon_lines(state, names))])


def tap_actions(state: ClankState, legal: list[Move[Any]]) -> TapActions:
    """A room or monster card tapped with no question waiting: its look-up."""
    out: TapActions = {}
    for room in state.data.rooms:
        out[("room", room)] = {"do": "look_up", "topic": room}
    for monster in state.data.monsters:
        out[("monster", monster)] = {"do": "look_up", "topic": monster}
    return out


class ClankTable(Table):
    """Clank! at the table."""

    game, label, party_label = GAME, "Clank!", "Players"
    order, short, prompts, forms = ORDER, SHORT, PROMPTS, FORMS

    def wizard(self, seats: tuple[int, ...], pico: bool) -> LocalProcedure:
        return wizard(seats, pico)

    def labels(self, state: ClankState) -> dict[str, str]:
        return labels(state)

    def default_seats(self, state: ClankState, seats: tuple[int, ...]) -> dict[str, int]:
        return default_seats(state, seats)

    def shown_refused(self, state: ClankState) -> tuple[str, ...]:
        return shown_refused(state)

    def idle_key(self, state: ClankState, last: str | None) -> str:
        return idle_key(state, last)

    def status(self, state: ClankState, names: Mapping[str, str]) -> tuple[str, ...]:
        return status(state, names)

    def party_pages(self, state: ClankState, names: Mapping[str, str], heading: str
                    ) -> tuple[Screen, ...]:
        return party_pages(state, names, heading)

    def tap_actions(self, state: ClankState, legal: list[Move[Any]]) -> TapActions:
        return tap_actions(state, legal)

    def lights(self, state: ClankState, seats: Mapping[str, int],
               question: Question | None) -> dict[int, str]:
        return lights(state, seats, question)

    def back_leaves(self, action: str | None) -> bool:
        return action != "setup"


TABLE = ClankTable()
