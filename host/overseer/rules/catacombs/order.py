"""Which AI piece acts next: Character Order tiles, then Monster Order tiles, then the
Direction tiles (Red Box: AI Player Behaviour, step 1)."""

from __future__ import annotations

from collections.abc import Sequence

from overseer.core.procedure import ChooseOne, Procedure, Step, words
from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.state import Battle, Hero, Piece

# The members the hot path reads, bound once: reading a member off an Enum class goes
# through EnumType.__getattr__ in Python 3.11, several times slower than a global.
ACTIVE_CHARACTER = StepKind.ACTIVE_CHARACTER



def tile_text(battle: Battle, tile: str) -> str:
    """A tile as printed (its ``text`` in tiles.toml), for the table; its id if the data has
    none."""
    record = battle.data.tiles.get(tile)
    return record["text"] if record is not None else tile


def scanning(battle: Battle) -> str:
    """How the Direction tiles scan the playmat, first tile then second."""
    names = [battle.data.tiles[t]["text"] for t in battle.direction]
    if not names:
        return "along the playmat"
    if len(names) == 1:
        return f"scanning {names[0]}"
    return f"scanning {names[0]} (if level, {names[1]})"


def direction_prompt(battle: Battle, what: str) -> str:
    return f"Which {what} comes first {scanning(battle)}?"


def direction_question(battle: Battle, tied: Sequence[Hero | Piece],
                       with_ids: bool = False) -> ChooseOne:
    """Which of ``tied`` comes first by the Direction tiles (their ids the options), each
    written by its name, or ``with_ids`` (``ref_id``: "Orc (orc-1)")."""
    places = {f"c{n}": one.ref_id if with_ids else one.ref for n, one in enumerate(tied)}
    options = tuple(one.id for one in tied)
    template = direction_prompt(battle, "of " + ", ".join("{" + p + "}" for p in places))
    return ChooseOne(words(template, places), options, Key.FIRST_BY_DIRECTION,
                     {"prompt": template}, places)


def first_in_order(battle: Battle) -> tuple[list[Piece], str]:
    """The pieces waiting to act this round that come first (``[]`` when none is waiting), and
    what put them first: ``character_tile``, ``monster_tile`` (they share their Character
    Order tile with another waiting piece), or ``direction_tile`` (more than one is left: the
    Direction tiles decide, ``split_tie``).

    Waiting: alive, not acted this round, not frozen (a frozen piece waits for a teammate to
    free it: Overseer's ruling). First: Red Box: AI Player Behaviour, step 1: by the Character
    Order tiles, ties by the Monster Order tiles (a tile not laid out sorts last). One pass over
    the pieces: this runs on every press of NEXT AI PIECE."""
    chars, monsters, acted = battle.character_order, battle.monster_order, battle.acted
    first_char = first_monster = shared = len(chars) + len(monsters) + 1  # past any place
    tied: list[Piece] = []
    for p in battle.pieces.values():
        if p.health <= 0 or p.frozen or p.id in acted:  # p.health <= 0: not p.alive
            continue
        # ``index`` alone, its ValueError for a tile not laid out (no ``in`` scan before)
        try:
            place = chars.index(p.order_tile)
        except ValueError:
            place = len(chars)
        if place > first_char:
            continue
        try:
            monster = monsters.index(p.type)
        except ValueError:
            monster = len(monsters)
        if place < first_char:
            first_char, first_monster, shared, tied = place, monster, 1, [p]
            continue
        shared += 1
        if monster < first_monster:
            first_monster, tied = monster, [p]
        elif monster == first_monster:
            tied.append(p)
    if len(tied) > 1:
        return tied, "direction_tile"
    return tied, "monster_tile" if shared > 1 else "character_tile"


# The spots of one kind the setup numbers along the green Direction tile (placement.py):
# of two pieces on spots of the same kind, the lower number comes first scanning by it.
NUMBERED_SPOTS = ("rune", "obstacle", "corner")


def may_come_first(battle: Battle, tied: list[Piece]) -> list[Piece]:
    """Those of ``tied`` that may come first by the Direction tiles, as far as the setup's
    placement says: of the pieces that stand where the setup placed them (none has acted
    since) on spots of one kind numbered along the green tile, only the lowest number may,
    when the scan reads the green tile first (Overseer's ruling: the order the box placed them
    in is the order the tiles scan them in). Between spots of different kinds (a rune, an
    obstacle), a piece that has moved, or with the blue tile read first, where the pieces lie
    is the table's to see: each of those stays. ``tied``'s order is kept."""
    if not battle.direction or battle.data.tiles[battle.direction[0]].get("colour") != "green":
        return tied
    spots = dict(battle.adventure.placement)
    first: dict[str, tuple[int, str]] = {}  # spot kind -> (the lowest number, its piece)
    numbered: dict[str, str] = {}  # piece -> its spot's kind
    for piece in tied:
        spot = spots.get(piece.id)
        if piece.id not in battle.unmoved or spot is None:
            continue
        kind, _, number = spot.rpartition("-")
        if kind in NUMBERED_SPOTS and number.isdigit():
            numbered[piece.id] = kind
            first[kind] = min(first.get(kind, (int(number), piece.id)), (int(number), piece.id))
    return [p for p in tied if p.id not in numbered or first[numbered[p.id]][1] == p.id]


# The steps after which the active piece still stands where it stood: targeting, its shot
# sequence chosen, a ranged shot and what its Damage token does (a push moves the hero hit, not
# the piece that shot). Any other step (a rush, a move to a rune, a teleport, a summoned piece
# placed beside it, a teammate acting...) may have moved it.
STILL = frozenset({StepKind.ACTIVE_CHARACTER, StepKind.TARGET, StepKind.REASK,
                   StepKind.SHOT_SEQUENCE, StepKind.REROLL, StepKind.SHOT, StepKind.CONDITION,
                   StepKind.MISS, StepKind.TOKEN, StepKind.RESET, StepKind.DAMAGE,
                   StepKind.HERO_DOWN, StepKind.INVULNERABLE, StepKind.POISON,
                   StepKind.POISON_DECK_EMPTY, StepKind.STUNNED, StepKind.NO_DAMAGE,
                   StepKind.NO_EFFECT, StepKind.CLOCK, StepKind.HEAL})


def moving(battle: Battle, piece: Piece, turn: Procedure) -> Procedure:
    """Run ``piece``'s ``turn`` unchanged, taking it off ``battle.unmoved`` at the first step
    that may move it (Overseer's ruling, as ``may_come_first``: a piece that only shot from
    where the setup placed it is still there, and the box still knows its place in the scan).
    Once it is off (nothing puts it back), the rest of the turn runs through as it is."""
    answer = None
    while True:
        try:
            item = turn.send(answer)
        except StopIteration as stop:
            return stop.value
        if isinstance(item, Step):
            if item.kind not in STILL and piece.id in battle.unmoved:
                battle.unmoved.remove(piece.id)
            if piece.id not in battle.unmoved:
                yield item  # a step's answer is None, as the rest's first is
                return (yield from turn)
        answer = yield item


def alike(battle: Battle, tied: list[Piece]) -> bool:
    """Whether the pieces of ``tied`` differ only by their letters: the same card, health and
    state, none standing where the setup placed it (``Battle.unmoved``: its place in the scan
    is known by its id). Then which comes first by the Direction tiles is no question: the
    first one acts, and it is the first of ``tied`` from then on (Overseer's ruling: their
    letters are the box's names for discs the table cannot tell apart)."""
    first = tied[0]
    suppression = battle.adventure.suppression
    for other in tied[1:]:
        if other.id in battle.unmoved or first.id in battle.unmoved:
            return False
        if (_base(other.name) != _base(first.name) or other.type != first.type
                or other.order_tile != first.order_tile or other.sequences != first.sequences
                or other.health != first.health or other.reward != first.reward
                or other.flying != first.flying or other.frozen or first.frozen
                or other.teleported != first.teleported or other.riding or first.riding
                or other.reactive != first.reactive or other.mount or first.mount
                or other.yilleph != first.yilleph
                or suppression.get(other.id) != suppression.get(first.id)):
            return False
    return True


def _base(name: str) -> str:
    """A piece's name without its letter ("Orc A" -> "Orc")."""
    head, _, letter = name.rpartition(" ")
    return head if head and len(letter) == 1 else name


def first_alike(battle: Battle, piece: Piece, tied: list[Piece]) -> Step:
    """The step telling the table which disc of ``tied`` (``alike``) is ``piece``."""
    return Step(StepKind.FIRST_ALIKE, rulebook.STEP1,
                "{piece} is the first {base} {scanning}: its {count} tied pieces are alike, so "
                "the table need not say which comes first (Overseer's ruling)",
                {"piece": piece.id, "tied": [p.id for p in tied]},
                {"piece": piece.ref_id, "base": _base(piece.name),
                 "scanning": scanning(battle), "count": len(tied),
                 "tile": tile_text(battle, battle.direction[0]) if battle.direction else ""})


def split_tie(battle: Battle, tied: list[Piece]) -> Procedure:
    """The first of ``tied`` (two or more) by the Direction tiles: the table says (of those
    the setup's placement leaves, ``may_come_first``)."""
    chosen = yield direction_question(battle, tied, with_ids=True)
    return battle.pieces[chosen]


def active_step(battle: Battle, piece: Piece, why: str) -> Step:
    """The step naming the next active character and the tile that made it first (``why``
    ``placement``: of a tie, first as the setup placed it, ``may_come_first``)."""
    placed = (", first by the Direction tiles as the setup placed it (Overseer's ruling: "
              "not moved since)") if why == "placement" else ""
    return Step(ACTIVE_CHARACTER, rulebook.STEP1,
                "{piece} acts: {tile_text} tile{monster_tile}{placed}",
                {"piece": piece.id, "why": why, "character_tile": piece.order_tile,
                 "monster_tile": piece.type},
                {"piece": piece.ref_id, "tile_text": tile_text(battle, piece.order_tile),
                 "monster_tile": f", {piece.type} monster tile" if why != "character_tile" else "",
                 "placed": placed})
