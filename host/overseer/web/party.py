"""The party page's content, made from the game's state in the gadget's thread (plain data:
the server reads it from another thread while the gadget plays on).

Catacombs: each hero (health, gold, poison, items, status, seat), every AI piece left with
its health and Character tile, the Hidden Cave's collection and the campaign's path. The
other games (Conquest, Clank!, Runebound): their state as the game's spec writes it, less
what the table must not see: a Conquest hand and a deck are secret, so the page gives only
how many cards each holds (no phone is shown a hand: the box's card ids are its guess).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from overseer.games import GameSpec

# What the page never shows of a game's state (by game, the state_dict's top-level keys).
SECRET: dict[str, frozenset[str]] = {"conquest": frozenset({"hands", "decks"})}


def summary(spec: GameSpec, state: Any, names: Mapping[str, str],
            seats: Mapping[str, int]) -> dict[str, Any]:
    """The party page of ``state`` (JSON-able)."""
    if spec.name == "catacombs":
        return {"game": spec.name, **catacombs(state, names, seats)}
    shown = {k: v for k, v in spec.state_dict(state).items()
             if k not in SECRET.get(spec.name, frozenset())}
    return {"game": spec.name, "state": shown}


def catacombs(battle: Any, names: Mapping[str, str], seats: Mapping[str, int]
              ) -> dict[str, Any]:
    heroes = []
    for hero in battle.heroes.values():
        status = [word for word, on in (("frozen", hero.frozen), ("reckless", hero.reckless),
                                        ("stunned", hero.stunned)) if on]
        if hero.riding:
            status.append(f"riding {names.get(hero.riding, hero.riding)}")
        if hero.away:
            status.append(f"away ({hero.away.replace('_', ' ')})")
        if not hero.alive:
            status.append("destroyed")
        heroes.append({"id": hero.id, "name": hero.name, "kind": hero.kind,
                       "health": hero.health, "gold": hero.gold, "poison": list(hero.poison),
                       "items": list(hero.items), "status": status,
                       "seat": seats.get(hero.id)})
    pieces = [{"id": p.id, "name": names.get(p.id, p.name), "health": p.health,
               "tile": p.order_tile, "type": p.type}
              for p in battle.pieces.values() if p.alive]
    adventure = battle.adventure
    cave = adventure.hidden_cave
    collected = None if cave is None else {
        "targets": [{"monster": m, "held_by": names.get(cave.collected[m], cave.collected[m])
                     if m in cave.collected else None} for m in cave.targets],
        "items": list(cave.items)}
    campaign = battle.data.campaigns.get(adventure.campaign) if adventure.campaign else None
    return {"round": battle.round, "heroes": heroes, "pieces": pieces,
            "hidden_cave": collected,
            "campaign": campaign["name"] if campaign else adventure.campaign,
            "stage": adventure.stage,
            "path": list(adventure.visited), "room": adventure.room,
            "over": adventure.over}
