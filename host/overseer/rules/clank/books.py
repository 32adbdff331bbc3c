"""The table mends the Clank! books (``correct``): what the pack keeps when it was told wrong
(a room entered by mistake, a cube that is not on the board) is set to what lies on the table.

- a player's place (``where-<player>``): a lost chamber or lair in the dungeon, a wayside
  shrine, or another room; the room is not entered (no Medusa's gaze, no treasury gold): the
  figure simply stands there;
- a cube space of a lost chamber in the dungeon (``cube-<space>``): a player's cube, or empty
  (``none``); nothing is given or paid for it (an offering made stays made).

A correction is an action of the log like any other, undone by BACK held, and says what it
changed in a step of its own (``correction``). The checks are the ones every game shares
(core/books.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core import books as shared
from overseer.core.books import Book
from overseer.core.params import param
from overseer.core.procedure import Procedure, Step
from overseer.rules.clank import rulebook
from overseer.rules.clank.kinds import StepKind
from overseer.rules.clank.moving import destinations
from overseer.rules.clank.state import ClankState

WHERE = "where-"  # where-<player>
CUBE = "cube-"  # cube-<space id>
EMPTY = "none"  # a cube space with no cube


def book_list(state: ClankState) -> list[Book]:
    """Each player's place, then each cube space of the lost chambers placed."""
    rooms = tuple(destinations(state))
    out = [Book(WHERE + p.id, f"{p.id} room", "{player}'s place", p.where, options=rooms,
                facts={"player": (p.id, p.id)}) for p in state.players.values()]
    players = (*state.players, EMPTY)
    for room in state.placed:
        out += [Book(CUBE + s.id, s.id, f"the cube in {s.name}", state.cubes.get(s.id, EMPTY),
                     options=players) for s in state.data.spaces_of(room)]
    return out


def books(state: ClankState) -> list[str]:
    return [b.id for b in book_list(state)]


@dataclass(frozen=True, slots=True)
class Correct:
    """``{"do": "correct", "book": "where-<player>" | "cube-<space>", "value": id}``: the
    value is a room (a place) or a player (a cube; ``none``: no cube)."""

    book: str = param(options=books, prompt="Correct what?")
    value: str = param(prompt="Set it to?")


def _words(state: ClankState, book: str, value: str) -> str:
    if book.startswith(WHERE):
        return state.room_name(value)
    return "no cube" if value == EMPTY else f"{value}'s cube"


def correct(state: ClankState, params: Correct) -> Procedure:
    """Set one record to what the table has (see the module's docstring)."""
    found = shared.check(book_list(state), params.book, params.value)
    book, value = params.book, params.value
    was = str(found.now)
    if book.startswith(WHERE):
        state.players[book.removeprefix(WHERE)].where = value
        rule = rulebook.LOST_CHAMBERS
    else:
        space = book.removeprefix(CUBE)
        if value == EMPTY:
            del state.cubes[space]
        else:
            state.cubes[space] = value
        rule = state.data.rooms[state.data.spaces[space].room].section
    yield Step(StepKind.CORRECTION, rule,
               shared.said(found, value, _words(state, book, was), _words(state, book, value)),
               {"book": book, "was": was, "now": value}, dict(found.facts) or None)
