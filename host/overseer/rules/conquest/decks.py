"""Team decks, hands and discard piles (Conquest: Card Decks).

The box does not keep a deck's order. A deck is the set of cards still in it, and each draw is
a chance question (``Pick`` from the "<team> deck", answered with a card id): a seeded source
picks uniformly, which is the same as drawing from a shuffled deck; a scenario fixes the draws
with its "picks"; at a real table the players tap or enter the card they drew. When one card is
left it is drawn without asking. A shuffle therefore needs no question of its own: shuffling
cards into a deck only puts them back into the set.
"""

from __future__ import annotations

from overseer.rules.conquest.kinds import Key, StepKind
from overseer.rules.conquest.state import TEAM_NAMES, ConquestState
from overseer.rules.procedure import Pick, Procedure, Step


def draw(state: ConquestState, player: str, rule: str) -> Procedure:
    """``player`` draws one card from the team deck into their hand; with the deck empty they
    draw nothing (Conquest: Card Decks - the discard pile is not reshuffled by itself)."""
    team = state.players[player]
    deck = state.decks[team]
    if not deck:
        yield Step(StepKind.DRAW, rule,
                   f"{player} cannot draw: the {TEAM_NAMES[team]} deck is empty.",
                   {"player": player, "card": None, "deck": 0})
        return
    if len(deck) == 1:
        card_id = deck[0]
    else:
        card_id = yield Pick(pool=f"{team} deck", purpose=f"{player} draws a card",
                             options=tuple(deck), key=Key.DRAW)
    deck.remove(card_id)
    state.hands[player].append(card_id)
    yield Step(StepKind.DRAW, rule, f"{player} draws {state.cards[card_id].title} "
               f"({len(deck)} left in the {TEAM_NAMES[team]} deck).",
               {"player": player, "card": card_id, "deck": len(deck)})


def discard(state: ConquestState, team: str, card_id: str) -> None:
    """Conquest: Card Decks - played cards go to the team's shared discard pile."""
    state.discards[team].append(card_id)


def reshuffle_discards(state: ConquestState, team: str) -> int:
    """Conquest: Card Decks; Winning the Game, Advanced Rule - the Reset ability shuffles the
    discard pile back into the deck. Returns how many cards went back."""
    moved = len(state.discards[team])
    back = set(state.decks[team] + state.discards[team])
    state.decks[team] = [c for c in state.cards if c in back]  # kept in card-list order
    state.discards[team] = []
    return moved
