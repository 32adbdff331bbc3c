"""Curse cards (Cataclysm: Curse Cards): the Level I draw, the Level II quests, the Level III
card that frees a town.

Per hero and deck: one Level I card at most, one Level II card at most, and the Level III card
only with a Level I or II card of that deck claimed. A claimed card gives its level in
experience, gold and victory points, and the victory check runs after every claim. The cards'
challenges and quests are the physical cards': the table says whether the hero succeeded.
"""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.params import param
from overseer.core.procedure import (
    Fact,
    Pick,
    Procedure,
    RulesError,
    Said,
    Step,
    YesNo,
    refused,
    words,
)
from overseer.rules.runebound import rulebook, victory
from overseer.rules.runebound.components import ROMAN
from overseer.rules.runebound.kinds import Key, StepKind
from overseer.rules.runebound.market import market_step
from overseer.rules.runebound.state import (
    ADVENTURE,
    CURSED,
    FREED,
    MARKET,
    Hero,
    RuneboundState,
    TownState,
)
from overseer.rules.runebound.turns import check_turn, current, in_play

LEVEL_RULE = {1: rulebook.LEVEL_I, 2: rulebook.LEVEL_II, 3: rulebook.LEVEL_III}


def _level(state: RuneboundState, cards: list[str], level: int) -> list[str]:
    return [c for c in cards if state.data.cards[c].level == level]


def claim(state: RuneboundState, hero: str, card: str) -> Procedure:
    """The hero adds the card to their victory pile: its level in XP, gold and points."""
    record = state.data.cards[card]
    h = state.heroes[hero]
    h.claimed.append(card)
    h.xp += record.level
    h.gold += record.level
    extra = (" Its back gives an ability to activate, as a Dragon Rune does."
             if record.level == 3 else " Its back gives an ability.")
    yield Step(StepKind.CLAIM, LEVEL_RULE[record.level],
               f"{{hero}} claims {{card}}: +{record.level} XP, +{record.level} gold, "
               f"{record.level} victory point(s); now {state.points(hero)} points.{extra}",
               {"hero": hero, "card": card, "curse": record.curse, "level": record.level,
                "xp": record.level, "gold": record.level, "points": state.points(hero),
                "verified": record.verified},
               {"hero": h.name, "card": state.data.said_card(card)})


def _draw(state: RuneboundState, town: str, level: int, purpose: str, key: Key) -> Procedure:
    """A random card of ``level`` from the town's stack (the last one without asking)."""
    cards = _level(state, state.towns[town].stack, level)
    curse = state.data.curses[state.towns[town].curse or ""]
    if len(cards) == 1:
        return cards[0]
    pool = f"{{curse}} Level {ROMAN[level]} cards"
    facts = {"curse": state.data.said_curse(curse.id)}
    return (yield Pick(pool=words(pool, facts), options=tuple(cards), purpose=purpose, key=key,
                       said={"pool": pool}, facts=facts))


# --------------------------------------------------------------------------- the attempts


def _attempt_problem(state: RuneboundState) -> str | None:
    """Why the hero whose turn it is cannot attempt a Curse card of their town now."""
    if not in_play(state) or state.turn is None:
        return f"the game is not in play (phase: {state.phase})"
    turn, hero = state.turn, state.heroes[state.turn.hero]
    if turn.attempted:
        return f"{hero.name} has attempted a Curse card this Adventure step already"
    if turn.step == MARKET:
        return f"{hero.name}'s Adventure step is over"
    if hero.town is None or state.towns[hero.town].status != CURSED:
        return (f"{hero.name} is not in a cursed town ({state.place_name(hero)}): only a hero "
                "in a cursed town attempts its Curse cards")
    return None


def _attempt(state: RuneboundState) -> tuple[Hero, TownState, Fact]:
    """The hero whose turn it is, their cursed town and its Curse deck's title (after
    ``_attempt_problem`` found nothing in the way)."""
    assert state.turn is not None
    hero = state.heroes[state.turn.hero]
    assert hero.town is not None
    town = state.towns[hero.town]
    assert town.curse is not None
    return hero, town, state.data.said_curse(town.curse)


def level_one_problem(state: RuneboundState) -> str | None:
    problem = _attempt_problem(state)
    if problem:
        return problem
    hero, town, title = _attempt(state)
    assert town.curse is not None
    had = state.claimed_of(hero.id, town.curse, 1)
    if had:
        return Said("{hero} already has a Level I card of the {curse} ({card}): a hero claims "
                    "only one Level I card from each Curse deck",
                    {"hero": hero.name, "curse": title, "card": had[0]})
    if not _level(state, town.stack, 1):
        return Said("no Level I card of the {curse} is left", {"curse": title})
    return None


def level_three_problem(state: RuneboundState) -> str | None:
    problem = _attempt_problem(state)
    if problem:
        return problem
    hero, town, title = _attempt(state)
    assert town.curse is not None
    if not (state.claimed_of(hero.id, town.curse, 1) or state.claimed_of(hero.id, town.curse, 2)):
        return Said("{hero} has no Level I or II card of the {curse} claimed: only such a hero "
                    "may face its Level III card", {"hero": hero.name, "curse": title})
    return None


@dataclass(frozen=True, slots=True)
class Attempt:
    """``{"do": "level_one" | "level_three", "hero": id}``: the Curse card of the hero's
    town, at the Adventure step."""

    hero: str = param(options=current, prompt="Who attempts the Curse card?")


def _begin_attempt(state: RuneboundState, hero: str, problem: str | None) -> None:
    turn = check_turn(state, hero)
    if problem:
        raise refused(problem)
    turn.step, turn.attempted = ADVENTURE, True


def level_one(state: RuneboundState, params: Attempt) -> Procedure:
    """Cataclysm: Curse Cards, Level I."""
    _begin_attempt(state, params.hero, level_one_problem(state))
    hero = state.heroes[params.hero]
    assert hero.town is not None
    town = state.towns[hero.town]
    card = yield from _draw(state, town.id, 1, f"{hero.name} draws a Level I card", Key.CURSE_CARD)
    facts = {"hero": hero.name, "card": state.data.said_card(card)}
    yield Step(StepKind.CURSE_DRAW, rulebook.LEVEL_I,
               "{hero} draws {card} at random and faces its challenge or tests.",
               {"hero": hero.id, "card": card, "town": town.id, "level": 1}, facts)
    prompt = "Does {hero} pass the challenge or tests of {card}?"
    won = yield YesNo(prompt=words(prompt, facts), key=Key.CHALLENGE, said={"prompt": prompt},
                      facts=facts)
    if not won:
        yield Step(StepKind.CURSE_FAILED, rulebook.LEVEL_I,
                   f"{hero.name} fails: the Adventure step is over. The card goes back among "
                   "the Level I cards of the stack (Overseer's ruling).",
                   {"hero": hero.id, "card": card, "level": 1})
        return
    town.stack.remove(card)
    yield from claim(state, hero.id, card)
    yield from victory.check(state, hero.id)
    yield from _reveal_quest(state, town.id, hero.name)


def _reveal_quest(state: RuneboundState, town_id: str, by: str) -> Procedure:
    """Cataclysm: Curse Cards, Level II - after a Level I claim, a random Level II card (a
    quest) is revealed face up beside the market stack."""
    town = state.towns[town_id]
    name = state.data.towns[town_id].name
    if not _level(state, town.stack, 2):
        yield Step(StepKind.QUEST_REVEALED, rulebook.LEVEL_II,
                   f"No Level II card is left in {name}'s stack to reveal.",
                   {"town": town_id, "card": None})
        return
    card = yield from _draw(state, town_id, 2, f"{by} reveals a Level II quest", Key.QUEST)
    town.stack.remove(card)
    town.quests.append(card)
    yield Step(StepKind.QUEST_REVEALED, rulebook.LEVEL_II,
               "{by} draws {card} at random: the quest is placed face up beside {town}'s market "
               "stack; any hero may attempt it.",
               {"town": town_id, "card": card},
               {"by": by, "card": state.data.said_card(card), "town": name})


def level_three(state: RuneboundState, params: Attempt) -> Procedure:
    """Cataclysm: Curse Cards, Level III."""
    _begin_attempt(state, params.hero, level_three_problem(state))
    hero = state.heroes[params.hero]
    assert hero.town is not None
    town = state.towns[hero.town]
    card = _level(state, town.stack, 3)[0]
    facts = {"hero": hero.name, "card": state.data.said_card(card),
             "town": state.data.towns[town.id].name}
    yield Step(StepKind.CURSE_DRAW, rulebook.LEVEL_III,
               "{hero} faces {card}, the source of {town}'s curse.",
               {"hero": hero.id, "card": card, "town": town.id, "level": 3}, facts)
    prompt = "Does {hero} defeat {card}?"
    won = yield YesNo(prompt=words(prompt, facts), key=Key.DEFEATED, said={"prompt": prompt},
                      facts=facts)
    if not won:
        yield Step(StepKind.CURSE_FAILED, rulebook.LEVEL_III,
                   f"{hero.name} does not defeat it: the Adventure step is over and the card "
                   "stays at the bottom of the stack (Overseer's ruling).",
                   {"hero": hero.id, "card": card, "level": 3})
        return
    town.stack.remove(card)
    yield from claim(state, hero.id, card)
    yield from free(state, town.id, hero.id)
    yield from victory.check(state, hero.id)
    yield from victory.nothing_left(state)
    yield from market_step(state, hero.id, immediate=True)


def free(state: RuneboundState, town_id: str, hero: str) -> Procedure:
    """The town is freed: Market steps may be entered there; its unclaimed Curse cards (the
    stack and any revealed quest) go back to the box."""
    town = state.towns[town_id]
    town.status, town.freed_by = FREED, hero
    state.heroes[hero].freed.append(town_id)
    name = state.data.towns[town_id].name
    yield Step(StepKind.TOWN_FREED, rulebook.LEVEL_III,
               f"{name} is freed by {state.heroes[hero].name}: Market steps may be entered "
               "there now.", {"town": town_id, "hero": hero})
    returned = [*town.stack, *town.quests]
    quests = f", {len(town.quests)} of them revealed quests" if town.quests else ""
    town.stack, town.quests = [], []
    state.returned.extend(returned)
    yield Step(StepKind.CARDS_RETURNED, rulebook.LEVEL_III,
               f"{len(returned)} unclaimed Curse card(s) of {name} go back to the box"
               f"{quests}.", {"town": town_id, "cards": returned})


# --------------------------------------------------------------------------- the quests


def claimable_quests(state: RuneboundState) -> list[str]:
    """The revealed quests the hero whose turn it is may claim: none from a deck they already
    hold a Level II card of."""
    hero = state.current()
    if hero is None or not in_play(state):
        return []
    return [q for t in state.towns.values() for q in t.quests
            if not state.claimed_of(hero, state.data.cards[q].curse, 2)]


def _one_level_two(state: RuneboundState, hero: str, curse: str) -> str | None:
    had = state.claimed_of(hero, curse, 2)
    if not had:
        return None
    return Said("{hero} already has a Level II card of the {curse} ({card}): a hero claims "
                "only one Level II card from each Curse deck",
                {"hero": state.heroes[hero].name, "curse": state.data.said_curse(curse),
                 "card": had[0]})


def quest_problem(state: RuneboundState) -> str | None:
    """Why the hero whose turn it is cannot claim a quest now (None: some quest is open)."""
    hero = state.current()
    if hero is None or not in_play(state):
        return f"the game is not in play (phase: {state.phase})"
    shown = [q for t in state.towns.values() for q in t.quests]
    if not shown:
        return "no quest is revealed"
    if claimable_quests(state):
        return None
    return _one_level_two(state, hero, state.data.cards[shown[0]].curse)


@dataclass(frozen=True, slots=True)
class ClaimQuest:
    """``{"do": "claim_quest", "hero": id, "quest": card id}``: the hero fulfilled a revealed
    quest's requirements (the card's, judged by the table) and claims it."""

    hero: str = param(options=current, prompt="Who claims a quest?")
    quest: str = param(options=claimable_quests, prompt="Which quest?")


def claim_quest(state: RuneboundState, params: ClaimQuest) -> Procedure:
    """Cataclysm: Curse Cards, Level II."""
    check_turn(state, params.hero)
    hero = state.heroes[params.hero]
    town = next((t for t in state.towns.values() if params.quest in t.quests), None)
    if town is None:
        shown = [q for t in state.towns.values() for q in t.quests]
        raise RulesError(f"{params.quest!r} is not a revealed quest (revealed: "
                         f"{', '.join(shown) or 'none'})")
    problem = _one_level_two(state, hero.id, state.data.cards[params.quest].curse)
    if problem:
        raise RulesError(problem)
    town.quests.remove(params.quest)
    yield from claim(state, hero.id, params.quest)
    yield from victory.check(state, hero.id)
