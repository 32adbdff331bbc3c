"""The Red Box campaigns (Red Box: Campaigns): the Monstrosity and the Pharaoh, their cards in
the printed order and the two choice points (the campaigns and stages of ``Battle.data``).

The book draws the campaign paths as arrows that are not in its text; Overseer follows the
printed list order and says so in the trace, and asks the heroes at the printed choice points.
Actions: ``campaign_start``, ``campaign_next``. The campaign rooms and Lords the card data lacks
are entered by the table (``entered.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from overseer.core.params import NoParams, param
from overseer.core.procedure import ChooseOne, Procedure, RulesError, Step
from overseer.rules.catacombs import setup
from overseer.rules.catacombs.entered import (
    ENTERED,
    Card,
    enter_lord,
    known_lord,
    known_room,
    lord_card,
    same_name,
    stage_played,
)
from overseer.rules.catacombs.entered import slug as _slug
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.rulebook import CAMPAIGNS
from overseer.rules.catacombs.state import Battle

BOTH = "both"


def open_campaigns(battle: Battle) -> list[str]:
    """The campaigns open to this game: any, or the one whose Lord the game already chose."""
    lord = battle.adventure.lord
    return sorted(c for c, record in battle.data.campaigns.items()
                  if lord is None or same_name(lord, record["start"]))


@dataclass(frozen=True, slots=True)
class CampaignStart:
    """``card``: the campaign Lord's card when the data lacks it."""

    campaign: str = param(options=open_campaigns, prompt="Which campaign?")
    card: Card | None = param(default=None)


def campaign_start(battle: Battle, params: CampaignStart) -> Procedure:
    """``{"do": "campaign_start", "campaign": "monstrosity" | "pharaoh", "card": {...}
    (optional: the campaign Lord's card when the data lacks it)}``."""
    adventure = battle.adventure
    if adventure.campaign is not None:
        raise RulesError(f"the {adventure.campaign} campaign is already under way")
    camp = battle.data.campaigns.get(params.campaign)
    if camp is None:
        raise RulesError(f"no campaign {params.campaign!r}; the Red Box has "
                         f"{', '.join(battle.data.campaigns)}")
    start = camp["start"]
    lord = None
    if adventure.lord is not None:
        chosen = lord_card(battle, adventure.lord)["name"]
        if not same_name(chosen, start):
            raise RulesError(f"this game's Catacomb Lord is {chosen}; the {camp['name']} "
                             f"starts with the {start}")
        if params.card is not None:
            raise RulesError(f"the {start} is already this game's Catacomb Lord: no card to "
                             "enter")
    elif params.card is not None:
        lord = enter_lord(battle, start, params.card)
    else:
        lord = known_lord(battle, start)
    listed = battle.data.stages[camp["id"]]
    adventure.campaign = camp["id"]
    adventure.stage = 0
    adventure.stage_waits = False
    adventure.visited = []
    yield Step(StepKind.CAMPAIGN, CAMPAIGNS, f"{camp['name']}: start with the {start}; then "
               + " > ".join(" or ".join(s["rooms"]) if s.get("choice") == "one"
                            else " and/or ".join(s["rooms"]) for s in listed)
               + " (the printed list order: the book's path arrows are not in its text)",
               {"campaign": camp["id"], "start": start,
                "stages": [list(s["rooms"]) for s in listed], "verified": False})
    # "Start: use the Monstrosity": Overseer reads the start as the campaign's Catacomb Lord.
    reading = f"the campaign's Catacomb Lord is the {start} (Overseer's reading of the start)"
    if adventure.lord is not None:
        yield Step(StepKind.CAMPAIGN_LORD, CAMPAIGNS, f"{reading}: already this game's Lord",
                   {"lord": adventure.lord, "known": True, "verified": False})
    elif lord is None:
        yield Step(StepKind.CAMPAIGN_LORD, CAMPAIGNS,
                   f"{reading}; its card is not in the card data: enter it when choosing the "
                   f"Catacomb Lord ({start}) before a room with Mercenary icons and before the "
                   "Lair", {"lord": _slug(start), "known": False,
                                           "verified": False})
    else:
        yield Step(StepKind.CAMPAIGN_LORD, CAMPAIGNS, reading,
                   {"lord": lord["id"], "known": True, "entered": lord["source"] == ENTERED,
                    "verified": False})
        yield from setup.fix_lord(battle, lord)


def campaign_next(battle: Battle, params: NoParams) -> Procedure:
    """``{"do": "campaign_next"}``: the next stage; at a choice point the heroes choose."""
    adventure = battle.adventure
    if adventure.campaign is None:
        raise RulesError("no campaign under way (start a campaign first)")
    listed = battle.data.stages[adventure.campaign]
    if adventure.stage >= len(listed):
        raise RulesError(f"the {adventure.campaign} campaign is complete")
    if not stage_played(battle):
        raise RulesError(f"the campaign's stage {adventure.stage} is not played yet: set up "
                         "its room first")
    stage = listed[adventure.stage]
    rooms = list(stage["rooms"])
    if stage.get("choice") == "one":
        # Red Box: Campaigns: the heroes visit either room, not both.
        rooms = [(yield ChooseOne(f"Which room comes next: {rooms[0]} or {rooms[1]}?",
                                  tuple(rooms), Key.CAMPAIGN_CHOICE))]
    elif stage.get("choice") == "any":
        # Red Box: Campaigns: the heroes may visit one of the rooms, or both, in their order.
        chosen = yield ChooseOne(f"Which do the heroes visit: {rooms[0]}, {rooms[1]} or both?",
                                 (*rooms, BOTH), Key.CAMPAIGN_CHOICE)
        if chosen != BOTH:
            rooms = [chosen]
        else:
            first = yield ChooseOne("Which room comes first?", tuple(rooms), Key.CAMPAIGN_FIRST)
            rooms = [first, *(r for r in rooms if r != first)]
    adventure.stage += 1
    adventure.stage_waits = stage["kind"] != "special"
    adventure.visited.extend(rooms)
    what = {"battle": f"battle room, Room card level {stage.get('level')}",
            "special": "special room", "lord": "the Catacomb Lord's room"}[stage["kind"]]
    data: dict[str, Any] = {"campaign": adventure.campaign, "stage": stage["position"],
                            "rooms": rooms, "kind": stage["kind"], "level": stage.get("level")}
    note = ""
    if stage["kind"] == "battle":
        data["known"] = known_room(battle, rooms[0]) is not None
        if not data["known"]:
            note = (f"; its Room card is not in the card data: enter it when setting up the "
                    f"room (level {stage.get('level')}, its monsters, its reward)")
    elif stage["kind"] == "lord":
        data["known"] = adventure.lord is not None
        if not data["known"]:
            note = "; no Catacomb Lord is chosen yet: choose it (and enter its card) first"
    yield Step(StepKind.CAMPAIGN_STAGE, CAMPAIGNS, f"stage {stage['position']} of {len(listed)}: "
               f"{' then '.join(rooms)} ({what}){note}", data)
    if adventure.stage == len(listed):
        yield Step(StepKind.CAMPAIGN_COMPLETE, CAMPAIGNS, "the campaign's last stage",
                   {"campaign": adventure.campaign})
    return rooms
