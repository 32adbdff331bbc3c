"""The Hidden Cave (Red Box: Hidden Cave, optional): five level-1 monsters to collect, then the
Kraken's D12 against the damage tokens the hero draws, and what the hero takes away.

Actions: ``hidden_cave_setup``, ``hidden_cave_collect``, ``hidden_cave_visit``,
``hidden_cave_portal`` (a hero the portal trap sent there), ``hidden_cave_leave``.
"""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.params import param
from overseer.core.procedure import (
    ChooseOne,
    Die,
    EnterNumber,
    Pick,
    Procedure,
    Roll,
    RulesError,
    Step,
    YesNo,
)
from overseer.rules.catacombs import damage_tokens
from overseer.rules.catacombs.adventure import TO_COLLECT, HiddenCave
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.rulebook import CAVE
from overseer.rules.catacombs.state import Battle, Hero, hero_ids, living_hero_ids

ITEMS = 4  # four items lie beside the Hidden Cave card
HEALTH_PER_TOKEN = 4  # one token per 4 health the hero has now
AWAY = "hidden_cave"


def cave_targets(battle: Battle) -> list[str]:
    """The Hidden Cave monsters some hero does not keep yet (each hero collects its own)."""
    cave = battle.adventure.hidden_cave
    if cave is None:
        return []
    heroes = hero_ids(battle)
    return [m for m in cave.targets if any(m not in cave.held_by(h) for h in heroes)]


def cave_ready(battle: Battle) -> list[str]:
    """Heroes who hold all five Hidden Cave monsters and are on the playmat."""
    cave = battle.adventure.hidden_cave
    if cave is None:
        return []
    return [h for h in on_playmat(battle) if len(cave.held_by(h)) == TO_COLLECT]


def on_playmat(battle: Battle) -> list[str]:
    return [h for h in living_hero_ids(battle) if battle.heroes[h].away is None]


def in_cave(battle: Battle) -> list[str]:
    return [h.id for h in battle.heroes.values() if h.away == AWAY]


@dataclass(frozen=True, slots=True)
class HiddenCaveSetup:
    """``pool``: the level 1 monsters owned (default: every one of the data); ``items``: four
    random Item cards instead of the Red Box four."""

    pool: tuple[str, ...] | None = param(default=None)
    items: tuple[str, ...] | None = param(default=None)


@dataclass(frozen=True, slots=True)
class HiddenCaveCollect:
    hero: str = param(options=hero_ids)
    monster: str = param(options=cave_targets)


@dataclass(frozen=True, slots=True)
class HiddenCaveVisit:
    """``shot_icons``: asked when not given; ``antient``: the Antient the hero takes on a
    win (default: an unused one)."""

    hero: str = param(options=cave_ready)
    shot_icons: int | None = param(default=None, low=0, high=99)
    antient: str | None = param(default=None)


@dataclass(frozen=True, slots=True)
class HiddenCavePortal:
    """As ``HiddenCaveVisit``, for a hero the portal trap sent to the Hidden Cave."""

    hero: str = param(options=on_playmat)
    shot_icons: int | None = param(default=None, low=0, high=99)
    antient: str | None = param(default=None)


@dataclass(frozen=True, slots=True)
class HiddenCaveLeave:
    hero: str = param(options=in_cave)


def _hero(battle: Battle, hero_id: str) -> Hero:
    hero = battle.heroes.get(hero_id)
    if hero is None or hero.kind != "hero":
        raise RulesError(f"no hero {hero_id!r}")
    return hero


def _cave(battle: Battle) -> HiddenCave:
    cave = battle.adventure.hidden_cave
    if cave is None:
        raise RulesError("the Hidden Cave is not in this game (it is set up at the start of "
                         "the game)")
    return cave


def hidden_cave_setup(battle: Battle, params: HiddenCaveSetup) -> Procedure:
    """``{"do": "hidden_cave_setup", "pool": [level-1 monsters owned] (optional),
    "items": [four item cards] (optional: random Item cards instead of the Red Box four)}``."""
    if battle.adventure.hidden_cave is not None:
        raise RulesError("the Hidden Cave is set up once, at the start of the game")
    level1 = sorted({r["name"] for r in battle.data.monsters.values() if r["level"] == 1})
    pool = level1 if params.pool is None else list(params.pool)
    if any(p not in level1 for p in pool) or len(set(pool)) != len(pool) \
            or len(pool) < TO_COLLECT:
        raise RulesError(f"the pool must list at least {TO_COLLECT} different level 1 monsters "
                         f"of monsters.toml (got {pool!r})")
    items = list(battle.data.cave_items) if params.items is None else list(params.items)
    if len(items) != ITEMS:
        raise RulesError(f"the Hidden Cave takes {ITEMS} item cards (got {items!r})")
    # Red Box: Hidden Cave: the four items lie face up beside the card (or four random items).
    yield Step(StepKind.HIDDEN_CAVE_ITEMS, CAVE, "beside the Hidden Cave card: " + ", ".join(items),
               {"items": list(items), "red_box_items": params.items is None})
    # One piece of each level 1 monster, five drawn at random: what a hero must collect.
    left, targets = sorted(pool), []
    while len(targets) < TO_COLLECT:
        drawn = left[0] if len(left) == 1 else (
            yield Pick("level 1 monster pieces", "a monster to collect for the Hidden Cave",
                       tuple(left)))
        left.remove(drawn)
        targets.append(drawn)
    battle.adventure.hidden_cave = HiddenCave(targets, list(items))
    yield Step(StepKind.HIDDEN_CAVE_TARGETS, CAVE, "to enter the Hidden Cave a hero collects: "
               + ", ".join(targets) + " (set these pieces aside: the Overseer cannot use them)",
               {"targets": targets, "verified": params.pool is not None})
    return targets


def hidden_cave_collect(battle: Battle, params: HiddenCaveCollect) -> Procedure:
    """``{"do": "hidden_cave_collect", "hero": id, "monster": name}``: the hero destroyed one
    of the listed monsters and keeps it on their player board."""
    cave = _cave(battle)
    hero = _hero(battle, params.hero)
    name = params.monster
    if name not in cave.targets:
        raise RulesError(f"{name!r} is not one of the Hidden Cave monsters "
                         f"({', '.join(cave.targets)})")
    if name in cave.held_by(hero.id):
        yield Step(StepKind.NO_EFFECT, CAVE,
                   "{hero} already keeps a {name}: this one goes back to the Monster Pool "
                   "(Overseer's ruling: the collection is of kinds)",
                   {"hero": hero.id, "monster": name, "verified": False},
                   {"hero": hero.ref, "name": name})
        return
    cave.collected.setdefault(hero.id, []).append(name)
    held = cave.held_by(hero.id)
    yield Step(StepKind.HIDDEN_CAVE_COLLECT, CAVE,
               "{hero} keeps the {name}: {held} of {wanted} (out of the game)",
               {"hero": hero.id, "monster": name,
                                                   "held": held},
               {"hero": hero.ref, "name": name, "held": len(held), "wanted": TO_COLLECT})
    if len(held) == TO_COLLECT:
        yield Step(StepKind.HIDDEN_CAVE_OPEN, CAVE,
                   "{hero} may go to the Hidden Cave instead of taking a normal turn",
                   {"hero": hero.id},
                   {"hero": hero.ref})


def _tokens_for(hero: Hero, icons: int) -> int:
    return hero.health // HEALTH_PER_TOKEN + icons


def hidden_cave_visit(battle: Battle, params: HiddenCaveVisit) -> Procedure:
    """``{"do": "hidden_cave_visit", "hero": id, "shot_icons": n (optional: asked),
    "antient": name (optional)}``: a hero who holds the five monsters goes in."""
    return _visit(battle, params.hero, params.shot_icons, params.antient, portal=False)


def hidden_cave_portal(battle: Battle, params: HiddenCavePortal) -> Procedure:
    """``{"do": "hidden_cave_portal", "hero": id, ...}``: a hero the portal trap sent to the
    Hidden Cave enters without the five monsters, even when another hero is inside."""
    return _visit(battle, params.hero, params.shot_icons, params.antient, portal=True)


def _visit(battle: Battle, hero_id: str, shot_icons: int | None, antient: str | None,
           portal: bool) -> Procedure:
    cave = _cave(battle)
    hero = _hero(battle, hero_id)
    if not hero.alive:
        raise RulesError(f"{hero.name} is dead")
    if not portal and len(cave.held_by(hero.id)) < TO_COLLECT:
        raise RulesError(f"{hero.name} holds {len(cave.held_by(hero.id))} of the {TO_COLLECT} "
                         "Hidden Cave monsters")
    inside = [h.name for h in battle.heroes.values() if h.away == AWAY]
    # Red Box: Hidden Cave: one hero at a time, unless sent there by the portal trap.
    if inside and not portal:
        raise RulesError(f"{', '.join(inside)} is already in the Hidden Cave: one hero at a time")
    if antient is not None and battle.antients and not any(
            antient in (a.id, a.name) for a in battle.antients.values()):
        raise RulesError(f"{antient!r} is not an unused Antient of this battle ("
                         + ", ".join(battle.antients) + ")")
    icons = shot_icons
    if icons is not None and icons < 0:
        raise RulesError(f"shot_icons must be a whole number, 0 or more (got {icons!r})")
    yield Step(StepKind.HIDDEN_CAVE_ENTER, CAVE,
               "{hero} enters the Hidden Cave and leaves the Battle Phase for now",
               {"hero": hero.id, "via": "portal_trap" if portal
                                        else "collection"},
               {"hero": hero.ref})
    strength = yield Roll(Die.D12, "the Kraken's attack strength")
    if icons is None:
        icons = yield EnterNumber(
            f"How many damage-dealing shot icons has {hero.name}: base shot sequence, every "
            "Ability and Item card (used or not) and up to five Spell cards?", Key.SHOT_ICONS,
            0, 99)
    level = battle.data.cave_token_level
    count = _tokens_for(hero, icons)
    yield Step(StepKind.KRAKEN, CAVE,
               "the Kraken attacks with {strength}; {hero} draws {count} level {level} damage "
               "tokens ({health} health // {HEALTH_PER_TOKEN} + {icons} shot icons; the token "
               "level is Overseer's ruling)",
               {"strength": strength, "tokens": count, "level": level,
                "verified": battle.data.cave_token_level_verified},
               {"strength": strength, "hero": hero.ref, "count": count, "level": level,
                "health": hero.health, "HEALTH_PER_TOKEN": HEALTH_PER_TOKEN, "icons": icons})
    tokens = []
    for n in range(count):
        token = yield from damage_tokens.draw(battle, level, f"against the Kraken ({n + 1} of "
                                                             f"{count})")
        tokens.append(token)
    reset = damage_tokens.settle(battle, tokens)
    if reset is not None:
        yield reset
    total = sum(t.value for t in tokens)
    # Overseer's ruling: the book does not say who wins a tie; the hero must beat the Kraken.
    wins = total > strength
    yield Step(StepKind.KRAKEN_RESULT, CAVE,
               "{hero} {total} against the Kraken's {strength}: {result}{tie}",
               {"hero": hero.id, "total": total, "strength": strength, "hero_wins": wins,
                "verified": total != strength},
               {"hero": hero.ref, "total": total, "strength": strength,
                "result": 'the hero evades the Kraken' if wins else 'the Kraken wins',
                "tie": ' (a tie goes to the Kraken: Overseer ruling)' if total == strength else ''})
    if wins:
        yield from _evaded(battle, hero, cave, antient)
    else:
        yield from _limited(battle, hero, cave)
    hero.away = AWAY
    return wins


def _limited(battle: Battle, hero: Hero, cave: HiddenCave) -> Procedure:
    """Red Box: Hidden Cave: the Kraken wins: one Poison card may go, one item at random."""
    if hero.poison:
        drop = yield YesNo(f"Does {hero.name} discard a Poison card?", Key.DISCARD_POISON)
        if drop:
            values = sorted({str(v) for v in hero.poison})
            value = values[0] if len(values) == 1 else (
                yield ChooseOne("Which Poison card (its value)?", tuple(values), Key.POISON_CARD))
            # The book says discard; where the card goes it does not say. Overseer returns it
            # to the Poison deck (as the Poison Shot Modifier does with the card it draws):
            # the deck the gadget draws from is every card no hero holds.
            hero.poison.remove(int(value))
            back = ("shuffle it back into the Poison deck" if battle.options.physical_poison
                    else "it goes back into the Poison deck")
            yield Step(StepKind.HIDDEN_CAVE_POISON, CAVE,
                       "{hero} discards a Poison card ({value}): {back} (Overseer's ruling)",
                       {"hero": hero.id, "value": int(value), "to_deck": True,
                        "verified": False},
                       {"hero": hero.ref, "value": value, "back": back})
    if cave.items:
        item = cave.items[0] if len(cave.items) == 1 else (
            yield Pick("Hidden Cave items", f"a random item for {hero.name}",
                       tuple(cave.items)))
        cave.items.remove(item)
        hero.items.append(item)
        yield Step(StepKind.HIDDEN_CAVE_ITEM, CAVE,
                   "{hero} takes {item} (at random)",
                   {"hero": hero.id, "item": item, "how": "random"},
                   {"hero": hero.ref, "item": item})


def _evaded(battle: Battle, hero: Hero, cave: HiddenCave, antient: str | None) -> Procedure:
    """Red Box: Hidden Cave: the hero wins: platinum, health, an item and an Antient."""
    adventure = battle.adventure
    adventure.platinum[hero.id] = adventure.platinum.get(hero.id, 0) + 1
    hero.health += 2
    yield Step(StepKind.HIDDEN_CAVE_REWARD, CAVE,
               "{hero} takes 1 platinum coin and 2 health (now {health})",
               {"hero": hero.id, "platinum": 1, "health": 2},
               {"hero": hero.ref, "health": hero.health})
    if cave.items:
        item = cave.items[0] if len(cave.items) == 1 else (
            yield ChooseOne(f"Which item does {hero.name} take?", tuple(cave.items),
                            Key.HIDDEN_CAVE_ITEM))
        cave.items.remove(item)
        hero.items.append(item)
        yield Step(StepKind.HIDDEN_CAVE_ITEM, CAVE,
                   "{hero} takes {item} (their choice)",
                   {"hero": hero.id, "item": item, "how": "choice"},
                   {"hero": hero.ref, "item": item})
    name = yield from _antient_taken(battle, hero, antient)
    adventure.antients.setdefault(hero.id, []).append(name)
    yield Step(StepKind.HIDDEN_CAVE_ANTIENT, CAVE,
               "{hero} takes {name}: it may be summoned instead of the hero's base shot sequence "
               "in a later turn",
               {"hero": hero.id, "antient": name},
               {"hero": hero.ref, "name": name})


UNNAMED = "an unused Antient"  # none entered for the gadget and none named: the table's own


def _antient_taken(battle: Battle, hero: Hero, antient: str | None) -> Procedure:
    """The unused Antient the hero chooses: one of those entered for the battle (asked when
    not given), which the AI's summon antient shot can no longer bring in; with none entered,
    the one named, else the table's own choice."""
    unused = battle.antients
    if not unused:
        if antient is not None:
            return antient
        yield Step(StepKind.INSTRUCTION, CAVE,
                   "no unused Antient was entered for the gadget: {hero} takes one of the table's "
                   "own",
                   {"hero": hero.id},
                   {"hero": hero.ref})
        return UNNAMED
    if antient is None:
        antient = next(iter(unused)) if len(unused) == 1 else (yield ChooseOne(
            f"Which unused Antient does {hero.name} take?", tuple(unused),
            Key.HIDDEN_CAVE_ANTIENT))
    found = next(a for a in unused.values() if antient in (a.id, a.name))  # checked in _visit
    del unused[found.id]
    return found.name


def hidden_cave_leave(battle: Battle, params: HiddenCaveLeave) -> Procedure:
    """``{"do": "hidden_cave_leave", "hero": id}``: the hero's piece goes back to the playmat.
    The book does not say when (Overseer's ruling: when the players say so)."""
    hero = _hero(battle, params.hero)
    if hero.away != AWAY:
        raise RulesError(f"{hero.name} is not in the Hidden Cave")
    hero.away = None
    yield Step(StepKind.HIDDEN_CAVE_LEAVE, CAVE,
               "{hero} leaves the Hidden Cave and rejoins the Battle Phase (when: Overseer's "
               "ruling)",
               {"hero": hero.id, "verified": False},
               {"hero": hero.ref})
