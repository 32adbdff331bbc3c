"""The names the Runebound rules and the screens share: the kinds of trace step (``Step.kind``)
and the keys of the questions (``key=``).

StrEnums: each member equals the string the traces, the scenario files and the session log
hold, so a member renamed breaks the code that uses it (and a test), never a screen in silence.
"""

from enum import StrEnum


class StepKind(StrEnum):
    CURSE_DECKS = "curse_decks"
    DEAL = "deal"
    PLACE = "place"
    REVEAL = "reveal"
    QUEST_COUNTER = "quest_counter"
    INSTRUCTION = "instruction"
    TURN = "turn"
    TRAVEL = "travel"
    TRADING_POOL = "trading_pool"
    TRADE = "trade"
    SALE = "sale"
    CURSE_DRAW = "curse_draw"
    CURSE_FAILED = "curse_failed"
    CLAIM = "claim"
    QUEST_REVEALED = "quest_revealed"
    TOWN_FREED = "town_freed"
    CARDS_RETURNED = "cards_returned"
    MARKET = "market"
    KNOCKOUT = "knockout"
    VICTORY_CHECK = "victory_check"
    GAME_OVER = "game_over"
    CORRECTION = "correction"  # the table corrects the books (books.correct)


class Key(StrEnum):
    DEAL = "deal"  # a pick: the counter dealt to a town
    COUNTER = "counter"  # what a town's counter shows, entered by the table
    TRADING_DIE = "trading_die"  # a pick: the face a trading die shows
    MATCHES = "matches"  # how many of the table's trading dice match
    TRADE = "trade"
    SOLD = "sold"
    HEALING = "healing"
    SPENT = "spent"
    CURSE_CARD = "curse_card"  # a pick: the Level I card drawn
    QUEST = "quest"  # a pick: the Level II card revealed
    CHALLENGE = "challenge"
    DEFEATED = "defeated"
    KNOCKOUT = "knockout"
    NEAREST = "nearest"
