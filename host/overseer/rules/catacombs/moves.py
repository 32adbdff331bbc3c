"""The Catacombs move table: what the table can do, with typed parameters, and when.

The phases of a game, read off the state (``end.py``): before a room is set up (setup, Lord,
campaign, Hidden Cave); the battle (NEXT AI PIECE and the heroes' side); after the battle
(rewards, the Hidden Cave, the campaign's next stage, the next room, the end of the game).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from overseer.moves import Move, MoveTable
from overseer.params import param, to_json
from overseer.rules.catacombs import (
    activation,
    campaign,
    cards,
    end,
    entered,
    hidden_cave,
    party,
    rewards,
    setup,
)
from overseer.rules.catacombs.state import Battle
from overseer.rules.procedure import Procedure, Step


def _heroes(battle: Battle) -> list[str]:
    return [h.id for h in battle.heroes.values() if h.kind == "hero"]


def _living_heroes(battle: Battle) -> list[str]:
    return [h.id for h in battle.heroes.values() if h.kind == "hero" and h.alive]


def _members(battle: Battle) -> list[str]:
    return list(battle.heroes)


def _alive_pieces(battle: Battle) -> list[str]:
    return [p.id for p in battle.pieces.values() if p.alive]


def _needs_mercenary(room: dict[str, Any]) -> bool:
    return any(cards.split_entry(e)[1] == cards.MERCENARY
               for q in cards.QUADRANTS for e in room[q])


def _rooms(battle: Battle) -> list[str]:
    """The Room cards that can be set up now (a room with Mercenary icons needs the game's
    Catacomb Lord chosen first)."""
    lord = battle.adventure.mercenary is not None
    return sorted(r["id"] for r in battle.data.rooms.values() if lord or not _needs_mercenary(r))


def _lords(battle: Battle) -> list[str]:
    return sorted(battle.data.lords)


def _campaigns(battle: Battle) -> list[str]:
    """The campaigns open to this game: any, or the one whose Lord the game already chose."""
    lord = battle.adventure.lord
    return sorted(c for c, record in battle.data.campaigns.items()
                  if lord is None or entered.same_name(lord, record["start"]))


def _cave_targets(battle: Battle) -> list[str]:
    cave = battle.adventure.hidden_cave
    return [] if cave is None else [m for m in cave.targets if m not in cave.collected]


def _cave_ready(battle: Battle) -> list[str]:
    """Heroes who hold all five Hidden Cave monsters and are on the playmat."""
    cave = battle.adventure.hidden_cave
    if cave is None:
        return []
    return [h for h in _living_heroes(battle) if battle.heroes[h].away is None
            and len(cave.held_by(h)) == hidden_cave.TO_COLLECT]


def _on_playmat(battle: Battle) -> list[str]:
    return [h for h in _living_heroes(battle) if battle.heroes[h].away is None]


def _in_cave(battle: Battle) -> list[str]:
    return [h.id for h in battle.heroes.values() if h.away == hidden_cave.AWAY]


# --------------------------------------------------------------------------- parameters


@dataclass(frozen=True, slots=True)
class NoParams:
    pass


@dataclass(frozen=True, slots=True)
class DamagePiece:
    piece: str = param(options=_alive_pieces, prompt="Which AI piece was hit?")
    amount: int = param(default=1, low=1, high=20, prompt="How much damage?")
    by: str | None = param(default=None, options=_living_heroes, prompt="Which hero's shot?")


@dataclass(frozen=True, slots=True)
class UpdateHero:
    hero: str = param(options=_members, prompt="Which hero?")
    health: int | None = param(default=None, low=0, high=30)
    gold: int | None = param(default=None, low=0, high=99)
    items: tuple[str, ...] | None = param(default=None)
    poison: tuple[int, ...] | None = param(default=None)
    frozen: bool | None = param(default=None)
    reckless: bool | None = param(default=None)
    stunned: bool | None = param(default=None)
    riding: str | None = param(default=None)
    away: str | None = param(default=None)


Card = dict[str, Any]  # a card the data lacks, as the table reads it (campaign.enter_room ...)


@dataclass(frozen=True, slots=True)
class SetupRoom:
    room: str = param(options=_rooms, prompt="Which Room card?")
    playmat: str | None = param(default=None)
    card: Card | None = param(default=None)


def _choosable_lords(battle: Battle) -> list[str]:
    """The Lords a table can choose from the data: any, or in a campaign the campaign's own
    (which the data lacks: the table enters its card)."""
    under_way = battle.adventure.campaign
    if under_way is None:
        return _lords(battle)
    start = battle.data.campaigns[under_way]["start"]
    return [lord for lord in _lords(battle) if entered.same_name(lord, start)]


@dataclass(frozen=True, slots=True)
class ChooseLord:
    lord: str = param(options=_choosable_lords, prompt="Which Catacomb Lord?")
    card: Card | None = param(default=None)


@dataclass(frozen=True, slots=True)
class SetupLordRoom:
    lord: str | None = param(default=None)
    card: Card | None = param(default=None)


@dataclass(frozen=True, slots=True)
class HiddenCaveSetup:
    pool: tuple[str, ...] | None = param(default=None)
    items: tuple[str, ...] | None = param(default=None)


@dataclass(frozen=True, slots=True)
class HiddenCaveCollect:
    hero: str = param(options=_heroes)
    monster: str = param(options=_cave_targets)


@dataclass(frozen=True, slots=True)
class HiddenCaveVisit:
    hero: str = param(options=_cave_ready)
    shot_icons: int | None = param(default=None, low=0, high=99)
    antient: str | None = param(default=None)


@dataclass(frozen=True, slots=True)
class HiddenCavePortal:
    hero: str = param(options=lambda battle: _on_playmat(battle))
    shot_icons: int | None = param(default=None, low=0, high=99)
    antient: str | None = param(default=None)


@dataclass(frozen=True, slots=True)
class HiddenCaveLeave:
    hero: str = param(options=_in_cave)


@dataclass(frozen=True, slots=True)
class RoomReward:
    room: str | None = param(default=None)
    spell: bool | None = param(default=None)
    gold: int | None = param(default=None, low=0, high=99)
    spell_card: str | None = param(default=None)


@dataclass(frozen=True, slots=True)
class CampaignStart:
    campaign: str = param(options=_campaigns, prompt="Which campaign?")
    card: Card | None = param(default=None)


# --------------------------------------------------------------------------- procedures

Legacy = Callable[[Battle, dict[str, Any]], Procedure]


def _legacy(proc: Legacy) -> Callable[[Battle, Any], Procedure]:
    """A procedure that still reads its action as a dict."""
    def run(battle: Battle, params: Any) -> Procedure:
        return proc(battle, to_json(params))
    return run


def _end_said(proc: Callable[[Battle, Any], Procedure]) -> Callable[[Battle, Any], Procedure]:
    """Run the procedure; when it ended the battle, say how (the next press says it too)."""
    def run(battle: Battle, params: Any) -> Procedure:
        before = end.outcome(battle)
        result = yield from proc(battle, params)
        after = end.outcome(battle)
        if after is not None and after != before:
            yield Step(str(after), end.RULE, end.SAID[after], {"outcome": str(after)})
        return result
    return run


def _portal_visit(battle: Battle, params: HiddenCavePortal) -> Procedure:
    """Red Box: Hidden Cave: a hero the portal trap sent there enters without the five."""
    return hidden_cave.hidden_cave_visit(battle, {**to_json(params), "via": "portal_trap"})


def end_game(battle: Battle, params: NoParams) -> Procedure:
    """The table ends the game between battles; the summary says what the party achieved."""
    done = battle.adventure
    if done.campaign is not None:
        text = f"the {done.campaign} campaign, {done.stage} stage(s) done"
    else:
        text = f"room {done.room}" if done.room else "no room played"
    battle.adventure.over = f"the game is over: {text}"
    yield Step("game_over", end.rulebook.GAME_END, battle.adventure.over,
               {"summary": summary(battle)})


def summary(battle: Battle) -> dict[str, Any]:
    return {h.id: {"name": h.name, "health": h.health, "gold": h.gold,
                   "alive": h.alive} for h in battle.heroes.values() if h.kind == "hero"}


def _between_rooms(battle: Battle) -> bool:
    """No battle going on and the party still standing."""
    return not end.in_battle(battle) and end.outcome(battle) is not end.Outcome.PARTY_DEFEATED \
        and battle.adventure.over is None


def _fresh(battle: Battle) -> bool:
    """Nothing has happened yet: no room was set up."""
    return not battle.pieces and battle.adventure.room is None and _between_rooms(battle)


def _campaign_left(battle: Battle) -> bool:
    name = battle.adventure.campaign
    return name is not None and battle.adventure.stage < len(battle.data.stages[name]) \
        and _between_rooms(battle)


def _rewards_due(battle: Battle) -> bool:
    """No battle going on, a hero standing, and the room's rewards not given yet."""
    return _between_rooms(battle) and not battle.adventure.rewarded \
        and bool(_living_heroes(battle))


def _no_rewards(battle: Battle) -> str:
    alive = _alive_pieces(battle)
    if alive:
        return f"the Battle Phase is not over: {', '.join(alive)} still on the playmat"
    if battle.adventure.rewarded:
        return "this room has already given its rewards"
    if not _living_heroes(battle):
        return "no hero survived the Battle Phase: no reward"
    return "the game is over"


def _no_visit(battle: Battle) -> str:
    cave = battle.adventure.hidden_cave
    if cave is None:
        return "the Hidden Cave is not in this game (hidden_cave_setup at the start)"
    inside = [battle.heroes[h].name for h in _in_cave(battle)]
    if inside:
        return f"{', '.join(inside)} is already in the Hidden Cave: one hero at a time"
    if end.is_over(battle):
        return "the game is over"
    return "no hero can go: " + "; ".join(
        f"{h.name} is dead" if not h.alive else
        f"{h.name} holds {len(cave.held_by(h.id))} of the {hidden_cave.TO_COLLECT} Hidden Cave "
        "monsters" for h in battle.heroes.values() if h.kind == "hero")


def _not_between(battle: Battle) -> str:
    alive = _alive_pieces(battle)
    if alive:
        return (f"the battle is not over ({', '.join(alive)} still on the playmat): a room is "
                "set up before its battle")
    return "the game is over"


def _no_lord_room(battle: Battle) -> str:
    if battle.adventure.lord is None:
        return "no Catacomb Lord: choose_lord first"
    return _not_between(battle)


def _no_lord_choice(battle: Battle) -> str:
    if battle.adventure.lord is not None or battle.adventure.mercenary is not None:
        return ("the Catacomb Lord and its mercenary are chosen once for the game (already "
                f"{battle.adventure.lord or '-'}, mercenary {battle.adventure.mercenary})")
    return _not_between(battle)


def _no_cave(battle: Battle) -> str:
    if battle.adventure.hidden_cave is None:
        return "the Hidden Cave is not in this game (hidden_cave_setup at the start)"
    return "the game is over" if end.is_over(battle) else "every Hidden Cave monster is kept"


def _no_cave_setup(battle: Battle) -> str:
    if battle.adventure.hidden_cave is not None:
        return "the Hidden Cave is set up once, at the start of the game"
    return "at the start of the game, before any room"


def _no_campaign_start(battle: Battle) -> str:
    if battle.adventure.campaign is not None:
        return f"the {battle.adventure.campaign} campaign is already under way"
    if battle.adventure.lord is not None and not _campaigns(battle):
        return (f"this game's Catacomb Lord is {battle.adventure.lord}; " + "; ".join(
            f"the {record['name']} starts with the {record['start']}"
            for record in battle.data.campaigns.values()))
    return "at the start of the game, before any room"


def _no_stage(battle: Battle) -> str:
    name = battle.adventure.campaign
    if name is None:
        return "no campaign under way (campaign_start first)"
    if battle.adventure.stage >= len(battle.data.stages[name]):
        return f"the {name} campaign is complete"
    return BETWEEN


def _playing(battle: Battle) -> bool:
    return end.in_battle(battle) and battle.adventure.over is None


def _not_over(battle: Battle) -> bool:
    return not end.is_over(battle)


BATTLE = "only during a battle (set up a room first; or the battle is over)"
BETWEEN = "only between battles"


def _move(name: str, label: str, params: type, proc: Callable[[Battle, Any], Procedure],
          available: Callable[[Battle], bool], why_not: str | Callable[[Battle], str]
          ) -> Move[Battle]:
    return Move(name, label, params, _end_said(proc), available, why_not)


def upgrade(action: dict[str, Any]) -> dict[str, Any]:
    """Actions as older logs and format-1 scenarios wrote them, in today's shape: a Hidden Cave
    visit via the portal trap is its own move now."""
    if action.get("do") == "hidden_cave_visit" and action.get("via") == "portal_trap":
        return {**{k: v for k, v in action.items() if k != "via"}, "do": "hidden_cave_portal"}
    return action


MOVES = MoveTable("Catacombs", {m.name: m for m in (
    _move("next_ai_piece", "NEXT AI PIECE", NoParams, _legacy(activation.next_ai_piece),
          _playing, BATTLE),
    _move("damage_piece", "A hero hit an AI piece", DamagePiece, _legacy(party.damage_piece),
          _playing, BATTLE),
    _move("update_hero", "A hero's state", UpdateHero, _legacy(party.update_hero),
          _not_over, "the game is over"),
    _move("setup_room", "Set up a room", SetupRoom, _legacy(setup.setup_room),
          _between_rooms, _not_between),
    _move("choose_lord", "Choose the Catacomb Lord", ChooseLord, _legacy(setup.choose_lord),
          lambda b: _between_rooms(b) and b.adventure.lord is None
          and b.adventure.mercenary is None, _no_lord_choice),
    _move("setup_lord_room", "Set up the Lord's room", SetupLordRoom,
          _legacy(setup.setup_lord_room),
          lambda b: _between_rooms(b) and b.adventure.lord is not None, _no_lord_room),
    _move("hidden_cave_setup", "Set up the Hidden Cave", HiddenCaveSetup,
          _legacy(hidden_cave.hidden_cave_setup),
          lambda b: _fresh(b) and b.adventure.hidden_cave is None, _no_cave_setup),
    _move("hidden_cave_collect", "A hero keeps a Hidden Cave monster", HiddenCaveCollect,
          _legacy(hidden_cave.hidden_cave_collect),
          lambda b: _not_over(b) and bool(_cave_targets(b)), _no_cave),
    _move("hidden_cave_visit", "Visit the Hidden Cave", HiddenCaveVisit,
          _legacy(hidden_cave.hidden_cave_visit),
          lambda b: _not_over(b) and bool(_cave_ready(b)) and not _in_cave(b), _no_visit),
    _move("hidden_cave_portal", "The portal trap sent a hero to the Hidden Cave",
          HiddenCavePortal, _portal_visit,
          lambda b: _not_over(b) and b.adventure.hidden_cave is not None
          and bool(_on_playmat(b)), _no_cave),
    _move("hidden_cave_leave", "Leave the Hidden Cave", HiddenCaveLeave,
          _legacy(hidden_cave.hidden_cave_leave),
          lambda b: _not_over(b) and bool(_in_cave(b)), "no hero is in the Hidden Cave"),
    _move("room_reward", "Room rewards", RoomReward, _legacy(rewards.room_reward),
          _rewards_due, _no_rewards),
    _move("campaign_start", "Start a campaign", CampaignStart,
          _legacy(campaign.campaign_start),
          lambda b: _fresh(b) and b.adventure.campaign is None and bool(_campaigns(b)),
          _no_campaign_start),
    _move("campaign_next", "The campaign's next stage", NoParams,
          _legacy(campaign.campaign_next), _campaign_left, _no_stage),
    _move("end_game", "End the game", NoParams, end_game, _between_rooms, BETWEEN),
)}, upgrade)
