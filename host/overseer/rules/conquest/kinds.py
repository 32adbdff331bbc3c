"""The names the Conquest rules and the screens share: the kinds of trace step (``Step.kind``)
and the keys of the questions (``key=``).

StrEnums: each member equals the string the traces, the scenario files and the session log
hold, so a member renamed breaks the code that uses it (and a test), never a screen in silence.
"""

from enum import StrEnum


class StepKind(StrEnum):
    FIRST_TEAM = "first_team"
    DEAL = "deal"
    TURN = "turn"
    DRAW = "draw"
    STUNNED = "stunned"
    PLAY = "play"
    CARD_FACTS = "card_facts"
    STUNNED_PLAY = "stunned_play"
    SHOT = "shot"
    TARGET = "target"
    SECOND_FLICK = "second_flick"
    POWER_WAVE = "power_wave"
    ARMOUR = "armour"
    HEALTH = "health"
    STUN = "stun"
    ABILITY = "ability"
    RESET = "reset"
    SURPRISE_ATTACK = "surprise_attack"
    RETAIN = "retain"
    DISCARD = "discard"
    OBSTACLE_RUSH = "obstacle_rush"
    TRACKER = "tracker"
    GAME_OVER = "game_over"
    CORRECTION = "correction"  # the table corrects the books (books.correct)
    REREAD = "reread"  # the next card is read off the card again (books.reread)


class Key(StrEnum):
    FIRST_TEAM = "first_team"  # a roll with its own key
    DRAW = "draw"  # a pick with its own key
    SHOT_HIT = "shot_hit"  # a shot that hit, of a card whose sequence is not printed
    ABILITY = "ability"
    ARMOUR_ICON = "armour_icon"
    HITS = "hits"
    TARGET = "target"
    HIT = "hit"
    POWER_WAVE = "power_wave"
    ARMOUR = "armour"
    RESET = "reset"
    SURPRISE_ATTACK = "surprise_attack"
    CORRECT_DRAW = "correct_draw"  # a card put into a hand by a correction
    CORRECT_OUT = "correct_out"  # a card taken out of a hand by a correction
