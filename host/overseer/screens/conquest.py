"""Catacombs Conquest on the glass: each step's key word and the questions' short forms.

The step's sentence (drawn with the table's names: players, discs and cards by their names)
goes under the key word; the key word is built from the step's facts.
"""

from __future__ import annotations

from collections.abc import Callable

from overseer.core.procedure import Step
from overseer.rules.conquest.cards import shot_label
from overseer.rules.conquest.kinds import Key, StepKind
from overseer.rules.conquest.state import TEAM_NAMES
from overseer.screens.facet import Screens
from overseer.screens.render import Face

# The questions' short forms (the title bar holds 23 characters); the whole prompt comes on a
# page before the question's own screen.
SHORT: dict[str, str] = {  # by Key
    Key.FIRST_TEAM: "First team: the D12",
    Key.DRAW: "Which card was drawn?",
    Key.SHOT_HIT: "Next shot that hit?",
    Key.ABILITY: "Ability on the card?",
    Key.ARMOUR_ICON: "Armour icon on it?",
    Key.HITS: "Which discs were hit?",
    Key.TARGET: "Which disc is target?",
    Key.HIT: "Target hit directly?",
    Key.POWER_WAVE: "Power Wave: discard?",
    Key.ARMOUR: "Spend armour?",
    Key.RESET: "Reset the deck?",
    Key.SURPRISE_ATTACK: "Surprise Attack: card?",
    Key.CORRECT_DRAW: "Card into the hand?",
    Key.CORRECT_OUT: "Card out of the hand?",
}

Namer = Callable[[str], str]


def _team(team: object) -> str:
    return TEAM_NAMES.get(str(team), str(team)).removesuffix(" Team")


def _health(step: Step) -> str:
    team = _team(step.data.get("team"))
    if "healed" in step.data:
        return f"{team} +{step.data['healed']}"
    captured = " capt." if step.data.get("captured") else ""
    return f"{team} -{step.data.get('lost', 0)}{captured}"


def _shot(step: Step, name: Namer) -> str:
    label = shot_label(str(step.data.get("shot", "")))
    if not step.data.get("hits"):
        return label if label == "Rush" else f"{label}: miss"
    return f"{label}: {step.data.get('damage', 0)} dmg"


def _draw(step: Step, name: Namer) -> str:
    """A draw's key word: never the card (it went into a hand, which is secret)."""
    if step.data.get("card") or step.data.get("counted"):
        return "A card drawn"
    return "Deck empty"


def step_face(step: Step, name: Namer) -> Face | None:
    """The key word of a Conquest step (and the title from a turn on)."""
    data = step.data
    match step.kind:
        case StepKind.TURN:
            return Face(name(str(data.get("player"))), step.text,
                        f"Turn {data.get('number')}: {name(str(data.get('disc')))}")
        case StepKind.FIRST_TEAM:
            return Face(f"{_team(data.get('team'))} first", step.text, "Setup")
        case StepKind.DEAL:
            return Face(f"Deal {data.get('cards')}", step.text, "Setup")
        case StepKind.DRAW:
            return Face(_draw(step, name), step.text)
        case StepKind.PLAY:
            return Face(name(str(data.get("card"))), step.text)
        case StepKind.SHOT:
            return Face(_shot(step, name), step.text)
        case StepKind.HEALTH:
            return Face(_health(step), step.text)
        case StepKind.TARGET:
            return Face(f"Target {name(str(data.get('target')))}", step.text)
        case StepKind.ARMOUR:
            return Face("Armour!", step.text)
        case StepKind.STUN | StepKind.STUNNED | StepKind.STUNNED_PLAY:
            return Face("Stunned", step.text)
        case StepKind.GAME_OVER:
            return Face("Game over", step.text, "Game over")
    return None


KEYS = {
    StepKind.CARD_FACTS: "Card read", StepKind.SECOND_FLICK: "Flick again",
    StepKind.POWER_WAVE: "Power Wave +1", StepKind.ABILITY: "Ability",
    StepKind.RESET: "Reset", StepKind.SURPRISE_ATTACK: "Surprise Attack",
    StepKind.RETAIN: "Kept: armour", StepKind.DISCARD: "Discarded",
    StepKind.OBSTACLE_RUSH: "Obstacle rush", StepKind.TRACKER: "Flip tracker",
    StepKind.CORRECTION: "Correction", StepKind.REREAD: "Read again",
}


def face(step: Step, name: Namer) -> Face | None:
    """Every Conquest step's face: its own, else its kind's key word."""
    found = step_face(step, name)
    if found is not None:
        return found
    key = KEYS.get(StepKind(step.kind)) if step.kind in set(StepKind) else None
    return Face(key, step.text) if key else None


SCREENS = Screens(face=face, short=SHORT)
