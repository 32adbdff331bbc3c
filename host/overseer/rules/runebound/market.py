"""The Market step (Cataclysm: Gameplay, Step 4 - Market): only in a freed town, with a
discount of one gold per Curse card of that town the hero has claimed, on the total spent."""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.params import param
from overseer.core.procedure import EnterNumber, Procedure, RulesError, Step
from overseer.rules.runebound import rulebook
from overseer.rules.runebound.kinds import Key, StepKind
from overseer.rules.runebound.state import FREED, MARKET, RuneboundState
from overseer.rules.runebound.turns import check_turn, current, in_play

MAX_SPENT = 99


def discount(state: RuneboundState, hero: str, town: str) -> int:
    """One gold per Curse card of ``town``'s curse that ``hero`` has claimed."""
    curse = state.towns[town].curse
    return 0 if curse is None else len(state.claimed_of(hero, curse))


def market_step(state: RuneboundState, hero: str, immediate: bool = False) -> Procedure:
    """The hero's Market step in the freed town they stand in; the price after the discount."""
    turn = state.turn
    assert turn is not None
    town = state.heroes[hero].town
    assert town is not None
    turn.step, turn.marketed = MARKET, True
    name, town_name = state.heroes[hero].name, state.data.towns[town].name
    off = discount(state, hero, town)
    spent = yield EnterNumber(prompt=f"{name} in {town_name}'s market: the total price of the "
                                     "healing and market cards bought, before the discount?",
                              key=Key.SPENT, low=0, high=MAX_SPENT)
    pay = max(0, spent - off)  # Overseer's ruling: a discount never pays the hero
    rule = rulebook.LEVEL_III if immediate else rulebook.MARKET
    when = "immediate Market step (for freeing it)" if immediate else "Market step"
    yield Step(StepKind.MARKET, rule,
               f"{name}'s {when} in {town_name}: {spent} gold of purchases, less {off} for the "
               f"{off} Curse card(s) of {town_name} claimed: pay {pay} gold"
               f"{' (never below 0: Overseer ruling)' if spent < off else ''}.",
               {"hero": hero, "town": town, "spent": spent, "discount": off, "pay": pay,
                "immediate": immediate})


def market_problem(state: RuneboundState) -> str | None:
    """Why the hero whose turn it is cannot take a Market step now (None: they can)."""
    if not in_play(state) or state.turn is None:
        return f"the game is not in play (phase: {state.phase})"
    hero = state.heroes[state.turn.hero]
    if state.turn.marketed:
        return f"{hero.name} has had the Market step this turn"
    if hero.town is None or state.towns[hero.town].status != FREED:
        where = state.place_name(hero)
        return (f"{hero.name} is not in a freed town ({where}): Market steps may only be "
                "entered in a town freed of the curse")
    return None


@dataclass(frozen=True, slots=True)
class Market:
    """``{"do": "market", "hero": id}``: the Market step in a freed town."""

    hero: str = param(options=current, prompt="Who enters the market?")


def market(state: RuneboundState, params: Market) -> Procedure:
    check_turn(state, params.hero)
    problem = market_problem(state)
    if problem:
        raise RulesError(problem)
    yield from market_step(state, params.hero)
