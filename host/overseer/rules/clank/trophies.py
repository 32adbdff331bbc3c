"""Trophies: monster tokens and TROPHY cards kept face up in a player's personal supply, given
up at the Spirit Altar or the Mad Bazaar, and counted at the end of the game (Clank! Lairs and
Lost Chambers: Trophies; Lairs)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from overseer.core.params import NoParams, param
from overseer.core.procedure import ChooseOne, EnterNumber, Procedure, RulesError, Step
from overseer.rules.clank import rulebook
from overseer.rules.clank.kinds import Key, StepKind
from overseer.rules.clank.records import Card
from overseer.rules.clank.state import ClankState, Trophy, on_turn

MAX_GOLD = 999
MAX_CARD_VP = 20


def _copy_id(state: ClankState, player: str, base: str) -> str:
    """``base``, or ``base-2``, ``base-3`` ... for a second copy in the same supply."""
    taken = {t.id for t in state.players[player].trophies}
    n, found = 1, base
    while found in taken:
        n += 1
        found = f"{base}-{n}"
    return found


def card_trophy(state: ClankState, player: str, card: Card) -> Trophy:
    return Trophy(id=_copy_id(state, player, card.id), of=card.id, name=card.name, kind="card",
                  vp=card.vp, vp_per_gold=card.vp_per_gold, effect=card.trophy,
                  verified=card.verified)


def gain(state: ClankState, player: str, trophy: Trophy, rule: str) -> Procedure:
    """Trophies - the card or token goes face up into the personal supply, never to the
    discard pile; its effect lasts while it stays there."""
    state.players[player].trophies.append(trophy)
    yield Step(StepKind.TROPHY, rule,
               f"{player} keeps {trophy.name} face up in their supply as a trophy: "
               f"{trophy.effect}",
               {"player": player, "trophy": trophy.id, "vp": trophy.vp,
                "vp_per_gold": trophy.vp_per_gold, "verified": trophy.verified,
                "entered": trophy.entered})


def defeat_monster(state: ClankState, player: str, token: str, how: str) -> Procedure:
    """A monster token beaten in its lair: its DEFEAT effect is said, it becomes a trophy."""
    monster = state.data.monster_of(token)
    state.lairs[monster.lair].remove(token)
    yield Step(StepKind.DEFEAT, monster.section,
               f"{player} defeats the {monster.name} ({how}). DEFEAT: {monster.defeat}",
               {"player": player, "monster": monster.id, "token": token, "how": how,
                "left": len(state.lairs[monster.lair])})
    trophy = Trophy(id=token, of=monster.id, name=monster.name, kind="token", vp=monster.vp,
                    vp_per_gold=None, effect=monster.trophy, verified=monster.verified)
    yield from gain(state, player, trophy, monster.section)


def choose_trophy(state: ClankState, player: str, prompt: str) -> Procedure:
    """The trophy ``player`` gives up (the caller checked there is one)."""
    options = tuple(t.id for t in state.players[player].trophies)
    return (yield ChooseOne(prompt=prompt, options=options, key=Key.GIVE_UP))


def give_up(state: ClankState, player: str, trophy_id: str, rule: str, why: str) -> Procedure:
    """The trophy leaves the supply. Ruling: the book does not say where it goes; it is set
    aside, out of the game (a monster token is not fought again)."""
    supply = state.players[player].trophies
    trophy = state.players[player].trophy(trophy_id)
    supply.remove(trophy)
    state.set_aside.append(f"{player}: {trophy.name}")
    yield Step(StepKind.GIVE_UP, rule,
               f"{player} gives up the trophy {trophy.name} {why}; it is set aside, out of the "
               "game (Overseer's ruling: the book does not say where it goes).",
               {"player": player, "trophy": trophy_id, "ruling": True})


# --------------------------------------------------------------------------- taking a card


@dataclass(frozen=True, slots=True)
class TakeTrophy:
    """``{"do": "take_trophy", "player": P, "card": id}``: a TROPHY card of the data, taken
    when its monster is defeated or its device used."""

    player: str = param(options=on_turn, prompt="Who takes a trophy?")
    card: str = param(options=lambda state: list(state.data.cards), prompt="Which card?")


def take_trophy(state: ClankState, params: TakeTrophy) -> Procedure:
    state.check_turn(params.player)
    card = state.data.cards.get(params.card)
    if card is None:
        raise RulesError(f"take_trophy: {params.card!r} is not a TROPHY card of "
                         f"data/clank/cards.toml ({', '.join(state.data.cards)}); enter a card "
                         'the data lacks with {"do": "enter_trophy", "name": ..., "vp": ...}')
    return _take(state, params.player, card_trophy(state, params.player, card), card)


def _take(state: ClankState, player: str, trophy: Trophy, card: Card | None) -> Procedure:
    if card is not None and card.kind == "monster":
        effect = f" DEFEAT: {card.defeat}" if card.defeat else ""
        yield Step(StepKind.DEFEAT, card.section, f"{player} defeats the {card.name}"
                   f"{f' ({card.swords} swords)' if card.swords is not None else ''}.{effect}",
                   {"player": player, "card": card.id})
    else:
        # Trophies - a device with only a TROPHY effect is still used when it is taken.
        yield Step(StepKind.DEFEAT, rulebook.TROPHIES,
                   f"{player} uses the {trophy.name} and takes it as a trophy.",
                   {"player": player, "card": trophy.of})
    yield from gain(state, player, trophy, rulebook.TROPHIES)


@dataclass(frozen=True, slots=True)
class EnterTrophy:
    """``{"do": "enter_trophy", "player": P, "name": card name, "vp": n}``: a TROPHY card the
    data lacks, entered off the card (``verified = false``)."""

    player: str = param(options=on_turn, prompt="Who takes a trophy?")
    name: str = param(prompt="The card's name")
    vp: int = param(low=0, high=MAX_CARD_VP, prompt="Its victory points")


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def enter_trophy(state: ClankState, params: EnterTrophy) -> Procedure:
    state.check_turn(params.player)
    name = params.name.strip()
    if not _slug(name):
        raise RulesError("enter_trophy: 'name' must name the card")
    known = {c.id: c for c in state.data.cards.values()}
    known.update((_slug(c.name), c) for c in state.data.cards.values())
    if _slug(name) in known or _slug(name) in state.data.monsters:
        raise RulesError(f"enter_trophy: {name!r} is in the data; take it with "
                         f'{{"do": "take_trophy", "card": "{known[_slug(name)].id}"}}'
                         if _slug(name) in known else
                         f"enter_trophy: {name!r} is a monster token, won in its lair (fight)")
    if not 0 <= params.vp <= MAX_CARD_VP:
        raise RulesError(f"enter_trophy: 'vp' must be 0 to {MAX_CARD_VP} (got {params.vp})")
    trophy = Trophy(id=_copy_id(state, params.player, _slug(name)), of=_slug(name), name=name,
                    kind="card", vp=params.vp, vp_per_gold=None,
                    effect="entered by the table (not in the data)", verified=False,
                    entered=True)
    return _take(state, params.player, trophy, None)


# --------------------------------------------------------------------------- the end


def _item(trophy: Trophy, gold: int | None, asked: int | None) -> dict[str, Any]:
    if trophy.vp_per_gold is not None:
        assert gold is not None
        vp = gold // trophy.vp_per_gold
        how = f"1 per {trophy.vp_per_gold} gold, {gold} gold"
    elif trophy.vp is not None:
        vp, how = trophy.vp, "printed" if trophy.verified else "entered"
    else:
        assert asked is not None
        vp, how = asked, "read off the card"
    return {"trophy": trophy.id, "name": trophy.name, "vp": vp, "how": how,
            "verified": trophy.verified}


def end_game(state: ClankState, params: NoParams) -> Procedure:
    """The table ends the game: each player's trophy victory points, itemised (Trophies: the
    Hoard Keeper counts 1 for every 5 gold). The base game's own score stays on the table."""
    gold: dict[str, int] = {}
    asked: dict[tuple[str, str], int] = {}
    for player in state.players.values():
        if any(t.vp_per_gold is not None for t in player.trophies):
            gold[player.id] = yield EnterNumber(prompt=f"How much gold does {player.id} have?",
                                                key=Key.GOLD, low=0, high=MAX_GOLD)
        for trophy in player.trophies:
            if trophy.vp is None and trophy.vp_per_gold is None:
                asked[player.id, trophy.id] = yield EnterNumber(
                    prompt=f"How many victory points does {player.id}'s {trophy.name} give? "
                           "The book does not print it: read it off the card.",
                    key=Key.TROPHY_VP, low=0, high=MAX_CARD_VP)
    tally: dict[str, dict[str, Any]] = {}
    totals: dict[str, int] = {}
    for player in state.players.values():
        items = [_item(t, gold.get(player.id), asked.get((player.id, t.id)))
                 for t in player.trophies]
        total = totals[player.id] = sum(i["vp"] for i in items)
        tally[player.id] = {"items": items, "total": total, "gold": gold.get(player.id)}
        listed = "; ".join(f"{i['name']} {i['vp']} ({i['how']})" for i in items) or "no trophy"
        yield Step(StepKind.TALLY, rulebook.TROPHIES,
                   f"{player.id}: {listed}: {total} trophy victory point(s).",
                   {"player": player.id, "items": items, "total": total,
                    "verified": all(i["verified"] for i in items)})
    state.over = {"players": tally, "totals": totals}
    yield Step(StepKind.GAME_OVER, rulebook.TROPHIES,
               "The game is over. Trophy victory points: "
               f"{', '.join(f'{p} {v}' for p, v in totals.items())}; add them to each "
               "player's base game score.", {"totals": totals})
