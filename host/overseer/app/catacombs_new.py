"""A new Catacombs game's questions on the five buttons (``wizard``): the party (heroes from
data/catacombs/heroes.toml, a tap of a hero's card, or generic; their companions), each hero's
seat and health, the options, the dice, the expansion playmats, the Hidden Cave, a room or a
campaign; a local procedure that ends in a ``NewGame`` (the setup, the dice, the first
actions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from overseer.app.catacombs_choices import short_name
from overseer.app.flow import DICE, NewGame
from overseer.app.local import Ask, LocalProcedure
from overseer.core.procedure import ChooseOne, ChooseSome, EnterNumber
from overseer.loaders.catacombs import default as default_data
from overseer.loaders.catacombs import default_heroes
from overseer.rules.catacombs.state import ENEMY_KINDS

GAME = "catacombs"
MAX_HEROES = 4  # the four Hero Target tiles (Red Box: Solo & Co-Op Mode Setup)
START_HEALTH = 10  # where a hero's health entry starts (the card's value is entered)
COMPANIONS = tuple(k for k in ENEMY_KINDS if k != "hero")


YES_NO = {"off": "Off", "on": "On"}
WHOSE = {"gadget": "The gadget's", "table": "Our own"}
LOS = {"open": "Open: all seen", "blocked": "Obstacles block"}
DONE, COMPANION = "done", "companion"


def _party(members: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in members if m["kind"] == "hero"]


def _joiner_options(members: list[dict[str, Any]]) -> tuple[tuple[str, ...], dict[str, str]]:
    taken = {m["id"] for m in members}
    names: dict[str, str] = {}
    party = _party(members)
    if len(party) < MAX_HEROES:
        names.update((h, short_name(r["name"])) for h, r in default_heroes().items()
                     if h not in taken and r["kind"] == "hero")
        n = 1
        while f"hero-{n}" in taken:
            n += 1
        names[f"hero-{n}"] = f"Hero {n}"
    if len(party) >= 2:  # two heroes or more: Done is the likely answer, first
        names = {DONE: "Done", **names}
    if party:
        names[COMPANION] = "Familiar, ally"
        names.setdefault(DONE, "Done")
    return tuple(names), names


def _member(pick: str, members: list[dict[str, Any]]) -> LocalProcedure:
    """A hero (from the list or generic), or a companion of a hero: its record."""
    if pick != COMPANION:
        record = default_heroes().get(pick)
        name = record["name"] if record else f"Hero {pick.removeprefix('hero-')}"
        return {"id": pick, "name": name, "kind": "hero"}
    kind = yield Ask(ChooseOne("Which kind?", COMPANIONS, "new_companion_kind"),
                     names={k: k.capitalize() for k in COMPANIONS})
    n = 1 + sum(1 for m in members if m["kind"] == kind)
    member = {"id": f"{kind}-{n}", "name": f"{kind.capitalize()} {n}", "kind": kind}
    party = _party(members)
    owner = party[0]["id"] if len(party) == 1 else (yield Ask(
        ChooseOne(f"Whose {kind}?", tuple(h["id"] for h in party), "new_companion_of"),
        names={h["id"]: h["name"] for h in party}))
    member["seat"] = next(h["seat"] for h in party if h["id"] == owner)
    member["owner"] = owner  # its kills' gold, its seat (Catacombs 3E: Allies, Familiars)
    return member


def _seat(member: dict[str, Any], members: list[dict[str, Any]],
          seats: tuple[int, ...]) -> LocalProcedure:
    free = [s for s in seats if s not in {m.get("seat") for m in _party(members)}]
    if len(free) == 1:
        return free[0]
    options = {f"seat-{s}": f"Seat {s}" for s in free}
    picked = yield Ask(ChooseOne(f"Seat for {short_name(member['name'])}?", tuple(options),
                                 "new_seat"),
                       names=options, seats={f"seat-{s}": s for s in free})
    return int(picked.removeprefix("seat-"))


def _choice(prompt: str, key: str, names: Mapping[str, str]) -> LocalProcedure:
    return (yield Ask(ChooseOne(prompt, tuple(names), key), names=names))


def wizard(seats: tuple[int, ...], pico: bool) -> LocalProcedure:
    """The new game's questions, in order; returns a ``NewGame``. ``seats``: the box's seat
    LEDs; ``pico``: the box has the Pico's dice (then they are offered first)."""
    members: list[dict[str, Any]] = []
    while True:
        options, names = _joiner_options(members)
        known = default_heroes()
        pick = yield Ask(ChooseOne("Who joins the party?", options, "new_member"), names=names,
                         cards={("hero", h): h for h in options if h in known})
        if pick == DONE:
            break
        member = yield from _member(pick, members)
        if member["kind"] == "hero":
            member["seat"] = yield from _seat(member, members, seats)
        member["health"] = yield Ask(EnterNumber(f"{short_name(member['name'])}: health?",
                                                 "new_health", 1, 30), start=START_HEALTH)
        members.append(member)
    los = yield from _choice("Line of sight?", "new_los", LOS)
    advanced = yield from _choice("Advanced targeting?", "new_advanced", YES_NO)
    tokens = yield from _choice("Damage tokens?", "new_tokens", WHOSE)
    poison = yield from _choice("Poison cards?", "new_poison", WHOSE)
    order = ("pico", "seeded", "table") if pico else ("seeded", "table", "pico")
    dice = yield from _choice("Dice?", "new_dice", {d: DICE[d] for d in order})
    expansion = {p: f"D12 chart {r['face']}" if not r["name"] else r["name"]
                 for p, r in default_data().playmats.items() if r["die"] == "d12"}
    owned = yield Ask(ChooseSome("Expansion playmats?", tuple(expansion), "new_playmats"),
                      names=expansion, cursor=len(expansion))  # on Done: most own none
    cave = yield from _choice("Hidden Cave?", "new_hidden_cave", YES_NO)
    plays = {"room": "A single room", **{c: r["name"].removesuffix(" Campaign")
                                         for c, r in default_data().campaigns.items()}}
    play = yield from _choice("What do we play?", "new_play", plays)
    setup = {
        "heroes": [{k: m[k] for k in ("id", "name", "kind", "health", "owner") if k in m}
                   for m in members],
        "options": {"los_blocked": los == "blocked", "advanced_targeting": advanced == "on",
                    "physical_tokens": tokens == "table", "physical_poison": poison == "table"},
        "owned_playmats": list(owned),
    }
    first: list[dict[str, Any]] = []
    if cave == "on":
        first.append({"do": "hidden_cave_setup"})
    if play != "room":
        first.append({"do": "campaign_start", "campaign": play})
    return NewGame({"format": 2, "game": GAME, "setup": setup}, dice, tuple(first),
                   {m["id"]: m["seat"] for m in members},
                   ("campaign_start",) if play == "room" else ())  # a single room's game
