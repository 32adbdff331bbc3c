"""Team decks, hands and discard piles (Conquest: Card Decks).

The box does not keep a deck's order. A deck is the set of cards still in it, and each draw is
a chance question (``Pick`` from the "<team> deck", answered with a card id): a seeded source
picks uniformly, which is the same as drawing from a shuffled deck; a scenario fixes the draws
with its "picks"; at a real table (``draws`` ``tapped``) the pick is physical: the players tap
or choose the card they drew. When one card is left it is drawn without asking. A shuffle
therefore needs no question of its own: shuffling cards into a deck only puts them back into
the set.

With ``draws`` ``counted`` the players tap only the cards that leave a hand: a draw asks
nothing, and the box keeps a stand-in for each card drawn (the first card of the deck). When a
card leaves a hand, any card of the team still unseen will do (in the deck or in a teammate's
hand, for all the box knows): it changes places with one of the hand's stand-ins
(``take_from_hand``), so the counts stay right and a card played, discarded or kept cannot
come out of a hand again until a Reset puts it back into the deck.
"""

from __future__ import annotations

from overseer.core.procedure import Pick, Procedure, Step
from overseer.rules.conquest.kinds import Key, StepKind
from overseer.rules.conquest.state import TEAM_NAMES, ConquestState

COUNTED = "counted"


def draw(state: ConquestState, player: str, rule: str, say: bool = True) -> Procedure:
    """``player`` draws one card from the team deck into their hand; with the deck empty they
    draw nothing (Conquest: Card Decks - the discard pile is not reshuffled by itself).
    ``say`` False: a counted draw leaves no step (the deal's own step says it)."""
    team = state.players[player]
    deck = state.decks[team]
    if not deck:
        yield Step(StepKind.DRAW, rule,
                   "{player} cannot draw: the {team} deck is empty.",
                   {"player": player, "card": None, "deck": 0},
                   {"player": (player, player), "team": TEAM_NAMES[team]})
        return
    counted = state.options.draws == COUNTED
    if len(deck) == 1 or counted:
        card_id = deck[0]
    else:
        card_id = yield Pick(pool=f"{TEAM_NAMES[team]} deck", purpose=f"{player} draws a card",
                             options=tuple(deck), key=Key.DRAW,
                             physical=state.options.draws == "tapped",
                             said={"purpose": "{player} draws a card"},
                             facts={"player": (player, player)})
    deck.remove(card_id)
    state.hands[player].append(card_id)
    if counted:
        if not say:
            return
        yield Step(StepKind.DRAW, rule,
                   "{player} draws a card ({deck} left in the {team} deck; {hand} in hand).",
                   {"player": player, "card": None, "deck": len(deck), "counted": True},
                   {"player": (player, player), "deck": len(deck), "team": TEAM_NAMES[team],
                    "hand": len(state.hands[player])})
        return
    # The glass does not name the card: it went into a hand (the trace keeps its title).
    yield Step(StepKind.DRAW, rule,
               "{player} draws a card ({deck} left in the {team} deck).",
               {"player": player, "card": card_id, "deck": len(deck)},
               {"player": (player, player), "deck": len(deck), "team": TEAM_NAMES[team]},
               f"{player} draws {state.cards[card_id].title} ({len(deck)} left in the "
               f"{TEAM_NAMES[team]} deck).")


def unseen(state: ConquestState, team: str) -> set[str]:
    """The team's cards in its deck or in its hands."""
    return set(state.decks[team]).union(*(state.hands[p] for p in state.team_players(team)))


def hand_options(state: ConquestState, player: str) -> list[str]:
    """The cards that may leave ``player``'s hand (to be played, discarded): the hand; with
    ``draws`` ``counted``, any card of the team still unseen while the hand holds a card (in
    card-list order)."""
    hand = state.hands[player]
    if state.options.draws != COUNTED or not hand:
        return list(hand)
    left = unseen(state, state.players[player])
    return [c for c in state.cards if c in left]


def take_from_hand(state: ConquestState, player: str, card_id: str) -> None:
    """``card_id`` leaves ``player``'s hand (one of ``hand_options``). Counted: a card the box
    had elsewhere changes places with the hand's last stand-in first."""
    hand = state.hands[player]
    if card_id not in hand:
        team = state.players[player]
        assert state.options.draws == COUNTED and hand and card_id in unseen(state, team)
        stand_in = hand[-1]
        holder = next((state.hands[p] for p in state.team_players(team)
                       if card_id in state.hands[p]), state.decks[team])
        holder[holder.index(card_id)] = stand_in
        hand[-1] = card_id
        if holder is state.decks[team]:
            kept = set(holder)
            state.decks[team] = [c for c in state.cards if c in kept]
    hand.remove(card_id)


def where(state: ConquestState, card_id: str) -> str:
    """Where a card is, in a few words (for a refusal)."""
    team = state.cards[card_id].team
    if card_id in state.discards[team]:
        return "in the discard pile"
    if card_id in state.retained[team]:
        return "kept face up for its armour"
    if card_id in state.in_play:
        return "being played"
    if state.options.draws == COUNTED:
        return "still in the deck or a hand"
    # Which hand holds it is that player's secret.
    in_hand = any(card_id in state.hands[p] for p in state.team_players(team))
    return "in another player's hand" if in_hand else "still in the deck"


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
