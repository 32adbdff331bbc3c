"""Line of sight and target selection (Red Box: AI Player Behaviour, steps 2 and 3, and
Advanced Target Selection)."""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter

from overseer.core.procedure import ChooseOne, ChooseSome, Procedure, Step, words
from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.kinds import Key, StepKind, TargetKind
from overseer.rules.catacombs.order import direction_question, scanning
from overseer.rules.catacombs.state import Battle, Hero, Piece, heroes_of, ids_of

# The members the hot path reads, bound once: reading a member off an Enum class goes
# through EnumType.__getattr__ in Python 3.11, several times slower than a global.
TARGET, LOS, CLOSEST = StepKind.TARGET, Key.LOS, Key.CLOSEST
CLOSEST_IN_SIGHT = Key.CLOSEST_IN_SIGHT
ENEMY, FROZEN_TEAMMATE, REPEAT_TEAMMATE, WYVERN = (
    TargetKind.ENEMY, TargetKind.FROZEN_TEAMMATE, TargetKind.REPEAT_TEAMMATE, TargetKind.WYVERN)



class Target:
    """The Active Target: an enemy, or (advanced targeting) a frozen teammate, a teammate to
    repeat, a wild wyvern. A class of slots: made on every activation and read at every shot
    (a named tuple's fields are read through a descriptor call each, a slot's directly; a
    frozen dataclass sets each field through ``object.__setattr__``)."""

    __slots__ = ("id", "kind")

    def __init__(self, id: str, kind: TargetKind) -> None:
        self.id = id
        self.kind = kind


def in_sight(battle: Battle, piece: Piece, ids: list[str], what: str) -> Procedure:
    """Which of ``ids`` the piece can see. LOS not blocked: all of them. Blocked: the table
    says, after a 360 degree check with the piece's ruler out to the playmat's edge
    (``sight_check``)."""
    question = sight_check(battle, piece, ids, what)
    if question is None:
        return list(ids)
    seen = yield question
    return list(seen)


def sight_check(battle: Battle, piece: Piece, ids: list[str], what: str) -> ChooseSome | None:
    """``in_sight``'s question, or None when the piece sees all of ``ids`` without one (asked
    by an activation's own targeting too: ``activation.choose_target``)."""
    # Red Box: AI Player Behaviour, step 2 (errata): unblocked LOS sees every enemy.
    if not battle.options.los_blocked or not ids:
        return None
    ruler = battle.data.behaviour[piece.type].ruler
    facts = {"piece": piece.ref_id, "ruler": ruler, "what": what}
    prompt = (f"LOS check for {piece.name} ({piece.id}): Ruler {ruler}, 360 degrees, out to "
              f"the playmat's edge. Which {what} are in its line of sight?")  # = its template's
    return ChooseSome(prompt, tuple(ids), LOS, LOS_SAID, facts)


TIE = "tie"  # the last option of a ``closest`` question that has a next criterion


def closest(battle: Battle, piece: Piece, ids: list[str], what: str) -> Procedure:
    """The nearest of ``ids`` where the book names no next criterion ("nearest (or only)"):
    equally near ones are split by the Direction tiles in the same question (Overseer's
    ruling: step 3's last tie-break)."""
    if len(ids) == 1:
        return ids[0]
    template = "Which {what} is closest to {piece}? If equally close, the first {scanning}."
    facts = {"what": what, "piece": piece.ref_id, "scanning": scanning(battle)}
    prompt = (f"Which {what} is closest to {piece.name} ({piece.id})? If equally close, the "
              f"first {facts['scanning']}.")
    chosen = yield ChooseOne(prompt, tuple(ids), CLOSEST, {"prompt": template}, facts)
    return chosen


def equally_closest(battle: Battle, piece: Piece, ids: list[str], what: str) -> Procedure:
    """The closest of ``ids``, and any as close, for a column with a next criterion (step 3):
    one question naming the closest, with ``tie`` as its last option; only on a tie of three
    or more candidates a second question asks which ones tie."""
    if len(ids) == 1:
        return list(ids)
    template = ("Which {what} is closest to {piece}? If two or more are equally close, answer "
                f"{TIE}.")
    facts = {"what": what, "piece": piece.ref_id}
    prompt = (f"Which {what} is closest to {piece.name} ({piece.id})? If two or more are "
              f"equally close, answer {TIE}.")
    chosen = yield ChooseOne(prompt, (*ids, TIE), CLOSEST, {"prompt": template}, facts)
    if chosen != TIE:
        return [chosen]
    return (yield from _tied(piece, ids))


NONE_IN_SIGHT = "none_in_sight"  # the last option of a ``closest_in_sight`` question

# The LOS questions' words as templates (their ``said``), the same at every activation: made
# once. Their prompts are these templates in the rules' words (``in_sight``,
# ``closest_in_sight``).
LOS_SAID = {"prompt": "LOS check for {piece}: Ruler {ruler}, 360 degrees, out to the playmat's "
                      "edge. Which {what} are in its line of sight?"}
CLOSEST_IN_SIGHT_SAID = {
    "prompt": "LOS check for {piece}: Ruler {ruler}, 360 degrees, out to the playmat's edge. "
              "Which enemy in its line of sight is closest to it? If two or more are equally "
              f"close, answer {TIE}; if it sees none, none in sight."}


CLOSEST_IN_SIGHT_SPLIT_SAID = {
    "prompt": "LOS check for {piece}: Ruler {ruler}, 360 degrees, out to the playmat's edge. "
              "Which enemy in its line of sight is closest to it? If equally close, the first "
              "{scanning}; if it sees none, none in sight."}


def closest_in_sight(battle: Battle, piece: Piece, enemies: list[Hero]) -> Procedure:
    """Step 2's LOS check and step 3's first closest column in one question, for a piece
    whose columns before it leave all ``enemies`` tied when obstacles block LOS
    (``sight_question``): the closest of them in its line of sight (by id), ``tie`` when two or
    more in sight are equally close, or ``none_in_sight`` (Red Box: AI Player Behaviour, steps
    2 and 3; Overseer's ruling: the closest enemy the piece can see is one fact on the table,
    so one question). When the columns after it tie them all too (``ties_after``), the
    question splits equally close ones by the Direction tiles instead of ``tie``. Returns the
    closest, those as close (a tie of two of two: both, without asking), or ``[]`` when it
    sees none: then the No Target Action follows, as after a LOS check that sees none. One
    enemy in sight is the closest in sight: the target by default, as step 2 says."""
    row = battle.data.behaviour[piece.type]
    ruler = row.ruler
    facts = {"piece": piece.ref_id, "ruler": ruler}
    column = (row.primary, row.secondary, row.tie_breaker).index("closest")
    ids = ids_of(enemies)
    if ties_after(battle, piece, column, enemies):
        # Only the Direction tiles split equally close ones: they do it in the question.
        facts["scanning"] = scanning(battle)
        prompt = (f"LOS check for {piece.name} ({piece.id}): Ruler {ruler}, 360 degrees, out "
                  "to the playmat's edge. Which enemy in its line of sight is closest to it? "
                  f"If equally close, the first {facts['scanning']}; if it sees none, none in "
                  "sight.")
        chosen = yield ChooseOne(prompt, (*ids, NONE_IN_SIGHT), CLOSEST_IN_SIGHT,
                                 CLOSEST_IN_SIGHT_SPLIT_SAID, facts)
        return [] if chosen == NONE_IN_SIGHT else [chosen]
    prompt = (f"LOS check for {piece.name} ({piece.id}): Ruler {ruler}, 360 degrees, out to "
              "the playmat's edge. Which enemy in its line of sight is closest to it? If two "
              f"or more are equally close, answer {TIE}; if it sees none, none in sight.")
    chosen = yield ChooseOne(prompt, (*ids, TIE, NONE_IN_SIGHT), CLOSEST_IN_SIGHT,
                             CLOSEST_IN_SIGHT_SAID, facts)
    if chosen == NONE_IN_SIGHT:
        return []
    if chosen != TIE:
        return [chosen]
    return (yield from _tied(piece, ids))


FIRST_IN_SIGHT_SAID = {
    "prompt": "LOS check for {piece}: Ruler {ruler}, 360 degrees, out to the playmat's edge. "
              "Which enemy in its line of sight comes first {scanning}? If it sees none, none "
              "in sight."}


def first_in_sight(battle: Battle, piece: Piece, enemies: list[Hero]) -> Procedure:
    """Step 2's LOS check and the Direction tiles in one question, for a piece none of whose
    columns is closest when every column leaves all ``enemies`` tied (``sight_question``):
    the first enemy in its line of sight by the tiles is the target; None when it sees none,
    and the No Target Action follows (Red Box: AI Player Behaviour, steps 2 and 3; Overseer's
    ruling, as ``closest_in_sight``: one look on the table, so one question). One enemy in
    sight is the first: the target by default, as step 2 says."""
    ruler = battle.data.behaviour[piece.type].ruler
    facts = {"piece": piece.ref_id, "ruler": ruler, "scanning": scanning(battle)}
    prompt = (f"LOS check for {piece.name} ({piece.id}): Ruler {ruler}, 360 degrees, out to "
              "the playmat's edge. Which enemy in its line of sight comes first "
              f"{facts['scanning']}? If it sees none, none in sight.")
    ids = ids_of(enemies)
    chosen = yield ChooseOne(prompt, (*ids, NONE_IN_SIGHT), Key.FIRST_IN_SIGHT,
                             FIRST_IN_SIGHT_SAID, facts)
    if chosen == NONE_IN_SIGHT:
        return None
    hero = battle.heroes[chosen]
    yield Step(TARGET, rulebook.STEP3,
               "{piece} targets {hero}: every column tied, the first in sight by the direction "
               "tiles",
               {"piece": piece.id, "target": chosen, "column": "direction", "candidates": ids},
               {"piece": piece.ref, "hero": hero.ref})
    return Target(chosen, ENEMY)


def ties_after(battle: Battle, piece: Piece, n: int, heroes: list[Hero]) -> bool:
    """Whether every column of the piece after its ``n``-th (0: Primary) leaves all ``heroes``
    tied, so that only the Direction tiles split those a closest column leaves tied (a later
    closest column ties those equally close). A column that ties them all ties any of them."""
    row = battle.data.behaviour[piece.type]
    for criterion in (row.primary, row.secondary, row.tie_breaker)[n + 1:]:  # a loop, not
        # all(): this runs at most activations with LOS blocked
        if criterion != "closest" and len(CRITERIA[criterion](heroes)) != len(heroes):
            return False
    return True


def sight_question(battle: Battle, piece: Piece, enemies: list[Hero]) -> str | None:
    """Which one question can make the LOS check together with the piece's columns, LOS
    blocked: ``closest`` (``closest_in_sight``) when every column before its first closest
    one leaves all ``enemies`` tied, ``direction`` (``first_in_sight``) when it has no
    closest column and each leaves them all tied, else None (the LOS check alone, then the
    columns). A column that ties all the enemies ties any of them the piece may see."""
    row = battle.data.behaviour[piece.type]
    for criterion in (row.primary, row.secondary, row.tie_breaker):
        if criterion == "closest":
            return "closest"
        if len(CRITERIA[criterion](enemies)) != len(enemies):
            return None
    return "direction"


def _tied(piece: Piece, ids: list[str]) -> Procedure:
    """Which of ``ids`` tie as the closest to ``piece``: both of two, else the table says."""
    if len(ids) == 2:
        return list(ids)
    while True:
        template = "Which of them are equally closest to {piece}? Choose two or more."
        facts = {"piece": piece.ref_id}
        tied = yield ChooseSome(words(template, facts), tuple(ids), Key.EQUALLY_CLOSE,
                                {"prompt": template}, facts)
        if tied:
            return list(tied)  # one alone: that one is the closest after all
        yield Step(StepKind.REASK, rulebook.STEP3, "no candidate was chosen: say which are equally "
                   "closest", {"piece": piece.id, "question": Key.EQUALLY_CLOSE})


def advanced_candidates(battle: Battle, piece: Piece) -> list[tuple[TargetKind, list[str], str]]:
    """Advanced Target Selection, items 1 to 3, in order: the kind of target, the pieces that
    could be it (none is left out), and what the table is asked to look for."""
    # Red Box: AI Player Behaviour, Advanced Target Selection, 1: a frozen teammate.
    options: list[tuple[TargetKind, list[str], str]] = []
    frozen: list[str] = []
    for p in battle.pieces.values():  # a loop, not a list comprehension (a function made and
        # called): this runs at every activation with advanced targeting
        if p.frozen and p.alive and p.id != piece.id:
            frozen.append(p.id)
    if frozen:
        options.append((FROZEN_TEAMMATE, frozen, "frozen teammates"))
    # 2: a teammate for the repeat shot, only if this character has one.
    if piece.repeats:
        mates = [p.id for p in battle.pieces.values()
                 if p.alive and p.id != piece.id and not p.frozen and not p.teleported]
        if mates:
            options.append((REPEAT_TEAMMATE, mates, "teammates"))
    # 3: a wild wyvern to ride, unless this character already rides one.
    if piece.riding is None and battle.wyverns:
        options.append((WYVERN, list(battle.wyverns), "wild wyverns"))
    return options


def advanced_target(battle: Battle, piece: Piece,
                    options: list[tuple[TargetKind, list[str], str]]) -> Procedure:
    """The first of the ``advanced_candidates`` the piece sees; None when it sees none."""
    for kind, ids, what in options:
        seen = yield from in_sight(battle, piece, ids, what)
        if seen:
            chosen = yield from closest(battle, piece, seen, what[:-1])
            mate = battle.pieces.get(chosen)
            yield Step(TARGET, rulebook.ADVANCED,
                       "{piece} targets {target}: nearest {what} in sight",
                       {"piece": piece.id, "target": chosen, "column": "advanced",
                        "criterion": kind, "candidates": seen},
                       {"piece": piece.ref, "what": what[:-1],
                        "target": mate.ref if mate is not None else f"the wyvern {chosen}"})
            return Target(chosen, kind)
    return None


def _numeric(key: Callable[[Hero], int], best: Callable[[list[int]], int]):
    def keep(heroes: list[Hero]) -> list[Hero]:
        values = list(map(key, heroes))
        value = best(values)
        kept: list[Hero] = []
        for hero, v in zip(heroes, values, strict=True):  # a loop, not a list comprehension (a
            # function made and called): the targeting columns run at most activations
            if v == value:
                kept.append(hero)
        return kept
    return keep


def _without_items(heroes: list[Hero]) -> list[Hero]:
    bare = [h for h in heroes if not h.items]
    return bare or heroes


CRITERIA: dict[str, Callable[[list[Hero]], list[Hero]]] = {
    "most_gold": _numeric(attrgetter("gold"), max),  # attrgetter: no Python call a hero
    "least_gold": _numeric(attrgetter("gold"), min),
    "most_poison": _numeric(attrgetter("poison_total"), max),
    "least_health": _numeric(attrgetter("health"), min),
    "most_health": _numeric(attrgetter("health"), max),
    "most_items": _numeric(lambda h: len(h.items), max),
    "without_items": _without_items,
}


def select_target(battle: Battle, piece: Piece, visible: list[Hero],
                  nearest: list[str] | None = None) -> Procedure:
    """Step 3: the Primary, Secondary and Tie Breaker columns of the piece's type, then the
    Direction tiles. ``visible`` holds at least one enemy. ``nearest``: the first closest
    column's answer, asked with the LOS check (``closest_in_sight``; ``visible`` is then every
    enemy, whom the columns before it all leave tied)."""
    if len(visible) == 1 and nearest is None:
        yield Step(TARGET, rulebook.STEP3,
                   "{piece} targets {hero}: the only enemy in sight",
                   {"piece": piece.id, "target": visible[0].id,
                                      "column": "only", "candidates": [visible[0].id]},
                   {"piece": piece.ref, "hero": visible[0].ref})
        return Target(visible[0].id, ENEMY)
    row = battle.data.behaviour[piece.type]
    candidates = visible
    # Red Box: AI Player Behaviour, step 3 (errata): Primary, Secondary, Tie Breaker columns.
    for n, (column, criterion) in enumerate((("primary", row.primary),
                                             ("secondary", row.secondary),
                                             ("tie_breaker", row.tie_breaker))):
        before = candidates
        if criterion == "closest" and nearest is not None:
            tied, nearest = nearest, None  # asked with the LOS check
        elif criterion == "closest" and ties_after(battle, piece, n, before):
            # The columns after it tie them all: the Direction tiles split equally close
            # ones, in the same question.
            tied = [(yield from closest(battle, piece, [h.id for h in before], "enemy"))]
        elif criterion == "closest":
            # Equally close enemies go on to the next column, then the Direction tiles.
            tied = yield from equally_closest(battle, piece, [h.id for h in before], "enemy")
        else:
            tied = None
        if tied is not None:
            candidates = heroes_of(battle, tied)
        else:
            candidates = CRITERIA[criterion](candidates)
        if len(candidates) == 1:
            yield Step(TARGET, rulebook.STEP3,
                       "{piece} targets {who}: {column} column, {criterion}",
                       {"piece": piece.id, "target": candidates[0].id, "column": column,
                        "criterion": criterion, "candidates": ids_of(before),
                        "verified": row.is_verified(column)},
                       {"piece": piece.ref, "who": candidates[0].ref,
                        "column": column.replace('_', ' '),
                        "criterion": criterion.replace('_', ' ')})
            return Target(candidates[0].id, ENEMY)
    # Still tied: the first Direction tile, then the second.
    ids = tuple(h.id for h in candidates)
    chosen = yield direction_question(battle, candidates)
    yield Step(TARGET, rulebook.STEP3,
               "{piece} targets {hero}: still tied, direction tiles",
               {"piece": piece.id, "target": chosen, "column": "direction",
                "candidates": list(ids)},
               {"piece": piece.ref, "hero": battle.heroes[chosen].ref})
    return Target(chosen, ENEMY)
