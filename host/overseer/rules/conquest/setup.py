"""Setting up a Conquest game: teams, discs, pools, bank, starting hands, the first team.

The setup dict (a scenario's ``"setup"``, or what the session stores)::

    {"players": {"ann": "sword", "bo": "skull"},   # 2 to 4 players, seat order
     "health": 8,            # optional: starting tokens per team, 1..11
     "draw_at_end": false,   # optional rule: draw at the end of the turn
     "last_stand": false,    # optional rule: last stand
     "first": "sword",       # optional: the first team; absent, the start action rolls for it
     "draws": "box",         # optional: box (seeded draws), tapped (each card drawn is tapped),
                             # counted (only the cards leaving a hand are tapped): state.DRAWS
     "cards": {"sword-07": {"shots": ["rush"], "ability": "none", "armour": "no"}}}
                             # optional: facts of cards the card data leaves unknown
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from overseer.core.procedure import Die, Procedure, Roll, Step
from overseer.core.shapes import at, check_keys
from overseer.rules.conquest import rulebook
from overseer.rules.conquest.cards import ABILITIES, SHOTS, Card
from overseer.rules.conquest.decks import draw
from overseer.rules.conquest.kinds import Key, StepKind
from overseer.rules.conquest.state import (
    DRAWS,
    TEAM_NAMES,
    TEAMS,
    TOKENS,
    ConquestState,
    Options,
    disc_id,
)
from overseer.rules.conquest.turns import begin_turn

SETUP_KEYS = ("players", "health", "draw_at_end", "last_stand", "first", "draws", "cards")
FACTS = ("shots", "ability", "armour")


class SetupError(ValueError):
    """A setup the rules cannot start from; the message says which field and why."""


def _flag(setup: dict[str, Any], name: str) -> bool:
    value = setup.get(name, False)
    if not isinstance(value, bool):
        raise SetupError(f"setup '{name}' must be true or false (got {value!r})")
    return value


def _fact(card: Card, name: str, value: Any) -> Any:
    """One filled-in fact, checked; as the card data holds it."""
    if name == "shots":
        if not isinstance(value, list) or not value or any(v not in SHOTS for v in value):
            raise SetupError(f"setup 'cards' {card.id}: shots must be a non-empty list of "
                             f"{', '.join(SHOTS)} (got {value!r})")
        return tuple(value)
    choices = (*ABILITIES, "other") if name == "ability" else ("yes", "no")
    if value not in choices:
        raise SetupError(f"setup 'cards' {card.id}: {name} must be one of {', '.join(choices)} "
                         f"(got {value!r})")
    return value


def fill_in(cards: dict[str, Card], facts: Any) -> dict[str, Card]:
    """The card list with the setup's filled-in facts. A fact the card data already knows
    cannot be changed (printed facts stay printed)."""
    if not isinstance(facts, dict):
        raise SetupError(f"setup 'cards' must map card ids to facts (got {facts!r})")
    cards = dict(cards)
    for card_id, given in facts.items():
        if card_id not in cards:
            raise SetupError(f"setup 'cards': there is no Conquest card {card_id!r}")
        check_keys(given, FACTS, at("cards", card_id))
        card = cards[card_id]
        changes = {}
        for name, value in given.items():
            value = _fact(card, name, value)
            known = getattr(card, name)
            if known not in ("unknown", ()) and known != value:
                raise SetupError(f"setup 'cards' {card_id}: the card data already gives {name} "
                                 f"{known!r}; only unknown facts can be filled in")
            changes[name] = value
        cards[card_id] = replace(card, **changes)
    return cards


def build_state(setup: dict[str, Any], cards: dict[str, Card]) -> ConquestState:
    """The state before the start action: checked, nothing drawn yet. An unknown key raises
    ``BadInput`` with its path inside the setup (``cards.salavi.armor``)."""
    if not isinstance(setup, dict):
        raise SetupError(f"setup must be an object (got {setup!r})")
    check_keys(setup, SETUP_KEYS, "")
    players = setup.get("players")
    # Conquest: Game Overview - two to four players, on the Sword and Skull teams.
    if not isinstance(players, dict) or not 2 <= len(players) <= 4:
        raise SetupError("setup 'players' must map 2 to 4 player ids to a team "
                         f"('sword' or 'skull') (got {players!r})")
    for player, team in players.items():
        if team not in TEAMS:
            raise SetupError(f"player {player!r}: team must be 'sword' or 'skull' (got {team!r})")
    controller: dict[str, str] = {}
    for team in TEAMS:
        members = [p for p, t in players.items() if t == team]
        # Conquest: Three or Four Players - one or two players per team.
        if not 1 <= len(members) <= 2:
            raise SetupError(f"the {TEAM_NAMES[team]} needs one or two players "
                             f"(got {len(members)})")
        # Conquest: Three or Four Players - two players take a disc each (seat order); a lone
        # player runs both discs.
        controller[disc_id(team, 1)] = members[0]
        controller[disc_id(team, 2)] = members[-1]
    health = setup.get("health", 8)
    # Conquest: Team Setup - 8 each by default, adjustable. Ruling: 1..11, so that both pools
    # come out of the 24 tokens and the bank starts with at least two.
    if isinstance(health, bool) or not isinstance(health, int) or not 1 <= health <= 11:
        raise SetupError(f"setup 'health' must be a whole number 1..11 (got {health!r})")
    first = setup.get("first")
    if first is not None and first not in TEAMS:
        raise SetupError(f"setup 'first' must be 'sword' or 'skull' (got {first!r})")
    draws = setup.get("draws", "box")
    if draws not in DRAWS:
        raise SetupError(f"setup 'draws' must be one of {', '.join(DRAWS)} (got {draws!r})")
    printed = dict(cards)
    facts = setup.get("cards", {})
    cards = fill_in(cards, facts)
    options = Options(health=health, draw_at_end=_flag(setup, "draw_at_end"),
                      last_stand=_flag(setup, "last_stand"), draws=draws)
    decks = {t: [c.id for c in cards.values() if c.team == t] for t in TEAMS}
    return ConquestState(options=options, cards=dict(cards), players=dict(players),
                         controller=controller, pools={t: health for t in TEAMS},
                         bank=TOKENS - 2 * health, decks=decks,
                         hands={p: [] for p in players}, first=first, printed=printed,
                         entered={c: {k: list(v) if k == "shots" else v for k, v in f.items()}
                                  for c, f in facts.items()})


def hand_size(state: ConquestState, player: str) -> int:
    """Conquest: Card Decks; Reference, Starting Card Draw - four each; the lone player of a
    three-player game draws eight. Turn Summary, Advanced Rule - one more when drawing at the
    end of the turn."""
    team = state.players[player]
    lone_of_three = len(state.players) == 3 and len(state.team_players(team)) == 1
    return (8 if lone_of_three else 4) + (1 if state.options.draw_at_end else 0)


def start(state: ConquestState) -> Procedure:
    """The start action: the first team, the starting hands, then the first turn begins."""
    if state.first is None:
        # Conquest: Turn Summary - the first team is random. Ruling: a D12, 1-6 Sword, 7-12 Skull.
        face = yield Roll(die=Die.D12, purpose="first team: 1-6 Sword, 7-12 Skull",
                          key=Key.FIRST_TEAM)
        state.first = "sword" if face <= 6 else "skull"
        yield Step(StepKind.FIRST_TEAM, rulebook.TURN,
                   f"D12 rolled {face}: the {TEAM_NAMES[state.first]} goes first.",
                   {"team": state.first, "roll": face})
    else:
        yield Step(StepKind.FIRST_TEAM, rulebook.TURN,
                   f"The {TEAM_NAMES[state.first]} goes first (set by the table).",
                   {"team": state.first, "roll": None})
    for player in state.players:
        size = hand_size(state, player)
        yield Step(StepKind.DEAL, rulebook.CARD_DECKS,
                   "{player} ({team}) draws {size} cards.",
                   {"player": player, "cards": size},
                   {"player": (player, player), "team": TEAM_NAMES[state.players[player]],
                    "size": size})
        for _ in range(size):
            # counted: the deal's step says it all (the box knows no card drawn)
            yield from draw(state, player, rulebook.CARD_DECKS,
                            say=state.options.draws != "counted")
    state.started = True
    state.team_to_act = state.first
    yield from begin_turn(state)
