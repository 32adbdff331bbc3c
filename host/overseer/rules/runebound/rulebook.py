"""Names of the rulebook sections the Runebound rules cite in their trace steps: every rule a
trace step names is one of these (tests/runebound/test_rules_source.py).

Each name is the section title as the seed rulebook prints it (004_..., "Runebound: The
Cataclysm"), a sub-section after a comma: a numbered setup step, a gameplay step, a curse level.
Where the cited text has no heading of its own, the comment says so.
"""

_BOOK = "Cataclysm"

SETUP = f"{_BOOK}: Setup"
CURSE_DECKS = f"{SETUP}, step 1"  # the five decks, in order of the numerals on their backs
COUNTERS = f"{SETUP}, step 2"  # the cataclysm counters dealt to the towns, comet up
PLACEMENT = f"{SETUP}, step 3"  # heroes in different towns, last player to first
REVEAL = f"{SETUP}, step 4"  # the counters turned over; curse decks on the market stacks
QUEST_COUNTERS = f"{SETUP}, step 5"
RED_CARDS = f"{SETUP}, step 6"
GAMEPLAY = f"{_BOOK}: Gameplay"  # "as normal": the turn order of the base game
MOVEMENT = f"{GAMEPLAY}, Step 2 - Movement"
# No headings: the two things a matching trading die allows, lettered a and b in the book.
TRADING_MARKET = f"{MOVEMENT}, a"
TRADING_HEALING = f"{MOVEMENT}, b"
ADVENTURE = f"{GAMEPLAY}, Step 3 - Adventure"
MARKET = f"{GAMEPLAY}, Step 4 - Market"
CURSE_CARDS = f"{_BOOK}: Curse Cards"
LEVEL_I = f"{CURSE_CARDS}, Level I"
LEVEL_II = f"{CURSE_CARDS}, Level II"
LEVEL_III = f"{CURSE_CARDS}, Level III"
KNOCKOUTS = f"{_BOOK}: Knockouts"
WINNING = f"{_BOOK}: Winning the Game"
