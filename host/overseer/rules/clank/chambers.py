"""Cubes in the lost chambers and what each chamber gives for one (Clank! Lairs and Lost
Chambers: Lost Chambers and its sub-sections).

The shrine rules: a cube is placed only by a player in the room (the Temple of Gold: in any
wayside shrine), only in an empty space, at most one of a player's cubes in a room, and only
from a supply that still has one (the table is asked).
"""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.params import param
from overseer.core.procedure import (
    ChooseOne,
    ChooseSome,
    Facts,
    Procedure,
    RulesError,
    Step,
    YesNo,
    refusal,
    words,
)
from overseer.core.shapes import suggestion
from overseer.rules.clank import rulebook
from overseer.rules.clank.kinds import Key, StepKind
from overseer.rules.clank.records import (
    AEGIS_SHRINE,
    MAD_BAZAAR,
    REWARD_PARTS,
    SPIRIT_ALTAR,
    TEMPLE_OF_GOLD,
    Space,
)
from overseer.rules.clank.state import WAYSIDE_SHRINE, ClankState, on_turn
from overseer.rules.clank.trophies import choose_trophy, give_up

# Lost Chambers, Spirit Altar - 2 gold; Mad Bazaar - a stall costs 3 gold (or a trophy).
ALTAR_GOLD = 2
STALL_GOLD = 3
GOLD = "gold"


def placeable(state: ClankState) -> list[str]:
    """The spaces the player whose turn it is may place a cube in now, by the state (the
    supply is asked when the cube is placed)."""
    player = state.turn_player()
    if player is None:
        return []
    found = []
    temple = [s.id for s in state.data.spaces_of(TEMPLE_OF_GOLD) if s.id in state.cubes]
    for space in [*state.free_spaces(), *temple]:
        try:
            check_cube(state, PlaceCube(player, space))
        except RulesError:
            continue
        found.append(space)
    return found


@dataclass(frozen=True, slots=True)
class PlaceCube:
    """``{"do": "place_cube", "player": P, "space": id}``: P places a cube from their supply
    in a space of a lost chamber (``mad-bazaar/showcase``, ``temple-of-gold/5`` ...)."""

    player: str = param(options=on_turn, prompt="Who places a cube?")
    space: str = param(options=placeable, prompt="In which space?")


def _space(state: ClankState, space_id: str) -> Space:
    data = state.data
    if space_id in data.rooms:
        room = data.rooms[space_id]
        spaces = [s.id for s in data.spaces_of(space_id)]
        if not spaces:
            raise RulesError(f"place_cube: no cubes may be placed in {room.name} "
                             f"({room.section})")
        raise RulesError(f"place_cube: name a space of {room.name}: {', '.join(spaces)}")
    if space_id not in data.spaces:
        raise RulesError(f"place_cube: unknown space {space_id!r}; "
                         f"{suggestion(space_id, data.spaces)}")
    return data.spaces[space_id]


def check_cube(state: ClankState, params: PlaceCube) -> Space:
    """The space, or ``RulesError`` saying which cube rule refuses it. Reads only."""
    state.check_turn(params.player)
    space = _space(state, params.space)
    room = state.data.rooms[space.room]
    player = state.players[params.player]
    if room.id not in state.placed:
        raise RulesError(f"place_cube: {room.name} is not in the dungeon yet")
    if room.id == TEMPLE_OF_GOLD and player.offering is not None:
        raise RulesError(f"{player.id} has already made an offering in the Temple of Gold "
                         f"({player.offering} gold): one offering only ({room.section})")
    if room.cubes_from == "wayside_shrine" and player.where != WAYSIDE_SHRINE:
        raise RulesError(f"{player.id} must be in a wayside shrine to place a cube in "
                         f"{room.name} (now in {state.room_name(player.where)})")
    if room.cubes_from == "room" and player.where != room.id:
        raise RulesError(f"{player.id} must be in {room.name} to place a cube there (now in "
                         f"{state.room_name(player.where)})")
    if space.id in state.cubes and room.id != TEMPLE_OF_GOLD:  # a column: _temple asks
        raise RulesError(f"{space.name} already holds {state.cubes[space.id]}'s cube: a cube "
                         f"goes only in an empty space ({rulebook.LOST_CHAMBERS})")
    mine = [s for s in state.cubes_of(player.id) if state.data.spaces[s].room == room.id]
    if mine:
        raise refusal("{player} already has a cube in {room} ({space}): one cube a room "
                      f"({rulebook.LOST_CHAMBERS})", player=player.id, room=room.name,
                      space=(mine[0], mine[0]))
    if room.id == AEGIS_SHRINE and player.aegis_reenter:
        raise RulesError(f"{player.id} spent their Aegis Shrine cube: enter the shrine again "
                         "before placing a new one")
    if room.id == SPIRIT_ALTAR and not player.trophies:
        raise RulesError(f"{player.id} has no trophy to give up at the Spirit Altar")
    return space


def place_cube(state: ClankState, params: PlaceCube) -> Procedure:
    space = check_cube(state, params)
    return _place(state, params.player, space)


def _place(state: ClankState, player: str, space: Space) -> Procedure:
    if not (yield YesNo(prompt=f"Has {player} a cube left in their personal supply?",
                        key=Key.CUBE_IN_SUPPLY)):
        raise RulesError(f"{player} has no cube left in their personal supply: no cube can be "
                         f"placed ({rulebook.LOST_CHAMBERS})")
    room = space.room
    if room == SPIRIT_ALTAR:
        yield from _spirit_altar(state, player, space)
    elif room == MAD_BAZAAR:
        yield from _bazaar(state, player, space)
    elif room == TEMPLE_OF_GOLD:
        yield from _temple(state, player, space)
    else:
        _cube(state, player, space)
        yield _cube_step(state, player, space, rulebook.AEGIS_SHRINE,
                         "; it may be taken back in a ghost attack to avoid the damage")


def _cube(state: ClankState, player: str, space: Space) -> None:
    state.cubes[space.id] = player


def _cube_step(state: ClankState, player: str, space: Space, rule: str, more: str = "") -> Step:
    return Step(StepKind.CUBE, rule, f"{player} places a cube: {space.name}{more}.",
                {"player": player, "space": space.id, "room": space.room,
                 "verified": space.verified})


def _artifact(player: str) -> Procedure:
    """An artifact from any room: one at most without a backpack. Asks; returns whether one
    is taken and why not."""
    if not (yield YesNo(prompt=f"Does {player} take an artifact from a room of the dungeon?",
                        key=Key.TAKE_ARTIFACT)):
        return False, "declined"
    return (yield from _artifact_allowed(player))


def _artifact_step(player: str, rule: str, taken: bool, why: str) -> Step:
    text = (f"{player} takes an artifact from a room of the dungeon." if taken else
            f"{player} takes no artifact." if why == "declined" else
            f"{player} takes no artifact: one at most without a backpack.")
    return Step(StepKind.ARTIFACT, rule, text, {"player": player, "taken": taken, "why": why})


def _spirit_altar(state: ClankState, player: str, space: Space) -> Procedure:
    """Spirit Altar - give up a trophy, take 2 gold, and an artifact if wanted (and allowed)."""
    trophy = yield from choose_trophy(state, player, f"Which trophy does {player} give up at "
                                                     "the Spirit Altar?")
    taken, why = yield from _artifact(player)
    _cube(state, player, space)
    yield _cube_step(state, player, space, rulebook.SPIRIT_ALTAR)
    yield from give_up(state, player, trophy, rulebook.SPIRIT_ALTAR, "on the altar")
    yield Step(StepKind.GOLD, rulebook.SPIRIT_ALTAR,
               f"{player} takes {ALTAR_GOLD} gold from the treasury.",
               {"player": player, "gold": ALTAR_GOLD})
    yield _artifact_step(player, rulebook.SPIRIT_ALTAR, taken, why)


def _bazaar(state: ClankState, player: str, space: Space) -> Procedure:
    """Mad Bazaar - a stall's wonder for 3 gold to the treasury or a trophy given up."""
    trophies = tuple(t.id for t in state.players[player].trophies)
    pay = yield ChooseOne(prompt=f"How does {player} pay for the {space.name}: {STALL_GOLD} gold, "
                                 "or a trophy given up?", options=(GOLD, *trophies),
                          key=Key.PAYMENT)
    _cube(state, player, space)
    yield _cube_step(state, player, space, rulebook.MAD_BAZAAR)
    if pay == GOLD:
        yield Step(StepKind.GOLD, rulebook.MAD_BAZAAR,
                   f"{player} pays {STALL_GOLD} gold to the treasury.",
                   {"player": player, "gold": -STALL_GOLD})
    else:
        yield from give_up(state, player, pay, rulebook.MAD_BAZAAR, "to the stall")
    yield Step(StepKind.BAZAAR, rulebook.MAD_BAZAAR, f"{space.name}: {' '.join(space.effect)}",
               {"player": player, "stall": space.id, "paid": pay})


def _temple(state: ClankState, player: str, space: Space) -> Procedure:
    """Temple of Gold - the offering goes to the treasury; the reward by its size, each part
    optional; the artifact only within the backpack limit."""
    assert space.offering is not None
    first = state.cubes.get(space.id)
    if first is not None:
        # The book prints the offerings, not how the columns take cubes: one column an offering
        # size is the data's assumption, so a second offering of a size is the table's call.
        if not (yield YesNo(prompt=f"{first}'s cube is on the {space.offering}-gold column. "
                                   "The book does not say a column takes one cube: does "
                                   f"{player}'s offering go there too? (Overseer's ruling: "
                                   "yes)", key=Key.TEMPLE_COLUMN_SHARED)):
            yield Step(StepKind.TEMPLE, rulebook.TEMPLE_OF_GOLD,
                       f"{player} makes no offering: the table reads the {space.offering}-gold "
                       f"column as {first}'s alone; the cube stays in {player}'s supply.",
                       {"player": player, "offering": None, "column": space.id,
                        "verified": False})
            return
    parts = space.reward
    # A part written as an id ("heal-1") by the table's name for it ("Heal 1"), the rules' id
    # in the trace; a part written as a word ("artifact") as it is.
    facts: Facts = {f"p{n}": (p, p) if "-" in p else p for n, p in enumerate(parts)}
    listed = "; ".join(f"{{p{n}}}: {REWARD_PARTS[p]}" for n, p in enumerate(parts))
    prompt = f"Which parts of the {space.offering}-gold reward does {{player}} take? ({listed})"
    facts["player"] = player
    chosen = yield ChooseSome(prompt=words(prompt, facts), options=parts, key=Key.REWARD,
                              said={"prompt": prompt}, facts=facts)
    taken, why = (False, "declined")
    if "artifact" in chosen:
        taken, why = yield from _artifact_allowed(player)
    if first is None:
        _cube(state, player, space)
    state.players[player].offering = space.offering
    shared = "" if first is None else f", beside {first}'s (Overseer's ruling)"
    yield _cube_step(state, player, space, rulebook.TEMPLE_OF_GOLD,
                     f" (from a wayside shrine{shared})")
    yield Step(StepKind.TEMPLE, rulebook.TEMPLE_OF_GOLD,
               f"{player} offers {space.offering} gold to the treasury (their one offering).",
               {"player": player, "offering": space.offering, "verified": space.verified,
                **({"shared_with": first} if first is not None else {})})
    got = [p for p in chosen if p != "artifact" or taken]
    refused = [p for p in parts if p not in chosen]
    text = "; ".join(REWARD_PARTS[p] for p in got) or "nothing"
    if refused:
        text += f" (refused: {', '.join(REWARD_PARTS[p] for p in refused)})"
    yield Step(StepKind.REWARD, rulebook.TEMPLE_OF_GOLD, f"Reward for {player}: {text}.",
               {"player": player, "offering": space.offering, "taken": got,
                "refused": refused})
    if "artifact" in parts and "artifact" in chosen:
        yield _artifact_step(player, rulebook.TEMPLE_OF_GOLD, taken, why)


def _artifact_allowed(player: str) -> Procedure:
    if not (yield YesNo(prompt=f"Has {player} a backpack, or no artifact yet?",
                        key=Key.BACKPACK)):
        return False, "no backpack"
    return True, ""


# --------------------------------------------------------------------------- the Aegis Shrine


def aegis_holders(state: ClankState) -> list[str]:
    """The players with a cube in the Aegis Shrine."""
    return [p for s, p in state.cubes.items() if state.data.spaces[s].room == AEGIS_SHRINE]


@dataclass(frozen=True, slots=True)
class AegisShield:
    """``{"do": "aegis_shield", "player": P}``: a ghost attack on P; P takes back the cube in
    the Aegis Shrine instead of the damage."""

    player: str = param(options=aegis_holders, prompt="Whom does the ghost attack?")


def aegis_shield(state: ClankState, params: AegisShield) -> Procedure:
    if not state.playing:
        raise RulesError("aegis_shield: the game is not being played")
    if params.player not in state.players:
        raise RulesError(f"'player' must be one of {', '.join(state.players)} "
                         f"(got {params.player!r})")
    if params.player not in aegis_holders(state):
        raise RulesError(f"{params.player} has no cube in the Aegis Shrine: the ghost attack's "
                         "damage is taken")
    return _shield(state, params.player)


def _shield(state: ClankState, player: str) -> Procedure:
    space = next(s for s, p in state.cubes.items()
                 if p == player and state.data.spaces[s].room == AEGIS_SHRINE)
    del state.cubes[space]
    state.players[player].aegis_reenter = True
    yield Step(StepKind.AEGIS, rulebook.AEGIS_SHRINE,
               f"Ghost attack: {player} takes the cube back from the Aegis Shrine to their "
               "supply and takes no damage. A new cube may be placed on entering the shrine "
               "again.", {"player": player, "space": space})
