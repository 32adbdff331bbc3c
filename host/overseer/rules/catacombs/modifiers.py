"""Damage dealt to the Heroic Forces and the shot modifiers that ride on it: poison, capture
coin, stun, death card (Red Box: New Capture Coin Modifier; Ice Box: Death Cards)."""

from __future__ import annotations

from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.state import Battle, Hero, Shot
from overseer.rules.procedure import DrawToken, EnterNumber, Pick, Procedure, Step, Token


def wound(battle: Battle, hero: Hero, amount: int, rule: str, why: str) -> Procedure:
    """Take ``amount`` health from a hero (never below zero) and say so."""
    if amount <= 0:
        return
    before = hero.health
    hero.health = max(0, hero.health - amount)
    yield Step("damage", rule, f"{hero.name} loses {before - hero.health} health ({why}): "
               f"{hero.health} left", {"target": hero.id, "amount": before - hero.health,
                                       "health": hero.health})
    if not hero.alive:
        yield Step("hero_down", rule, f"{hero.name} is destroyed", {"hero": hero.id})


def poison_left(battle: Battle) -> list[int]:
    """The Poison deck the gadget draws from: the game's cards (``battle.poison_deck``) less
    the cards the heroes hold. A card a hero gives up is back in the deck at once."""
    left = list(battle.poison_deck)
    for hero in battle.heroes.values():
        for value in hero.poison:
            if value in left:
                left.remove(value)
    return left


def draw_poison(battle: Battle, hero: Hero, why: str) -> Procedure:
    """The hero takes one poison card; its value counts toward 'most poison'."""
    # Poison card values are not printed: the table's own card, or the unverified data deck.
    if battle.options.physical_poison or not battle.poison_deck:
        value = yield EnterNumber(f"{hero.name} draws a poison card: enter its value",
                                  "poison_value", 0, 20)
        verified = True
    else:
        left = poison_left(battle)
        if not left:
            # The book does not say what happens when the deck runs out.
            yield Step("poison_deck_empty", rulebook.PERFORM,
                       f"{hero.name} would take a poison card ({why}), but the heroes hold "
                       "every card of the Poison deck: none is drawn (Overseer's ruling)",
                       {"hero": hero.id, "verified": False})
            return
        token = yield DrawToken("poison card", f"poison for {hero.name}",
                                tuple(Token(v) for v in left))
        value = token.value
        verified = bool(battle.tables and battle.tables.poison_verified)
    hero.poison.append(value)
    yield Step("poison", rulebook.PERFORM, f"{hero.name} takes a poison card of value {value} "
               f"({why}){'' if verified else ' (unverified card values)'}",
               {"hero": hero.id, "value": value, "verified": verified})


def apply_modifiers(battle: Battle, hero: Hero, shot: Shot) -> Procedure:
    """The modifiers of a shot that inflicted damage on ``hero``."""
    mods = shot.modifiers
    if "poison" in mods and hero.alive:
        yield from draw_poison(battle, hero, "poison modifier")
    if "capture_coin" in mods:
        # Red Box: New Capture Coin Modifier: one coin back to the Treasury, if any.
        if hero.gold > 0:
            hero.gold -= 1
            yield Step("capture_coin", rulebook.CAPTURE_COIN,
                       f"{hero.name} returns a coin to the Treasury: {hero.gold} gold left",
                       {"hero": hero.id, "gold": hero.gold})
        else:
            yield Step("capture_coin", rulebook.CAPTURE_COIN,
                       f"{hero.name} has no gold: the capture coin has no effect",
                       {"hero": hero.id, "gold": 0})
    if "stun" in mods and hero.alive:
        hero.stunned = True
        yield Step("stunned", rulebook.PERFORM, f"{hero.name} is stunned", {"hero": hero.id})
    if "death_card" in mods:
        yield from death_card(battle, hero)


def death_card(battle: Battle, hero: Hero) -> Procedure:
    """Ice Box: Death Cards: draw one of the six, apply it, shuffle it back."""
    cards = {c["id"]: c for c in battle.tables.death_cards}
    card_id = yield Pick("Death card deck", f"death card for {hero.name}", tuple(cards))
    card = cards[card_id]
    yield Step("death_card", rulebook.DEATH, f"{hero.name} draws {card['name']}",
               {"hero": hero.id, "card": card_id, "effect": card["effect"]})
    effect, amount = card["effect"], card["amount"]
    if effect == "dies":
        yield from wound(battle, hero, hero.health, rulebook.DEATH, card["name"])
    elif effect == "poison":
        for _ in range(amount):
            yield from draw_poison(battle, hero, card["name"])
    elif effect == "lose_health":
        yield from wound(battle, hero, amount, rulebook.DEATH, card["name"])
    elif effect == "gain_health":
        hero.health += amount
        yield Step("heal", rulebook.DEATH, f"{hero.name} gains {amount} health: {hero.health}",
                   {"hero": hero.id, "amount": amount, "health": hero.health})
    elif effect == "reckless":
        hero.reckless = True
        yield Step("reckless", rulebook.DEATH, f"{hero.name} becomes reckless", {"hero": hero.id})
    elif effect == "stunned":
        hero.stunned = True
        yield Step("stunned", rulebook.DEATH, f"{hero.name} is stunned", {"hero": hero.id})
        yield from wound(battle, hero, amount, rulebook.DEATH, card["name"])
