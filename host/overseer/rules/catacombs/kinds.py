"""The names the Catacombs rules and the screens share: the kinds of trace step (``Step.kind``),
the keys of the table's questions (``key=``) and the kinds of Active Target (``Target.kind``).

StrEnums: each member equals the string the traces, the scenario files and the session log
hold, so a member renamed breaks the code that uses it (and a test), never a screen in silence.
"""

from enum import StrEnum


class StepKind(StrEnum):
    # activation: order, targeting, shot choice
    ROUND = "round"
    ACTIVE_CHARACTER = "active_character"
    TARGET = "target"
    REASK = "reask"
    SHOT_SEQUENCE = "shot_sequence"
    REROLL = "reroll"
    NO_TARGET = "no_target"
    NO_EFFECT = "no_effect"
    INSTRUCTION = "instruction"
    # shots
    SHOT = "shot"
    CONDITION = "condition"
    MOVE = "move"
    MOVE_TO_RUNE = "move_to_rune"
    FREED = "freed"
    RIDES = "rides"
    MISS = "miss"
    COVERED = "covered"  # the Attack template known to cover again (shots.Cover)
    SUMMON = "summon"
    ANTIENT = "antient"
    HEAL = "heal"
    TELEPORT = "teleport"
    REPEAT = "repeat"
    DAGGER_MOVE = "dagger_move"
    PORTAL_TRAP = "portal_trap"
    PORTAL_PUSH = "portal_push"
    TELEPORTED = "teleported"
    CLOCK = "clock"
    KNOCKED_OFF = "knocked_off"
    # damage tokens and modifiers
    TOKEN = "token"
    RESET = "reset"
    DAMAGE = "damage"
    HERO_DOWN = "hero_down"
    INVULNERABLE = "invulnerable"
    PASSES_TO_RIDER = "passes_to_rider"
    MOUNT_REMOVED = "mount_removed"
    POISON = "poison"
    POISON_DECK_EMPTY = "poison_deck_empty"
    STUNNED = "stunned"
    CAPTURE_COIN = "capture_coin"
    RECKLESS = "reckless"
    DEATH_CARD = "death_card"
    # the table's reports (party)
    NO_DAMAGE = "no_damage"
    YILLEPH_FLIP = "yilleph_flip"
    PIECE_DAMAGED = "piece_damaged"
    PIECE_DOWN = "piece_down"
    GOLD = "gold"
    REACTIVE = "reactive"
    WYVERN_WILD = "wyvern_wild"
    HERO_UPDATED = "hero_updated"
    CORRECTION = "correction"  # the table corrects the books (books.correct)
    # setup and placement
    PLAYMAT = "playmat"
    CHARACTER_ORDER = "character_order"
    MONSTER_ORDER = "monster_order"
    HERO_TARGET = "hero_target"
    DIRECTION_DISCARD = "direction_discard"
    DIRECTION = "direction"
    MONSTER_METRE = "monster_metre"
    MINION_CHOICE = "minion_choice"
    ROOM_SUPPRESSION = "room_suppression"
    SUPPRESSION = "suppression"
    ROOM = "room"
    MERCENARY = "mercenary"
    LORD = "lord"
    PLAYMAT_RULES = "playmat_rules"
    PLACE = "place"
    # rewards, the Hidden Cave, campaigns, the end
    REWARD_SPELL = "reward_spell"
    REWARD_GOLD = "reward_gold"
    HIDDEN_CAVE_ITEMS = "hidden_cave_items"
    HIDDEN_CAVE_TARGETS = "hidden_cave_targets"
    HIDDEN_CAVE_COLLECT = "hidden_cave_collect"
    HIDDEN_CAVE_OPEN = "hidden_cave_open"
    HIDDEN_CAVE_ENTER = "hidden_cave_enter"
    KRAKEN = "kraken"
    KRAKEN_RESULT = "kraken_result"
    HIDDEN_CAVE_POISON = "hidden_cave_poison"
    HIDDEN_CAVE_ITEM = "hidden_cave_item"
    HIDDEN_CAVE_REWARD = "hidden_cave_reward"
    HIDDEN_CAVE_ANTIENT = "hidden_cave_antient"
    HIDDEN_CAVE_LEAVE = "hidden_cave_leave"
    CAMPAIGN = "campaign"
    CAMPAIGN_LORD = "campaign_lord"
    CAMPAIGN_STAGE = "campaign_stage"
    CAMPAIGN_COMPLETE = "campaign_complete"
    BATTLE_PHASE_OVER = "battle_phase_over"  # heroes back from teleport, Stunned cards off
    HERO_START_ZONE = "hero_start_zone"  # a new room: the Heroic Forces back on the playmat
    MOUNT_RETURNS = "mount_returns"  # a Mount out with its dead rider comes back
    NO_GOLD = "no_gold"  # a familiar's kill pays nobody
    FROZEN = "frozen"  # a hero's ice shot froze an AI piece
    MOUNT_RECRUITED = "mount_recruited"  # Hearthshire Stables
    ROOM_WON = "room_won"  # end.Outcome.ROOM_WON, said when the battle ends
    PARTY_DEFEATED = "party_defeated"  # end.Outcome.PARTY_DEFEATED
    GAME_OVER = "game_over"


class Key(StrEnum):
    """The keys of the table's questions (the chance questions keep procedure.ChanceKey)."""

    # sight, targeting, order
    LOS = "los"
    CLOSEST = "closest"
    CLOSEST_IN_SIGHT = "closest_in_sight"  # LOS blocked, closest first: one question for both
    FIRST_IN_SIGHT = "first_in_sight"  # LOS blocked, every column tied: sight and the tiles
    EQUALLY_CLOSE = "equally_close"
    FIRST_BY_DIRECTION = "first_by_direction"
    # shots, the clock template, modifiers
    TEMPLATE = "template"
    IN_RANGE = "in_range"
    UNDER_RULER = "under_ruler"
    POISON_VALUE = "poison_value"
    WYVERN_SHIELD = "wyvern_shield"
    CATACOMB_HERO = "catacomb_hero"  # the dagger's damage: a Catacomb hero or a base one
    # setup and placement
    LORD_PLAYMAT = "lord_playmat"
    LORD_SECOND_PLAYMAT = "lord_second_playmat"
    LORD_PLAYMAT_RIGHT = "lord_playmat_right"
    UNITS = "units"
    START_ZONE_RUNES = "start_zone_runes"
    # rewards, the Hidden Cave, campaigns
    REWARD_SPELL = "reward_spell"
    REWARD_GOLD = "reward_gold"
    SPELL_HERO = "spell_hero"
    SHOT_ICONS = "shot_icons"
    DISCARD_POISON = "discard_poison"
    POISON_CARD = "poison_card"
    HIDDEN_CAVE_ITEM = "hidden_cave_item"
    HIDDEN_CAVE_ANTIENT = "hidden_cave_antient"
    CAMPAIGN_CHOICE = "campaign_choice"
    CAMPAIGN_FIRST = "campaign_first"


class TargetKind(StrEnum):
    """What the Active Target is (Advanced Target Selection adds all but ``enemy``)."""

    ENEMY = "enemy"
    FROZEN_TEAMMATE = "frozen_teammate"
    REPEAT_TEAMMATE = "repeat_teammate"
    WYVERN = "wyvern"
