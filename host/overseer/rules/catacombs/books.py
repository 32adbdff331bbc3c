"""The table mends the Catacombs books (``correct``): an AI piece's health as the box keeps it,
set to what the table has when a hit was told wrong and the mistake is found later (the wrong
piece hit, a hit not told, a heal missed).

What the heroes report of themselves (health, gold, items, conditions) is ``update_hero`` (A
hero's state), and a piece is destroyed only by a hit (``damage_piece``: the gold for the kill,
the room won), never by a correction: the health set is 1 or more. Pieces that take no damage
(Antients, Mounts) have no health to mend.

A correction is an action of the log like any other, undone by BACK held, and says what it
changed in a step of its own (``correction``). The checks are the ones every game shares
(core/books.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core import books as shared
from overseer.core.books import Book
from overseer.core.params import param
from overseer.core.procedure import Procedure, RulesError, Step
from overseer.rules.catacombs import end, rulebook
from overseer.rules.catacombs.kinds import StepKind
from overseer.rules.catacombs.state import Battle, Piece

HEALTH = "health-"  # health-<piece>
MOST = 30  # the most health a correction sets (a hero's state takes as much)


def _mended(piece: Piece) -> bool:
    """A piece whose health the books keep: on the playmat and one a hit can damage."""
    return piece.alive and not piece.mount and not piece.is_antient


def book_list(battle: Battle) -> list[Book]:
    """The health of each AI piece on the playmat a hit can damage, in the order placed; none
    outside a battle."""
    if not end.in_battle(battle):
        return []
    return [Book(HEALTH + p.id, f"{p.id} health", "{piece}'s health", p.health, low=1,
                 high=MOST, facts={"piece": p.ref},
                 too_few="a piece is destroyed by a hit, not by a correction (A hero hit an "
                 "AI piece): {piece}'s health is at least 1")
            for p in battle.pieces.values() if _mended(p)]


def books(battle: Battle) -> list[str]:
    return [b.id for b in book_list(battle)]


@dataclass(frozen=True, slots=True)
class Correct:
    """``{"do": "correct", "book": "health-<piece>", "value": N}``."""

    book: str = param(options=books, prompt="Correct what?")
    value: int = param(low=1, high=MOST, prompt="Set it to?")


def correct(battle: Battle, params: Correct) -> Procedure:
    """Set one piece's health to what the table has (see the module's docstring)."""
    if not end.in_battle(battle):
        raise RulesError("correct: no battle goes on: the books a correction sets are the AI "
                         "pieces' health")
    found = shared.check(book_list(battle), params.book, params.value)
    piece = battle.pieces[params.book.removeprefix(HEALTH)]
    piece.health = params.value
    yield Step(StepKind.CORRECTION, rulebook.PIECE_DAMAGE,
               shared.said(found, params.value),
               {"book": found.id, "piece": piece.id, "was": found.now, "now": params.value},
               {"piece": piece.ref})
