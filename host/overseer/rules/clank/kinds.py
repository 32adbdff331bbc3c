"""The names the Clank! rules and the screens share: the kinds of trace step (``Step.kind``)
and the keys of the questions (``key=``).

StrEnums: each member equals the string the traces, the scenario files and the session log
hold, so a member renamed breaks the code that uses it (and a test), never a screen in silence.
"""

from enum import StrEnum


class StepKind(StrEnum):
    SAFE_TILES = "safe_tiles"
    DEPTH_TILES = "depth_tiles"
    TREASURY = "treasury"
    DUNGEON_DECK = "dungeon_deck"
    BASE_SETUP = "base_setup"
    TURN = "turn"
    REVEAL = "reveal"
    LAIR_TOKENS = "lair_tokens"
    ENTER = "enter"
    UMBROKA = "umbroka"
    STONE = "stone"
    FIGHT = "fight"
    DEFEAT = "defeat"
    TROPHY = "trophy"
    GIVE_UP = "give_up"
    TELEPORT = "teleport"
    CUBE = "cube"
    AEGIS = "aegis"
    GOLD = "gold"
    ARTIFACT = "artifact"
    BAZAAR = "bazaar"
    TEMPLE = "temple"
    REWARD = "reward"
    TRAP_PIT = "trap_pit"
    BARRIER = "barrier"
    LOOT = "loot"
    LOOK_UP = "look_up"
    TALLY = "tally"
    GAME_OVER = "game_over"
    CORRECTION = "correction"  # the table corrects the books (books.correct)


class Key(StrEnum):
    BASE_SAFE_TILES = "base_safe_tiles"  # confirm the data's count of base safe tiles
    BASE_SAFE_COUNT = "base_safe_count"  # or enter the box's own
    SAFE_TILE = "safe_tile"  # a pick with its own key: a position in the face-down row
    CUBE_IN_SUPPLY = "cube_in_supply"
    TEMPLE_COLUMN_SHARED = "temple_column_shared"  # a second offering on a Temple column
    CAN_TAKE_DAMAGE = "can_take_damage"
    HAND_CARD = "hand_card"
    TRAP_PIT = "trap_pit"
    MEDUSA = "medusa"
    SECRET_TOME = "secret_tome"
    HAS_ARTIFACT = "has_artifact"
    TAKE_ARTIFACT = "take_artifact"
    BACKPACK = "backpack"
    GIVE_UP = "give_up"
    PAYMENT = "payment"
    REWARD = "reward"
    TELEPORT = "teleport"
    GOLD = "gold"
    TROPHY_VP = "trophy_vp"
