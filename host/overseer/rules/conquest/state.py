"""The state of a Catacombs Conquest game: what the box keeps for the table.

Teams, who controls which disc, the health pools and the bank, the decks (kept as the set of
cards still in them: a draw picks one, see ``turns.draw``), hands, discard piles, retained
armour, the turn trackers, stunned players, and how the game ended.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from overseer.rules.conquest.cards import Card

TEAMS = ("sword", "skull")
TEAM_NAMES = {"sword": "Sword Team", "skull": "Skull Team"}
# Conquest: Components - 24 double-sided Health Tokens in all (pools plus bank).
TOKENS = 24


def other(team: str) -> str:
    return "skull" if team == "sword" else "sword"


def disc_id(team: str, n: int) -> str:
    """Disc ``n`` (1 or 2) of a team: ``sword1``, ``skull2``..."""
    return f"{team}{n}"


# Who draws the cards, and what the box knows of the hands (setup ``draws``):
# - ``box``: the box draws from its seed (scenarios, simulations); it knows every hand;
# - ``tapped``: the players draw the real cards and tap (or choose) each one drawn: the box
#   knows every hand;
# - ``counted``: the players draw the real cards and tap only the card played (or discarded):
#   the box counts the cards in each hand and knows which cards have left the deck for good.
DRAWS = ("box", "tapped", "counted")


@dataclass(frozen=True)
class Options:
    health: int = 8            # Conquest: Team Setup - 8 tokens each by default, adjustable
    draw_at_end: bool = False  # Conquest: Turn Summary, Advanced Rule (Optional)
    last_stand: bool = False   # Conquest: Winning the Game, Advanced Rule (Optional)
    draws: str = "box"         # who draws, what the box knows of the hands (DRAWS)


@dataclass
class Over:
    reason: str
    winner: str | None
    tokens: dict[str, int]
    cards_in_hand: dict[str, int]


@dataclass
class ConquestState:
    options: Options
    cards: dict[str, Card]
    players: dict[str, str]              # player id -> team, in seat order
    controller: dict[str, str]           # disc id -> player id
    pools: dict[str, int]
    bank: int
    decks: dict[str, list[str]]          # team -> cards still in the deck (in card-list order)
    hands: dict[str, list[str]]          # player id -> card ids, in the order drawn
    discards: dict[str, list[str]] = field(default_factory=lambda: {t: [] for t in TEAMS})
    retained: dict[str, list[str]] = field(default_factory=lambda: {t: [] for t in TEAMS})
    in_play: list[str] = field(default_factory=list)  # cards being played right now
    tracker: dict[str, int] = field(default_factory=lambda: {t: 1 for t in TEAMS})
    first: str | None = None
    started: bool = False
    team_to_act: str | None = None
    turn_number: int = 0
    stunned: list[str] = field(default_factory=list)
    over: Over | None = None
    # The cards as the card data prints them (``cards`` adds the facts the table entered:
    # ``entered`` holds those, by card id, as a setup's ``cards`` takes them).
    printed: dict[str, Card] = field(default_factory=dict)
    entered: dict[str, dict[str, Any]] = field(default_factory=dict)
    reread: bool = False  # the next card played is read off the card again

    # ----------------------------------------------------------------- who acts

    def next_disc(self, team: str) -> str:
        """The disc the team's turn tracker shows (Conquest: Card Decks, Turn Trackers)."""
        return disc_id(team, self.tracker[team])

    def acting_player(self) -> str | None:
        if self.team_to_act is None or self.over is not None:
            return None
        return self.controller[self.next_disc(self.team_to_act)]

    def team_discs(self, team: str) -> tuple[str, str]:
        return (disc_id(team, 1), disc_id(team, 2))

    def team_players(self, team: str) -> list[str]:
        return [p for p, t in self.players.items() if t == team]

    def cards_in_hand(self, team: str) -> int:
        return sum(len(self.hands[p]) for p in self.team_players(team))


def state_dict(state: ConquestState) -> dict[str, Any]:
    """The state as JSON-able data (what the screens, the LEDs and scenario checks read)."""
    acting = state.acting_player()
    return {
        "options": {"health": state.options.health, "draw_at_end": state.options.draw_at_end,
                    "last_stand": state.options.last_stand, "draws": state.options.draws},
        "players": {p: {"team": t, "discs": [d for d, c in state.controller.items() if c == p]}
                    for p, t in state.players.items()},
        "first": state.first,
        "started": state.started,
        "turn": None if acting is None or state.team_to_act is None else {
            "number": state.turn_number, "team": state.team_to_act,
            "disc": state.next_disc(state.team_to_act), "player": acting},
        # the turn trackers, one per team: what the seat LEDs show
        "next_disc": {t: state.next_disc(t) for t in TEAMS},
        "pools": dict(state.pools),
        "bank": state.bank,
        "decks": {t: list(state.decks[t]) for t in TEAMS},
        "deck_counts": {t: len(state.decks[t]) for t in TEAMS},
        # counted: the box knows how many cards a hand holds, not which (the ids are its guess)
        "hands": {p: list(h) for p, h in state.hands.items()},
        "hand_counts": {p: len(h) for p, h in state.hands.items()},
        "discards": {t: list(state.discards[t]) for t in TEAMS},
        "retained": {t: list(state.retained[t]) for t in TEAMS},
        "in_play": list(state.in_play),
        "stunned": list(state.stunned),
        "over": None if state.over is None else {
            "reason": state.over.reason, "winner": state.over.winner,
            "tokens": dict(state.over.tokens), "cards_in_hand": dict(state.over.cards_in_hand)},
    }
