"""The Catacombs move table: what the table can do, with typed parameters, and when.

The phases of a game, read off the state (``end.py``): before a room is set up (setup, Lord,
campaign, Hidden Cave); the battle (NEXT AI PIECE and the heroes' side); after the battle
(rewards, the Hidden Cave, the campaign's next stage, the next room, the end of the game).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from overseer.core.moves import Move, MoveTable
from overseer.core.params import NoParams
from overseer.core.procedure import Procedure, RulesError, Step
from overseer.rules.catacombs import (
    activation,
    books,
    campaign,
    end,
    heroes_shots,
    hidden_cave,
    party,
    rewards,
    rulebook,
    setup,
)
from overseer.rules.catacombs.campaign import CampaignStart
from overseer.rules.catacombs.entered import campaign_allows, check_campaign_room, stage_played
from overseer.rules.catacombs.heroes_shots import FreezePiece, HeroDagger, RecruitMount
from overseer.rules.catacombs.hidden_cave import (
    HiddenCaveCollect,
    HiddenCaveLeave,
    HiddenCavePortal,
    HiddenCaveSetup,
    HiddenCaveVisit,
    cave_ready,
    cave_targets,
    in_cave,
    on_playmat,
)
from overseer.rules.catacombs.kinds import StepKind
from overseer.rules.catacombs.party import DamagePiece, UpdateHero
from overseer.rules.catacombs.rewards import RoomReward
from overseer.rules.catacombs.setup import ChooseLord, SetupLordRoom, SetupRoom
from overseer.rules.catacombs.state import Battle, living_hero_ids, played, room_holders

# Each move's parameters are a frozen dataclass defined beside its procedure, which reads them
# typed (``params.piece``); ``overseer.core.params`` reads them from JSON at the edge.


def _end_said(proc: Callable[[Battle, Any], Procedure]) -> Callable[[Battle, Any], Procedure]:
    """Run the procedure; when it ended the battle, say how (the next press says it too)."""
    @wraps(proc)
    def run(battle: Battle, params: Any) -> Procedure:
        before = end.outcome(battle)
        result = yield from proc(battle, params)
        yield from end.ended(battle, before)
        return result
    return run


def end_game(battle: Battle, params: NoParams) -> Procedure:
    """The table ends the game between battles; the summary says what the party achieved."""
    step = game_over(battle)
    battle.adventure.over = step.text
    yield step


def game_over(battle: Battle) -> Step:
    """The step that ends the game as it stands: the campaign's stages done, or the room (a
    fact: the table reads the card's name)."""
    done = battle.adventure
    facts: dict[str, Any] = {}
    if done.campaign is not None:
        template = f"the {done.campaign} campaign, {done.stage} stage(s) done"
    elif done.room:
        template, facts = "room {room}", {"room": (done.room, done.room)}
    else:
        template = "no room played"
    return Step(StepKind.GAME_OVER, rulebook.GAME_END, "the game is over: " + template,
                {"summary": summary(battle)}, facts or None)


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
        and _between_rooms(battle) and stage_played(battle)


def _rewards_due(battle: Battle) -> bool:
    """A room was played, no battle going on, a hero standing, and the room's rewards not given
    yet."""
    return _between_rooms(battle) and played(battle) \
        and not battle.adventure.rewarded and bool(living_hero_ids(battle))


def _no_rewards(battle: Battle) -> str:
    alive = room_holders(battle)
    if alive:
        return f"the Battle Phase is not over: {', '.join(alive)} still on the playmat"
    if not played(battle):
        return "no room has been played yet: a room gives its rewards after its Battle Phase"
    if battle.adventure.rewarded:
        return "this room has already given its rewards"
    if not living_hero_ids(battle):
        return "no hero survived the Battle Phase: no reward"
    return "the game is over"


def _no_visit(battle: Battle) -> str:
    cave = battle.adventure.hidden_cave
    if cave is None:
        return "the Hidden Cave is not in this game (it is set up at the start of the game)"
    inside = [battle.heroes[h].name for h in in_cave(battle)]
    if inside:
        return f"{', '.join(inside)} is already in the Hidden Cave: one hero at a time"
    if end.is_over(battle):
        return "the game is over"
    return "no hero can go: " + "; ".join(
        f"{h.name} is dead" if not h.alive else
        f"{h.name} holds {len(cave.held_by(h.id))} of the {hidden_cave.TO_COLLECT} Hidden Cave "
        "monsters" for h in battle.heroes.values() if h.kind == "hero")


def _not_between(battle: Battle) -> str:
    alive = room_holders(battle)
    if alive:
        return (f"the battle is not over ({', '.join(alive)} still on the playmat): a room is "
                "set up before its battle")
    return "the game is over"


def _no_room(battle: Battle) -> str:
    return _campaign_says(battle, lord=False) if _between_rooms(battle) else _not_between(battle)


def _no_lord_room(battle: Battle) -> str:
    if battle.adventure.lord is None:
        return "no Catacomb Lord: choose the Catacomb Lord first"
    return _campaign_says(battle, lord=True) if _between_rooms(battle) else _not_between(battle)


def _campaign_says(battle: Battle, lord: bool) -> str:
    """Why the campaign refuses a room now (``lord``: the Lair)."""
    try:
        check_campaign_room(battle, None, lord)
    except RulesError as err:
        return str(err)
    return BETWEEN


def _no_lord_choice(battle: Battle) -> str:
    if battle.adventure.lord is not None or battle.adventure.mercenary is not None:
        return ("the Catacomb Lord and its mercenary are chosen once for the game (already "
                f"{battle.adventure.lord or '-'}, mercenary {battle.adventure.mercenary})")
    return _not_between(battle)


def _no_cave(battle: Battle) -> str:
    if battle.adventure.hidden_cave is None:
        return "the Hidden Cave is not in this game (it is set up at the start of the game)"
    return "the game is over" if end.is_over(battle) else "every Hidden Cave monster is kept"


def _no_cave_setup(battle: Battle) -> str:
    if battle.adventure.hidden_cave is not None:
        return "the Hidden Cave is set up once, at the start of the game"
    return "at the start of the game, before any room"


def _no_campaign_start(battle: Battle) -> str:
    if battle.adventure.campaign is not None:
        return f"the {battle.adventure.campaign} campaign is already under way"
    if battle.adventure.lord is not None and not campaign.open_campaigns(battle):
        return (f"this game's Catacomb Lord is {battle.adventure.lord}; " + "; ".join(
            f"the {record['name']} starts with the {record['start']}"
            for record in battle.data.campaigns.values()))
    return "at the start of the game, before any room"


def _no_stage(battle: Battle) -> str:
    name = battle.adventure.campaign
    if name is None:
        return "no campaign under way (start a campaign first)"
    if battle.adventure.stage >= len(battle.data.stages[name]):
        return f"the {name} campaign is complete"
    if not stage_played(battle):
        return "the campaign's stage under way is not played yet: set up its room first"
    return BETWEEN


def _playing(battle: Battle) -> bool:
    return end.in_battle(battle) and battle.adventure.over is None


def _not_over(battle: Battle) -> bool:
    return not end.is_over(battle)


def _no_battle(battle: Battle) -> str:
    """Why there is no battle to play: the next press says how the last one ended."""
    if battle.adventure.over is not None:
        return battle.adventure.over
    done = end.outcome(battle)
    if done is not None:
        return end.SAID[done]
    return "no room is set up yet: set up a room first"


BATTLE = _no_battle


def _no_books(battle: Battle) -> str:
    """Why no correction now: no battle, or no piece on the playmat a hit can damage."""
    if not _playing(battle):
        return _no_battle(battle)
    return "no AI piece on the playmat has health to correct (Antients and Mounts take no damage)"


def _no_dagger(battle: Battle) -> str:
    if not _playing(battle):
        return _no_battle(battle)
    return "no hero is on the playmat to throw a dagger"


def _no_recruit(battle: Battle) -> str:
    if not _between_rooms(battle):
        return BETWEEN
    return (f"only at the {heroes_shots.STABLES}, for a hero without a Mount, with "
            f"{heroes_shots.MOUNT_GOLD} gold in the party")


def _no_freeze(battle: Battle) -> str:
    return "no AI piece the ice shot can freeze" if _playing(battle) else _no_battle(battle)
BETWEEN = "only between battles"


def _move(name: str, label: str, params: type, proc: Callable[[Battle, Any], Procedure],
          available: Callable[[Battle], bool], why_not: str | Callable[[Battle], str]
          ) -> Move[Battle]:
    # NEXT AI PIECE, the hot path, says a battle's end itself (activation.next_ai_piece)
    wrapped = proc if name == "next_ai_piece" else _end_said(proc)
    return Move(name, label, params, wrapped, available, why_not)


def upgrade(action: dict[str, Any]) -> dict[str, Any]:
    """Actions as older logs and format-1 scenarios wrote them, in today's shape: a Hidden Cave
    visit via the portal trap is its own move now."""
    if action.get("do") == "hidden_cave_visit" and action.get("via") == "portal_trap":
        return {**{k: v for k, v in action.items() if k != "via"}, "do": "hidden_cave_portal"}
    return action


MOVES = MoveTable("Catacombs", {m.name: m for m in (
    _move("next_ai_piece", "NEXT AI PIECE", NoParams, activation.next_ai_piece,
          _playing, BATTLE),
    _move("damage_piece", "A hero hit an AI piece", DamagePiece, party.damage_piece,
          _playing, BATTLE),
    _move("update_hero", "A hero's state", UpdateHero, party.update_hero,
          _not_over, "the game is over"),
    _move("freeze_piece", "A hero's ice shot froze an AI piece", FreezePiece,
          heroes_shots.freeze_piece, lambda b: _playing(b) and bool(heroes_shots.freezable(b)),
          _no_freeze),
    _move("hero_dagger", "A hero's dagger hit an AI piece", HeroDagger,
          heroes_shots.hero_dagger, lambda b: _playing(b) and bool(heroes_shots.on_playmat(b)),
          _no_dagger),
    _move("recruit_mount", "Recruit a Mount (Hearthshire Stables)", RecruitMount,
          heroes_shots.recruit_mount,
          lambda b: _between_rooms(b) and heroes_shots.can_recruit(b), _no_recruit),
    _move("setup_room", "Set up a room", SetupRoom, setup.setup_room,
          lambda b: _between_rooms(b) and campaign_allows(b, lord=False), _no_room),
    _move("choose_lord", "Choose the Catacomb Lord", ChooseLord, setup.choose_lord,
          lambda b: _between_rooms(b) and b.adventure.lord is None
          and b.adventure.mercenary is None, _no_lord_choice),
    _move("setup_lord_room", "Set up the Lord's room", SetupLordRoom,
          setup.setup_lord_room,
          lambda b: _between_rooms(b) and b.adventure.lord is not None
          and campaign_allows(b, lord=True), _no_lord_room),
    _move("hidden_cave_setup", "Set up the Hidden Cave", HiddenCaveSetup,
          hidden_cave.hidden_cave_setup,
          lambda b: _fresh(b) and b.adventure.hidden_cave is None, _no_cave_setup),
    _move("hidden_cave_collect", "A hero keeps a Hidden Cave monster", HiddenCaveCollect,
          hidden_cave.hidden_cave_collect,
          lambda b: _not_over(b) and bool(cave_targets(b)), _no_cave),
    _move("hidden_cave_visit", "Visit the Hidden Cave", HiddenCaveVisit,
          hidden_cave.hidden_cave_visit,
          lambda b: _not_over(b) and bool(cave_ready(b)) and not in_cave(b), _no_visit),
    _move("hidden_cave_portal", "The portal trap sent a hero to the Hidden Cave",
          HiddenCavePortal, hidden_cave.hidden_cave_portal,
          lambda b: _not_over(b) and b.adventure.hidden_cave is not None
          and bool(on_playmat(b)), _no_cave),
    _move("hidden_cave_leave", "Leave the Hidden Cave", HiddenCaveLeave,
          hidden_cave.hidden_cave_leave,
          lambda b: _not_over(b) and bool(in_cave(b)), "no hero is in the Hidden Cave"),
    _move("room_reward", "Room rewards", RoomReward, rewards.room_reward,
          _rewards_due, _no_rewards),
    _move("campaign_start", "Start a campaign", CampaignStart,
          campaign.campaign_start,
          lambda b: _fresh(b) and b.adventure.campaign is None and bool(campaign.open_campaigns(b)),
          _no_campaign_start),
    _move("campaign_next", "The campaign's next stage", NoParams,
          campaign.campaign_next, _campaign_left, _no_stage),
    _move("end_game", "End the game", NoParams, end_game, _between_rooms, BETWEEN),
    _move("correct", "Correct the books", books.Correct, books.correct,
          lambda b: _playing(b) and bool(books.book_list(b)), _no_books),
)}, upgrade)
