"""The Red Box campaigns (Red Box: Campaigns): the Monstrosity and the Pharaoh, their cards in
the printed order and the two choice points.

The book draws the campaign paths as arrows that are not in its text; Overseer follows the
printed list order and says so in the trace. Actions: ``campaign_start``, ``campaign_next``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from overseer.data import (
    DATA_DIR,
    DataError,
    Field,
    at_least,
    field_line,
    list_of,
    load_table,
    one_of,
)
from overseer.rules.catacombs.rulebook import RED
from overseer.rules.catacombs.state import Battle
from overseer.rules.procedure import ChooseOne, Procedure, RulesError, Step

CAMPAIGNS = f"{RED}: Campaigns"
BOTH = "both"

CAMPAIGN_FIELDS = {"id": Field(str), "name": Field(str), "start": Field(str)}
STAGE_FIELDS = {
    "id": Field(str),
    "campaign": Field(str),
    "position": Field(int, check=at_least(1)),
    "kind": Field(str, check=one_of("battle", "special", "lord")),
    "rooms": Field(list, check=list_of(str)),
    "level": Field(int, required=False, check=one_of(0, 1, 2)),
    "choice": Field(str, required=False, check=one_of("one", "any")),
}


@cache
def _load(folder: Path | None = None) -> tuple[dict[str, dict[str, Any]],
                                               dict[str, list[dict[str, Any]]]]:
    path = (folder or DATA_DIR / "catacombs") / "campaigns.toml"
    camps = {r["id"]: r for r in load_table(path, "campaign", CAMPAIGN_FIELDS)}
    stages: dict[str, list[dict[str, Any]]] = {c: [] for c in camps}
    for r in load_table(path, "stage", STAGE_FIELDS):
        if r["campaign"] not in camps:
            raise DataError(path, field_line(path, r["_line"], "campaign"), f"stage {r['id']!r}",
                            "campaign",
                            f"{r['campaign']!r} is not a [[campaign]] of the file")
        want = 2 if "choice" in r else 1
        if len(r["rooms"]) != want:
            raise DataError(path, field_line(path, r["_line"], "rooms"), f"stage {r['id']!r}",
                            "rooms",
                            f"a {'choice ' if want == 2 else ''}stage lists {want} room(s)")
        stages[r["campaign"]].append(r)
    for camp, listed in stages.items():
        listed.sort(key=lambda r: r["position"])
        if [r["position"] for r in listed] != list(range(1, len(listed) + 1)):
            raise DataError(path, None, f"campaign {camp!r}", "position",
                            "stage positions must run 1, 2, 3 ... without gaps")
    return camps, stages


def campaigns() -> dict[str, dict[str, Any]]:
    return _load()[0]


def stages(campaign: str) -> list[dict[str, Any]]:
    return _load()[1][campaign]


def campaign_start(battle: Battle, action: dict[str, Any]) -> Procedure:
    """``{"do": "campaign_start", "campaign": "monstrosity" | "pharaoh"}``."""
    if battle.adventure.campaign is not None:
        raise RulesError(f"the {battle.adventure.campaign} campaign is already under way")
    camp = campaigns().get(action.get("campaign"))
    if camp is None:
        raise RulesError(f"no campaign {action.get('campaign')!r}; the Red Box has "
                         f"{', '.join(campaigns())}")
    listed = stages(camp["id"])
    battle.adventure.campaign = camp["id"]
    battle.adventure.stage = 0
    battle.adventure.visited = []
    yield Step("campaign", CAMPAIGNS, f"{camp['name']}: start with the {camp['start']}; then "
               + " > ".join(" or ".join(s["rooms"]) if s.get("choice") == "one"
                            else " and/or ".join(s["rooms"]) for s in listed)
               + " (the printed list order: the book's path arrows are not in its text)",
               {"campaign": camp["id"], "start": camp["start"],
                "stages": [list(s["rooms"]) for s in listed], "verified": False})


def campaign_next(battle: Battle, action: dict[str, Any]) -> Procedure:
    """``{"do": "campaign_next"}``: the next stage; at a choice point the heroes choose."""
    adventure = battle.adventure
    if adventure.campaign is None:
        raise RulesError("no campaign under way (campaign_start first)")
    listed = stages(adventure.campaign)
    if adventure.stage >= len(listed):
        raise RulesError(f"the {adventure.campaign} campaign is complete")
    stage = listed[adventure.stage]
    rooms = list(stage["rooms"])
    if stage.get("choice") == "one":
        # Red Box: Campaigns: the heroes visit either room, not both.
        rooms = [(yield ChooseOne(f"Which do the heroes visit: {rooms[0]} or {rooms[1]}?",
                                  tuple(rooms), "campaign_choice"))]
    elif stage.get("choice") == "any":
        # Red Box: Campaigns: the heroes may visit one of the rooms, or both.
        chosen = yield ChooseOne(f"Which do the heroes visit: {rooms[0]}, {rooms[1]} or both?",
                                 (*rooms, BOTH), "campaign_choice")
        rooms = rooms if chosen == BOTH else [chosen]
    adventure.stage += 1
    adventure.visited.extend(rooms)
    what = {"battle": f"battle room, Room card level {stage.get('level')}",
            "special": "special room", "lord": "the Catacomb Lord's room"}[stage["kind"]]
    yield Step("campaign_stage", CAMPAIGNS, f"stage {stage['position']} of {len(listed)}: "
               f"{' then '.join(rooms)} ({what})",
               {"campaign": adventure.campaign, "stage": stage["position"], "rooms": rooms,
                "kind": stage["kind"], "level": stage.get("level")})
    if adventure.stage == len(listed):
        yield Step("campaign_complete", CAMPAIGNS, "the campaign's last stage",
                   {"campaign": adventure.campaign})
    return rooms
