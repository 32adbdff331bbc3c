"""The No Target Action of each character type (Red Box: AI Player Attack Behaviour)."""

from __future__ import annotations

from overseer.core.procedure import Procedure, Step
from overseer.rules.catacombs import clock, rulebook
from overseer.rules.catacombs.kinds import StepKind
from overseer.rules.catacombs.shots import move_to_random_rune
from overseer.rules.catacombs.state import Battle, Piece


def no_target(battle: Battle, piece: Piece) -> Procedure:
    row = battle.data.behaviour[piece.type]
    verified = row.is_verified("no_target")
    yield Step(StepKind.NO_TARGET, rulebook.TABLE,
               "{piece} sees no enemy: {action}{unverified}",
               {"piece": piece.id, "action": row.no_target, "verified": verified},
               {"piece": piece.ref, "action": row.no_target.replace('_', ' '),
                "unverified": '' if verified else ' (unverified row)'})
    action = row.no_target
    if action == "retreat_half_clock":
        # Brown: back toward the Monster Start Zone, random direction on the half clock laid
        # to open away from the heroes (clock._half), Ruler 2.
        yield from clock.random_move(battle, piece.id, piece.name, 2,
                                     "retreat toward the Monster Start Zone", half=True)
    elif action == "toward_obstacle":
        yield Step(StepKind.MOVE, rulebook.TABLE,
                   "{piece}: move toward the closest obstacle with Ruler {ruler}",
                   {"piece": piece.id, "ruler": row.ruler,
                                               "why": "no target"},
                   {"piece": piece.ref, "ruler": row.ruler})
    elif action == "advance":
        yield Step(StepKind.MOVE, rulebook.TABLE,
                   "{piece}: move toward the Hero Start Zone with Ruler {ruler}",
                   {"piece": piece.id, "ruler": row.ruler,
                                          "why": "no target"},
                   {"piece": piece.ref, "ruler": row.ruler})
    elif action == "random_clock":
        yield from clock.random_move(battle, piece.id, piece.name, row.ruler, "no target")
    else:
        yield from move_to_random_rune(battle, piece, "no target")
