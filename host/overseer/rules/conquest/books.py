"""The table mends the books: a correction (``correct``) and a card read again (``reread``).

The box keeps the books from what it is told; when it was told wrong (an ability answered
"other" and resolved by hand, a tap missed, a token moved by mistake), the table sets the books
to what lies on the table. A correction is an action like any other: in the log, undone by
BACK held, and a step of its own kind (``correction``) says what changed.

- a pool or the bank: the number of Health Tokens it holds now (the 24 tokens are not
  checked: the table counts them);
- a hand: how many cards it holds. With ``draws`` ``counted`` the count is all the box keeps;
  with the cards tapped, each card more is drawn as a draw is (tapped, or the last card of the
  deck) and each card less is tapped out of the hand back onto the discard pile.
"""

from __future__ import annotations

from dataclasses import dataclass

from overseer.params import param
from overseer.rules.conquest import rulebook
from overseer.rules.conquest.decks import COUNTED, hand_options, take_from_hand
from overseer.rules.conquest.end import finish
from overseer.rules.conquest.kinds import Key, StepKind
from overseer.rules.conquest.state import TEAM_NAMES, TEAMS, TOKENS, ConquestState
from overseer.rules.procedure import ChooseOne, Pick, Procedure, RulesError, Step

BANK = "bank"
POOL = "pool-"  # pool-sword, pool-skull
HAND = "hand-"  # hand-<player>
HAND_MOST = 28  # a hand never holds more than its team's deck


def books(state: ConquestState) -> list[str]:
    """What a correction can set: each team's pool, the bank, each player's hand."""
    return [*(POOL + t for t in TEAMS), BANK, *(HAND + p for p in state.players)]


@dataclass(frozen=True, slots=True)
class Correct:
    """``{"do": "correct", "book": "pool-sword" | "bank" | "hand-<player>", "value": N}``."""

    book: str = param(options=books, prompt="Correct what?")
    value: int = param(low=0, high=TOKENS, prompt="Set it to?")


def current(state: ConquestState, book: str) -> int:
    """What the books hold now for ``book``."""
    if book == BANK:
        return state.bank
    if book.startswith(POOL):
        return state.pools[book.removeprefix(POOL)]
    return len(state.hands[book.removeprefix(HAND)])


def check_correct(state: ConquestState, params: Correct) -> None:
    """Refuse a correction that cannot be made (nothing changes)."""
    if not state.started:
        raise RulesError("correct: the game has not started yet")
    if params.book not in books(state):
        raise RulesError(f"correct: 'book' must be one of {', '.join(books(state))} "
                         f"(got {params.book!r})")
    value = params.value
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise RulesError(f"correct: 'value' must be a whole number, 0 or more (got {value!r})")
    if params.book.startswith(HAND):
        player = params.book.removeprefix(HAND)
        team = state.players[player]
        most = len(state.hands[player]) + len(state.decks[team])
        if value > most:
            raise RulesError(f"correct: {player}'s hand can hold at most {most} cards now (its "
                             f"{len(state.hands[player])} and the {len(state.decks[team])} of "
                             f"the {TEAM_NAMES[team]} deck)")
    elif value > TOKENS:
        raise RulesError(f"correct: there are {TOKENS} Health Tokens in all (got {value})")
    if value == current(state, params.book):
        raise RulesError(f"correct: {params.book} already holds {value}; nothing to correct")


def _hand(state: ConquestState, player: str, value: int) -> Procedure:
    """The hand set to ``value`` cards: drawn from the deck, or tapped back onto the discard
    pile (counted: the stand-ins come and go)."""
    team = state.players[player]
    hand, deck = state.hands[player], state.decks[team]
    counted = state.options.draws == COUNTED
    while len(hand) < value:
        if counted or len(deck) == 1:
            card = deck[0]
        else:
            card = yield Pick(pool=f"{TEAM_NAMES[team]} deck", options=tuple(deck),
                              purpose=f"{player}: a card into the hand (correction)",
                              key=Key.CORRECT_DRAW, physical=state.options.draws == "tapped")
        deck.remove(card)
        hand.append(card)
    while len(hand) > value:
        if counted:
            card = hand[-1]
        else:
            card = yield ChooseOne(prompt=f"{player}: tap a card that is not in the hand "
                                          "(it goes back on the discard pile)",
                                   options=tuple(hand_options(state, player)),
                                   key=Key.CORRECT_OUT)
        take_from_hand(state, player, card)
        state.discards[team].append(card)


def correct(state: ConquestState, params: Correct) -> Procedure:
    """Set one book to what the table has (see the module's docstring)."""
    check_correct(state, params)
    book, value = params.book, params.value
    was = current(state, book)
    if book == BANK:
        state.bank = value
        what, rule = "the Health Bank", rulebook.TEAM_SETUP
    elif book.startswith(POOL):
        team = book.removeprefix(POOL)
        state.pools[team] = value
        what, rule = f"the {TEAM_NAMES[team]} pool", rulebook.TEAM_SETUP
    else:
        player = book.removeprefix(HAND)
        yield from _hand(state, player, value)
        what, rule = f"{player}'s hand", rulebook.CARD_DECKS
    unit = "cards" if book.startswith(HAND) else "tokens"
    yield Step(StepKind.CORRECTION, rule,
               f"Correction by the table: {what} {was} -> {value} {unit}.",
               {"book": book, "was": was, "now": value, "pools": dict(state.pools),
                "bank": state.bank})
    # Conquest: Winning the Game - an empty pool or bank ends the game at once.
    if book.startswith(POOL) and value == 0:
        yield from finish(state, "pool_empty", f"{what} holds no tokens")
    elif book == BANK and value == 0:
        yield from finish(state, "bank_empty", "no tokens left in the Health Bank")


def reread(state: ConquestState) -> Procedure:
    """The next card played is read off the card again (what the data leaves unknown)."""
    if not state.started or state.over is not None:
        raise RulesError("reread: no card is played now (the game has not started, or it is "
                         "over)")
    state.reread = True
    yield Step(StepKind.REREAD, rulebook.SHOT_SEQUENCES,
               "The next card played is read off the card again (its shots, ability and "
               "armour, where the card data does not print them).", {})
