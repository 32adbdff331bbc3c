"""Names of the rulebook sections the Catacombs rules cite in their trace steps: every rule a
trace step names is one of these (tests/test_rulebook_citations.py).

Each name is the section title as the seed rulebooks print it (Red Box: 000_..., Ice Box:
001_...), a sub-section after a comma. Where the cited text has no heading of its own, or is
not in the seeds at all (the base game's rules), the comment says so.
"""

_RED = "Red Box"
_ICE = "Ice Box"

# Red Box: the solo/co-op AI player.
BEHAVIOUR = f"{_RED}: AI Player Behaviour"
# The numbered items of AI Player Behaviour (the book prints "5." twice: the shot sequence is
# chosen, then performed).
STEP1 = f"{BEHAVIOUR}, step 1"
STEP2 = f"{BEHAVIOUR}, step 2 (errata)"
ANTIENT = f"{BEHAVIOUR}, step 2, Special Exception (Antients)"
STEP3 = f"{BEHAVIOUR}, step 3 (errata)"
ADVANCED = f"{BEHAVIOUR}, Advanced Target Selection"
SHOT_CHOICE = f"{BEHAVIOUR}, step 5 (shot sequence)"
TARGET_RANGED = f"{BEHAVIOUR}, step 5, Special Exception (target ranged shot)"
PERFORM = f"{BEHAVIOUR}, step 5 (perform the shot sequence)"
# No heading: the paragraphs on drawing Damage tokens that close AI Player Behaviour.
TOKENS = f"{BEHAVIOUR}, Damage tokens"
TABLE = f"{_RED}: AI Player Attack Behaviour"
CLOCK = f"{_RED}: Clock Template (errata)"
NEW_SHOTS = f"{_RED}: New Character Shots"
NEW_RANGED = f"{_RED}: New Ranged Shots"
CAPTURE_COIN = f"{_RED}: New Capture Coin Modifier"
YILLEPH = f"{_RED}: Special Heroes, Yilleph the Illusionist"

# Red Box: setting up a room, rewards, what lasts beyond one battle.
SETUP = f"{_RED}: Solo & Co-Op Mode Setup"
CASTLES = f"{_RED}: Rules for the Catacombs & Castles Playmats"
LORD_SETUP = f"{_RED}: Catacomb Lord Room Setup"
LORD_PLACED_LAST = f"{LORD_SETUP}, item 4"  # the Catacomb Lord piece is placed last
REWARDS = f"{_RED}: Room Level Rewards"
CAVE = f"{_RED}: Hidden Cave (Optional)"
CAMPAIGNS = f"{_RED}: Campaigns"

# Ice Box.
ICE_RANGED = f"{_ICE}: Ranged Shots"
HEAL_SHOT = f"{ICE_RANGED}, Heal Shot"
STONE_TRAPS = f"{ICE_RANGED}, Stone Traps"
WEB_SHOT = f"{ICE_RANGED}, Web Shot"
SUMMON_ANTIENT = f"{ICE_RANGED}, Summon Antient Shot"
RECKLESS = f"{_ICE}: Reckless Shot Modifier"  # under Shot Modifiers and Operators
CONDITIONAL = f"{_ICE}: Shot Modifiers and Operators, Conditional Shot Operators"
MOUNTS = f"{_ICE}: Mounts"
STABLES = f"{MOUNTS}, Hearthshire Stables Room Card"
REACTIVE = f"{_ICE}: New Rules, Reactive Health"
LORD_CHOICES = f"{_ICE}: Catacomb Lord Setup Choices"  # under New Rules
SUPPRESSION = f"{_ICE}: Monster Suppression"  # under New Rules
DEATH = f"{_ICE}: Death Cards"

# Not a book's section: a Room card's own boxes (its rewards, what it suppresses), read from
# the fan-transcribed data or entered by the table (the cards are not printed in the seeds).
ROOM_CARD = "Room card (fan data)"
ENTERED_CARD = "Room card (entered by the table)"

# The base game's rules (Catacombs 3E), not in the seeds: the Red Box says a solo game is played
# as a normal game of Catacombs 3E. Each is marked "(base game)" and read from the public
# Catacombs 3E rules pages (rules.dized.com, Catacombs 3E) and their FAQ, in Overseer's words.
_BASE = "Catacombs 3E"
PIECE_DAMAGE = f"{_BASE}: damage"  # a damaged piece loses health, at 0 it is destroyed
GOLD_FOR_KILLS = f"{_BASE}: gold for kills"  # the hero who destroys a monster takes its gold
# The room is complete when every monster is destroyed or frozen; then the heroes come back
# from the Teleported! card and the Stunned cards are removed.
BATTLE_PHASE = f"{_BASE}: Battle Phase (base game)"
FAMILIARS = f"{_BASE}: Familiars (base game)"  # no gold for their kills, never poisoned or stunned
ALLIES = f"{_BASE}: Allies (base game)"  # its gold goes to its hero; never poisoned or stunned
POISON_CARDS = f"{_BASE}: Poison Cards (base game)"  # poison at the starting health kills at once
ANTIENTS = f"{_BASE}: Antients (base game)"  # invulnerable; they stay for the rest of the room
ICE_SHOTS = f"{_BASE}: Ice Shots (base game)"  # a hero's ice shot freezes a monster
# The party's defeat is not said as such by either book.
BATTLE_END = f"{_BASE}: end of the Battle Phase (base game; Overseer's reading)"
GAME_END = f"{_BASE}: end of the game (one room or one campaign; Overseer's reading)"
