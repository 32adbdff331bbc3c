"""The Movement step (Cataclysm: Gameplay, Step 2 - Movement): travel, and the trading pool.

The box does not move figures: the table reports where a hero goes (a town, or a space of some
terrain), and the box refuses a destroyed town. A hero splits the movement dice into a travel
pool (rolled and used as in the base game) and a trading pool, rolled all at once at any point
of the movement: each trading die that matches the hero's terrain allows a market draw or
healing, each with selling at half price.
"""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.params import param
from overseer.core.procedure import ChooseOne, EnterNumber, Pick, Procedure, RulesError, Step
from overseer.rules.runebound import rulebook
from overseer.rules.runebound.kinds import Key, StepKind
from overseer.rules.runebound.state import DESTROYED, MOVEMENT, RuneboundState
from overseer.rules.runebound.turns import check_turn, current

MARKET_DRAW, HEALING, PASS = "market", "healing", "pass"
MAX_PRICE = 99  # the largest total a question takes


def _destinations(state: RuneboundState) -> list[str]:
    towns = [t for t in state.towns if state.towns[t].status != DESTROYED]
    return [*towns, *state.data.terrain]


def check_movement(state: RuneboundState, hero: str) -> None:
    turn = check_turn(state, hero)
    if turn.step != MOVEMENT:
        raise RulesError(f"{state.heroes[hero].name}'s Movement step is over "
                         f"(now: {turn.step})")


# --------------------------------------------------------------------------- travel


@dataclass(frozen=True, slots=True)
class Travel:
    """``{"do": "travel", "hero": id, "to": town or terrain id}``: where the figure goes."""

    hero: str = param(options=current, prompt="Who travels?")
    to: str = param(options=_destinations, prompt="To which town, or onto which terrain?")


def travel(state: RuneboundState, params: Travel) -> Procedure:
    check_movement(state, params.hero)
    data, hero = state.data, state.heroes[params.hero]
    if params.to in state.towns:
        town = state.towns[params.to]
        name = data.towns[town.id].name
        # Gameplay, Step 2: destroyed towns cannot be entered.
        if town.status == DESTROYED:
            raise RulesError(f"{name} is destroyed: it cannot be entered")
        hero.town, hero.terrain = town.id, data.towns[town.id].terrain
        terrain = data.terrain[hero.terrain].name
        text = f"{hero.name} enters {name} ({town.status}; its tile shows {terrain})."
        text = text.replace("{", "{{").replace("}", "}}")
        facts = {}
        if town.curse is not None and town.status != "freed":
            text += " Its market stack holds the {curse} deck."
            facts = {"curse": data.said_curse(town.curse)}
    elif params.to in data.terrain:
        hero.town, hero.terrain = None, params.to
        text, facts = f"{hero.name} moves onto a {data.terrain[params.to].name} space.", {}
    else:
        raise RulesError(f"{params.to!r} is neither a town nor a terrain "
                         f"(towns: {', '.join(state.towns)}; terrain: {', '.join(data.terrain)})")
    yield Step(StepKind.TRAVEL, rulebook.MOVEMENT, text,
               {"hero": hero.id, "town": hero.town, "terrain": hero.terrain,
                "verified": data.terrain[hero.terrain].verified}, facts or None)


# --------------------------------------------------------------------------- the trading pool


@dataclass(frozen=True, slots=True)
class Trade:
    """``{"do": "trade", "hero": id, "travel": n, "trading": n}``: the split of the movement
    dice, and the trading pool rolled now."""

    hero: str = param(options=current, prompt="Who rolls the trading pool?")
    trading: int = param(low=1, high=5, prompt="Dice in the trading pool?")
    travel: int = param(default=0, low=0, high=5, prompt="Dice in the travel pool?")


def _matches(state: RuneboundState, dice: int, terrain: str) -> Procedure:
    """How many of the trading dice show ``terrain``: the table's own dice (it enters the
    count) or the gadget's, one face each from the data (unverified)."""
    name = state.data.terrain[terrain].name
    if state.options.trading_dice == "table":
        matches = yield EnterNumber(prompt=f"Roll the {dice} trading dice: how many show "
                                           f"{name}?", key=Key.MATCHES, low=0, high=dice)
        return matches, {"by": "table"}
    faces = {f.id: f for f in state.data.faces}
    rolled = []
    for n in range(1, dice + 1):
        rolled.append((yield Pick(pool="movement die", options=tuple(faces),
                                  purpose=f"trading die {n} of {dice}", key=Key.TRADING_DIE)))
    matches = sum(1 for f in rolled if terrain in faces[f].terrain)
    shown = "; ".join(" + ".join(faces[f].terrain) for f in rolled)
    return matches, {"by": "gadget", "faces": rolled, "shown": shown,
                     "verified": all(faces[f].verified for f in rolled)}


def _sale(state: RuneboundState, hero: str, rule: str) -> Procedure:
    """Selling at half price, allowed after a market draw or paid healing."""
    price = yield EnterNumber(prompt=f"{state.heroes[hero].name} may sell items at half price: "
                                     "their full price in all (0: none)?",
                              key=Key.SOLD, low=0, high=MAX_PRICE)
    if price:
        # Overseer's ruling: half price is rounded down.
        yield Step(StepKind.SALE, rule,
                   f"{state.heroes[hero].name} sells items worth {price} for {price // 2} gold "
                   "(half price, rounded down: Overseer's ruling).",
                   {"hero": hero, "price": price, "gold": price // 2})


def _use_match(state: RuneboundState, hero: str, dice: int, n: int, of: int) -> Procedure:
    name = state.heroes[hero].name
    choice = yield ChooseOne(prompt=f"Match {n} of {of}: draw {dice} market cards, pay up to "
                                    f"{dice} gold for healing, or pass?",
                             options=(MARKET_DRAW, HEALING, PASS), key=Key.TRADE)
    facts = {"hero": hero, "match": n, "choice": choice, "dice": dice}
    if choice == MARKET_DRAW:
        yield Step(StepKind.TRADE, rulebook.TRADING_MARKET,
                   f"{name} draws and looks at {dice} cards from the market deck, buys any of "
                   "them and discards the rest.", facts)
        yield from _sale(state, hero, rulebook.TRADING_MARKET)
    elif choice == HEALING:
        paid = yield EnterNumber(prompt=f"Gold {name} pays for healing (at most {dice})?",
                                 key=Key.HEALING, low=0, high=dice)
        yield Step(StepKind.TRADE, rulebook.TRADING_HEALING,
                   f"{name} pays {paid} gold for healing (at most {dice}).",
                   {**facts, "paid": paid})
        if paid:
            yield from _sale(state, hero, rulebook.TRADING_HEALING)
    else:
        yield Step(StepKind.TRADE, rulebook.MOVEMENT, f"{name} lets match {n} go.", facts)


def trade(state: RuneboundState, params: Trade) -> Procedure:
    check_movement(state, params.hero)
    turn = state.turn
    assert turn is not None
    hero = state.heroes[params.hero]
    if turn.traded:
        raise RulesError(f"{hero.name} has rolled the trading pool this movement already: its "
                         "dice are rolled all at once")
    if params.trading < 1 or params.travel < 0:
        raise RulesError(f"a trading pool needs at least one die, a travel pool none or more "
                         f"(got trading {params.trading}, travel {params.travel})")
    assert hero.terrain is not None  # placed in a town before the first turn
    turn.traded = True
    dice = params.trading
    terrain = state.data.terrain[hero.terrain]
    matches, facts = yield from _matches(state, dice, hero.terrain)
    rolled = f" (the gadget rolled {facts['shown']})" if "shown" in facts else ""
    yield Step(StepKind.TRADING_POOL, rulebook.MOVEMENT,
               f"{hero.name} splits the movement dice: {params.travel} travel (rolled and used "
               f"as normal), {dice} trading; {matches} of the trading dice match "
               f"{terrain.name}{rolled}, where {hero.name} stands. Trading dice still count as "
               "movement dice for card effects and abilities.",
               {"hero": hero.id, "travel": params.travel, "trading": dice,
                "terrain": terrain.id, "matches": matches, **facts,
                # the terrain matched is a placeholder as well as the gadget's faces
                "verified": terrain.verified and facts.get("verified", True)})
    for n in range(1, matches + 1):
        yield from _use_match(state, hero.id, dice, n, matches)
