"""The Clank! move table: the setup once, then what the table reports on each turn (a tile
placed, a room entered, a trap pit, a magic barrier, a cube placed, a fight, a trophy taken,
a ghost attack on an Aegis cube), the end of a turn and of the game; a correction of the books
(rules/clank/books.py); look-ups at any time."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from overseer.core.moves import Move, MoveTable
from overseer.core.params import NoParams
from overseer.core.procedure import Procedure
from overseer.rules.clank import books, chambers, lairs, lookup, moving, trophies, turns
from overseer.rules.clank.setup import setup_game
from overseer.rules.clank.state import ClankState


@dataclass(frozen=True, slots=True)
class Setup:
    pass


def _setup(state: ClankState, params: Setup) -> Procedure:
    return setup_game(state)


def _playing(state: ClankState) -> bool:
    return state.playing


def _move(name: str, label: str, params: type, proc: Callable[[ClankState, Any], Procedure],
          available: Callable[[ClankState], bool] = _playing,
          why_not: str = "the game is not set up yet, or it is over") -> Move[ClankState]:
    return Move(name, label, params, proc, available, why_not)


MOVES = MoveTable("Clank!", {m.name: m for m in (
    _move("setup", "Set up the expansion", Setup, _setup, lambda s: not s.started,
          "the game is already set up"),
    _move("reveal", "A lair or lost chamber placed", lairs.Reveal, lairs.reveal,
          lambda s: s.playing and bool(lairs.unplaced(s)),
          "every lair and lost chamber is in the dungeon, or the game is not being played"),
    _move("enter", "Enter a room", moving.Enter, moving.enter),
    _move("trap_pit", "Into a trap pit room", moving.TrapPit, moving.trap_pit),
    _move("magic_barrier", "Cross a magic barrier", moving.MagicBarrier, moving.magic_barrier),
    _move("place_cube", "Place a cube", chambers.PlaceCube, chambers.place_cube,
          lambda s: s.playing and bool(s.free_spaces()),
          "no lost chamber with an empty cube space is in the dungeon"),
    _move("aegis_shield", "Ghost attack: Aegis cube", chambers.AegisShield,
          chambers.aegis_shield, lambda s: s.playing and bool(chambers.aegis_holders(s)),
          "nobody has a cube in the Aegis Shrine"),
    _move("fight", "Fight a lair's monster", lairs.Fight, lairs.fight,
          lambda s: s.playing and bool(s.lair_tokens()),
          "no monster token is in a lair of the dungeon"),
    _move("umbroka_loot", "Loot Umbroka's treasury", moving.UmbrokaLoot, moving.umbroka_loot,
          lambda s: s.playing and moving.UMBROKA_VESSNA in s.placed,
          "the Treasury of Umbroka Vessna is not in the dungeon"),
    _move("take_trophy", "Take a TROPHY card", trophies.TakeTrophy, trophies.take_trophy),
    _move("enter_trophy", "Enter a TROPHY card", trophies.EnterTrophy, trophies.enter_trophy),
    _move("end_turn", "End the turn", NoParams, turns.end_turn),
    _move("end_game", "End of the game: trophies", NoParams, trophies.end_game),
    _move("correct", "Correct the books", books.Correct, books.correct),
    _move("look_up", "Look up a rule", lookup.LookUp, lookup.look_up, lambda s: True,
          "always available"),
)})
