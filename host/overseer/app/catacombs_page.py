"""A Catacombs game on the web page for the table's phones (web/): the party page's content and
the game's story (the record folded again, the party looked at after every event)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from overseer.app.story import Story
from overseer.games import GameSpec
from overseer.rules.catacombs.kinds import StepKind
from overseer.session.session import built, replay


def party(battle: Any, names: Mapping[str, str], seats: Mapping[str, int]) -> dict[str, Any]:
    """The party page: each hero (health, gold, poison, items, status, seat), every AI piece
    left with its health and Character tile, the Hidden Cave's collection and the campaign's
    path."""
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


def story(spec: GameSpec, record: Any) -> Story:
    """The story of a Catacombs game's record (web/watch.py's ``Record``: its setup, dice,
    seed, events and names), the record folded again."""
    out = Story()
    result = built(spec, record.setup, record.dice, record.seed)
    battle = result.runner.state
    out.heroes = {h.id: h.name for h in battle.heroes.values()}
    for hero in out.heroes:
        out.kills[hero], out.damage[hero] = 0, 0
    seen = [0]
    by: list[str | None] = [None]

    def sample(state: Any) -> None:
        index = state.round - 1
        for hero_id, hero in state.heroes.items():
            if hero_id not in out.heroes:
                out.heroes[hero_id] = hero.name
                out.kills.setdefault(hero_id, 0)
                out.damage.setdefault(hero_id, 0)
            for series, value in ((out.health, hero.health), (out.gold, hero.gold)):
                line = series.setdefault(hero_id, [])
                while len(line) < index:
                    line.append(line[-1] if line else value)
                if len(line) == index:
                    line.append(value)
                else:
                    line[index] = value
        out.rounds = max(out.rounds, state.round)

    def after(seq: int, fold: Any) -> None:
        event = record.events[seq - 1]
        if event.kind == "action":
            by[0] = event.data.get("by")
        trace = fold.runner.trace
        for step in trace[seen[0]:]:
            target = step.data.get("target")
            if step.kind == StepKind.DAMAGE and target in out.damage:
                out.damage[target] += step.data.get("amount", 0)
            elif step.kind == StepKind.PIECE_DOWN and by[0] in out.kills:
                out.kills[by[0]] += 1
        seen[0] = len(trace)
        sample(fold.runner.state)

    sample(battle)
    replay(result, record.events, 0, after)
    out.heroes = {h: record.names.get(h, name) for h, name in out.heroes.items()}
    out.over = result.runner.state.adventure.over
    return out
