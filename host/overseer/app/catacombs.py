"""Catacombs at the table: what the shell (app/shell.py) needs beyond the rules to run a whole
game on the five buttons (``TABLE``, the game record's table).

- the new-game questions: app/catacombs_new.py (``wizard``);
- the forms: a move's parameters asked as questions, long lists in groups
  (app/catacombs_choices.py); what the heroes did (a hit, a hero changed:
  app/catacombs_heroes.py); the Room and Lord cards, a card the data lacks entered off the table
  (app/catacombs_cards.py); the moves confirmed first (``CONFIRM``);
- ``labels``: identical monsters told apart ("Orc A", "Orc B") on every screen, from
  placement on (the rules' steps and questions name pieces as facts, drawn with these names);
- the glass between actions: the menu's order and short labels, the idle screen's key word and
  status, the party screen, what a tapped card begins (a hero's card answers "Who joins the
  party?"; the heroes are data/catacombs/heroes.toml).
"""

from __future__ import annotations

import string
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from overseer.app import catacombs_page, forms
from overseer.app.catacombs_cards import (
    campaign_lord,
    campaign_room,
    choose_lord_form,
    playmat_names,
    setup_room_form,
)
from overseer.app.catacombs_choices import (
    fit,
    hero_cards,
    monster_pieces,
    options,
    short_name,
)
from overseer.app.catacombs_heroes import damage_piece_form, update_hero_form
from overseer.app.catacombs_new import wizard
from overseer.app.flow import DICE_MODE, Table, TapActions
from overseer.app.local import LocalProcedure
from overseer.app.menu import MenuItem, OpensForm
from overseer.app.story import Story
from overseer.core.moves import Move
from overseer.core.procedure import ChooseSome, Question
from overseer.games import GameSpec
from overseer.rules.catacombs import end, entered, scenario
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.rules.catacombs.moves import game_over
from overseer.rules.catacombs.state import Battle, Hero
from overseer.screens.render import Screen, detail_rows

GAME = "catacombs"

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
    "correct": "Correct books",
}
# The menu's order: what the table does most at that moment first (in a battle, the heroes'
# side; between battles, the rooms).
ORDER = ("damage_piece", "hero_dagger", "freeze_piece", "room_reward", "recruit_mount",
         "campaign_next", "setup_room", "choose_lord",
         "setup_lord_room", "hidden_cave_collect", "hidden_cave_visit", "hidden_cave_portal",
         "hidden_cave_leave", "campaign_start", "hidden_cave_setup", "update_hero", "correct",
         "end_game")
IN_BATTLE_FIRST = ("damage_piece", "update_hero")
MAIN_MOVE = "next_ai_piece"  # NEXT AI PIECE: its own button, not on the menu


# --------------------------------------------------------------------------- names


def letter(n: int) -> str:
    """A, B, ... Z, then AA, AB ..."""
    letters = string.ascii_uppercase
    return letters[n] if n < len(letters) else letter(n // len(letters) - 1) + letters[n % 26]


def labels(battle: Battle) -> dict[str, str]:
    """Display names by id: the game's names, and a letter for each of several pieces of one
    monster ("Orc A", "Orc B"), given in the order the pieces joined the battle (placement
    order; a summoned piece takes the next letter)."""
    names = scenario.names(battle)
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


def _end_confirm(battle: Battle, names: Mapping[str, str]) -> str | None:
    return "End the game now?"


def _next_confirm(battle: Battle, names: Mapping[str, str]) -> str | None:
    """The next stage while this stage's room is not played: asked first."""
    room = campaign_room(battle)
    return None if room is None else fit(f"Skip {room}?", "Skip this stage's room?")


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


FORMS: dict[str, Callable[[Battle, Mapping[str, str]], LocalProcedure]] = {
    "damage_piece": damage_piece_form,
    "update_hero": update_hero_form,
    "setup_room": setup_room_form,
    "choose_lord": choose_lord_form,
}


def generic_taps(battle: Battle, question: Question) -> dict[tuple[str, str], str]:
    """The hero cards whose tap answers a generic form's question (those among its options)."""
    listed = getattr(question, "options", ())
    return {card: h for card, h in hero_cards(battle).items() if h in listed}


def shown(move: Move[Any], battle: Battle) -> bool:
    """A legal move the menu shows: not NEXT AI PIECE (it has its own button), not the room
    rewards before a room is fought, not a campaign in a single room's game; one whose form has
    something to ask (``offered``)."""
    single = battle.adventure.campaign is None and battle.adventure.room is not None
    return (move.name != MAIN_MOVE and offered(move, battle)
            and not (move.name == "room_reward" and not battle.pieces)  # no room fought yet
            and not (move.name == "campaign_start" and single))  # a single room's game


def rank(move: Move[Any], battle: Battle) -> tuple[int, int]:
    """The menu's order: in a battle what the heroes did first; a campaign stage's room to
    set up just before the next stage."""
    first = end.in_battle(battle) and move.name in IN_BATTLE_FIRST
    at = ORDER.index(move.name) if move.name in ORDER else len(ORDER)
    if campaign_room(battle) is not None:  # the stage's room: set it up first
        if move.name == "setup_room":
            at = ORDER.index("campaign_next") - 1
        elif move.name == "campaign_next":
            at = ORDER.index("campaign_next") + 1
    return (0 if first else 1, IN_BATTLE_FIRST.index(move.name) if first else at)


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
    no_room, no_lord = _not_now(battle, "room"), _not_now(battle, "Lord's room")  # once each
    choosable = set(options("setup_room", "room", battle)) if "setup_room" in moves else set()
    for room_id, record in battle.data.rooms.items():
        if room_id in choosable:
            out[("room", room_id)] = {"do": "setup_room", "room": room_id}
        elif "setup_room" in moves:
            out[("room", room_id)] = (f"{record['name']} has Mercenary icons: choose the "
                                      "Catacomb Lord first")
        else:
            out[("room", room_id)] = no_room
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
            out[("lord", lord_id)] = no_lord
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


class CatacombsTable(Table):
    """Catacombs at the table: NEXT AI PIECE on its button, the rest on the menu."""

    game, label = GAME, "Catacombs"
    order, short, forms = ORDER, SHORT, FORMS
    # A hit's result (the piece's health or its end, the gold, the Hidden Cave) is the table's
    # own entry: the next hit's card is taken over it. A reactive shot, a flip, the room won
    # are still read first.
    taps_skip = frozenset({StepKind.PIECE_DAMAGED, StepKind.PIECE_DOWN, StepKind.GOLD,
                           StepKind.NO_GOLD, StepKind.NO_DAMAGE, StepKind.PASSES_TO_RIDER,
                           StepKind.HIDDEN_CAVE_COLLECT})

    def wizard(self, seats: tuple[int, ...], pico: bool) -> LocalProcedure:
        return wizard(seats, pico)

    def labels(self, state: Battle) -> dict[str, str]:
        return labels(state)

    def option_names(self, state: Battle, question: Question | None) -> dict[str, str]:
        return option_names(state, question)

    def default_seats(self, state: Battle, seats: tuple[int, ...]) -> dict[str, int]:
        return default_seats(state, seats)

    def cards(self, state: Battle) -> dict[tuple[str, str], str]:
        return hero_cards(state)

    def card_options(self, state: Battle) -> dict[tuple[str, str], tuple[str, ...]]:
        return monster_pieces(state)

    def offered(self, move: Move[Any], state: Battle) -> bool:
        return shown(move, state)

    def rank(self, move: Move[Any], state: Battle) -> tuple[int, int]:
        return rank(move, state)

    def own_items(self, state: Battle, over: bool) -> tuple[MenuItem, ...]:
        party, new = super().own_items(state, over)
        return (party, new) if over else (party, MenuItem("Dice", {"do": DICE_MODE}), new)

    def confirm(self, name: str, state: Battle, names: Mapping[str, str]) -> str | None:
        ask = CONFIRM.get(name)
        return None if ask is None else ask(state, names)

    def taps(self, state: Battle, question: Question) -> dict[tuple[str, str], str]:
        return generic_taps(state, question)

    def likely(self, state: Battle, question: Question) -> int:
        """Who is under the boomerang's ruler: most often nobody (the cursor on Done)."""
        if isinstance(question, ChooseSome) and question.key == Key.UNDER_RULER:
            return len(question.options)
        return 0

    def title(self, state: Battle) -> str:
        return title(state)

    def where(self, state: Battle) -> str:
        """The room the game is in, by its card's name (the Lord's room by the Lord's card; a
        card the table entered by the name it was entered with); "" before any room."""
        if not state.adventure.room:
            return ""
        try:
            return title(state)
        except KeyError:  # neither in the card data nor entered: its id will do
            return state.adventure.room

    def result(self, state: Battle, names: Mapping[str, str]) -> str:
        """The end in the table's names: "the game is over: room Bholoth Cemetery" (the rules
        keep the room's id)."""
        said = end.result(state) or ""
        over = game_over(state)
        return over.drawn(names) if said == over.text else said

    def idle_key(self, state: Battle, last: str | None) -> str:
        return idle_key(state, last)

    def status(self, state: Battle, names: Mapping[str, str]) -> tuple[str, ...]:
        return status(state, names)

    def party_pages(self, state: Battle, names: Mapping[str, str], heading: str
                    ) -> tuple[Screen, ...]:
        return party_pages(state, names, heading)

    def tap_actions(self, state: Battle, legal: list[Move[Any]]) -> TapActions:
        return tap_actions(state, legal)

    def page(self, state: Battle, names: Mapping[str, str], seats: Mapping[str, int]
             ) -> dict[str, Any]:
        return catacombs_page.party(state, names, seats)

    def story(self, spec: GameSpec, record: Any) -> Story:
        return catacombs_page.story(spec, record)


TABLE = CatacombsTable()
