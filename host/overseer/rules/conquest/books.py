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

from dataclasses import dataclass, replace

from overseer.core import books as shared
from overseer.core.books import Book
from overseer.core.params import param
from overseer.core.procedure import ChooseOne, Pick, Procedure, RulesError, Step, words
from overseer.rules.conquest import rulebook
from overseer.rules.conquest.decks import COUNTED, hand_options, take_from_hand
from overseer.rules.conquest.end import finish
from overseer.rules.conquest.kinds import Key, StepKind
from overseer.rules.conquest.state import TEAM_NAMES, TEAMS, TOKENS, ConquestState

BANK = "bank"
POOL = "pool-"  # pool-sword, pool-skull
HAND = "hand-"  # hand-<player>


def books(state: ConquestState) -> list[str]:
    """What a correction can set: each team's pool, the bank, each player's hand."""
    return [*(POOL + t for t in TEAMS), BANK, *(HAND + p for p in state.players)]


def book_list(state: ConquestState) -> list[Book]:
    """The books with what they hold now and the most each can hold."""
    out = [Book(POOL + t, f"{TEAM_NAMES[t].removesuffix(' Team')} pool",
                f"the {TEAM_NAMES[t]} pool", state.pools[t], high=TOKENS, unit="tokens",
                too_many=f"there are {TOKENS} Health Tokens in all") for t in TEAMS]
    out.append(Book(BANK, "Health Bank", "the Health Bank", state.bank, high=TOKENS,
                    unit="tokens", too_many=f"there are {TOKENS} Health Tokens in all"))
    for player, team in state.players.items():
        hand, deck = state.hands[player], state.decks[team]
        out.append(Book(HAND + player, f"{player} hand", "{player}'s hand", len(hand),
                        high=len(hand) + len(deck), unit="cards",
                        facts={"player": (player, player)},
                        too_many="{player}'s hand can hold at most "
                                 f"{len(hand) + len(deck)} "
                                 f"cards now (its {len(hand)} and the {len(deck)} of the "
                                 f"{TEAM_NAMES[team]} deck)"))
    return out


@dataclass(frozen=True, slots=True)
class Correct:
    """``{"do": "correct", "book": "pool-sword" | "bank" | "hand-<player>", "value": N}``."""

    book: str = param(options=books, prompt="Correct what?")
    value: int = param(low=0, high=TOKENS, prompt="Set it to?")


def check_correct(state: ConquestState, params: Correct) -> Book:
    """Refuse a correction that cannot be made (nothing changes); the book it sets."""
    if not state.started:
        raise RulesError("correct: the game has not started yet")
    return shared.check(book_list(state), params.book, params.value)


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
                              key=Key.CORRECT_DRAW, physical=state.options.draws == "tapped",
                              said={"purpose": "{player}: a card into the hand (correction)"},
                              facts={"player": (player, player)})
        deck.remove(card)
        hand.append(card)
    while len(hand) > value:
        if counted:
            card = hand[-1]
        else:
            template = ("{player}: tap a card that is not in the hand (it goes back on the "
                        "discard pile)")
            facts = {"player": (player, player)}
            card = yield ChooseOne(prompt=words(template, facts),
                                   options=tuple(hand_options(state, player)),
                                   key=Key.CORRECT_OUT, said={"prompt": template}, facts=facts)
        take_from_hand(state, player, card)
        state.discards[team].append(card)


def correct(state: ConquestState, params: Correct) -> Procedure:
    """Set one book to what the table has (see the module's docstring)."""
    found = check_correct(state, params)
    book, value = params.book, params.value
    if book == BANK:
        state.bank = value
        rule = rulebook.TEAM_SETUP
    elif book.startswith(POOL):
        state.pools[book.removeprefix(POOL)] = value
        rule = rulebook.TEAM_SETUP
    else:
        yield from _hand(state, book.removeprefix(HAND), value)
        rule = rulebook.CARD_DECKS
    # A hand's player by the table's name ("Player 1's hand").
    player = book.removeprefix(HAND) if book.startswith(HAND) else None
    said, facts = shared.said(found, value), None
    if player is not None:
        said = shared.said(replace(found, what="{player}'s hand"), value)
        facts = {"player": (player, player)}
    yield Step(StepKind.CORRECTION, rule, said,
               {"book": book, "was": found.now, "now": value, "pools": dict(state.pools),
                "bank": state.bank}, facts)
    # Conquest: Winning the Game - an empty pool or bank ends the game at once.
    if book.startswith(POOL) and value == 0:
        yield from finish(state, "pool_empty", f"{found.what} holds no tokens")
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
