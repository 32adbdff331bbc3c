"""The Catacombs Room and Lord cards on the five buttons: the Room card a room is set up with
(``setup_room_form``: tapped, chosen from the card data, or a campaign stage's card the data
lacks entered off the table), the Catacomb Lord (``choose_lord_form``, and ``enter_lord_card``:
a Lord card the data lacks, read off the card)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from overseer.app.catacombs_choices import choose, fit, options
from overseer.app.local import Ask, LocalProcedure
from overseer.core.procedure import ChooseOne, ChooseSome, EnterNumber
from overseer.rules.catacombs import cards, entered
from overseer.rules.catacombs.state import MODIFIERS, SHOT_KINDS, Battle


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
                       names={s: s.replace("+", " + ") for s in shots},
                       cursor=len(shots))  # on Done: most cards have no box
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
    picked = yield Ask(ChooseSome(fit(f"{label}: modifiers?", "Modifiers?"), mods,
                                  "form_lord_modifiers"),
                       names={m: m.replace("_", " ").capitalize() for m in mods},
                       cursor=len(mods))  # on Done: most shots have none
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
    prompt = fit(f"{name}: health?", "Lord's health?")
    health = yield Ask(EnterNumber(prompt, "form_lord_health", 1, 30), start=LORD_HEALTH)
    sequences: list[list[str]] = []
    while True:
        sequence = yield from _sequence(battle, len(sequences) + 1)
        if sequence is None:
            break
        sequences.append(sequence)
    monsters = _monster_names(battle)
    mercenary = [(yield from choose(fit(f"{name}: mercenary?", "Mercenary?"), tuple(monsters),
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
