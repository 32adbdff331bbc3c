"""Names of the rulebook sections the Conquest rules cite in their trace steps: every rule a
trace step names is one of these (tests/test_rulebook_citations.py).

Each name is the section title as the seed rulebook prints it (002_...), a sub-section after a
comma. Where the cited text has no heading of its own, the comment says so.
"""

_BOOK = "Conquest"

ABILITIES = f"{_BOOK}: Abilities and Armour"
# No headings: the example abilities the section lists, by name.
CAPTURE_LIFE = f"{ABILITIES}, Capture Life"
HEAL_LIFE = f"{ABILITIES}, Heal Life"
STUNNED = f"{ABILITIES}, Stunned"
CARD_DECKS = f"{_BOOK}: Card Decks"
TURN_TRACKERS = f"{CARD_DECKS}, Turn Trackers"  # no heading: the section's last paragraphs
TURN = f"{_BOOK}: Turn Summary"
DRAW_AT_END = f"{TURN}, Advanced Rule (Optional)"
SHOT_SEQUENCES = f"{_BOOK}: Cards and Shot Sequences"
SHOT_TYPES = f"{_BOOK}: Shot Types (Attacking)"
MOVING_OBSTACLES = f"{_BOOK}: Moving Obstacles"
WINNING = f"{_BOOK}: Winning the Game"
LAST_STAND = f"{WINNING}, Advanced Rule (Optional)"
SURPRISE_ATTACK = f"{_BOOK}: Quick Tutorial, Turn 2: Play Card"  # the Tomb Zombie's ability
POWER_WAVE = f"{_BOOK}: Reference, Power Wave Shot"
RUSH_SHOT = f"{_BOOK}: Reference, Rush Shot"
TARGET_MODIFIER = f"{_BOOK}: Reference, Target Modifier"
# The books the table corrects by hand (``books.correct``): the pools and the bank are Team
# Setup's, the hands and decks Card Decks'.
TEAM_SETUP = f"{_BOOK}: Team Setup"
