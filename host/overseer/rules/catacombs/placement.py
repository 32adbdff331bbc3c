"""Where each AI piece goes at setup: the walk-through the table follows, piece by piece, in
Character tile order (Red Box: Solo & Co-Op Mode Setup; Catacomb Lord Room Setup, item 4;
Rules for the Catacombs & Castles Playmats)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from overseer.core.procedure import EnterNumber, Procedure, Step
from overseer.rules.catacombs import cards
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.order import tile_text
from overseer.rules.catacombs.rulebook import CASTLES, LORD_PLACED_LAST, SETUP
from overseer.rules.catacombs.state import Battle, Piece

OBSTACLES = 6  # the six obstacles of a playmat


def start_zone_runes(record: dict[str, Any], pieces: int) -> Procedure:
    """How many vacant runes the Monster Start Zone has (2 to 4, by playmat): from the data,
    else asked, and only when more than two pieces make it matter."""
    if record["rule"] != "catacombs" or pieces <= 2:
        return None
    if "start_zone_runes" in record:
        return record["start_zone_runes"]
    return (yield EnterNumber(f"How many vacant runes are in the Monster Start Zone of "
                              f"{cards.playmat_label(record)}?", Key.START_ZONE_RUNES, 2, 4))


def _tiles(battle: Battle) -> tuple[str, str]:
    """The texts of the green and the blue Direction tile."""
    tiles = battle.data.tiles
    by_colour = {tiles[t]["colour"]: tiles[t]["text"] for t in battle.direction}
    return by_colour.get("green", "?"), by_colour.get("blue", "?")


def _catacombs_spots(battle: Battle, runes: int | None, lord: bool
                     ) -> Iterator[tuple[str, str, bool]]:
    """(spot id, what to tell the table, printed?) in the book's order of locations."""
    green, blue = _tiles(battle)
    # Red Box: Solo & Co-Op Mode Setup, location 1: vacant runes in the Monster Start Zone,
    # from the edge the green tile's arrow starts at; the other tile breaks ties.
    for k in range(1, (runes or 2) + 1):
        yield (f"rune-{k}", f"the next vacant rune in the Monster Start Zone, from the edge "
               f"where the green tile's arrow starts ({green}); ties: the blue tile ({blue})",
               False)
    # Location 2: behind each obstacle, opposite the Hero Start Zone. The order among the six
    # obstacles is not printed: Overseer takes them by the green tile.
    for k in range(1, OBSTACLES + 1):
        yield (f"obstacle-{k}", f"directly behind obstacle {k} of {OBSTACLES} on the side away "
               f"from the Hero Start Zone (obstacles taken {green}: Overseer's ruling)", False)
    # Location 3: the corners, in the green tile's order.
    yield ("corner-1", f"the first corner of the Monster Start Zone by the green tile ({green})",
           False)
    yield ("corner-2", "the other corner of the Monster Start Zone", False)
    # Location 4: the centre of the back edge (kept for the Lord in a Lord room).
    if not lord:
        yield ("back-centre", "the centre of the back edge of the Monster Start Zone", True)


def _castles_spots(record: dict[str, Any]) -> Iterator[tuple[str, str, bool]]:
    # Red Box: Rules for the Catacombs & Castles Playmats: six behind the obstacles, the rest
    # in a line from the centre (along the Monster Start Zone line on the Cave of the
    # Keystone, behind the Start Zone line on the castles).
    for k in range(1, OBSTACLES + 1):
        yield (f"obstacle-{k}", f"directly behind obstacle {k} of {OBSTACLES}, opposite the "
               "Hero Start Zone (the order of the obstacles is Overseer's ruling)", False)
    line = ("along the Monster Start Zone line" if record["rule"] == "keystone"
            else "behind the Start Zone line")
    k = 0
    while True:
        k += 1
        yield (f"line-{k}", f"{line}, place {k} counted out from the centre", True)


def _intro(record: dict[str, Any]) -> Step:
    if record["rule"] == "catacombs":
        # Red Box: Solo & Co-Op Mode Setup: obstacles placed with the rune stickers showing.
        return Step(StepKind.PLAYMAT_RULES, SETUP,
                    f"{cards.playmat_label(record)}: place all obstacles "
                    "with their rune stickers visible", {"playmat": record["id"]})
    if record["rule"] == "keystone":
        return Step(StepKind.PLAYMAT_RULES, CASTLES,
                    "Cave of the Keystone: obstacles face down (rune "
                    "stickers hidden); the AI player's Start Zone is the one with the Keystone "
                    "floating in it", {"playmat": record["id"]})
    return Step(StepKind.PLAYMAT_RULES, CASTLES,
                f"{cards.playmat_label(record)}: obstacles face up "
                "(rune stickers visible); the heroes choose their Start Zone and the other is "
                "the Monster Start Zone; distribute the obstacles as the book's page 14 "
                "instructs", {"playmat": record["id"]})


def walk(battle: Battle, record: dict[str, Any], pieces: list[Piece], lord: Piece | None,
         runes: int | None) -> Procedure:
    """One ``place`` step per piece, in order; the Catacomb Lord last."""
    yield _intro(record)
    rule_verified = "rule" not in record.get("unverified_fields", ())
    spots = (_catacombs_spots(battle, runes, lord is not None) if record["rule"] == "catacombs"
             else _castles_spots(record))
    placed = []
    for n, piece in enumerate(pieces, 1):
        spot, where, printed = next(spots)
        placed.append((piece.id, spot))
        tile = tile_text(battle, piece.order_tile)
        yield Step(StepKind.PLACE, SETUP, "{n}. {piece} ({tile} tile): {where}",
                   {"piece": piece.id, "order": n, "spot": spot,
                    "verified": printed and rule_verified},
                   {"n": n, "piece": piece.ref, "tile": tile, "where": where},
                   f"{n}. {piece.name} ({piece.id}, {tile} tile): {where}")
    if lord is not None:
        if record["rule"] == "catacombs":
            spot, where = "back-centre", "the centre of the back edge of the Monster Start Zone"
            rule = LORD_PLACED_LAST
        else:
            spot, where = "lord-corner", "the corner of the Start Zone on the playmat's edge"
            rule = CASTLES
        placed.append((lord.id, spot))
        yield Step(StepKind.PLACE, rule,
                   "{order}. last, the Catacomb Lord {lord}: {where}",
                   {"piece": lord.id, "order": len(pieces) + 1,
                                             "spot": spot, "verified": rule_verified},
                   {"order": len(pieces) + 1, "lord": lord.ref_id, "where": where})
    battle.adventure.placement = placed
    battle.unmoved = [pid for pid, _ in placed]
