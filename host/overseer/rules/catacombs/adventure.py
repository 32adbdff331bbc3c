"""What lasts beyond one battle: the playmats owned and last played, the Catacomb Lord and its
mercenary, the suppression in force, the Hidden Cave, the campaign, the rewards kept.

Plain values, held in ``Battle.adventure``; the setup, Hidden Cave, reward and campaign
procedures change them. ``from_scenario`` reads them from a scenario's top-level keys.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from overseer.rules.catacombs.carddata import CatacombsData

# Red Box: Hidden Cave: five level-1 monsters are drawn for a hero to collect.
TO_COLLECT = 5


@dataclass(slots=True)
class HiddenCave:
    """Red Box: Hidden Cave: the five level-1 monsters to collect and what each hero holds
    (each hero collects its own five: a kind one hero keeps, another may keep too)."""

    targets: list[str]  # monster names
    items: list[str]  # the item cards still beside the Hidden Cave card
    collected: dict[str, list[str]] = field(default_factory=dict)  # hero id -> monster names

    def held_by(self, hero: str) -> list[str]:
        held = self.collected.get(hero, [])
        return [m for m in self.targets if m in held]


@dataclass(slots=True)
class Adventure:
    owned_playmats: list[str] = field(default_factory=list)  # expansion playmats (D12 chart)
    last_playmat: str | None = None
    lord: str | None = None  # the Catacomb Lord of this game
    mercenary: str | None = None  # chosen once for the game (Ice Box)
    room: str | None = None  # the room set up last
    room_suppresses: list[str] = field(default_factory=list)
    suppression: dict[str, list[str]] = field(default_factory=dict)  # piece id -> shots
    placement: list[tuple[str, str]] = field(default_factory=list)  # (piece id, spot)
    hidden_cave: HiddenCave | None = None
    campaign: str | None = None
    stage: int = 0  # campaign stages opened (campaign_next)
    stage_waits: bool = False  # the stage opened last has a battle room not set up yet
    visited: list[str] = field(default_factory=list)
    spells: dict[str, list[str]] = field(default_factory=dict)  # hero id -> spell cards
    platinum: dict[str, int] = field(default_factory=dict)  # hero id -> platinum coins
    antients: dict[str, list[str]] = field(default_factory=dict)  # hero id -> Antient pieces
    rewarded: bool = False  # the room set up last has given its rewards
    over: str | None = None  # the game's end, as said when the table ended it
    # Cards the table entered because the card data lacks them (campaign rooms and Lords), by
    # id; they come from the actions' "card" and so are rebuilt by a refold of the log.
    entered_rooms: dict[str, dict[str, Any]] = field(default_factory=dict)
    entered_lords: dict[str, dict[str, Any]] = field(default_factory=dict)

    def as_dict(self, table: dict[str, Any], suppressed: list[str]) -> dict[str, Any]:
        """The adventure as plain values, with the battle's ``table`` (the pieces as laid)
        and the shots ``suppressed`` now (``Battle.suppressed_shots``)."""
        cave = self.hidden_cave
        return {
            "table": table,
            "owned_playmats": list(self.owned_playmats),
            "last_playmat": self.last_playmat,
            "lord": self.lord,
            "mercenary": self.mercenary,
            "room": self.room,
            "suppressed": suppressed,
            "placement": [list(p) for p in self.placement],
            "hidden_cave": None if cave is None else {
                "targets": list(cave.targets), "items": list(cave.items),
                "collected": {h: cave.held_by(h) for h in cave.collected}},
            "campaign": self.campaign,
            "stage": self.stage,
            "stage_waits": self.stage_waits,
            "visited": list(self.visited),
            "spells": {k: list(v) for k, v in self.spells.items()},
            "platinum": dict(self.platinum),
            "antients": {k: list(v) for k, v in self.antients.items()},
            "rewarded": self.rewarded,
            "over": self.over,
            "entered": {"rooms": copy.deepcopy(self.entered_rooms),
                        "lords": copy.deepcopy(self.entered_lords)},
        }


def _strings(scenario: dict[str, Any], key: str) -> list[str]:
    value = scenario.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"'{key}' must be a list of ids")
    return list(value)


def _collected(cave: dict[str, Any], targets: list[str]) -> dict[str, list[str]]:
    """``hidden_cave.collected``: hero id -> the target monsters it holds (or, as older
    scenarios write it, target monster -> the one hero holding it)."""
    written = cave.get("collected", {})
    problem = "hidden_cave.collected maps hero ids to target monsters they hold"
    if not isinstance(written, dict):
        raise ValueError(problem)
    out: dict[str, list[str]] = {}
    for key, value in written.items():
        hero, held = (value, [key]) if isinstance(value, str) else (key, value)
        if not isinstance(held, list) or any(m not in targets for m in held):
            raise ValueError(problem)
        out.setdefault(hero, []).extend(m for m in held if m not in out.get(hero, []))
    return out


def from_scenario(scenario: dict[str, Any], data: CatacombsData) -> Adventure:
    """The adventure a scenario starts from: ``owned_playmats``, ``last_playmat``, ``lord``,
    ``mercenary``, ``hidden_cave`` ({"targets", "items", "collected"}), ``campaign`` and
    ``stage`` (stages done), all optional. Names are checked against ``data``."""
    owned = _strings(scenario, "owned_playmats")
    known = data.playmats
    for pm in owned:
        if pm not in known or known[pm]["die"] != "d12":
            raise ValueError(f"owned_playmats: {pm!r} is not an expansion playmat "
                             "(d12-2 .. d12-12)")
    last = scenario.get("last_playmat")
    if last is not None and last not in known:
        raise ValueError(f"last_playmat: {last!r} is not a playmat of playmats.toml")
    lord = scenario.get("lord")
    mercenary = scenario.get("mercenary")
    if mercenary is not None:
        mercenary = data.monster(mercenary)["name"]
    if lord is not None:
        record = data.lord(lord)
        lord = record["id"]
        if mercenary is None and len(record["mercenary"]) == 1:
            mercenary = data.monster(record["mercenary"][0])["name"]
        elif mercenary is None:
            raise ValueError(f"lord {lord!r} offers two mercenaries: give 'mercenary'")
    adventure = Adventure(owned_playmats=owned, last_playmat=last, lord=lord,
                          mercenary=mercenary)
    cave = scenario.get("hidden_cave")
    if cave is not None:
        if not isinstance(cave, dict):
            raise ValueError("'hidden_cave' must be an object with 'targets'")
        targets = [data.monster(m)["name"] for m in _strings(cave, "targets")]
        if len(targets) != TO_COLLECT or len(set(targets)) != len(targets):
            raise ValueError(f"hidden_cave.targets must name {TO_COLLECT} different monsters")
        items = _strings(cave, "items") if "items" in cave else list(data.cave_items)
        adventure.hidden_cave = HiddenCave(targets, items, _collected(cave, targets))
    campaign = scenario.get("campaign")
    if campaign is not None:
        if campaign not in data.campaigns:
            raise ValueError(f"campaign: {campaign!r} is not one of "
                             f"{', '.join(data.campaigns)}")
        adventure.campaign = campaign
        stage = scenario.get("stage", 0)
        if not isinstance(stage, int) or not 0 <= stage <= len(data.stages[campaign]):
            raise ValueError(f"stage must be 0 to {len(data.stages[campaign])}")
        adventure.stage = stage
    return adventure
