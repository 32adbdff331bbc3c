"""Damage dealt to the Heroic Forces and the shot modifiers that ride on it: poison, capture
coin, stun, reckless, death card (Red Box: New Capture Coin Modifier; Ice Box: Death Cards,
Reckless Shot Modifier), and the invulnerable mounts that pass damage to their riders (Ice Box:
Mounts)."""

from __future__ import annotations

from overseer.core.procedure import DrawToken, EnterNumber, Facts, Pick, Procedure, Step, Token
from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.state import BY_HAND_MODIFIERS, Battle, Hero, Piece, Shot

# The members the hot path reads, bound once: reading a member off an Enum class goes
# through EnumType.__getattr__ in Python 3.11, several times slower than a global.
DAMAGE = StepKind.DAMAGE


MOUNT = "mount"  # the invulnerable kind of the Heroic Forces (Ice Box: Mounts)
MOUNT_AWAY = "with_rider"  # a mount out of play with its dead rider, back with the hero
# Modifiers that act on the character the shot hurt; an invulnerable mount takes none of them.
ON_TARGET = frozenset({"poison", "capture_coin", "stun", "death_card", "reckless"})
# Of those, the ones for a character still on the playmat: a hero the shot destroyed is not
# poisoned, stunned or given a Death card (Overseer's ruling).
LIVING = frozenset({"poison", "stun", "death_card"})
# Catacombs 3E: Familiars; Allies: neither can be poisoned or stunned.
COMPANION_PROOF = {"poison": "poisoned", "stun": "stunned"}
COMPANION_RULE = {"familiar": rulebook.FAMILIARS, "ally": rulebook.ALLIES}


def rider_of(battle: Battle, mount: Hero) -> Hero | None:
    """The living character on the playmat who rides ``mount`` (``Hero.riding`` is its id)."""
    return next((h for h in battle.heroes.values() if h.riding == mount.id and h is not mount
                 and h.alive and h.away is None), None)


def bearer(battle: Battle, hero: Hero) -> Hero | None:
    """Who takes the damage of a hit on ``hero``: the character itself; for a mount, which is
    invulnerable, its rider (the damage passes through), or nobody (Ice Box: Mounts)."""
    if hero.kind != MOUNT:
        return hero
    return rider_of(battle, hero)


def wound(battle: Battle, hero: Hero, amount: int, rule: str,
          why: str | tuple[str, Facts]) -> Procedure:
    """Take ``amount`` health from the character hit (never below zero) and say so. A mount's
    damage goes to its rider and an unridden mount takes none; a rider who dies takes its mount
    out of play (Ice Box: Mounts). ``why``: words, or a template and its facts (the piece that
    hit, by its name)."""
    because, facts = why if isinstance(why, tuple) else ("{why}", {"why": why})
    if amount <= 0:
        return
    taker = bearer(battle, hero)
    if taker is None:
        yield Step(StepKind.INVULNERABLE, rulebook.MOUNTS,
                   "{hero} is invulnerable: " + because + " deals no damage",
                   {"target": hero.id, "amount": amount},
                   {"hero": hero.ref, **facts})
        return
    if taker is not hero:
        yield Step(StepKind.PASSES_TO_RIDER, rulebook.MOUNTS,
                   "{hero} is invulnerable: the damage passes to its rider, {taker}",
                   {"mount": hero.id, "rider": taker.id, "amount": amount},
                   {"hero": hero.ref, "taker": taker.ref})
    yield damage(taker, amount, rule, because, facts)
    if taker.health <= 0:  # not taker.alive
        yield from destroyed(battle, taker, rule)


def damage(taker: Hero, amount: int, rule: str, because: str, facts: Facts) -> Step:
    """``wound``'s damage on the character that takes it (``amount`` above zero), and its
    step. Made by a hit on a hero too (``shots.resolve_hit``: no procedure a hit)."""
    before = taker.health
    taker.health = max(0, taker.health - amount)
    return Step(DAMAGE, rule,
                "{taker} loses {lost} health (" + because + "): {health} left",
                {"target": taker.id, "amount": before - taker.health, "health": taker.health},
                {"taker": taker.ref, "lost": before - taker.health, "health": taker.health,
                 **facts})


def destroyed(battle: Battle, taker: Hero, rule: str) -> Procedure:
    """``wound`` destroyed ``taker``: the step, and its Mount out of play with it."""
    yield Step(StepKind.HERO_DOWN, rule,
               "{taker} is destroyed",
               {"hero": taker.id},
               {"taker": taker.ref})
    yield from remove_mount(battle, taker)


def remove_mount(battle: Battle, rider: Hero) -> Procedure:
    """Ice Box: Mounts: a rider who dies riding takes its Mount out of play; the Mount comes
    back with the hero (``mount_returns``). A wyvern is left wild (Overseer's ruling: a wyvern
    can be ridden by others)."""
    if rider.riding in battle.heroes:
        mount = battle.heroes[rider.riding]
        if mount.kind != MOUNT or mount.away is not None:
            return
        mount.away = MOUNT_AWAY
        yield Step(StepKind.MOUNT_REMOVED, rulebook.MOUNTS,
                   "{rider} died riding {mount}: remove {mount} from play; it returns with "
                   "{rider} (usually at the Setup Phase of the next room)",
                   {"mount": mount.id, "rider": rider.id},
                   {"rider": rider.ref, "mount": mount.ref})
    elif rider.riding is not None:
        wyvern, rider.riding = rider.riding, None
        if wyvern not in battle.wyverns:
            battle.wyverns.append(wyvern)
        yield Step(StepKind.WYVERN_WILD, rulebook.MOUNTS,
                   "the wyvern {wyvern} is wild again: {rider} no longer rides it (Overseer's "
                   "ruling)",
                   {"wyvern": wyvern, "rider": rider.id},
                   {"wyvern": wyvern, "rider": rider.ref})


def mount_returns(battle: Battle, rider: Hero) -> Procedure:
    """Ice Box: Mounts: the Mount removed with its dead rider returns with the hero; the hero
    is not riding it (at the start of a turn the player decides to ride)."""
    mount = battle.heroes.get(rider.riding) if rider.riding else None
    if not rider.alive or mount is None or mount.away != MOUNT_AWAY:
        return
    mount.away, rider.riding = None, None
    yield Step(StepKind.MOUNT_RETURNS, rulebook.MOUNTS,
               "{mount} returns with {rider}, unridden",
               {"mount": mount.id, "rider": rider.id},
               {"mount": mount.ref, "rider": rider.ref})


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
                                  Key.POISON_VALUE, 0, 20)
        verified = True
    else:
        left = poison_left(battle)
        if not left:
            # Catacombs 3E: Poison Cards: no card left to draw is a lethal dose.
            yield Step(StepKind.POISON_DECK_EMPTY, rulebook.POISON_CARDS,
                       "{hero} would take a poison card ({why}), but the heroes hold every card "
                       "of the Poison deck: a lethal dose",
                       {"hero": hero.id},
                       {"hero": hero.ref, "why": why})
            yield from dies(battle, hero, rulebook.POISON_CARDS)
            return
        token = yield DrawToken("poison card", f"poison for {hero.name}",
                                tuple(Token(v) for v in left))
        value = token.value
        verified = battle.data.poison_verified
    hero.poison.append(value)
    yield Step(StepKind.POISON, rulebook.PERFORM,
               "{hero} takes a poison card of value {value} ({why}){unverified}",
               {"hero": hero.id, "value": value, "verified": verified},
               {"hero": hero.ref, "value": value, "why": why,
                "unverified": '' if verified else ' (unverified card values)'})
    yield from poison_kills(battle, hero)


def poison_kills(battle: Battle, hero: Hero) -> Procedure:
    """Catacombs 3E: Poison Cards: Poison cards worth the hero's starting health or more kill
    it at once."""
    if hero.alive and hero.poison_total >= hero.start_health:
        yield Step(StepKind.DAMAGE, rulebook.POISON_CARDS,
                   "{hero}'s Poison cards add up to {poison_total}, at least the starting health "
                   "{start_health}: overwhelmed by the poison",
                   {"target": hero.id, "amount": hero.health, "health": 0},
                   {"hero": hero.ref, "poison_total": hero.poison_total,
                    "start_health": hero.start_health})
        yield from dies(battle, hero, rulebook.POISON_CARDS)


def dies(battle: Battle, hero: Hero, rule: str) -> Procedure:
    """The hero is dead: health 0, its Mount out of play with it (Ice Box: Mounts)."""
    hero.health = 0
    yield Step(StepKind.HERO_DOWN, rule,
               "{hero} is destroyed",
               {"hero": hero.id},
               {"hero": hero.ref})
    yield from remove_mount(battle, hero)


def apply_modifiers(battle: Battle, piece: Piece, hero: Hero, shot: Shot,
                    invulnerable: bool = False) -> Procedure:
    """The modifiers of a shot whose damage token hit, in the card's order. ``hero`` is the
    character that took the damage (a mount's rider), or the mount itself when
    ``invulnerable``. Critical, chain, target and fear act elsewhere (the token level, the
    target, the push)."""
    for mod in shot.modifiers:
        if mod in BY_HAND_MODIFIERS:
            yield by_hand(piece, hero, shot, mod)
        elif mod in ON_TARGET and invulnerable:
            yield Step(StepKind.NO_EFFECT, rulebook.MOUNTS,
                       "{hero} is invulnerable and took no damage: the {name} modifier has no "
                       "effect on it (Overseer's ruling)",
                       {"hero": hero.id, "modifier": mod},
                       {"hero": hero.ref, "name": _name(mod)})
        elif mod in COMPANION_PROOF and hero.kind in COMPANION_RULE:
            yield Step(StepKind.NO_EFFECT, COMPANION_RULE[hero.kind],
                       "{hero} is {companion}: it cannot be {proof}, the {name} modifier has "
                       "no effect",
                       {"hero": hero.id, "modifier": mod},
                       {"hero": hero.ref,
                        "companion": 'a familiar' if hero.kind == 'familiar' else 'an ally',
                        "proof": COMPANION_PROOF[mod], "name": _name(mod)})
        elif mod in LIVING and not hero.alive:
            rule = rulebook.DEATH if mod == "death_card" else rulebook.PERFORM
            yield Step(StepKind.NO_EFFECT, rule,
                       "the shot destroyed {hero}: the {name} modifier has no effect (Overseer's "
                       "ruling)",
                       {"hero": hero.id, "modifier": mod},
                       {"hero": hero.ref, "name": _name(mod)})
        elif mod == "poison":
            yield from poison(battle, hero, shot.amount("poison"))
        elif mod == "capture_coin":
            yield capture_coin(hero)
        elif mod == "stun":
            hero.stunned = True
            yield Step(StepKind.STUNNED, rulebook.PERFORM,
                       "{hero} is stunned",
                       {"hero": hero.id},
                       {"hero": hero.ref})
        elif mod == "reckless":
            yield reckless(hero)
        elif mod == "death_card":
            yield from death_card(battle, hero)


def _name(mod: str) -> str:
    return mod.replace("_", " ")


def poison(battle: Battle, hero: Hero, count: int) -> Procedure:
    """The poison modifier: one poison card (its draw itself, no procedure of its own around
    it), or as many as the number it carries."""
    if count == 1:
        return draw_poison(battle, hero, "poison modifier")
    return poison_cards(battle, hero, count)


def poison_cards(battle: Battle, hero: Hero, count: int) -> Procedure:
    """``count`` poison cards for the poison modifier's number."""
    # The fan data writes "Poison (2)"; the books do not print what the number means.
    for n in range(1, count + 1):
        yield from draw_poison(battle, hero, f"poison ({count}) modifier, card {n} of {count}: "
                               "the number counts poison cards, Overseer's ruling")


def capture_coin(hero: Hero) -> Step:
    """Red Box: New Capture Coin Modifier: one coin back to the Treasury, if any."""
    if hero.gold > 0:
        hero.gold -= 1
        return Step(StepKind.CAPTURE_COIN, rulebook.CAPTURE_COIN,
                    "{hero} returns a coin to the Treasury: {gold} gold left",
                    {"hero": hero.id, "gold": hero.gold},
                    {"hero": hero.ref, "gold": hero.gold})
    return Step(StepKind.CAPTURE_COIN, rulebook.CAPTURE_COIN,
                "{hero} has no gold: the capture coin has no effect",
                {"hero": hero.id, "gold": 0},
                {"hero": hero.ref})


def reckless(hero: Hero) -> Step:
    """Ice Box: Reckless Shot Modifier: from now on the hero's shots hurt teammates too, until
    the game ends; a hero destroyed later keeps the card."""
    already = hero.reckless
    hero.reckless = True
    text = (f"{hero.name} is already reckless" if already else
            f"{hero.name} becomes reckless for the rest of the game: friendly fire no longer "
            "protects their teammates from their shots; place the Reckless! card by their "
            "player board")
    if not hero.alive:
        text += " (it stays, though the hero is destroyed)"
    return Step(StepKind.RECKLESS, rulebook.RECKLESS, text, {"hero": hero.id})


def by_hand(piece: Piece, hero: Hero, shot: Shot, mod: str) -> Step:
    """A modifier the AI rules do not describe: the table resolves it."""
    return Step(StepKind.INSTRUCTION, rulebook.PERFORM,
                "{piece}'s {label} hit {hero}: the AI rules do not describe the {name} modifier; "
                "resolve it by the card and the Catacombs 3E Reference Manual, and tell the "
                "gadget what changed",
                {"piece": piece.id, "target": hero.id, "modifier": mod, "implemented": False},
                {"piece": piece.ref, "label": shot.label, "hero": hero.ref, "name": _name(mod)})


def not_applied(piece: Piece, shot: Shot, keep: frozenset[str] = frozenset()) -> Procedure:
    """The modifiers of a shot the AI performs without a damage token on a hero (a rush, a
    vortex, ...): none is applied, and the table is told so. ``keep`` names those the shot's
    rule does use (target on a ranged shot); chain the AI ignores anyway."""
    for mod in shot.modifiers:
        if mod == "chain" or mod in keep:
            continue
        yield Step(StepKind.INSTRUCTION, rulebook.PERFORM,
                   "{piece}'s {label}: the AI rules draw no damage token on a hero for a "
                   "{shot_kind}, "
                   "so its {modifier} modifier is not applied; if the table judges that it took "
                   "effect, resolve it by hand and tell the gadget what changed",
                   {"piece": piece.id, "shot": shot.label, "modifier": mod,
                    "implemented": False},
                   {"piece": piece.ref, "label": shot.label, "shot_kind": _name(shot.kind),
                    "modifier": _name(mod)})


def death_card(battle: Battle, hero: Hero) -> Procedure:
    """Ice Box: Death Cards: draw one of the six, apply it, shuffle it back."""
    cards = {c["id"]: c for c in battle.data.death_cards}
    card_id = yield Pick("Death card deck", f"death card for {hero.name}", tuple(cards))
    card = cards[card_id]
    yield Step(StepKind.DEATH_CARD, rulebook.DEATH,
               "{hero} draws {card}",
               {"hero": hero.id, "card": card_id, "effect": card["effect"]},
               {"hero": hero.ref, "card": card['name']})
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
        yield Step(StepKind.HEAL, rulebook.DEATH,
                   "{hero} gains {amount} health: {health}",
                   {"hero": hero.id, "amount": amount, "health": hero.health},
                   {"hero": hero.ref, "amount": amount, "health": hero.health})
    elif effect == "reckless":
        hero.reckless = True
        yield Step(StepKind.RECKLESS, rulebook.DEATH,
                   "{hero} becomes reckless",
                   {"hero": hero.id},
                   {"hero": hero.ref})
    elif effect == "stunned":
        hero.stunned = True
        yield Step(StepKind.STUNNED, rulebook.DEATH,
                   "{hero} is stunned",
                   {"hero": hero.id},
                   {"hero": hero.ref})
        yield from wound(battle, hero, amount, rulebook.DEATH, card["name"])
