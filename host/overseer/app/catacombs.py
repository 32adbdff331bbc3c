"""Catacombs at the table: what the shell (app/shell.py) needs beyond the rules to run a whole
game on the five buttons.

- ``wizard``: the new-game questions (the party, each hero's seat, the options, a room or a
  campaign), a local procedure that ends in a ``NewGame`` (the setup, the dice, the first
  actions);
- ``form``: a move's parameters asked as questions; ``update_hero`` has its own (hero, what
  changed, the new value starting at the current one), long lists come in groups;
- ``labels`` and ``relabel``: identical monsters told apart ("Orc A", "Orc B") on every
  screen, from placement on;
- the glass between actions: the menu's short labels, the idle screen's key word and status,
  the party screen, what a tapped card begins (a hero's card answers "Who joins the party?";
  the heroes are data/catacombs/heroes.toml, ``games.catacombs_heroes``).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from overseer import games
from overseer.app import forms
from overseer.app.flow import DICE, DICE_MODE, NEW_GAME, PARTY, Flow, NewGame, TapActions
from overseer.app.local import Ask, LocalProcedure
from overseer.app.view import MenuItem, OpensForm
from overseer.core.moves import Move
from overseer.core.params import ask_of, fields
from overseer.core.procedure import ChooseOne, ChooseSome, EnterNumber, Question
from overseer.rules.catacombs import cards, end, entered
from overseer.rules.catacombs.kinds import Key
from overseer.rules.catacombs.moves import MOVES
from overseer.rules.catacombs.state import ENEMY_KINDS, MODIFIERS, SHOT_KINDS, Battle, Hero
from overseer.screens.pages import TITLE_COLUMNS
from overseer.screens.render import Screen, detail_rows

GAME = "catacombs"
SPEC = games.CATACOMBS

MAX_HEROES = 4  # the four Hero Target tiles (Red Box: Solo & Co-Op Mode Setup)
START_HEALTH = 10  # where a hero's health entry starts (the card's value is entered)
GROUP_ABOVE = 10  # a list longer than this is chosen in two steps: its group, then the item
GROUP_SIZE = 8
COMPANIONS = tuple(k for k in ENEMY_KINDS if k != "hero")

# Menu labels short enough for the 8x16 list (15 characters).
SHORT = {
    "damage_piece": "Hit an AI piece",
    "freeze_piece": "Froze a piece",
    "hero_dagger": "Hero's dagger",
    "recruit_mount": "Recruit Mount",
    "update_hero": "Hero changed",
    "setup_room": "Set up a room",
    "choose_lord": "Choose the Lord",
    "setup_lord_room": "The Lord's room",
    "hidden_cave_setup": "Hidden Cave on",
    "hidden_cave_collect": "Cave: keep one",
    "hidden_cave_visit": "Enter the Cave",
    "hidden_cave_portal": "Portal to Cave",
    "hidden_cave_leave": "Leave the Cave",
    "room_reward": "Room rewards",
    "campaign_start": "Start campaign",
    "campaign_next": "Next stage",
    "end_game": "End the game",
}
# The menu's order: what the table does most at that moment first (in a battle, the heroes'
# side; between battles, the rooms).
ORDER = ("damage_piece", "hero_dagger", "freeze_piece", "room_reward", "recruit_mount",
         "campaign_next", "setup_room", "choose_lord",
         "setup_lord_room", "hidden_cave_collect", "hidden_cave_visit", "hidden_cave_portal",
         "hidden_cave_leave", "campaign_start", "hidden_cave_setup", "update_hero", "end_game")
IN_BATTLE_FIRST = ("damage_piece", "update_hero")


# --------------------------------------------------------------------------- names


def letter(n: int) -> str:
    """A, B, ... Z, then AA, AB ..."""
    letters = string.ascii_uppercase
    return letters[n] if n < len(letters) else letter(n // len(letters) - 1) + letters[n % 26]


def labels(battle: Battle) -> dict[str, str]:
    """Display names by id: the game's names, and a letter for each of several pieces of one
    monster ("Orc A", "Orc B"), given in the order the pieces joined the battle (placement
    order; a summoned piece takes the next letter)."""
    names = SPEC.names(battle)
    same: dict[str, list[str]] = {}
    for piece in battle.pieces.values():
        same.setdefault(piece.name, []).append(piece.id)
    for name, ids in same.items():
        if len(ids) > 1:
            names.update((pid, f"{name} {letter(n)}") for n, pid in enumerate(ids))
    names.update(_room_names(battle))
    return names


def _room_names(battle: Battle) -> dict[str, str]:
    """The Room cards of this game by their names, for the rules' sentences that write a
    room's id ("the game is over: room bholoth-cemetery")."""
    out: dict[str, str] = {}
    for room in (battle.adventure.room, *battle.adventure.visited):
        if room and room != "lord" and room not in out:
            try:
                out[room] = entered.room_card(battle, room)["name"]
            except KeyError:  # a room neither in the card data nor entered: its id will do
                continue
    return out


PLAYMAT_KEYS = (Key.LORD_PLAYMAT, Key.LORD_PLAYMAT_RIGHT)


def option_names(battle: Battle, question: Question | None) -> dict[str, str]:
    """Names for the options of a rules' question whose options are not pieces or heroes:
    the playmats of a Lord's setup card."""
    if question is not None and question.key in PLAYMAT_KEYS:
        return playmat_names(battle)
    return {}


# --------------------------------------------------------------------------- seats


def default_seats(battle: Battle, seats: tuple[int, ...]) -> dict[str, int]:
    """Seats when none were kept: the heroes in order, each companion at the first hero's."""
    out: dict[str, int] = {}
    party = [h for h in battle.heroes.values() if h.kind == "hero"]
    for hero, seat in zip(party, seats, strict=False):
        out[hero.id] = seat
    first = next(iter(out.values()), None)
    for member in battle.heroes.values():
        if member.id not in out and first is not None:
            out[member.id] = first
    return out


def monster_of(battle: Battle, piece_id: str) -> str | None:
    """The monster card (its id in the card data) a piece is one of."""
    piece = battle.pieces.get(piece_id)
    if piece is None:
        return None
    return next((m for m, r in battle.data.monsters.items() if r["name"] == piece.name), None)


def monster_pieces(battle: Battle) -> dict[tuple[str, str], tuple[str, ...]]:
    """A tapped monster card -> its pieces on the playmat (it answers a question whose
    options include one of them)."""
    out: dict[tuple[str, str], list[str]] = {}
    for pid, piece in battle.pieces.items():
        monster = monster_of(battle, pid)
        if monster is not None and piece.alive:
            out.setdefault(("monster", monster), []).append(pid)
    return {card: tuple(ids) for card, ids in out.items()}


def hero_cards(battle: Battle) -> dict[tuple[str, str], str]:
    """A tapped hero card -> the party member it names (heroes joined from the list keep the
    card's id)."""
    return {("hero", h): h for h in battle.heroes if h in games.catacombs_heroes()}


# --------------------------------------------------------------------------- lists


def _sort_key(label: str) -> str:
    return label.lower().removeprefix("the ")


def choose(prompt: str, options: tuple[str, ...], key: str, names: Mapping[str, str],
           cards_: Mapping[tuple[str, str], str] | None = None, first: tuple[str, ...] = ()
           ) -> LocalProcedure:
    """One of ``first`` or ``options``; when ``options`` is long, in two steps (``first`` and
    the groups of ``options`` in name order, then the group's options). A tapped card
    answers at either step."""
    taps = dict(cards_ or {})
    if len(options) <= GROUP_ABOVE:
        return (yield Ask(ChooseOne(prompt, (*first, *options), key), names=names, cards=taps))
    ordered = sorted(options, key=lambda o: _sort_key(names.get(o, o)))
    groups = [ordered[n:n + GROUP_SIZE] for n in range(0, len(ordered), GROUP_SIZE)]
    group_names = {f"group-{n}": _group_label(g, names) for n, g in enumerate(groups)}
    picked = yield Ask(ChooseOne(prompt, (*first, *group_names), key),
                       names={**names, **group_names}, cards=taps)
    if picked in options or picked in first:
        return picked  # one of the first, or a tapped card
    group = tuple(groups[int(picked.removeprefix("group-"))])
    return (yield Ask(ChooseOne(prompt, group, key), names=names, cards=taps))


def _group_label(group: list[str], names: Mapping[str, str]) -> str:
    def word(o: str) -> str:
        label = names.get(o, o)
        return (label[4:] if label.lower().startswith("the ") else label).split()[0]
    return f"{word(group[0])} .. {word(group[-1])}"


# --------------------------------------------------------------------------- new game


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
        names.update((h, short_name(r["name"])) for h, r in games.catacombs_heroes().items()
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
        record = games.catacombs_heroes().get(pick)
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
        known = games.catacombs_heroes()
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
                 for p, r in games.catacombs_data().playmats.items() if r["die"] == "d12"}
    owned = yield Ask(ChooseSome("Expansion playmats?", tuple(expansion), "new_playmats"),
                      names=expansion)
    cave = yield from _choice("Hidden Cave?", "new_hidden_cave", YES_NO)
    plays = {"room": "A single room", **{c: r["name"].removesuffix(" Campaign")
                                         for c, r in games.catacombs_data().campaigns.items()}}
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
                   {m["id"]: m["seat"] for m in members})


# --------------------------------------------------------------------------- forms


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


def options(move: str, name: str, battle: Battle) -> tuple[str, ...]:
    """What the move table offers for one parameter of a move now."""
    ask = next(ask_of(f) for f in fields(MOVES.moves[move].params) if f.name == name)
    assert ask.options is not None
    return tuple(ask.options(battle))


def campaign_room(battle: Battle) -> str | None:
    """The battle room of the campaign's stage under way, when it is not set up yet."""
    adventure = battle.adventure
    if adventure.campaign is None or adventure.stage == 0:
        return None
    stage = battle.data.stages[adventure.campaign][adventure.stage - 1]
    if stage["kind"] != "battle":
        return None
    name = adventure.visited[-1] if adventure.visited else stage["rooms"][0]
    known = known_room(battle, name)
    if known is not None and adventure.room == known["id"]:
        return None
    return name


def known_room(battle: Battle, name: str) -> dict[str, Any] | None:
    try:
        return entered.room_card(battle, name)
    except KeyError:
        return None


STAGE, ENTER_DONE, MERCENARY = "stage-room", "done", "mercenary"


def setup_room_form(battle: Battle, names: Mapping[str, str]) -> LocalProcedure:
    """The Room card: tapped, or chosen in two steps from the card data; in a campaign its
    stage's room comes first (and a card the data lacks is entered from what it shows)."""
    rooms = options("setup_room", "room", battle)
    room_names = {r: battle.data.rooms[r]["name"] for r in rooms}
    staged = campaign_room(battle)
    first: tuple[str, ...] = ()
    if staged is not None:
        known = known_room(battle, staged) is not None
        room_names[STAGE] = staged if known else f"{staged} (enter)"
        first = (STAGE,)
    room = yield from choose("Which Room card?", rooms, "form_room", room_names,
                             {("room", r): r for r in rooms}, first)
    if room != STAGE:
        return {"do": "setup_room", "room": room}
    assert staged is not None
    if known_room(battle, staged) is not None:
        return {"do": "setup_room", "room": staged}
    card = yield from enter_room_card(battle, staged)
    return {"do": "setup_room", "room": staged, "card": card}


def enter_room_card(battle: Battle, name: str) -> LocalProcedure:
    """A Room card the data lacks, read off the card: its level (when the campaign does not
    print it), each monster entry (monster, how many; a Monster Metre icon; a Mercenary icon
    when the game has its Lord), its Suppresses box (the shots it bars, none by default), the
    playmat it names (none by default: the setup rolls for it), the Spell card icon and the
    gold."""
    card: dict[str, Any] = {}
    if len(entered.printed_levels(battle.data, name)) != 1:
        levels = {"0": "Level 0", "1": "Level 1", "2": "Level 2"}
        card["level"] = int((yield Ask(ChooseOne(f"{name}: card level?", tuple(levels),
                                                 "form_card_level"), names=levels)))
    monsters = {r["name"]: r["name"] for r in battle.data.monsters.values()}
    metre = {f"Level {n} Monster Group": f"Monster Metre {n}" for n in range(1, 5)}
    entries: dict[str, list[str]] = {q: [] for q in cards.QUADRANTS}
    while True:
        extra = {ENTER_DONE: "Done"} if any(entries.values()) else {}
        if battle.adventure.mercenary is not None:
            extra[MERCENARY] = "Mercenary"
        extra.update(metre)
        picked = yield from choose(f"{name}: a monster?", tuple(monsters), "form_card_monster",
                                   {**monsters, **extra}, first=tuple(extra))
        if picked == ENTER_DONE:
            break
        count = yield Ask(EnterNumber("How many?", "form_card_count", 1, 10), start=1)
        if picked == MERCENARY:
            quadrants = {q: f"Level {q[-1]}" for q in cards.QUADRANTS}
            quadrant = yield Ask(ChooseOne("Mercenary: which level?", tuple(quadrants),
                                           "form_card_quadrant"), names=quadrants)
            entries[quadrant].append(f"{count} x {cards.MERCENARY}")
            continue
        group = cards.MONSTER_GROUP.match(picked)
        level = int(group.group(1)) if group else battle.data.monster(picked)["level"]
        entries[f"level{level}"].append(f"{count} x {picked}")
    card.update((q, e) for q, e in entries.items() if e)
    suppresses = yield from _suppresses(battle)
    if suppresses:
        card["suppresses"] = suppresses
    playmat = yield from _named_playmat(battle)
    if playmat is not None:
        card["playmat"] = playmat
    spell = yield Ask(ChooseOne("Spell card icon?", ("no", "yes"), "form_card_spell"),
                      names={"no": "No", "yes": "Yes"})
    card["reward_spell"] = spell == "yes"
    gold = yield Ask(EnterNumber("Gold icon (0: none)?", "form_card_gold", 0, 20), start=0)
    if gold:
        card["reward_gold"] = gold
    return card


def suppression_shots(battle: Battle) -> tuple[str, ...]:
    """The shots a Suppresses box names in the card data (rooms and monsters), in name
    order: what an entered card's box is chosen from."""
    records = (*battle.data.rooms.values(), *battle.data.monsters.values())
    return tuple(sorted({shot for r in records for shot in r.get("suppresses", [])}))


def _suppresses(battle: Battle) -> LocalProcedure:
    """The card's Suppresses box: the shots it bars the heroes (NEXT with none: no box)."""
    shots = suppression_shots(battle)
    picked = yield Ask(ChooseSome("Suppresses box?", shots, "form_card_suppresses"),
                       names={s: s.replace("+", " + ") for s in shots})
    return list(picked)


NO_PLAYMAT = "no-playmat"


def playmat_names(battle: Battle) -> dict[str, str]:
    """Each playmat's short name: its printed name, else its chart number."""
    return {p: r["name"] or f"{'Rune' if r['die'] == 'rune' else 'D12'} {r['face']}"
            for p, r in battle.data.playmats.items()}


def _named_playmat(battle: Battle) -> LocalProcedure:
    """The playmat the card names, if it names one (the first answer: none, the setup rolls)."""
    mats = playmat_names(battle)
    picked = yield from choose("Playmat on the card?", tuple(mats), "form_card_playmat",
                               {**mats, NO_PLAYMAT: "None: roll"}, first=(NO_PLAYMAT,))
    return None if picked == NO_PLAYMAT else picked


# --------------------------------------------------------------------------- a Lord card

LORD_HEALTH = 8  # where an entered Lord's health starts (the card's value is entered)
COMMON_SHOTS = ("melee", "missile", "fireball", "rush", "summon")  # first in the shot list
SEQUENCE_DONE, CARD_DONE, PAIR, NO_SECOND = "seq-done", "card-done", "pair", "none"
CONDITIONS = {"if_damage": "If Damage", "if_hit": "If Hit"}


def campaign_lord(battle: Battle) -> str | None:
    """The campaign's Catacomb Lord when its card is to be entered: a campaign under way, no
    Lord chosen yet, and its card not in the data."""
    under_way = battle.adventure.campaign
    if under_way is None or battle.adventure.lord is not None:
        return None
    start = battle.data.campaigns[under_way]["start"]
    return start if entered.known_lord(battle, start) is None else None


def _fit(prompt: str, shorter: str) -> str:
    """The prompt when the title bar holds it (else a page comes before the question)."""
    return prompt if len(prompt) <= TITLE_COLUMNS else shorter


def _shot_names() -> dict[str, str]:
    return {k: k.replace("_", " ").capitalize() for k in sorted(SHOT_KINDS)}


def _monster_names(battle: Battle) -> dict[str, str]:
    return {r["name"]: r["name"] for r in battle.data.monsters.values()}


def _shot(battle: Battle, kind: str) -> LocalProcedure:
    """A shot as the card writes it: a summon's monster, or the shot's modifiers."""
    label = kind.replace("_", " ").title()
    if kind == "summon":
        monsters = _monster_names(battle)
        monster = yield from choose("Summons which?", tuple(monsters), "form_lord_summons",
                                    monsters)
        return f"Summon:{monster}"
    mods = tuple(sorted(MODIFIERS))
    picked = yield Ask(ChooseSome(_fit(f"{label}: modifiers?", "Modifiers?"), mods,
                                  "form_lord_modifiers"),
                       names={m: m.replace("_", " ").capitalize() for m in mods})
    return "+".join((label, *(m.replace("_", " ").title() for m in picked)))


def _sequence(battle: Battle, number: int) -> LocalProcedure:
    """One shot sequence, shot by shot (a condition marks the shot before it); returns the
    shots as the card writes them, or None when the table says there are no more."""
    shots: list[str] = []
    conditioned = False  # the last shot carries a condition: a shot must follow
    shot_names = _shot_names()
    while True:
        first: dict[str, str] = {}
        if shots and not conditioned:
            first[SEQUENCE_DONE] = "Sequence done"
            first.update(CONDITIONS)
        elif not shots and number > 1:
            first[CARD_DONE] = "No more"
        others = tuple(k for k in shot_names if k not in COMMON_SHOTS)
        picked = yield from choose(f"Sequence {number}, shot {len(shots) + 1}?",
                                   others, "form_lord_shot", {**shot_names, **first},
                                   first=(*first, *COMMON_SHOTS))
        if picked == SEQUENCE_DONE:
            return shots
        if picked == CARD_DONE:
            return None
        if picked in CONDITIONS:
            shots.append(CONDITIONS[picked])
            conditioned = True
            continue
        shots.append((yield from _shot(battle, picked)))
        conditioned = False


def _minion(battle: Battle, name: str, first: Mapping[str, str] | None = None
            ) -> LocalProcedure:
    """One 'N x Monster' entry of the Minions box (or one of ``first``, as picked)."""
    monsters = _monster_names(battle)
    extra = dict(first or {})
    monster = yield from choose(f"{name}: a minion?", tuple(monsters), "form_lord_minion",
                                {**monsters, **extra}, first=tuple(extra))
    if monster in extra:
        return monster
    count = yield Ask(EnterNumber("How many?", "form_lord_count", 1, 10), start=1)
    return f"{count} x {monster}"


def enter_lord_card(battle: Battle, name: str) -> LocalProcedure:
    """A Catacomb Lord card the data lacks, read off the card: its health, each shot
    sequence shot by shot (modifiers, a summon's monster, If Damage / If Hit), its mercenary
    (one or two), its Minions box (entries, and a choice of two). Its playmats are not asked
    here: the room's setup asks them (``setup.lord_playmats``). The card is kept with the game
    as entered, ``verified = false``."""
    prompt = _fit(f"{name}: health?", "Lord's health?")
    health = yield Ask(EnterNumber(prompt, "form_lord_health", 1, 30), start=LORD_HEALTH)
    sequences: list[list[str]] = []
    while True:
        sequence = yield from _sequence(battle, len(sequences) + 1)
        if sequence is None:
            break
        sequences.append(sequence)
    monsters = _monster_names(battle)
    mercenary = [(yield from choose(_fit(f"{name}: mercenary?", "Mercenary?"), tuple(monsters),
                                    "form_lord_mercenary", monsters))]
    second = yield from choose("A second mercenary?", tuple(monsters), "form_lord_mercenary",
                               {**monsters, NO_SECOND: "None"}, first=(NO_SECOND,))
    if second != NO_SECOND:
        mercenary.append(second)
    minions: list[Any] = []
    while True:
        first = {**({ENTER_DONE: "Done"} if minions else {}), PAIR: "A choice of two"}
        picked = yield from _minion(battle, "Minions box", first)
        if picked == ENTER_DONE:
            break
        if picked == PAIR:
            minions.append([(yield from _minion(battle, "Left (1-6)")),
                            (yield from _minion(battle, "Right (7-12)"))])
        else:
            minions.append(picked)
    return {"health": health, "sequences": sequences, "mercenary": mercenary,
            "minions": minions}


ENTER_LORD = "enter-lord"
UNLISTED = "Unlisted Lord"  # the name of a Lord card entered outside a campaign


def choose_lord_form(battle: Battle, names: Mapping[str, str]) -> LocalProcedure:
    """The game's Catacomb Lord: from the card data (a tap of its card), or a card the data
    lacks entered off the table: in a campaign its own Lord (by the campaign's name for it),
    else one named ``UNLISTED`` (five buttons cannot type a name; the table has the card)."""
    lords = options("choose_lord", "lord", battle)
    lord_names = {lord: battle.data.lords[lord]["name"] for lord in lords}
    to_enter = campaign_lord(battle)
    if to_enter is None and battle.adventure.campaign is None \
            and entered.known_lord(battle, UNLISTED) is None:
        to_enter = UNLISTED  # a Lord card the data lacks: a name cannot be typed here
    first: tuple[str, ...] = ()
    if to_enter is not None:
        lord_names[ENTER_LORD] = f"{to_enter} (enter)"
        first = (ENTER_LORD,)
    lord = first[0] if first and not lords else (yield from choose(
        "Which Catacomb Lord?", lords, "form_lord", lord_names,
        {("lord", lord): lord for lord in lords}, first))
    if lord != ENTER_LORD:
        return {"do": "choose_lord", "lord": lord}
    assert to_enter is not None
    card = yield from enter_lord_card(battle, to_enter)
    return {"do": "choose_lord", "lord": to_enter, "card": card}


def form_of(name: str, battle: Battle, names: Mapping[str, str]
            ) -> tuple[Callable[[], LocalProcedure], str] | None:
    """How to (re)start the form a menu item opens, and its title: a move with parameters
    (when the rules allow it now); None for anything else (a form kept across a restart is
    then dropped)."""
    move = MOVES.moves.get(name)
    if move is not None and name in CONFIRM and move.available(battle):
        confirm = CONFIRM[name](battle, names)
        if confirm is not None:
            return (lambda: _confirmed(confirm, name)), SHORT.get(name, move.label)
    if move is None or not fields(move.params) or not move.available(battle):
        return None  # NEXT AI PIECE (no parameters) goes straight to the session
    return form(move, battle, names), SHORT.get(move.name, move.label)


def _confirmed(prompt: str, name: str) -> LocalProcedure:
    """A move asked to be sure of: Yes begins it, No nothing (``None``)."""
    sure = yield Ask(ChooseOne(prompt, ("no", "yes"), "form_confirm"),
                     names={"no": "No", "yes": "Yes"})
    return {"do": name} if sure == "yes" else None


def _end_confirm(battle: Battle, names: Mapping[str, str]) -> str | None:
    return "End the game now?"


def _next_confirm(battle: Battle, names: Mapping[str, str]) -> str | None:
    """The next stage while this stage's room is not played: asked first."""
    room = campaign_room(battle)
    return None if room is None else _fit(f"Skip {room}?", "Skip this stage's room?")


# The moves the table confirms first (a prompt, or None: no need now).
CONFIRM: dict[str, Callable[[Battle, Mapping[str, str]], str | None]] = {
    "end_game": _end_confirm, "campaign_next": _next_confirm}


def offered(move: Move[Any], battle: Battle) -> bool:
    """The menu offers the move: its form has something to ask (the campaign Lord to enter
    counts for ``choose_lord``, the stage's room to enter for ``setup_room``)."""
    if move.name == "choose_lord" and campaign_lord(battle) is not None:
        return True
    if move.name == "setup_room" and campaign_room(battle) is not None:
        return True  # the stage's room, entered when the data lacks it
    return forms.askable(move, battle)


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
    label = names.get(piece, piece)
    low, high = _damage_range()
    amount = yield Ask(EnterNumber(_fit(f"{label}: damage?", "How much damage?"),
                                   "form_amount", low, high),
                       start=1, remember=True)
    action: dict[str, Any] = {"do": "damage_piece", "piece": piece, "amount": amount}
    hit = battle.pieces.get(piece)
    if hit is not None and not hit.invulnerable and not hit.mount and amount >= hit.health:
        heroes = tuple(h for h in options("damage_piece", "by", battle))
        if heroes:
            action["by"] = heroes[0] if len(heroes) == 1 else (yield Ask(
                ChooseOne(_fit(f"{label}: whose shot?", "Whose shot was it?"), heroes,
                          "form_by"),
                names=names, cards=hero_cards(battle)))
    return action


def _damage_range() -> tuple[int, int]:
    ask = next(ask_of(f) for f in fields(MOVES.moves["damage_piece"].params)
               if f.name == "amount")
    return ask.low, ask.high


FORMS: dict[str, Callable[[Battle, Mapping[str, str]], LocalProcedure]] = {
    "damage_piece": damage_piece_form,
    "update_hero": update_hero_form,
    "setup_room": setup_room_form,
    "choose_lord": choose_lord_form,
}


def generic_form(move: Move[Any], battle: Battle, names: Mapping[str, str]) -> LocalProcedure:
    """The move table's own form (app/forms.py), each question with its names."""
    names = {**names, forms.NONE: "None"}
    taps = hero_cards(battle)
    proc = forms.form(move, battle)
    try:
        question = next(proc)
        while True:
            listed = getattr(question, "options", ())
            mine = {card: h for card, h in taps.items() if h in listed}
            question = proc.send((yield Ask(question, names=names, cards=mine)))
    except StopIteration as stop:
        return stop.value


def form(move: Move[Any], battle: Battle, names: Mapping[str, str]
         ) -> Callable[[], LocalProcedure]:
    """How to (re)start the move's form."""
    custom = FORMS.get(move.name)
    if custom is not None:
        return lambda: custom(battle, names)
    return lambda: generic_form(move, battle, names)


# --------------------------------------------------------------------------- the glass


def menu(battle: Battle, legal: list[Move[Any]], over: bool) -> tuple[MenuItem, ...]:
    """The legal actions (NEXT AI PIECE has its own button), then the party and a new game."""
    single = battle.adventure.campaign is None and battle.adventure.room is not None
    moves = [m for m in legal if m.name != SPEC.main_move and offered(m, battle)
             and not (m.name == "room_reward" and not battle.pieces)  # no room fought yet
             and not (m.name == "campaign_start" and single)]  # a single room's game
    fighting = end.in_battle(battle)
    stage_room = campaign_room(battle) is not None  # the stage's room: set it up first

    def rank(move: Move[Any]) -> tuple[int, int]:
        first = fighting and move.name in IN_BATTLE_FIRST
        at = ORDER.index(move.name) if move.name in ORDER else len(ORDER)
        if stage_room and move.name == "setup_room":
            at = ORDER.index("campaign_next") - 1
        elif stage_room and move.name == "campaign_next":
            at = ORDER.index("campaign_next") + 1
        return (0 if first else 1, IN_BATTLE_FIRST.index(move.name) if first else at)
    moves.sort(key=rank)
    items = [MenuItem(SHORT.get(m.name, m.label), {"do": m.name}) for m in moves]
    items.append(MenuItem("Summary" if over else "Party", {"do": PARTY}))
    if not over:
        items.append(MenuItem("Dice", {"do": DICE_MODE}))
    items.append(MenuItem("New game", {"do": NEW_GAME}))
    return tuple(items)


def title(battle: Battle) -> str:
    room = battle.adventure.room
    if room == "lord" and battle.adventure.lord:
        return entered.lord_card(battle, battle.adventure.lord)["name"]
    if room:
        return entered.room_card(battle, room)["name"]
    return "Catacombs"


# The actions that set a battle up: until an AI piece has acted, the idle screen says "Battle";
# after one has (and while the table enters what the heroes did), "Heroes' turn".
BATTLE_BEGINS = frozenset({None, "setup_room", "setup_lord_room", "campaign_start",
                           "campaign_next"})


def idle_key(battle: Battle, last: str | None) -> str:
    """The idle screen's key word: whose turn, or where the game stands."""
    outcome = end.outcome(battle)
    if outcome is end.Outcome.ROOM_WON:
        return "Room won"
    if outcome is end.Outcome.PARTY_DEFEATED:
        return "Defeated"
    if end.in_battle(battle):
        return "Battle" if last in BATTLE_BEGINS else "Heroes' turn"
    return "Set up" if battle.adventure.room is None else "Between"


def status(battle: Battle, names: Mapping[str, str]) -> tuple[str, ...]:
    """Two short lines for the idle screen."""
    party = "  ".join(f"{short_name(h.name)} {h.health}" for h in battle.heroes.values()
                      if h.kind == "hero")
    if end.in_battle(battle):
        left = sum(1 for p in battle.pieces.values() if p.alive)
        return f"Round {battle.round}: {left} AI left", party
    return (party,)


def short_name(name: str) -> str:
    """A name for a crowded line: whole when short ("Hero 1"), else its first word."""
    return name if len(name) <= 7 else name.split()[0]


def _hero_lines(hero: Hero, names: Mapping[str, str],
                spells: Sequence[str] = ()) -> tuple[str, ...]:
    state = [s for s in ("frozen", "reckless", "stunned") if getattr(hero, s)]
    if hero.riding:
        state.append(f"rides {names.get(hero.riding, hero.riding)}")
    if hero.away:
        state.append(hero.away.replace("_", " "))
    if not hero.alive:
        state.insert(0, "destroyed")
    poison = f"Poison {len(hero.poison)}" + (f" ({hero.poison_total})" if hero.poison else "")
    lines = (f"Health {hero.health}  Gold {hero.gold}", f"{poison}  Items {len(hero.items)}",
             ", ".join(state) or hero.kind)
    return (*lines, f"Spell cards: {', '.join(spells)}") if spells else lines


def party_pages(battle: Battle, names: Mapping[str, str], heading: str) -> tuple[Screen, ...]:
    """Every member's health, gold and poison, a page each; then the AI pieces left."""
    pages = [(h.name, _hero_lines(h, names, battle.adventure.spells.get(h.id, ())))
             for h in battle.heroes.values()]
    alive = [f"{names.get(p.id, p.name)}: {p.health}" for p in battle.pieces.values()
             if p.alive]
    per = detail_rows(Screen(heading))
    chunks = [alive[n:n + per] for n in range(0, len(alive), per)] or [["none on the playmat"]]
    count = len(pages) + len(chunks)
    out = [Screen(heading, lines, key=key, page=(n + 1, count))
           for n, (key, lines) in enumerate(pages)]
    out += [Screen("AI pieces: health", tuple(chunk), page=(len(pages) + n + 1, count))
            for n, chunk in enumerate(chunks)]
    return tuple(out)


def _not_now(battle: Battle, card: str) -> str:
    """Why a Room or Lord card begins nothing now, in a few words."""
    if end.is_over(battle):
        return "the game is over"
    if end.in_battle(battle):
        return f"the battle goes on: a {card} is set up between battles"
    return f"no {card} can be set up now"


def tap_actions(battle: Battle, legal: list[Move[Any]]) -> TapActions:
    """What a Room or a Catacomb Lord card begins when tapped with no question waiting (or
    why it cannot now); a hero's card opens "Hero changed" for that hero."""
    moves = {m.name for m in legal}
    out: TapActions = {}
    choosable = set(options("setup_room", "room", battle)) if "setup_room" in moves else set()
    for room_id, record in battle.data.rooms.items():
        if room_id in choosable:
            out[("room", room_id)] = {"do": "setup_room", "room": room_id}
        elif "setup_room" in moves:
            out[("room", room_id)] = (f"{record['name']} has Mercenary icons: choose the "
                                      "Catacomb Lord first")
        else:
            out[("room", room_id)] = _not_now(battle, "room")
    chosen = battle.adventure.lord
    lords = set(options("choose_lord", "lord", battle)) if "choose_lord" in moves else set()
    for lord_id in battle.data.lords:
        if lord_id in lords:
            out[("lord", lord_id)] = {"do": "choose_lord", "lord": lord_id}
        elif "setup_lord_room" in moves and chosen == lord_id:
            out[("lord", lord_id)] = {"do": "setup_lord_room"}
        elif chosen is not None and chosen != lord_id:
            lord = entered.lord_card(battle, chosen)["name"]
            out[("lord", lord_id)] = f"this game's Catacomb Lord is {lord}"
        else:
            out[("lord", lord_id)] = _not_now(battle, "Lord's room")
    if "update_hero" in moves:  # a hero's card: what changed for that hero
        for card, hero in hero_cards(battle).items():
            out[card] = OpensForm({"do": "update_hero"}, {"form_hero": hero})
    if "damage_piece" in moves:  # a monster's card: one of its pieces was hit
        alive = {card[1] for card in monster_pieces(battle)}
        for monster in battle.data.monsters:
            out[("monster", monster)] = OpensForm(
                {"do": "damage_piece"}, {}, card=("monster", monster)) if monster in alive \
                else f"no {battle.data.monsters[monster]['name']} is on the playmat"
    return out


FLOW = Flow(
    game=GAME, label="Catacombs", spec=SPEC, wizard=wizard, labels=labels,
    default_seats=default_seats,
    option_names=option_names, cards=hero_cards, menu=menu, form_of=form_of, title=title,
    idle_key=idle_key, status=status, party_pages=party_pages, tap_actions=tap_actions,
    card_options=monster_pieces)
