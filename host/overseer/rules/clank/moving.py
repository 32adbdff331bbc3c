"""Moving through the dungeon as the table reports it: entering a lost chamber, a lair or a
wayside shrine (the Treasury of Umbroka Vessna's gold, Medusa's gaze), the teleports the
expansion forces, trap pits and the limit on damage taken by choice, and magic barriers
(Clank! Lairs and Lost Chambers: Trap Pits; Magic Barriers; Lost Chambers; Lairs)."""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.params import param
from overseer.core.procedure import ChooseOne, Procedure, RulesError, Step, YesNo
from overseer.core.shapes import suggestion
from overseer.rules.clank import rulebook
from overseer.rules.clank.kinds import Key, StepKind
from overseer.rules.clank.records import AEGIS_SHRINE, MEDUSA, MEDUSAS_LAIR, UMBROKA_VESSNA
from overseer.rules.clank.state import ELSEWHERE, PLACES, WAYSIDE_SHRINE, ClankState, on_turn
from overseer.rules.clank.trophies import defeat_monster

# Lost Chambers, Treasury of Umbroka Vessna - on entering: 5 gold, +2 Clank!
UMBROKA_GOLD = 5
UMBROKA_CLANK = 2
# Lairs, Medusa's Lair - turning to stone is 2 damage. Trap Pits - a fall is 1.
STONE_DAMAGE = 2
PIT_DAMAGE = 1
FIGHT, STONE = "fight", "stone"
FALL, AVOID = "fall", "avoid"
BOOTS, TELEPORT = "boots", "teleport"


def can_take_damage(player: str, amount: int) -> Procedure:
    """Trap Pits; Lairs, Medusa's Lair - damage taken by choice is not allowed with no cube
    left in the personal supply, or when it would fill the health track. The table knows."""
    return (yield YesNo(prompt=f"Can {player} take {amount} damage by choice? Not with no cube "
                               f"left in their supply, nor if {amount} damage would fill their "
                               "health track.", key=Key.CAN_TAKE_DAMAGE))


def destinations(state: ClankState) -> list[str]:
    """Where a player may be reported entering: the rooms placed, a wayside shrine, any other
    room."""
    return [*state.placed, *PLACES]


def enterable(state: ClankState) -> list[str]:
    """The destinations but the lost chamber or lair the player whose turn it is is in."""
    player = state.turn_player()
    where = None if player is None else state.players[player].where
    return [r for r in destinations(state) if r != where or r in PLACES]


# --------------------------------------------------------------------------- entering


def _medusa_gaze(state: ClankState, player: str) -> Procedure:
    """Lairs, Medusa's Lair - entering while she is there: fight her at once (a Secret Tome
    played this turn) or turn to stone. Asks only; returns (how, allowed)."""
    choice = yield ChooseOne(prompt=f"Medusa's gaze: does {player} fight her now (a Secret "
                                    "Tome and 2 swords) or turn to stone (2 damage)?",
                             options=(FIGHT, STONE), key=Key.MEDUSA)
    if choice == FIGHT and (yield YesNo(prompt=f"Does {player} play a Secret Tome this turn?",
                                        key=Key.SECRET_TOME)):
        return FIGHT, True
    return STONE, (yield from can_take_damage(player, STONE_DAMAGE))


def enter_room(state: ClankState, player: str, room: str, how: str) -> Procedure:
    """``player`` enters ``room`` (moving or teleporting). Returns False, having changed
    nothing, when they may not enter (Medusa's Lair without a fight or the 2 damage)."""
    gaze = None
    if room == MEDUSAS_LAIR and MEDUSA in state.lairs.get(MEDUSAS_LAIR, []):
        gaze, allowed = yield from _medusa_gaze(state, player)
        if not allowed:
            return False
    state.players[player].where = room
    if room == AEGIS_SHRINE:
        state.players[player].aegis_reenter = False
    # A wayside shrine matters for the Temple of Gold's offerings; any other room for the
    # shrine rules' "only while in the room".
    rule = state.data.rooms[room].section if room in state.data.rooms else \
        rulebook.TEMPLE_OF_GOLD if room == WAYSIDE_SHRINE else rulebook.LOST_CHAMBERS
    yield Step(StepKind.ENTER, rule, f"{player} {how} {state.room_name(room)}.",
               {"player": player, "room": room, "how": how})
    if gaze == FIGHT:
        yield from defeat_monster(state, player, MEDUSA, "on entering: a Secret Tome and "
                                  "2 swords")
    elif gaze == STONE:
        yield Step(StepKind.STONE, rulebook.MEDUSAS_LAIR,
                   f"{player} turns to stone: {STONE_DAMAGE} damage. No more for staying in "
                   "the lair; Medusa may still be fought later.",
                   {"player": player, "damage": STONE_DAMAGE})
    if room == UMBROKA_VESSNA:
        yield Step(StepKind.UMBROKA, rulebook.UMBROKA_VESSNA,
                   f"{player} takes {UMBROKA_GOLD} gold from the treasury and gains "
                   f"+{UMBROKA_CLANK} Clank! (the dragon heard the theft).",
                   {"player": player, "gold": UMBROKA_GOLD, "clank": UMBROKA_CLANK})
    return True


@dataclass(frozen=True, slots=True)
class Enter:
    """``{"do": "enter", "player": P, "room": id}``: P moves into a lost chamber or lair placed,
    a wayside shrine (``wayside-shrine``) or any other room (``elsewhere``)."""

    player: str = param(options=on_turn, prompt="Who moves?")
    room: str = param(options=enterable, prompt="Into which room?")


def enter(state: ClankState, params: Enter) -> Procedure:
    state.check_turn(params.player)
    room = params.room
    if room in state.data.rooms and room not in state.placed:
        raise RulesError(f"enter: {state.room_name(room)} is not in the dungeon yet (reveal "
                         "its tile first)")
    if room not in destinations(state):
        raise RulesError(f"enter: unknown room {room!r}; "
                         f"{suggestion(room, destinations(state))}")
    if room in state.data.rooms and state.players[params.player].where == room:
        raise RulesError(f"enter: {params.player} is already in {state.room_name(room)}")
    return _enter(state, params.player, room)


def _enter(state: ClankState, player: str, room: str) -> Procedure:
    if not (yield from enter_room(state, player, room, "enters")):
        raise RulesError(f"{player} may not enter Medusa's Lair: without a Secret Tome to fight "
                         f"her, the {STONE_DAMAGE} damage would be taken by choice, which "
                         "their supply or health track does not allow")


def teleport(state: ClankState, player: str, rule: str, why: str) -> Procedure:
    """A forced teleport to another lair or lost chamber, if one can be reached (Lairs, Living
    Statue Lair). A room the player may not enter (Medusa's Lair) is struck off and the table
    asked again."""
    here = state.players[player].where
    options = [r for r in state.placed if r != here]
    while options:
        room = yield ChooseOne(prompt=f"{player} must teleport ({why}): to which lair or lost "
                                      "chamber?", options=tuple(options), key=Key.TELEPORT)
        if (yield from enter_room(state, player, room, "teleports into")):
            return
        options.remove(room)
        yield Step(StepKind.TELEPORT, rulebook.MEDUSAS_LAIR,
                   f"{player} cannot teleport into {state.room_name(room)}: no Secret Tome to "
                   "fight Medusa, and no damage by choice. Another room.",
                   {"player": player, "room": None, "refused": room})
    yield Step(StepKind.TELEPORT, rule, f"No other lair or lost chamber to teleport to: "
               f"{player} stays.", {"player": player, "room": None, "refused": None})


# --------------------------------------------------------------------------- trap pits


@dataclass(frozen=True, slots=True)
class TrapPit:
    """``{"do": "trap_pit", "player": P}``: P moves into a room with a trap pit, the first time
    into that room this turn."""

    player: str = param(options=on_turn, prompt="Who meets the trap pit?")


def trap_pit(state: ClankState, params: TrapPit) -> Procedure:
    state.check_turn(params.player)
    return _trap_pit(state, params.player)


def _trap_pit(state: ClankState, player: str) -> Procedure:
    """Trap Pits - fall (1 damage, no boots for the rest of the turn) or avoid it by discarding a
    card from hand that is not an Obstacle; with no such card, fall. Falling is damage taken by
    choice: not allowed with no cube left or when it would fill the track, so with no card to
    discard the room cannot be entered."""
    can_avoid = yield YesNo(prompt=f"Has {player} a card in hand that is not an Obstacle?",
                            key=Key.HAND_CARD)
    choice = FALL
    if can_avoid:
        choice = yield ChooseOne(prompt=f"Trap pit: does {player} fall in (1 damage, no boots "
                                        "this turn) or avoid it (discard a card that is not an "
                                        "Obstacle)?", options=(FALL, AVOID), key=Key.TRAP_PIT)
    if choice == FALL and not (yield from can_take_damage(player, PIT_DAMAGE)):
        raise RulesError(f"{player} may not fall into the pit by choice: avoid it by "
                         "discarding a card" if can_avoid else
                         f"{player} may not enter a room with a trap pit: no card to discard, "
                         "and the fall would be damage their supply or track does not allow")
    state.players[player].where = ELSEWHERE
    if choice == AVOID:
        yield Step(StepKind.TRAP_PIT, rulebook.TRAP_PITS,
                   f"{player} avoids the trap pit: discard a card from hand (not an Obstacle).",
                   {"player": player, "fell": False})
        return
    if player not in state.fell:
        state.fell.append(player)
    yield Step(StepKind.TRAP_PIT, rulebook.TRAP_PITS,
               f"{player} falls into the pit: {PIT_DAMAGE} damage, and no boots for the rest of "
               "this turn (teleport still works).",
               {"player": player, "fell": True, "damage": PIT_DAMAGE})


# --------------------------------------------------------------------------- magic barriers


def crossings(state: ClankState) -> list[str]:
    """Boots, unless the player whose turn it is fell into a trap pit this turn; teleport."""
    return [TELEPORT] if state.turn_player() in state.fell else [BOOTS, TELEPORT]


@dataclass(frozen=True, slots=True)
class MagicBarrier:
    """``{"do": "magic_barrier", "player": P, "by": "boots" | "teleport"}``: P crosses a tunnel
    with a magic barrier."""

    player: str = param(options=on_turn, prompt="Who crosses the barrier?")
    by: str = param(options=crossings, prompt="With boots or teleport?")


def magic_barrier(state: ClankState, params: MagicBarrier) -> Procedure:
    state.check_turn(params.player)
    if params.by not in (BOOTS, TELEPORT):
        raise RulesError(f"magic_barrier: 'by' must be {BOOTS} or {TELEPORT} (got {params.by!r})")
    if params.by == BOOTS and params.player in state.fell:
        raise RulesError(f"{params.player} fell into a trap pit this turn: no boots until the "
                         "turn ends (teleport still works)")
    return _barrier(state, params.player, params.by)


def _barrier(state: ClankState, player: str, by: str) -> Procedure:
    """Magic Barriers - no boots through the barrier while carrying an artifact; teleport
    always goes through."""
    if by == BOOTS and (yield YesNo(prompt=f"Does {player} carry an artifact?",
                                    key=Key.HAS_ARTIFACT)):
        raise RulesError(f"{player} carries an artifact: boots cannot cross a magic barrier; "
                         "teleport can")
    state.players[player].where = ELSEWHERE
    yield Step(StepKind.BARRIER, rulebook.MAGIC_BARRIERS,
               f"{player} crosses the magic barrier by {by}"
               f"{' (artifact or not)' if by == TELEPORT else ' (no artifact)'}.",
               {"player": player, "by": by})


# --------------------------------------------------------------------------- Umbroka Vessna


def in_umbroka(state: ClankState) -> list[str]:
    """The player whose turn it is, when in the Treasury of Umbroka Vessna."""
    return [p for p in on_turn(state) if state.players[p].where == UMBROKA_VESSNA]


@dataclass(frozen=True, slots=True)
class UmbrokaLoot:
    """``{"do": "umbroka_loot", "player": P, "what": "artifact" | "chest"}``: P takes an
    artifact or opens a chest in the Treasury of Umbroka Vessna."""

    player: str = param(options=in_umbroka, prompt="Who loots the treasury?")
    what: str = param(options=lambda state: ["artifact", "chest"], prompt="An artifact or a chest?")




def umbroka_loot(state: ClankState, params: UmbrokaLoot) -> Procedure:
    state.check_turn(params.player)
    if state.players[params.player].where != UMBROKA_VESSNA:
        raise RulesError(f"umbroka_loot: {params.player} is not in the Treasury of Umbroka "
                         "Vessna")
    if params.what not in ("artifact", "chest"):
        raise RulesError(f"umbroka_loot: 'what' must be artifact or chest (got {params.what!r})")
    return _loot(state, params.player, params.what)


def _loot(state: ClankState, player: str, what: str) -> Procedure:
    """Lost Chambers, Treasury of Umbroka Vessna - then teleport at once to one of the tile's
    two other rooms (neither is a lost chamber: Overseer's reading)."""
    state.players[player].where = ELSEWHERE
    took = "takes an artifact" if what == "artifact" else "opens a chest"
    yield Step(StepKind.LOOT, rulebook.UMBROKA_VESSNA,
               f"{player} {took} in the Treasury of Umbroka Vessna and must teleport at once to "
               "one of the two other rooms of this tile.",
               {"player": player, "what": what})
