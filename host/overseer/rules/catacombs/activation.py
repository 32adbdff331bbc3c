"""One press of NEXT AI PIECE: the next character acts (Red Box: AI Player Behaviour)."""

from __future__ import annotations

from overseer.core.params import NoParams
from overseer.core.procedure import Procedure, RulesError, Step
from overseer.rules.catacombs import end, order, rulebook, shot_choice, shots, targeting
from overseer.rules.catacombs.kinds import StepKind, TargetKind
from overseer.rules.catacombs.no_target import no_target
from overseer.rules.catacombs.state import Battle, Piece, heroes_of, ids_of

# The members the hot path reads, bound once: reading a member off an Enum class goes
# through EnumType.__getattr__ in Python 3.11, several times slower than a global.
FROZEN_TEAMMATE, REPEAT_TEAMMATE, WYVERN = (TargetKind.FROZEN_TEAMMATE,
                                            TargetKind.REPEAT_TEAMMATE, TargetKind.WYVERN)



def next_ai_piece(battle: Battle, params: NoParams) -> Procedure:
    """Activate the next AI piece of the round; a new round starts when all have acted."""
    first, why = order.first_in_order(battle)
    if not first:  # a piece waiting to act is alive: only now can none be left
        if not any(p.alive for p in battle.pieces.values()):
            raise RulesError("no AI piece is left on the playmat")
        battle.round += 1
        battle.acted.clear()
        yield Step(StepKind.ROUND, rulebook.STEP1,
                   f"round {battle.round}: every AI piece acts once",
                   {"round": battle.round})
        first, why = order.first_in_order(battle)
        if not first:
            yield Step(StepKind.NO_EFFECT, rulebook.STEP1, "every AI piece left is frozen", {})
            return None
    if battle.options.stone_traps and not battle.acted:
        yield stone_traps_step()
    left = first if len(first) == 1 else order.may_come_first(battle, first)
    alike = len(left) > 1 and order.alike(battle, left)
    if len(left) > 1 and not alike:
        piece = yield from order.split_tie(battle, left)
    else:
        piece = left[0]
        if len(first) > 1:
            why = "alike" if alike else "placement"
    yield order.active_step(battle, piece, why)
    if alike:
        yield order.first_alike(battle, piece, left)
    battle.acted.append(piece.id)
    turn = activate(battle, piece, "turn", 0)
    yield from (order.moving(battle, piece, turn) if piece.id in battle.unmoved else turn)
    over = end.said(battle, None)  # a battle goes on before every press
    if over is not None:
        yield from end.ending(battle, over)
    return piece.id


def activate(battle: Battle, piece: Piece, why: str, depth: int) -> Procedure:
    """Steps 2 to 5 for one character: sight, target, shot sequence, shots."""
    if why != "turn":
        if piece.id in battle.unmoved:  # it acts out of turn: it may move
            battle.unmoved.remove(piece.id)
        yield Step(StepKind.ACTIVE_CHARACTER, rulebook.PERFORM,
                   "{piece} acts now ({why})",
                   {"piece": piece.id, "why": why},
                   {"piece": piece.ref_id, "why": why})
    if piece.teleported:
        # Teleport: back from the Teleported! card on a random rune, then its melee shot.
        piece.teleported = False
        yield from shots.move_to_random_rune(battle, piece, "back from the Teleported! card")
        target = yield from choose_target(battle, piece, advanced=False)
        if target is None:
            yield from no_target(battle, piece)
        else:
            yield from shots.perform(battle, piece, target, [shots.Shot("melee")], depth,
                                     activate)
        return
    if piece.is_antient:
        # Step 2, Special Exception: an Antient moves to a random rune before targeting.
        yield from shots.move_to_random_rune(battle, piece, "Antient", rulebook.ANTIENT)
    target = yield from choose_target(battle, piece, battle.options.advanced_targeting)
    if target is None:
        yield from no_target(battle, piece)
        return
    if target.kind in (FROZEN_TEAMMATE, WYVERN):
        # Overseer's ruling: a friendly target or a wyvern is reached by a rush only.
        yield from shots.rush(battle, piece, target)
        return
    if target.kind == REPEAT_TEAMMATE:
        index = next(i for i, seq in enumerate(piece.sequences)
                     if any(s.kind == "repeat" for s in seq))
        yield Step(StepKind.SHOT_SEQUENCE, rulebook.ADVANCED,
                   "{piece}: the sequence with its repeat shot",
                   {"piece": piece.id, "sequence": index, "how": "repeat"},
                   {"piece": piece.ref})
        yield from shots.perform(battle, piece, target, piece.sequences[index], depth,
                                 activate)
        return
    chosen = shot_choice.chosen(battle, piece)
    if chosen is None:
        index = yield from shot_choice.rolled(battle, piece)
    else:
        yield chosen
        index = chosen.data["sequence"]
    yield from shots.perform(battle, piece, target, piece.sequences[index], depth, activate)


def stone_traps_step() -> Step:
    """Ice Box: Stone Traps: the AI flicks nothing, so the gadget leaves the stone traps to the
    table, once a round (not implemented)."""
    return Step(StepKind.INSTRUCTION, rulebook.STONE_TRAPS,
                "Stone traps: the AI player may flick one stone trap a turn, but the gadget "
                "does not flick: if the table flicks one for it this round, each member of the "
                "Heroic Forces it hits loses 1 health (enter it as a hero's change), and the trap "
                "goes back on its obstacle", {"shot": "stone trap", "implemented": False})


def choose_target(battle: Battle, piece: Piece, advanced: bool) -> Procedure:
    options = targeting.advanced_candidates(battle, piece) if advanced else None
    if options:  # a question only when there is a candidate to look for
        found = yield from targeting.advanced_target(battle, piece, options)
        if found is not None:
            return found
    enemies = battle.enemies()
    merged = targeting.sight_question(battle, piece, enemies) \
        if battle.options.los_blocked and len(enemies) > 1 else None
    if merged == "closest":
        # Steps 2 and 3 in one question: the closest enemy in sight (targeting.closest_in_sight).
        nearest = yield from targeting.closest_in_sight(battle, piece, enemies)
        if not nearest:
            return None
        found = yield from targeting.select_target(battle, piece, enemies, nearest)
        return found
    if merged == "direction":
        # Steps 2 and 3 in one question: the first enemy in sight by the Direction tiles.
        found = yield from targeting.first_in_sight(battle, piece, enemies)
        return found
    ids = ids_of(enemies)
    check = targeting.sight_check(battle, piece, ids, "enemies")  # ``in_sight``, no procedure
    visible = enemies if check is None else heroes_of(battle, (yield check))
    if not visible:
        return None
    found = yield from targeting.select_target(battle, piece, visible)
    return found
