"""The end of a battle and of a game (Overseer's reading of the Red Box: the Battle Phase ends
when one side has no character left on the playmat; a game is one room or one campaign)."""

from __future__ import annotations

from enum import StrEnum

from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.kinds import StepKind
from overseer.rules.catacombs.state import Battle
from overseer.rules.procedure import Step


class Outcome(StrEnum):
    ROOM_WON = "room_won"  # every AI piece destroyed
    PARTY_DEFEATED = "party_defeated"  # every hero destroyed


def outcome(battle: Battle) -> Outcome | None:
    """How the battle on the playmat ended, or ``None`` while it goes on (or before a room is
    set up). Heroes count, not their familiars, allies, mounts or assistants."""
    # One pass each, no lists: this runs around every action (the benchmark's hot path).
    hero_seen = False
    for hero in battle.heroes.values():
        if hero.kind == "hero":
            if hero.health > 0:
                break
            hero_seen = True
    else:
        if hero_seen:
            return Outcome.PARTY_DEFEATED
    for piece in battle.pieces.values():
        if piece.health > 0:
            return None
    return Outcome.ROOM_WON if battle.pieces else None


def in_battle(battle: Battle) -> bool:
    """A room is set up and its battle goes on."""
    return bool(battle.pieces) and outcome(battle) is None


def is_over(battle: Battle) -> bool:
    return outcome(battle) is Outcome.PARTY_DEFEATED or battle.adventure.over is not None


def result(battle: Battle) -> str | None:
    """The game's end as the table reads it, or ``None`` while it goes on."""
    if outcome(battle) is Outcome.PARTY_DEFEATED:
        return "the party is defeated: every hero is destroyed"
    return battle.adventure.over


SAID = {
    Outcome.ROOM_WON: "the room is won: every AI piece is destroyed",
    Outcome.PARTY_DEFEATED: "the party is defeated: every hero is destroyed",
}


def said(battle: Battle, before: Outcome | None) -> Step | None:
    """When the action just taken ended the battle, the step that says how (the next press
    says it too); otherwise None."""
    after = outcome(battle)
    if after is not None and after != before:
        return Step(StepKind(after), rulebook.BATTLE_END, SAID[after], {"outcome": str(after)})
    return None
