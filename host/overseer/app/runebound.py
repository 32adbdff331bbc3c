"""Runebound: The Cataclysm at the table: what the shell (app/shell.py) needs beyond the rules to
keep a game's books on the five buttons.

- ``wizard``: how many heroes, who deals the cataclysm counters and who rolls the trading dice
  (the table's own components, or the data's placeholders: the questions say which is a
  guess); the start action (the Curse decks, the deal) begins at once;
- the menu: the setup's placements and quest counters, then each turn's steps; a hero is
  placed in a town chosen from every town and travels to any town, so that a town with a
  figure or a destroyed one gets its reason on the glass; the Curse card attempts are on the
  menu whenever the hero stands in a cursed town, the rules saying why one is refused;
- labels: short names for the lists, a name the book does not print marked "!" (the towns
  beyond Tamalir, Vynelvale and Riverwatch, every terrain, the encounter tokens);
- the glass between actions: whose turn and step, where, victory points; the heroes' and
  towns' pages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from overseer.app.flow import NewGame, Table, party_screens
from overseer.app.local import Ask, LocalProcedure
from overseer.core.procedure import ChooseOne, EnterNumber, Question
from overseer.loaders import runebound as runebound_data
from overseer.rules.runebound import movement, scenario
from overseer.rules.runebound.components import DESTROYED, ROMAN
from overseer.rules.runebound.setup import MAX_PLAYERS
from overseer.rules.runebound.state import (
    CURSED,
    FREED,
    PLACEMENT,
    PLAY,
    QUEST_COUNTERS,
    SETUP,
    RuneboundState,
)
from overseer.screens.render import Screen

GAME = "runebound"
UNPRINTED = "!"  # after a name in a list: the book does not print it (a placeholder)

SHORT = {
    "start": "Start",
    "place": "Place a hero",
    "quest_counter": "Quest counter",
    "travel": "Travel",
    "trade": "Trading pool",
    "level_one": "Level I card",
    "level_three": "Level III card",
    "claim_quest": "Claim a quest",
    "market": "Market step",
    "end_turn": "End the turn",
    "knockout": "Knocked out",
    "correct": "Correct books",
}
ORDER = ("start", "place", "quest_counter", "travel", "trade", "level_one", "claim_quest",
         "level_three", "market", "end_turn", "knockout", "correct")
ATTEMPTS = ("level_one", "level_three")
ANSWERS = {movement.MARKET_DRAW: "Market draw", movement.HEALING: "Healing",
           movement.PASS: "Pass", DESTROYED: "Comet: destroyed"}
# The moves' questions whose prompt is too long for the title bar, by move and field.
PROMPTS = {"quest_counter": {"hero": "Who takes a counter?"},
           "trade": {"trading": "Trading pool dice?", "travel": "Travel pool dice?"}}
STEP_NAMES = {"movement": "Movement", "adventure": "Adventure", "market": "Market"}


# --------------------------------------------------------------------------- names


def _marked(name: str, printed: bool) -> str:
    return name if printed else name + UNPRINTED


def curse_label(state: RuneboundState, curse: str) -> str:
    record = state.data.curses[curse]
    return record.name or f"Curse {curse.rpartition('-')[2]}{UNPRINTED}"


def card_label(state: RuneboundState, card: str) -> str:
    """A Curse card in a few characters: its name, else its curse and level."""
    record = state.data.cards[card]
    if record.name:
        return _marked(record.name, record.verified)
    return f"{curse_label(state, record.curse)} {ROMAN[record.level]}"


def town_label(state: RuneboundState, town: str) -> str:
    record = state.data.towns[town]
    return _marked(record.name, record.name_printed)


def labels(state: RuneboundState) -> dict[str, str]:
    """Display names by id, for lists and pages: heroes, towns, terrain, curses, cards,
    tokens, the answers of the rules' questions; a name the book does not print marked
    "!"."""
    data = state.data
    names = scenario.names(state)
    names.update((t, town_label(state, t)) for t in data.towns)
    names.update((t.id, _marked(t.name, t.verified)) for t in data.terrain.values())
    names.update((c, curse_label(state, c)) for c in data.curses)
    names.update((c, card_label(state, c)) for c in data.cards)
    names.update((t.id, _marked(t.name.removesuffix(" encounter token") + " token",
                                t.verified)) for t in data.tokens.values())
    names.update(ANSWERS)
    return names


def default_seats(state: RuneboundState, seats: tuple[int, ...]) -> dict[str, int]:
    """Each hero at a seat of their own, in seat order."""
    return dict(zip(state.players, seats, strict=False))


def lights(state: RuneboundState, seats: Mapping[str, int],
           question: Question | None) -> dict[int, str]:
    """The seat of the hero whose turn it is, on."""
    hero = state.current()
    return {seats[hero]: "on"} if hero is not None and hero in seats else {}


# --------------------------------------------------------------------------- new game


COUNTERS = {"gadget": "The gadget", "table": "We deal them"}
TRADING = {"table": "Our own dice", "gadget": "The gadget's!"}
COUNTERS_PROMPT = ("Who deals the cataclysm counters? The gadget deals them hidden, at random; "
                   "how many of each the box holds is not printed (Overseer's guess, marked "
                   "!). Or deal your own and enter each at the reveal.")
TRADING_PROMPT = ("Who rolls the trading dice? Your own dice (enter how many match); or the "
                  "gadget's, whose faces are not printed (Overseer's guess, marked !).")


def hero_ids(count: int) -> list[str]:
    return [f"hero-{n}" for n in range(1, count + 1)]


def wizard(seats: tuple[int, ...], pico: bool) -> LocalProcedure:
    """How many heroes (each at the next seat), who deals the counters, who rolls the trading
    dice; the start action then lays out the decks and deals."""
    tokens = len(runebound_data.default().tokens)
    most = min(MAX_PLAYERS, tokens, len(seats) if seats else MAX_PLAYERS)
    count = yield Ask(EnterNumber("How many heroes?", "new_heroes", 1, most), start=2)
    counters = yield Ask(ChooseOne(COUNTERS_PROMPT, tuple(COUNTERS), "new_counters"),
                         names=COUNTERS)
    trading = yield Ask(ChooseOne(TRADING_PROMPT, tuple(TRADING), "new_trading_dice"),
                        names=TRADING)
    heroes = hero_ids(count)
    setup = {"players": heroes, "names": {h: f"Hero {n}" for n, h in enumerate(heroes, 1)},
             "counters": counters, "trading_dice": trading}
    return NewGame({"format": 2, "game": GAME, "setup": setup}, "seeded", ({"do": "start"},),
                   dict(zip(heroes, seats, strict=False)))


# --------------------------------------------------------------------------- forms


def _town_rows(state: RuneboundState, names: Mapping[str, str]) -> dict[str, str]:
    """Every town with what stands in the way: a figure, a comet."""
    rows = {}
    for town in state.towns.values():
        label = names.get(town.id, town.id)
        figures = [state.heroes[h].name for h in state.figures(town.id)]
        if town.status == DESTROYED:
            label += " (comet)"
        elif figures:
            label += f" ({', '.join(figures)})"
        rows[town.id] = label
    return rows


def place_form(state: RuneboundState, names: Mapping[str, str]) -> LocalProcedure:
    """The hero who places next, and a town from every town (one with a figure is refused by
    the rules, with its reason)."""
    hero = state.next_to_place()
    rows = _town_rows(state, names)
    town = yield Ask(ChooseOne(f"{state.heroes[hero].name if hero else 'Hero'}: which town?",
                               tuple(rows), "form_town"), names=rows)
    return {"do": "place", "hero": hero, "town": town}


WHERE = {"town": "A town", "terrain": "A space"}


def travel_form(state: RuneboundState, names: Mapping[str, str]) -> LocalProcedure:
    """A town (every one: a destroyed town is refused by the rules) or a space's terrain."""
    where = yield Ask(ChooseOne("Where to?", tuple(WHERE), "form_where"), names=WHERE)
    if where == "town":
        rows = _town_rows(state, names)
        to = yield Ask(ChooseOne("Which town?", tuple(rows), "form_town"), names=rows)
    else:
        to = yield Ask(ChooseOne("Which terrain?", tuple(state.data.terrain), "form_terrain"),
                       names=names)
    return {"do": "travel", "hero": state.current(), "to": to}


FORMS: dict[str, Callable[[RuneboundState, Mapping[str, str]], LocalProcedure]] = {
    "place": place_form,
    "travel": travel_form,
}


# --------------------------------------------------------------------------- the glass


def _in_cursed_town(state: RuneboundState) -> bool:
    hero = state.current()
    if hero is None or state.phase != PLAY:
        return False
    town = state.heroes[hero].town
    return town is not None and state.towns[town].status == CURSED


def shown_refused(state: RuneboundState) -> tuple[str, ...]:
    """The Curse card attempts whenever the hero stands in a cursed town, so that a refused
    one says why."""
    return ATTEMPTS if _in_cursed_town(state) else ()


def idle_key(state: RuneboundState, last: str | None) -> str:
    if state.over is not None:
        return "Game over"
    hero = state.current()
    if state.phase == PLAY and hero is not None:
        return f"{state.heroes[hero].name}'s turn"
    return {SETUP: "Set up", PLACEMENT: "Place heroes",
            QUEST_COUNTERS: "Quest counters"}.get(state.phase, state.phase)


def _points(state: RuneboundState, hero: str) -> str:
    return f"VP {state.points(hero)} of {state.threshold()}"


def status(state: RuneboundState, names: Mapping[str, str]) -> tuple[str, ...]:
    if state.over is not None:
        winner = state.over.winner
        points = ", ".join(f"{state.heroes[h].name} {p}" for h, p in state.over.points.items())
        head = f"{state.heroes[winner].name} wins" if winner else "Nobody wins"
        return head, f"VP: {points}"
    if state.phase == PLACEMENT:
        hero = state.next_to_place()
        return (f"Next: {state.heroes[hero].name}" if hero else "All placed",
                "From the last player to the first")
    if state.phase == QUEST_COUNTERS:
        left = [state.heroes[h].name for h in state.players
                if state.heroes[h].quest_counter is None]
        return (f"Still to take one: {', '.join(left)}",)
    hero = state.current()
    if hero is None or state.turn is None:
        return ("The start's steps come first",)
    h = state.heroes[hero]
    where = names.get(h.town, h.town) if h.town else names.get(h.terrain or "", "a space")
    return (f"Turn {state.turn.number}: {STEP_NAMES.get(state.turn.step, state.turn.step)}",
            f"{h.name} in {where}", f"{_points(state, hero)}, freed {len(h.freed)}")


def _hero_lines(state: RuneboundState, hero: str, names: Mapping[str, str]) -> list[str]:
    h = state.heroes[hero]
    where = names.get(h.town, h.town) if h.town else (
        names.get(h.terrain, h.terrain) if h.terrain else "not placed")
    claimed = ", ".join(names.get(c, c) for c in h.claimed) or "none"
    freed = ", ".join(names.get(t, t) for t in h.freed) or "none"
    token = names.get(h.quest_counter, h.quest_counter) if h.quest_counter else "none yet"
    return [f"In {where}", f"{_points(state, hero)}, freed {len(h.freed)}",
            f"Claimed: {claimed}", f"Freed: {freed}",
            f"From Curse cards: +{h.xp} XP, +{h.gold} gold", f"Quest counter: {token}"]


def _town_line(state: RuneboundState, town: str, names: Mapping[str, str]) -> str:
    t = state.towns[town]
    label = names.get(town, town)
    if t.status == CURSED and t.curse is not None:
        stack = " ".join(ROMAN[state.data.cards[c].level] for c in t.stack) or "empty"
        quests = f"; quest {len(t.quests)}" if t.quests else ""
        return f"{label}: {curse_label(state, t.curse)}, {stack}{quests}"
    if t.status == FREED:
        return f"{label} freed: {state.heroes[t.freed_by].name if t.freed_by else '?'}"
    if t.status == DESTROYED:
        return f"{label}: comet"
    return f"{label}: counter face down"


def party_pages(state: RuneboundState, names: Mapping[str, str], heading: str
                ) -> tuple[Screen, ...]:
    """A page (or two) a hero; then the towns, each with its curse deck's levels left."""
    heading = "Heroes" if heading == "Party" else heading
    towns = [_town_line(state, t, names) for t in state.towns]
    return party_screens([*((heading, state.heroes[h].name, _hero_lines(state, h, names))
                            for h in state.players),
                          ("Towns", "", [*towns, f"{UNPRINTED}: a placeholder, not printed; "
                                         "your board decides"])])


class RuneboundTable(Table):
    """Runebound at the table (no Runebound card is tagged: a tap begins nothing)."""

    game, label, party_label = GAME, "Runebound", "Heroes"
    order, short, prompts, forms = ORDER, SHORT, PROMPTS, FORMS

    def wizard(self, seats: tuple[int, ...], pico: bool) -> LocalProcedure:
        return wizard(seats, pico)

    def labels(self, state: RuneboundState) -> dict[str, str]:
        return labels(state)

    def default_seats(self, state: RuneboundState, seats: tuple[int, ...]) -> dict[str, int]:
        return default_seats(state, seats)

    def shown_refused(self, state: RuneboundState) -> tuple[str, ...]:
        return shown_refused(state)

    def idle_key(self, state: RuneboundState, last: str | None) -> str:
        return idle_key(state, last)

    def status(self, state: RuneboundState, names: Mapping[str, str]) -> tuple[str, ...]:
        return status(state, names)

    def party_pages(self, state: RuneboundState, names: Mapping[str, str], heading: str
                    ) -> tuple[Screen, ...]:
        return party_pages(state, names, heading)

    def lights(self, state: RuneboundState, seats: Mapping[str, int],
               question: Question | None) -> dict[int, str]:
        return lights(state, seats, question)

    def back_leaves(self, action: str | None) -> bool:
        return action != "start"


TABLE = RuneboundTable()
