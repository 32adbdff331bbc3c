"""Names of the rulebook sections the Clank! rules cite in their trace steps: every rule a trace
step names is one of these (tests/test_rulebook_citations.py).

Each name is a heading of the seed rulebook (003_...), a sub-heading after a comma. The data
files name a section by its constant here (``section = "TRAP_PITS"``); the loader resolves it.
"""

_BOOK = "Clank! Lairs and Lost Chambers"

COMPONENTS = f"{_BOOK}: Components"
SETUP = f"{_BOOK}: Setup"
FIRST_GAME = f"{SETUP}, Sidebar"  # the boxed note on a first game
TROPHIES = f"{_BOOK}: Trophies"
NEW_TILES = f"{_BOOK}: New Dungeon Tiles"  # the entrance tunnels of a special colour
TRAP_PITS = f"{_BOOK}: Trap Pits"
MAGIC_BARRIERS = f"{_BOOK}: Magic Barriers"
LINKED_ARROWS = f"{_BOOK}: Linked Arrow Tunnels"
BUYING_CARDS = f"{_BOOK}: Buying Cards"
LOST_CHAMBERS = f"{_BOOK}: Lost Chambers"
AEGIS_SHRINE = f"{LOST_CHAMBERS}, Aegis Shrine"
SPIRIT_ALTAR = f"{LOST_CHAMBERS}, Spirit Altar"
MAD_BAZAAR = f"{LOST_CHAMBERS}, Mad Bazaar"
TEMPLE_OF_GOLD = f"{LOST_CHAMBERS}, Temple of Gold"
UMBROKA_VESSNA = f"{LOST_CHAMBERS}, Treasury of Umbroka Vessna"
LAIRS = f"{_BOOK}: Lairs"
LIVING_STATUE_LAIR = f"{LAIRS}, Living Statue Lair"
MEDUSAS_LAIR = f"{LAIRS}, Medusa's Lair"
SPHINXS_LAIR = f"{LAIRS}, Sphinx's Lair"
