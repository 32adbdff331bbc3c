"""The end of a battle and of a game: the room is complete when every monster is destroyed or
frozen (Catacombs 3E: Battle Phase; Antients and Mounts, which cannot be destroyed, do not
count); the party is defeated when every hero is dead (Overseer's reading); a game is one room
or one campaign. At the end of the Battle Phase the heroes come back from the Teleported! card
and the Stunned cards are removed (Catacombs 3E: Battle Phase)."""

from __future__ import annotations

from enum import StrEnum

from overseer.core.procedure import Procedure, Step
from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.kinds import StepKind
from overseer.rules.catacombs.state import Battle


class Outcome(StrEnum):
    ROOM_WON = "room_won"  # every monster destroyed or frozen
    PARTY_DEFEATED = "party_defeated"  # every hero destroyed


def party_defeated(battle: Battle) -> bool:
    """Every hero is dead (Overseer's reading): heroes count, not their familiars, allies,
    mounts or assistants."""
    # One pass, no lists: this runs around every action (the benchmark's hot path).
    seen = False
    for hero in battle.heroes.values():
        if hero.kind == "hero":
            if hero.health > 0:
                return False
            seen = True
    return seen


def outcome(battle: Battle) -> Outcome | None:
    """How the battle on the playmat ended, or ``None`` while it goes on (or before a room is
    set up)."""
    if party_defeated(battle):
        return Outcome.PARTY_DEFEATED
    for piece in battle.pieces.values():
        if piece.health > 0 and piece.holds_room:
            return None
    return Outcome.ROOM_WON if battle.pieces else None


def in_battle(battle: Battle) -> bool:
    """A room is set up and its battle goes on."""
    return bool(battle.pieces) and outcome(battle) is None


def is_over(battle: Battle) -> bool:
    return party_defeated(battle) or battle.adventure.over is not None


def result(battle: Battle) -> str | None:
    """The game's end as the table reads it, or ``None`` while it goes on."""
    if party_defeated(battle):
        return "the party is defeated: every hero is destroyed"
    return battle.adventure.over


SAID = {
    Outcome.ROOM_WON: "the room is won: every monster is destroyed or frozen",
    Outcome.PARTY_DEFEATED: "the party is defeated: every hero is destroyed",
}


def said(battle: Battle, before: Outcome | None) -> Step | None:
    """When the action just taken ended the battle, the step that says how (the next press
    says it too); otherwise None."""
    after = outcome(battle)
    if after is not None and after != before:
        rule = rulebook.BATTLE_PHASE if after is Outcome.ROOM_WON else rulebook.BATTLE_END
        return Step(StepKind(after), rule, SAID[after], {"outcome": str(after)})
    return None


def battle_over(battle: Battle) -> Procedure:
    """Catacombs 3E: Battle Phase: when the room is complete, the heroes come back from the
    Teleported! card and every Stunned card is removed."""
    back = [h for h in battle.heroes.values() if h.away == "teleported" and h.alive]
    for hero in back:
        hero.away = None
    stunned = [h for h in battle.heroes.values() if h.stunned]
    for hero in stunned:
        hero.stunned = False
    if back or stunned:
        said = [f"{', '.join(h.name for h in back)} back from the Teleported! card"] if back \
            else []
        said += [f"Stunned cards removed ({', '.join(h.name for h in stunned)})"] if stunned \
            else []
        yield Step(StepKind.BATTLE_PHASE_OVER, rulebook.BATTLE_PHASE,
                   "the Battle Phase is over: " + "; ".join(said),
                   {"back": [h.id for h in back], "unstunned": [h.id for h in stunned]})


def ended(battle: Battle, before: Outcome | None) -> Procedure:
    """The steps that say the action just taken ended the battle, and what follows."""
    step = said(battle, before)
    if step is not None:
        yield from ending(battle, step)


def ending(battle: Battle, step: Step) -> Procedure:
    """``step``, which says how the battle ended (``said``), and what follows."""
    yield step
    if outcome(battle) is Outcome.ROOM_WON:
        yield from battle_over(battle)
