"""Lairs and their monsters: the tiles placed (a lair's tokens come out of the treasury) and the
fights (Clank! Lairs and Lost Chambers: Lairs; Living Statue Lair; Medusa's Lair; Sphinx's
Lair)."""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.params import param
from overseer.core.procedure import Procedure, RulesError, Step, YesNo
from overseer.core.shapes import suggestion
from overseer.rules.clank import rulebook
from overseer.rules.clank.kinds import Key, StepKind
from overseer.rules.clank.moving import teleport
from overseer.rules.clank.records import LAIR, LIVING_STATUE, SPHINX, Monster
from overseer.rules.clank.state import ClankState, on_turn
from overseer.rules.clank.trophies import defeat_monster

SWORDS, RIDDLE = "swords", "riddle"
# Lairs, Sphinx's Lair - DEFEAT: 7 gold.
SPHINX_GOLD = 7


def unplaced(state: ClankState) -> list[str]:
    return [r for r in state.data.rooms if r not in state.placed]


@dataclass(frozen=True, slots=True)
class Reveal:
    """``{"do": "reveal", "room": id}``: a new tile holding this lost chamber or lair is placed
    in the dungeon."""

    room: str = param(options=unplaced, prompt="Which lost chamber or lair was placed?")


def reveal(state: ClankState, params: Reveal) -> Procedure:
    if not state.playing:
        raise RulesError("reveal: the game is not being played")
    room = state.data.rooms.get(params.room)
    if room is None:
        raise RulesError(f"reveal: unknown room {params.room!r}; "
                         f"{suggestion(params.room, state.data.rooms)}")
    if room.id in state.placed:
        raise RulesError(f"reveal: {room.name} is already in the dungeon (each lost chamber and "
                         "lair is unique)")
    return _reveal(state, room.id)


def _reveal(state: ClankState, room_id: str) -> Procedure:
    room = state.data.rooms[room_id]
    state.placed.append(room_id)
    what = "a lair" if room.kind == LAIR else "a lost chamber"
    yield Step(StepKind.REVEAL, rulebook.LOST_CHAMBERS if room.kind != LAIR else rulebook.LAIRS,
               f"The tile with {room.name} is placed: {what}, unique in the dungeon.",
               {"room": room_id, "kind": room.kind, "verified": room.verified})
    if room.kind != LAIR:
        return
    # Lairs - the first time the tile is placed, its monster tokens leave the treasury for it.
    tokens = [t for t in state.treasury if state.data.monster_of(t).lair == room_id]
    for token in tokens:
        state.treasury.remove(token)
    state.lairs[room_id] = tokens
    yield Step(StepKind.LAIR_TOKENS, room.section,
               f"Move {_counted(state, tokens) or 'no token (none left)'} from the treasury "
               f"into {room.name}.",
               {"room": room_id, "tokens": list(tokens), "treasury": list(state.treasury)})


def here(state: ClankState) -> list[str]:
    """The monster kind left in the lair the player whose turn it is stands in."""
    player = state.turn_player()
    if player is None:
        return []
    where = state.players[player].where
    return [m for m in state.lair_tokens() if state.data.monsters[m].lair == where]


def ways(state: ClankState) -> list[str]:
    """Swords; and the riddle where the monster at hand has one."""
    riddle = any(state.data.monsters[m].skills is not None for m in here(state))
    return [SWORDS, RIDDLE] if riddle else [SWORDS]


def _counted(state: ClankState, tokens: list[str]) -> str:
    """``3 Living Statue tokens``, ``the Medusa token``."""
    if not tokens:
        return ""
    name = state.data.monster_of(tokens[0]).name
    return f"the {name} token" if len(tokens) == 1 else f"{len(tokens)} {name} tokens"


@dataclass(frozen=True, slots=True)
class Fight:
    """``{"do": "fight", "player": P, "monster": kind, "way": "swords" | "riddle"}``: P beats a
    monster token in its lair (the Sphinx's riddle with skills)."""

    player: str = param(options=on_turn, prompt="Who fights?")
    monster: str = param(options=here, prompt="Which monster?")
    way: str = param(default=SWORDS, options=ways, prompt="Swords, or the riddle?")


def check_fight(state: ClankState, params: Fight) -> Monster:
    state.check_turn(params.player)
    monster = state.data.monsters.get(params.monster)
    if monster is None:
        raise RulesError(f"fight: unknown monster {params.monster!r}; "
                         f"{suggestion(params.monster, state.data.monsters)}")
    lair = state.data.rooms[monster.lair]
    if monster.lair not in state.placed:
        raise RulesError(f"fight: {lair.name} is not in the dungeon yet")
    if not state.lairs[monster.lair]:
        raise RulesError(f"fight: no {monster.name} is left in {lair.name}")
    where = state.players[params.player].where
    if where != monster.lair:
        raise RulesError(f"{params.player} must be in {lair.name} to fight the {monster.name} "
                         f"(now in {state.room_name(where)})")
    if params.way not in (SWORDS, RIDDLE):
        raise RulesError(f"fight: 'way' must be {SWORDS} or {RIDDLE} (got {params.way!r})")
    if params.way == RIDDLE and monster.skills is None:
        raise RulesError(f"fight: the {monster.name} has no riddle; fight it with "
                         f"{monster.swords} swords")
    return monster


def fight(state: ClankState, params: Fight) -> Procedure:
    monster = check_fight(state, params)
    return _fight(state, params.player, monster, params.way)


def _fight(state: ClankState, player: str, monster: Monster, way: str) -> Procedure:
    if monster.secret_tome and not (yield YesNo(
            prompt=f"Does {player} play a Secret Tome this turn?", key=Key.SECRET_TOME)):
        raise RulesError(f"{player} must play a Secret Tome this turn to fight {monster.name} "
                         f"({monster.section})")
    token = state.lairs[monster.lair][0]
    how = f"{monster.skills} skills: the riddle solved" if way == RIDDLE else \
        f"{monster.swords} swords" + (", a Secret Tome played" if monster.secret_tome else "")
    yield Step(StepKind.FIGHT, monster.section, f"{player} fights the {monster.name}: {how}.",
               {"player": player, "monster": monster.id, "way": way,
                "swords": monster.swords if way == SWORDS else 0,
                "skills": monster.skills if way == RIDDLE else 0})
    yield from defeat_monster(state, player, token, how)
    if monster.id == SPHINX:
        yield Step(StepKind.GOLD, rulebook.SPHINXS_LAIR,
                   f"{player} takes {SPHINX_GOLD} gold.", {"player": player, "gold": SPHINX_GOLD})
    elif monster.id == LIVING_STATUE:
        yield from teleport(state, player, rulebook.LIVING_STATUE_LAIR, "a living statue beaten")
