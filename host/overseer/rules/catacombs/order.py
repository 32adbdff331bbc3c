"""Which AI piece acts next: Character Order tiles, then Monster Order tiles, then the
Direction tiles (Red Box: AI Player Behaviour, step 1)."""

from __future__ import annotations

from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.state import Battle, Piece
from overseer.rules.procedure import ChooseOne, Procedure, Step

# The members the hot path reads, bound once: reading a member off an Enum class goes
# through EnumType.__getattr__ in Python 3.11, several times slower than a global.
ACTIVE_CHARACTER = StepKind.ACTIVE_CHARACTER



def order_keys(battle: Battle, pieces: list[Piece]) -> list[tuple[int, int]]:
    """Each piece's place by the Character Order tiles, then by the Monster Order tiles (a
    tile not laid out sorts last)."""
    chars, monsters = battle.character_order, battle.monster_order
    last_char, last_monster = len(chars), len(monsters)
    return [(chars.index(p.order_tile) if p.order_tile in chars else last_char,
             monsters.index(p.type) if p.type in monsters else last_monster) for p in pieces]


def tile_text(battle: Battle, tile: str) -> str:
    """A tile as printed (its ``text`` in tiles.toml), for the table; its id if the data has
    none."""
    record = battle.data.tiles.get(tile)
    return record["text"] if record is not None else tile


def waiting(battle: Battle) -> list[Piece]:
    """Pieces that have not acted this round and can act (alive; a frozen piece waits for a
    teammate to free it: Overseer's ruling)."""
    acted = battle.acted
    return [p for p in battle.pieces.values()
            if p.health > 0 and not p.frozen and p.id not in acted]  # p.health > 0: p.alive


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


def next_active(battle: Battle, pieces: list[Piece]) -> Procedure:
    """Yield the steps choosing the next active character of ``pieces`` (those ``waiting``,
    at least one); return it."""
    # Red Box: AI Player Behaviour, step 1: tile order, ties by Monster tiles, then Direction.
    keys = order_keys(battle, pieces)
    best = min(keys)
    tied = [p for p, key in zip(pieces, keys, strict=True) if key == best]
    why = "character_tile"
    if len(tied) > 1:
        ids = tuple(p.id for p in tied)
        chosen = yield ChooseOne(direction_prompt(battle, "of " + ", ".join(
            f"{p.name} ({p.id})" for p in tied)), ids, Key.FIRST_BY_DIRECTION)
        piece = battle.pieces[chosen]
        why = "direction_tile"
    else:
        piece = tied[0]
        if [key[0] for key in keys].count(best[0]) > 1:
            why = "monster_tile"
    yield Step(ACTIVE_CHARACTER, rulebook.STEP1,
               f"{piece.name} ({piece.id}) acts: {tile_text(battle, piece.order_tile)} tile"
               f"{', ' + piece.type + ' monster tile' if why != 'character_tile' else ''}",
               {"piece": piece.id, "why": why, "character_tile": piece.order_tile,
                "monster_tile": piece.type})
    return piece
