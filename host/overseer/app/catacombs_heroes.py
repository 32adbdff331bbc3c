"""What the Catacombs heroes did, entered on the five buttons: a hit on an AI piece
(``damage_piece_form``: which piece, a tap of its monster's card narrowing it, how much, whose
shot when it destroys the piece) and a hero's state changed (``update_hero_form``: which hero,
a tap of its card, what changed, the new value starting at the current one)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from overseer.app.catacombs_choices import fit, hero_cards, monster_pieces, options, short_name
from overseer.app.local import Ask, LocalProcedure
from overseer.core.params import ask_of, fields
from overseer.core.procedure import ChooseOne, EnterNumber
from overseer.rules.catacombs.moves import MOVES
from overseer.rules.catacombs.state import Battle, Hero
from overseer.screens.pages import title_name


def _flag(value: bool) -> str:
    return "yes" if value else "no"


def _changes(battle: Battle, hero: Hero, names: Mapping[str, str]) -> dict[str, str]:
    """What can change of a hero, each with its value now."""
    out = {"health": f"Health {hero.health}", "gold": f"Gold {hero.gold}",
           "poison": f"Poison {len(hero.poison)}", "items": f"Items {len(hero.items)}"}
    for status in ("frozen", "reckless", "stunned"):
        out[status] = f"{status.capitalize()}: {_flag(getattr(hero, status))}"
    if hero.riding is not None or _mounts(battle, hero):
        out["riding"] = f"Rides: {names.get(hero.riding, hero.riding) if hero.riding else 'no'}"
    if hero.away in (None, "teleported"):
        out["away"] = "Back from teleport" if hero.away else "Teleported"
    return out


def _mounts(battle: Battle, hero: Hero) -> list[str]:
    """What the hero could ride: the party's mounts nobody rides, the wild wyverns."""
    ridden = {h.riding for h in battle.heroes.values() if h.id != hero.id}
    mounts = [h.id for h in battle.heroes.values() if h.kind == "mount" and h.id != hero.id]
    return [m for m in (*mounts, *battle.wyverns) if m not in ridden]


def _range(name: str) -> tuple[int, int]:
    ask = next(ask_of(f) for f in fields(MOVES.moves["update_hero"].params) if f.name == name)
    return ask.low, ask.high


def update_hero_form(battle: Battle, names: Mapping[str, str]) -> LocalProcedure:
    """A hero's state in a few presses: which hero (a tap of its card), what changed (each
    line shows its value now), the new value (a number starts at the current one; a status
    toggles at once)."""
    members = tuple(battle.heroes)
    hero_id = members[0] if len(members) == 1 else (yield Ask(
        ChooseOne("Which hero?", members, "form_hero"), names=names, cards=hero_cards(battle)))
    hero = battle.heroes[hero_id]
    changes = _changes(battle, hero, names)
    who = short_name(hero.name)
    what = yield Ask(ChooseOne(f"{who}: what changed?", tuple(changes), "form_change"),
                     names=changes)
    action: dict[str, Any] = {"do": "update_hero", "hero": hero_id}
    if what in ("health", "gold"):
        low, high = _range(what)
        now = getattr(hero, what)
        action[what] = yield Ask(EnterNumber(f"{who}: {what} now?", f"form_{what}", low, high),
                                 start=now)
    elif what in ("frozen", "reckless", "stunned"):
        action[what] = not getattr(hero, what)
    elif what == "away":
        action["away"] = None if hero.away else "teleported"
    elif what == "items":
        count = yield Ask(EnterNumber(f"{who}: items now?", "form_items", 0, 9),
                          start=len(hero.items))
        kept = hero.items[:count]
        action["items"] = [*kept, *(f"Item {n}" for n in range(len(kept) + 1, count + 1))]
    elif what == "riding":
        options = {m: names.get(m, m) for m in _mounts(battle, hero)}
        options["none"] = "Nothing (off)"
        picked = yield Ask(ChooseOne(f"{who} rides?", tuple(options), "form_riding"),
                           names=options)
        action["riding"] = None if picked == "none" else picked
    else:
        action["poison"] = yield from _poison(hero)
    return action


def _poison(hero: Hero) -> LocalProcedure:
    """A Poison card taken (its value) or given up (which one)."""
    ways = {"add": "A card taken", **({"drop": "A card given up"} if hero.poison else {})}
    way = yield Ask(ChooseOne(f"{short_name(hero.name)}: Poison cards", tuple(ways),
                              "form_poison_way"),
                    names=ways)
    if way == "add":
        value = yield Ask(EnterNumber("Its value?", "form_poison_value", 0, 9), start=1)
        return [*hero.poison, value]
    held = {f"card-{n}": f"Card of {v}" for n, v in enumerate(hero.poison)}
    picked = next(iter(held)) if len(held) == 1 else (yield Ask(
        ChooseOne("Which card?", tuple(held), "form_poison_card"), names=held))
    drop = int(picked.removeprefix("card-"))
    return [v for n, v in enumerate(hero.poison) if n != drop]


MONSTER = "monster:"  # a tapped monster card's answer to "which piece": narrowed to its pieces


def damage_piece_form(battle: Battle, names: Mapping[str, str]) -> LocalProcedure:
    """A hit on an AI piece in few presses: which piece (a tap of its monster's card, asked
    only among its pieces, and not at all when one is left), how much (from the last amount
    entered this game), and, only when the hit destroys the piece, which hero's shot it was
    (its gold and the Hidden Cave go to that hero)."""
    pieces = options("damage_piece", "piece", battle)
    by_card = {card: ids for card, ids in monster_pieces(battle).items()
               if any(i in pieces for i in ids)}
    piece = pieces[0] if len(pieces) == 1 else (yield Ask(
        ChooseOne("Which AI piece was hit?", pieces, "form_piece"), names=names,
        cards={card: f"{MONSTER}{card[1]}" for card in by_card}))
    if piece.startswith(MONSTER):
        mine = tuple(i for i in by_card[("monster", piece.removeprefix(MONSTER))]
                     if i in pieces)
        piece = mine[0] if len(mine) == 1 else (yield Ask(
            ChooseOne("Which of them?", mine, "form_piece"), names=names))
    label = title_name(names.get(piece, piece), names.values())  # "Skeleton A": it fits
    low, high = _damage_range()
    amount = yield Ask(EnterNumber(fit(f"{label}: damage?", "How much damage?"),
                                   "form_amount", low, high),
                       start=1, remember=True)
    action: dict[str, Any] = {"do": "damage_piece", "piece": piece, "amount": amount}
    hit = battle.pieces.get(piece)
    if hit is not None and not hit.invulnerable and not hit.mount and amount >= hit.health:
        heroes = tuple(h for h in options("damage_piece", "by", battle))
        if heroes:
            action["by"] = heroes[0] if len(heroes) == 1 else (yield Ask(
                ChooseOne(fit(f"{label}: whose shot?", "Whose shot was it?"), heroes,
                          "form_by"),
                names=names, cards=hero_cards(battle)))
    return action


def _damage_range() -> tuple[int, int]:
    ask = next(ask_of(f) for f in fields(MOVES.moves["damage_piece"].params)
               if f.name == "amount")
    return ask.low, ask.high
