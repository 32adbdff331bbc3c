"""Setting up a Cataclysm game (Cataclysm: Setup, steps 1 to 6).

The setup dict (a scenario's ``"setup"``, or what the session stores)::

    {"players": ["ann", "bo", "cy"],   # hero ids in seat order, the first player first
     "names": {"ann": "Ann"},          # optional display names
     "counters": "gadget",             # optional: "gadget" deals the counters at random
                                       #   (picks); "table" deals them and enters what shows
     "trading_dice": "table"}          # optional: "table" rolls its own dice and enters the
                                       #   matches; "gadget" rolls the data's (unverified) faces

Then the actions: ``start`` (steps 1 and 2), ``place`` for each hero from the last player to
the first (step 3; the last placement turns the counters over, step 4), ``quest_counter`` for
each player (step 5; the last one returns the red cards, step 6, and the first turn begins).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from overseer.core.params import param
from overseer.core.procedure import ChooseOne, Pick, Procedure, RulesError, Step
from overseer.core.shapes import check_choice, check_fields, check_list
from overseer.rules.runebound import rulebook
from overseer.rules.runebound.components import DESTROYED, RuneboundData
from overseer.rules.runebound.kinds import Key, StepKind
from overseer.rules.runebound.state import (
    CURSED,
    PLACEMENT,
    PLAY,
    QUEST_COUNTERS,
    Hero,
    Options,
    RuneboundState,
    TownState,
)
from overseer.rules.runebound.state import DESTROYED as TOWN_DESTROYED
from overseer.rules.runebound.turns import begin_turn

SETUP_FIELDS: dict[str, Any] = {"players": list, "names": dict, "counters": str,
                                "trading_dice": str}
WHO = ("gadget", "table")
# Overseer's ruling: the base game's one to six heroes (the Cataclysm book gives no count).
MAX_PLAYERS = 6


class SetupError(ValueError):
    """A setup the rules cannot start from; the message says which field and why."""


def _players(setup: dict[str, Any], data: RuneboundData) -> list[str]:
    players = check_list(setup.get("players"), str, "players")
    if not 1 <= len(players) <= MAX_PLAYERS or len(set(players)) != len(players):
        raise SetupError(f"setup 'players' must list 1 to {MAX_PLAYERS} different hero ids, the "
                         f"first player first (got {players!r})")
    # Setup, step 3: every hero in a town of its own. Step 5's tokens do not limit the
    # players: the data's are placeholders, and a colour may be shared (quest_counter).
    if len(players) > len(data.towns):
        raise SetupError(f"{len(players)} players need as many towns; {data.where} has "
                         f"{len(data.towns)}")
    return players


def build_state(setup: dict[str, Any], data: RuneboundData) -> RuneboundState:
    """The state before the start action: checked, nothing dealt. An unknown key raises
    ``BadInput`` naming it with a suggestion."""
    if not isinstance(setup, dict):
        raise SetupError(f"setup must be an object (got {setup!r})")
    check_fields(setup, SETUP_FIELDS, "", required=("players",))
    players = _players(setup, data)
    names = setup.get("names", {})
    for hero, name in names.items():
        check_choice(hero, players, f"names.{hero}", "a player")
        if not isinstance(name, str) or not name:
            raise SetupError(f"setup 'names' {hero}: a name is a non-empty string (got {name!r})")
    options = Options(counters=check_choice(setup.get("counters", "gadget"), WHO, "counters",
                                            "who deals the counters"),
                      trading_dice=check_choice(setup.get("trading_dice", "table"), WHO,
                                                "trading_dice", "who rolls the trading dice"))
    return RuneboundState(
        data=data, options=options, players=list(players),
        heroes={h: Hero(id=h, name=names.get(h, h)) for h in players},
        towns={t: TownState(id=t) for t in data.towns})


# --------------------------------------------------------------------------- steps 1 and 2


@dataclass(frozen=True, slots=True)
class Start:
    """``{"do": "start"}``: the Curse decks laid out and the counters dealt."""


def start(state: RuneboundState, params: Start) -> Procedure:
    data = state.data
    # Setup, step 1: the decks are not shuffled; each is stacked by the numerals on the backs.
    yield Step(StepKind.CURSE_DECKS, rulebook.CURSE_DECKS,
               f"Lay out the {len(data.curses)} Curse decks unshuffled, each stacked by the "
               "numerals on the backs: the three Level I cards on top, then the two Level II, "
               "then the Level III.",
               {"decks": {c: data.deck(c) for c in data.curses},
                "names": {c: curse.name for c, curse in data.curses.items()}})
    # Setup, step 2: the counters, comet up, shuffled and dealt among the towns.
    if state.options.counters == "gadget":
        left = list(data.counters)
        for town in state.towns.values():
            if len(left) == 1:
                counter = left[0]
            else:
                counter = yield Pick(pool="cataclysm counters", options=tuple(left),
                                     purpose=f"the counter for {data.towns[town.id].name}",
                                     key=Key.DEAL)
            left.remove(counter)
            town.counter = counter
        text = ("The gadget has dealt the cataclysm counters, comet up, one to each town, and "
                "keeps them hidden until the heroes are placed: leave the counters aside.")
    else:
        text = ("Shuffle the cataclysm counters comet up and deal one to each town, comet up "
                "(Overseer: one a town, as no town is available at the start).")
    state.phase = PLACEMENT
    order = ", ".join(state.heroes[h].name for h in state.placing_order())
    yield Step(StepKind.DEAL, rulebook.COUNTERS, text,
               {"by": state.options.counters, "towns": list(state.towns),
                "verified": all(c.verified for c in data.counters.values())})
    yield Step(StepKind.INSTRUCTION, rulebook.PLACEMENT,
               f"Place the heroes, each in a town of its own, from the last player to the "
               f"first: {order}.", {"order": state.placing_order()})


# --------------------------------------------------------------------------- step 3


def _placing(state: RuneboundState) -> list[str]:
    hero = state.next_to_place() if state.phase == PLACEMENT else None
    return [] if hero is None else [hero]


def _empty_towns(state: RuneboundState) -> list[str]:
    return [t for t in state.towns if not state.figures(t)]


@dataclass(frozen=True, slots=True)
class Place:
    """``{"do": "place", "hero": id, "town": id}``: a hero's figure into a town."""

    hero: str = param(options=_placing, prompt="Who places a figure?")
    town: str = param(options=_empty_towns, prompt="In which town?")


def check_place(state: RuneboundState, params: Place) -> None:
    if params.hero not in state.heroes:
        raise RulesError(f"there is no hero {params.hero!r} (heroes: {', '.join(state.heroes)})")
    if params.town not in state.towns:
        raise RulesError(f"there is no town {params.town!r} (towns: {', '.join(state.towns)})")
    nxt = state.next_to_place()
    if params.hero != nxt:
        who = state.heroes[params.hero].name
        if state.heroes[params.hero].town is not None:
            raise RulesError(f"{who} is already placed")
        assert nxt is not None
        raise RulesError(f"heroes are placed from the last player to the first: "
                         f"{state.heroes[nxt].name} places next, not {who}")
    there = state.figures(params.town)
    if there:
        raise RulesError(f"{state.data.towns[params.town].name} already has a figure in it "
                         f"({', '.join(state.heroes[h].name for h in there)}): no figure may be "
                         "placed in a town with a figure")


def place(state: RuneboundState, params: Place) -> Procedure:
    check_place(state, params)
    hero, town = state.heroes[params.hero], state.data.towns[params.town]
    hero.town, hero.terrain = town.id, town.terrain
    yield Step(StepKind.PLACE, rulebook.PLACEMENT, f"{hero.name} starts in {town.name}.",
               {"hero": hero.id, "town": town.id, "verified": town.name_printed})
    if state.next_to_place() is None:
        yield from reveal(state)


# --------------------------------------------------------------------------- step 4


def _counter_shown(state: RuneboundState, town: TownState, left: list[str],
                   towns_left: int) -> Procedure:
    """What the town's counter shows: the gadget's deal, or (the table dealt) the table's
    answer. Overseer: each Curse deck goes to one town, so "destroyed" is offered only while
    more towns are left than decks."""
    if town.counter is not None:
        return state.data.counters[town.counter].reveals
    options = ((DESTROYED,) if towns_left > len(left) else ()) + tuple(left)
    if len(options) == 1:
        return options[0]
    return (yield ChooseOne(prompt=f"Turn over the counter of {state.data.towns[town.id].name}:"
                                   " a comet (destroyed) or which curse symbol?",
                            options=options, key=Key.COUNTER))


def reveal(state: RuneboundState) -> Procedure:
    """Cataclysm: Setup, step 4 - every counter turned over: destroyed towns, cursed towns
    with their Curse deck on the market stack."""
    data = state.data
    left = list(data.curses)
    for n, town in enumerate(state.towns.values()):
        shows = yield from _counter_shown(state, town, left, len(state.towns) - n)
        name = data.towns[town.id].name
        figures = [state.heroes[h].name for h in state.figures(town.id)]
        facts = {"town": town.id, "counter": town.counter, "by": state.options.counters}
        put = ""
        if town.counter is not None:
            facts["verified"] = data.counters[town.counter].verified
            put = " Lay a counter showing this on the town."
        if shows == DESTROYED:
            town.status = TOWN_DESTROYED
            stays = (f" {', '.join(figures)} stays on its space and may leave it (Overseer's "
                     "ruling: the book only forbids entering)") if figures else ""
            yield Step(StepKind.REVEAL, rulebook.REVEAL,
                       f"{name} is destroyed (a comet on both sides): it cannot be entered."
                       f"{put}{stays}",
                       {**facts, "status": TOWN_DESTROYED, "curse": None})
            continue
        left.remove(shows)
        town.status, town.curse, town.stack = CURSED, shows, data.deck(shows)
        yield Step(StepKind.REVEAL, rulebook.REVEAL,
                   "{town} is cursed: the {curse} deck goes on its market stack, Level I cards "
                   "on top, then Level II, then Level III.{put}",
                   {**facts, "status": CURSED, "curse": shows, "stack": list(town.stack)},
                   {"town": name, "curse": data.said_curse(shows), "put": put})
    yield Step(StepKind.INSTRUCTION, rulebook.REVEAL,
               "No items are laid out on the market stacks: no town is available yet. Heroes "
               "heal, buy and sell through the trading pool.", {})
    state.phase = QUEST_COUNTERS
    yield Step(StepKind.INSTRUCTION, rulebook.QUEST_COUNTERS,
               "Each player takes an undefeated encounter token: their quest counter, and the "
               "undefeated encounter space that becomes their quest space.", {})


# --------------------------------------------------------------------------- steps 5 and 6


def _without_counter(state: RuneboundState) -> list[str]:
    if state.phase != QUEST_COUNTERS:
        return []
    return [h for h in state.players if state.heroes[h].quest_counter is None]


def _free_tokens(state: RuneboundState) -> list[str]:
    """The tokens no player holds; once every one is held (more players than the data's
    tokens), any: a colour is then shared (Overseer's ruling)."""
    taken = {h.quest_counter for h in state.heroes.values()}
    return [t for t in state.data.tokens if t not in taken] or list(state.data.tokens)


@dataclass(frozen=True, slots=True)
class QuestCounter:
    """``{"do": "quest_counter", "hero": id, "token": id}``: Setup, step 5."""

    hero: str = param(options=_without_counter, prompt="Who takes a quest counter?")
    token: str = param(options=_free_tokens, prompt="Which encounter token?")


def quest_counter(state: RuneboundState, params: QuestCounter) -> Procedure:
    if params.hero not in state.heroes:
        raise RulesError(f"there is no hero {params.hero!r} (heroes: {', '.join(state.heroes)})")
    hero = state.heroes[params.hero]
    if hero.quest_counter is not None:
        raise RulesError(f"{hero.name} already has a quest counter ({hero.quest_counter})")
    if params.token not in state.data.tokens:
        raise RulesError(f"there is no encounter token {params.token!r} "
                         f"(tokens: {', '.join(state.data.tokens)})")
    owner = next((h for h in state.heroes.values() if h.quest_counter == params.token), None)
    if owner is not None and any(t not in {h.quest_counter for h in state.heroes.values()}
                                 for t in state.data.tokens):
        raise RulesError(f"{owner.name} already has the {params.token} token: each player's "
                         "quest space is their own while a token is free (Overseer's ruling)")
    hero.quest_counter = params.token
    token = state.data.tokens[params.token]
    shared = "" if owner is None else (
        f" They share the colour with {owner.name}: every token is taken (Overseer's ruling; "
        "the book does not say how many tokens there are).")
    yield Step(StepKind.QUEST_COUNTER, rulebook.QUEST_COUNTERS,
               f"{hero.name} takes the {token.name} as quest counter; the matching undefeated "
               f"encounter space is their quest space.{shared}",
               {"hero": hero.id, "token": token.id,
                "verified": token.verified and owner is None,
                **({"shared_with": owner.id} if owner is not None else {})})
    if _without_counter(state):
        return
    yield Step(StepKind.INSTRUCTION, rulebook.RED_CARDS, "Return the red cards to the box.", {})
    yield Step(StepKind.INSTRUCTION, rulebook.ADVENTURE,
               "Red adventure jewels are not adventures in this game, but may be quest goals.",
               {})
    state.phase = PLAY
    yield from begin_turn(state, state.players[0])


def phase_is(state: RuneboundState, phase: str) -> bool:
    return state.phase == phase and state.over is None

