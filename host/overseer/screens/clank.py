"""Clank! on the glass: each step's key word and title (the player it is about), and the
questions' short forms. The step's sentence goes under the key word (``screens/pages.py``)."""

from __future__ import annotations

from collections.abc import Callable

from overseer.core.procedure import Step
from overseer.rules.clank.kinds import Key, StepKind
from overseer.screens.facet import Screens
from overseer.screens.render import Face

# The questions' short forms (the title bar holds 23 characters); the whole prompt comes on a
# page before the question's own screen.
SHORT: dict[str, str] = {
    Key.BASE_SAFE_TILES: "Base safe tiles?",
    Key.BASE_SAFE_COUNT: "Base safe tiles?",
    Key.CUBE_IN_SUPPLY: "A cube left?",
    Key.TEMPLE_COLUMN_SHARED: "Share the column?",
    Key.CAN_TAKE_DAMAGE: "Damage by choice?",
    Key.HAND_CARD: "A card to discard?",
    Key.TRAP_PIT: "Trap pit",
    Key.MEDUSA: "Medusa's gaze",
    Key.SECRET_TOME: "A Secret Tome?",
    Key.HAS_ARTIFACT: "Carries an artifact?",
    Key.TAKE_ARTIFACT: "Take an artifact?",
    Key.BACKPACK: "Backpack, or none yet?",
    Key.GIVE_UP: "Which trophy?",
    Key.PAYMENT: "Pay with?",
    Key.REWARD: "Which parts?",
    Key.TELEPORT: "Teleport where?",
    Key.GOLD: "Gold now?",
    Key.TROPHY_VP: "Its victory points?",
    "new_players": "How many players?",
    "new_first_game": "First game variant?",
}
SETUP_TITLE = "Setup"
SETUP_KINDS: dict[str, str] = {
    StepKind.SAFE_TILES: "Safe tiles", StepKind.DEPTH_TILES: "Depth tiles",
    StepKind.TREASURY: "Treasury", StepKind.DUNGEON_DECK: "Dungeon deck",
    StepKind.BASE_SETUP: "Base game"}
PLAIN_KEYS: dict[str, str] = {
    StepKind.STONE: "Stone: -2", StepKind.GIVE_UP: "Given up", StepKind.TELEPORT: "No teleport",
    StepKind.CUBE: "Cube placed", StepKind.AEGIS: "Aegis cube", StepKind.BAZAAR: "Stall",
    StepKind.REWARD: "Reward", StepKind.BARRIER: "Barrier", StepKind.LOOT: "Loot",
    StepKind.UMBROKA: "+5 gold", StepKind.CORRECTION: "Correction"}


def _gold(amount: int) -> str:
    return f"+{amount} gold" if amount >= 0 else f"{amount} gold"


def _keyed(step: Step, name: Callable[[str], str]) -> str | None:
    d = step.data
    match step.kind:
        case StepKind.TURN:
            return f"{d['player']}'s turn"
        case StepKind.REVEAL | StepKind.ENTER:
            return name(d["room"])
        case StepKind.LAIR_TOKENS:
            return f"{len(d['tokens'])} in the lair"
        case StepKind.FIGHT | StepKind.DEFEAT if "monster" in d:
            return name(d["monster"])
        case StepKind.DEFEAT:
            return name(d["card"])
        case StepKind.TROPHY:
            return name(d["trophy"])
        case StepKind.GOLD:
            return _gold(d["gold"])
        case StepKind.ARTIFACT:
            return "Artifact" if d["taken"] else "No artifact"
        case StepKind.TEMPLE:
            return f"{d['offering']} gold"
        case StepKind.TRAP_PIT:
            return "Fell in: -1" if d["fell"] else "Avoided"
        case StepKind.LOOK_UP:
            return name(d["topic"]) if d["line"] == 1 else ""
        case StepKind.TALLY:
            return f"{d['player']}: {d['total']} VP"
        case StepKind.GAME_OVER:
            return "Game over"
    return PLAIN_KEYS.get(step.kind)


def step_face(step: Step, name: Callable[[str], str]) -> Face | None:
    """The key word of a Clank! step, and the title: the setup, or the player it is about."""
    if step.kind in SETUP_KINDS:
        return Face(SETUP_KINDS[step.kind], step.text, title=SETUP_TITLE)
    key = _keyed(step, name)
    if key is None:
        return None
    player = step.data.get("player")
    title = "Look up" if step.kind == StepKind.LOOK_UP else "Books" if step.kind == \
        StepKind.CORRECTION else (
        "Dungeon" if step.kind in (StepKind.REVEAL, StepKind.LAIR_TOKENS) else
        "The end" if step.kind in (StepKind.TALLY, StepKind.GAME_OVER) else player)
    return Face(key, step.text, title=title)


SCREENS = Screens(face=step_face, short=SHORT)
