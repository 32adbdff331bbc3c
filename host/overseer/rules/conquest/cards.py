"""Conquest cards: what a card shows, and what each shot does.

A fact the rulebook does not print for a card is ``unknown`` (``shots`` empty); the box asks the
table to read it off the card when the card is played (see ``play.card_facts``).
"""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.procedure import Fact

# Conquest: Reference - the damage each shot inflicts on a direct hit. Rush never damages.
SHOT_DAMAGE = {
    "rush": 0,
    "melee": 1,
    "critical_melee": 2,   # the red-filled melee icon
    "missile": 1,
    "longbow": 1,
    "fireball": 1,
    "wave": 1,
    "power_wave": 2,
}
# Conquest: Reference, Target Modifier - only ranged shots carry the target icon.
RANGED = ("missile", "longbow", "fireball", "wave", "power_wave")
SHOTS = tuple(SHOT_DAMAGE) + tuple(f"target_{s}" for s in RANGED)
# A shot told as hit (play.told_hits) may be told by what the books need of it: Melee,
# Missile, Longbow, Fireball and Wave all inflict one damage (Conquest: Reference), so one
# answer stands for them (``target_one_damage``: the four ranged ones with the target icon).
ONE_DAMAGE = "one_damage"
DAMAGE = {**SHOT_DAMAGE, ONE_DAMAGE: 1}

# The abilities the rulebook describes (Conquest: Abilities and Armour; Quick Tutorial; Winning
# the Game, Advanced Rule), plus "none", "other" (an ability the box does not model: the table
# resolves it by hand) and "unknown" (not filled in yet).
ABILITIES = ("none", "capture_life", "heal_life", "stunned", "surprise_attack", "reset")
ABILITY_VALUES = (*ABILITIES, "other", "unknown")
ARMOUR_VALUES = ("yes", "no", "unknown")
# Conquest: Cards and Shot Sequences - the roles and star signs a card can show.
ROLES = ("Leader", "Creature", "Spell Caster", "Hunter", "Fighter", "Explorer", "unknown")
STAR_SIGNS = ("Moth", "Coral", "Spider", "Lizard", "Rat", "Atolla", "unknown")
DECK_SIZE = 28  # Conquest: Components - 28 cards per team


@dataclass(frozen=True)
class Card:
    id: str
    team: str
    name: str
    char_class: str
    role: str
    star_sign: str
    shots: tuple[str, ...]
    ability: str
    armour: str
    verified: bool
    source: str

    @property
    def title(self) -> str:
        parts = [p for p in (self.name, self.char_class) if p != "unknown"]
        return " ".join(f'"{p}"' if i else p for i, p in enumerate(parts)) or self.id


def said_card(card: Card) -> Fact:
    """A card as a fact of the rules' sentences: its title; a card with neither name nor class
    known is written by its id, which the table names ("Sword 05", or "a card in hand")."""
    title = card.title
    return (card.id, title) if title == card.id else title


def split_shot(shot: str) -> tuple[str, bool]:
    """``target_fireball`` -> (``fireball``, True)."""
    if shot.startswith("target_"):
        return shot[len("target_"):], True
    return shot, False


def shot_label(shot: str) -> str:
    kind, target = split_shot(shot)
    label = "1-damage" if kind == ONE_DAMAGE else kind.replace("_", " ").title()
    return f"Target {label}" if target else label
