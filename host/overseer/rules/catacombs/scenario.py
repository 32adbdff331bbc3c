"""Catacombs scenarios (and session setups): JSON in, a battle out. See docs/scenarios.md."""

from __future__ import annotations

from typing import Any

from overseer.rules.catacombs import adventure, cards, tables
from overseer.rules.catacombs.game import CatacombsGame
from overseer.rules.catacombs.state import (
    ENEMY_KINDS,
    Bag,
    Battle,
    Hero,
    Options,
    Piece,
    Shot,
    parse_sequence,
)

HERO_STATUS = ("frozen", "reckless", "stunned")


def _hero(spec: dict[str, Any], n: int) -> Hero:
    if not isinstance(spec, dict) or "id" not in spec:
        raise ValueError(f"heroes[{n}] needs an 'id'")
    kind = spec.get("kind", "hero")
    if kind not in ENEMY_KINDS:
        raise ValueError(f"heroes[{n}] kind {kind!r} is not one of {', '.join(ENEMY_KINDS)}")
    status = spec.get("status", [])
    for s in status:
        if s not in HERO_STATUS:
            raise ValueError(f"heroes[{n}] status {s!r} is not one of {', '.join(HERO_STATUS)}")
    return Hero(
        id=spec["id"], name=spec.get("name", spec["id"]), kind=kind,
        health=int(spec.get("health", 10)), gold=int(spec.get("gold", 0)),
        poison=[int(v) for v in spec.get("poison", [])], items=list(spec.get("items", [])),
        target_tile=spec.get("target_tile"), frozen="frozen" in status,
        reckless="reckless" in status, stunned="stunned" in status,
        riding=spec.get("riding"), away=spec.get("away"),
    )


def _piece(spec: dict[str, Any], n: int, behaviour: dict[str, Any]) -> Piece:
    if not isinstance(spec, dict) or "id" not in spec:
        raise ValueError(f"pieces[{n}] needs an 'id'")
    if "card" in spec:
        piece = cards.piece_from_monster(spec["id"], spec["card"])
    else:
        missing = [k for k in ("type", "sequences") if k not in spec]
        if missing:
            raise ValueError(f"pieces[{n}] needs 'card', or {' and '.join(missing)}")
        try:
            sequences = [parse_sequence(seq) for seq in spec["sequences"]]
        except ValueError as err:
            raise ValueError(f"pieces[{n}] ({spec['id']}) sequences: {err}") from None
        piece = Piece(id=spec["id"], name=spec.get("name", spec["id"]), type=spec["type"],
                      order_tile=spec.get("order_tile", "level-1"), sequences=sequences)
    for key in ("health", "flying", "type", "order_tile", "name"):
        if key in spec and key != "card":
            setattr(piece, key, spec[key])
    if piece.type not in behaviour:
        raise ValueError(f"pieces[{n}] type {piece.type!r} has no row in ai_behaviour.toml")
    piece.teleported = bool(spec.get("teleported", False))
    piece.frozen = bool(spec.get("frozen", False))
    _ice_box_piece(piece, spec, n)
    return piece


def _ice_box_piece(piece: Piece, spec: dict[str, Any], n: int) -> None:
    """``reactive`` (a shot: Reactive Health), ``mount`` (a Mount), ``riding`` (the id of the
    mount or wyvern it rides), ``yilleph`` (white or black face up)."""
    if "reactive" in spec:
        piece.reactive = Shot.parse(spec["reactive"])
    piece.mount = bool(spec.get("mount", piece.mount))
    piece.riding = spec.get("riding", piece.riding)
    piece.yilleph = spec.get("yilleph", piece.yilleph)
    if piece.yilleph not in (None, "white", "black"):
        raise ValueError(f"pieces[{n}] yilleph {piece.yilleph!r} is not white or black")


def _antient(spec: Any, n: int, behaviour: dict[str, Any]) -> Piece:
    """An unused Antient the AI may summon (Ice Box: Summon Antient Shot), written like a
    piece; its type and Character tile are ``antient``."""
    if not isinstance(spec, dict):
        raise ValueError(f"antients[{n}] must be an object with an 'id'")
    try:
        return _piece({"type": "antient", "order_tile": "antient", **spec}, n, behaviour)
    except ValueError as err:
        raise ValueError(f"antients[{n}]: {err}") from err


def build(scenario: dict[str, Any]) -> tuple[CatacombsGame, Battle]:
    data = tables.load()
    opts = scenario.get("options", {})
    unknown = set(opts) - set(Options.__slots__)
    if unknown:
        raise ValueError(f"unknown options: {', '.join(sorted(unknown))}")
    tiles = scenario.get("tiles", {})
    for key in ("character_order", "monster_order", "direction"):
        for tile in tiles.get(key, []):
            if tile not in data.tiles or data.tiles[tile]["set"] != key:
                raise ValueError(f"tiles.{key}: {tile!r} is not a {key.replace('_', ' ')} tile")
    heroes = [_hero(h, n) for n, h in enumerate(scenario.get("heroes", []))]
    pieces = [_piece(p, n, data.behaviour) for n, p in enumerate(scenario.get("pieces", []))]
    antients = [_antient(p, n, data.behaviour) for n, p in enumerate(scenario.get("antients", []))]
    ids = [h.id for h in heroes] + [p.id for p in pieces + antients]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise ValueError(f"ids used twice: {', '.join(dupes)}")
    battle = Battle(
        heroes={h.id: h for h in heroes},
        pieces={p.id: p for p in pieces},
        character_order=list(tiles.get("character_order", [])),
        monster_order=list(tiles.get("monster_order", [])),
        direction=list(tiles.get("direction", [])),
        options=Options(**opts),
        damage={level: Bag(f"level {level} damage", list(pool))
                for level, pool in data.damage_tokens.items()},
        poison_deck=list(data.poison_cards),
        wyverns=list(scenario.get("wyverns", [])),
        antients={p.id: p for p in antients},
        tables=data,
        adventure=adventure.from_scenario(scenario),
    )
    return CatacombsGame(), battle


def state_dict(battle: Battle) -> dict[str, Any]:
    return battle.as_dict()
