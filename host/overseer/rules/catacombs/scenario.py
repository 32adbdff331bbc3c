"""Catacombs setups for the scenario runner and the session: ``build(setup, data)`` and
``state_dict``.

``build`` takes the setup object (a format 2 scenario's ``"setup"``; see docs/scenarios.md)
and the loaded card data (``games.CATACOMBS.build`` passes the data loaded once), and refuses
an unknown key or a wrong type with a ``BadInput`` whose path is relative to the setup
(``heroes[1].helth``). ``FORMAT1_KEYS`` and ``format1_setup`` read the
setup of a format 1 scenario, where it lies at the top level. The actions' parameters are the
move table's (``moves.py``).
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from overseer.core.shapes import (
    NONE,
    BadInput,
    at,
    check_choice,
    check_fields,
    check_keys,
    check_list,
)
from overseer.rules.catacombs import adventure, cards
from overseer.rules.catacombs.carddata import CatacombsData
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
from overseer.rules.catacombs.targeting import TIE

HERO_STATUS = ("frozen", "reckless", "stunned")
AWAY = ("hidden_cave", "teleported", "with_rider")
TILE_SETS = ("character_order", "monster_order", "direction")

SETUP_FIELDS = {
    "options": dict, "tiles": dict, "heroes": list, "pieces": list, "wyverns": list,
    "owned_playmats": list, "last_playmat": (str, NONE), "lord": (str, NONE),
    "mercenary": (str, NONE), "hidden_cave": (dict, NONE), "campaign": (str, NONE),
    "stage": int, "antients": list,
}
OPTION_FIELDS = {f.name: type(f.default) for f in fields(Options)}
HERO_FIELDS = {
    "id": str, "name": str, "kind": str, "health": int, "gold": int, "poison": list,
    "items": list, "target_tile": (str, NONE), "status": list, "riding": (str, NONE),
    "away": (str, NONE), "start_health": int, "owner": (str, NONE),
}
PIECE_FIELDS = {
    "id": str, "card": str, "name": str, "type": str, "order_tile": str, "health": int,
    "flying": bool, "sequences": list, "teleported": bool, "frozen": bool,
    "reactive": str, "mount": bool, "riding": (str, NONE), "yilleph": (str, NONE),
}
CAVE_FIELDS = {"targets": list, "collected": dict, "items": list}

FORMAT1_KEYS = tuple(SETUP_FIELDS)


def format1_setup(doc: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The setup of a format 1 scenario (its setup keys, at the top level) and where it lies."""
    return {k: v for k, v in doc.items() if k in SETUP_FIELDS}, ""


def _hero(spec: Any, path: str) -> Hero:
    check_fields(spec, HERO_FIELDS, path, required=("id",))
    if spec["id"] == TIE:  # the `closest` question's own answer
        raise BadInput(at(path, "id"), f"{TIE!r} is the answer for equally close: give the hero "
                       "another id")
    kind = check_choice(spec.get("kind", "hero"), ENEMY_KINDS, at(path, "kind"), "a hero kind")
    status = check_list(spec.get("status", []), str, at(path, "status"))
    for n, s in enumerate(status):
        check_choice(s, HERO_STATUS, at(at(path, "status"), n), "a hero status")
    if spec.get("away") is not None:
        check_choice(spec["away"], AWAY, at(path, "away"), "a place away from the playmat")
    return Hero(
        id=spec["id"], name=spec.get("name", spec["id"]), kind=kind,
        health=spec.get("health", 10), gold=spec.get("gold", 0),
        poison=list(check_list(spec.get("poison", []), int, at(path, "poison"))),
        items=list(check_list(spec.get("items", []), str, at(path, "items"))),
        target_tile=spec.get("target_tile"), frozen="frozen" in status,
        reckless="reckless" in status, stunned="stunned" in status,
        riding=spec.get("riding"), away=spec.get("away"),
        start_health=spec.get("start_health", 0), owner=spec.get("owner"),
    )


def _sequences(value: Any, path: str) -> list:
    check_list(value, list, path)
    sequences = []
    for n, seq in enumerate(value):
        check_list(seq, str, at(path, n))
        try:
            sequences.append(parse_sequence(seq))
        except ValueError as err:  # a shot name the rules do not know
            raise BadInput(at(path, n), str(err)) from err
    return sequences


def _piece(spec: Any, path: str, data: CatacombsData) -> Piece:
    check_fields(spec, PIECE_FIELDS, path, required=("id",))
    if "card" in spec:
        try:
            piece = cards.piece_from_monster(data, spec["id"], spec["card"])
        except KeyError as err:
            raise BadInput(at(path, "card"), err.args[0]) from err
    else:
        missing = [k for k in ("type", "sequences") if k not in spec]
        if missing:
            raise BadInput(path, f"needs 'card', or {' and '.join(missing)}")
        piece = Piece(id=spec["id"], name=spec.get("name", spec["id"]), type=spec["type"],
                      order_tile=spec.get("order_tile", "level-1"),
                      sequences=_sequences(spec["sequences"], at(path, "sequences")))
    # The spec's own values over the card's (a new value: its name is in its ``ref``)
    piece = replace(piece, **{key: spec[key] for key in
                              ("health", "flying", "type", "order_tile", "name") if key in spec})
    if piece.type not in data.behaviour:
        raise BadInput(at(path, "type"), f"{piece.type!r} has no row in ai_behaviour.toml")
    piece.teleported = spec.get("teleported", False)
    piece.frozen = spec.get("frozen", False)
    _ice_box_piece(piece, spec, path)
    return piece


def _ice_box_piece(piece: Piece, spec: dict[str, Any], path: str) -> None:
    """``reactive`` (a shot: Reactive Health), ``mount`` (a Mount), ``riding`` (the id of the
    mount or wyvern it rides), ``yilleph`` (white or black face up)."""
    if "reactive" in spec:
        try:
            piece.reactive = Shot.parse(spec["reactive"])
        except ValueError as err:
            raise BadInput(at(path, "reactive"), str(err)) from err
    piece.mount = bool(spec.get("mount", piece.mount))
    piece.riding = spec.get("riding", piece.riding)
    piece.yilleph = spec.get("yilleph", piece.yilleph)
    if piece.yilleph is not None:
        check_choice(piece.yilleph, ("white", "black"), at(path, "yilleph"), "a Yilleph face")


def _antient(spec: Any, path: str, data: CatacombsData) -> Piece:
    """An unused Antient the AI may summon (Ice Box: Summon Antient Shot), written like a
    piece; its type and Character tile are ``antient``."""
    if not isinstance(spec, dict):
        raise BadInput(path, "an unused Antient is an object with an 'id'")
    return _piece({"type": "antient", "order_tile": "antient", **spec}, path, data)


def _tiles(spec: Any, data: CatacombsData) -> dict[str, list[str]]:
    check_keys(spec, TILE_SETS, "tiles")
    for key in TILE_SETS:
        for n, tile in enumerate(check_list(spec.get(key, []), str, at("tiles", key))):
            if tile not in data.tiles or data.tiles[tile]["set"] != key:
                raise BadInput(at(at("tiles", key), n),
                               f"{tile!r} is not a {key.replace('_', ' ')} tile")
    return {key: list(spec.get(key, [])) for key in TILE_SETS}


def _adventure(setup: dict[str, Any], data: CatacombsData) -> adventure.Adventure:
    for key in ("owned_playmats", "wyverns"):
        check_list(setup.get(key, []), str, key)
    cave = setup.get("hidden_cave")
    if cave is not None:
        check_fields(cave, CAVE_FIELDS, "hidden_cave", required=("targets",))
        check_list(cave["targets"], str, "hidden_cave.targets")
        check_list(cave.get("items", []), str, "hidden_cave.items")
    try:
        return adventure.from_scenario(setup, data)
    except (KeyError, ValueError) as err:  # its messages name the key
        raise BadInput("", err.args[0]) from err


def build(setup: dict[str, Any], data: CatacombsData) -> Battle:
    """The battle a setup object describes, on ``data`` (the cards and tables, loaded by the
    caller: ``games.catacombs_data``); ``BadInput`` when it cannot."""
    check_fields(setup, SETUP_FIELDS, "")
    opts = check_fields(setup.get("options", {}), OPTION_FIELDS, "options")
    tiles = _tiles(setup.get("tiles", {}), data)
    heroes = [_hero(h, at("heroes", n)) for n, h in enumerate(setup.get("heroes", []))]
    pieces = [_piece(p, at("pieces", n), data)
              for n, p in enumerate(setup.get("pieces", []))]
    antients = [_antient(p, at("antients", n), data)
                for n, p in enumerate(setup.get("antients", []))]
    ids = [h.id for h in heroes] + [p.id for p in pieces + antients]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise BadInput("", f"ids used twice: {', '.join(dupes)}")
    battle = Battle(
        heroes={h.id: h for h in heroes},
        pieces={p.id: p for p in pieces},
        character_order=tiles["character_order"],
        monster_order=tiles["monster_order"],
        direction=tiles["direction"],
        options=Options(**opts),
        damage={level: Bag(f"level {level} damage", list(pool))
                for level, pool in data.damage_tokens.items()},
        poison_deck=list(data.poison_cards),
        wyverns=list(setup.get("wyverns", [])),
        antients={p.id: p for p in antients},
        data=data,
        adventure=_adventure(setup, data),
    )
    return battle


def state_dict(battle: Battle) -> dict[str, Any]:
    return battle.as_dict()


def names(battle: Battle) -> dict[str, str]:
    """Display names by id: the heroes' and the pieces'."""
    found = {h.id: h.name for h in battle.heroes.values()}
    found.update((p.id, p.name) for p in battle.pieces.values())
    return found
