"""Runebound on the glass: each step's key word and title (the hero it is about), and the
questions' short forms. The step's sentence goes under the key word (``screens/pages.py``)."""

from __future__ import annotations

from collections.abc import Callable

from overseer.core.procedure import Step
from overseer.rules.runebound.components import ROMAN
from overseer.rules.runebound.kinds import Key, StepKind
from overseer.screens.facet import Screens
from overseer.screens.render import Face

SHORT: dict[str, str] = {
    Key.CHALLENGE: "Passed it?",
    Key.COUNTER: "Counter shows?",
    Key.DEFEATED: "Defeated it?",
    Key.HEALING: "Gold for healing?",
    Key.KNOCKOUT: "To a free town?",
    Key.MATCHES: "How many match?",
    Key.NEAREST: "Nearest free town?",
    Key.SOLD: "Sold: full price?",
    Key.SPENT: "Price, no discount?",
    Key.TRADE: "Use the match?",
    "new_heroes": "How many heroes?",
    "new_counters": "Who deals counters?",
    "new_trading_dice": "Who rolls trading?",
}
SETUP_TITLE = "Setup"
TRADES = {"market": "Market draw", "healing": "Healing", "pass": "Pass"}


def _keyed(step: Step, name: Callable[[str], str]) -> str | None:
    d = step.data
    match step.kind:
        case StepKind.CURSE_DECKS:
            return "Curse decks"
        case StepKind.DEAL:
            return "Counters"
        case StepKind.INSTRUCTION:
            return "To do"
        case StepKind.PLACE:
            return name(d["town"])
        case StepKind.REVEAL:
            return name(d["town"])
        case StepKind.QUEST_COUNTER:
            return name(d["token"])
        case StepKind.TURN:
            return "Turn over" if d.get("ended") else f"Turn {d['number']}"
        case StepKind.TRAVEL:
            return name(d["town"]) if d.get("town") else name(d["terrain"])
        case StepKind.TRADING_POOL:
            return f"{d['matches']} match" + ("" if d["matches"] == 1 else "es")
        case StepKind.TRADE:
            return TRADES.get(d["choice"], d["choice"])
        case StepKind.SALE:
            return f"+{d['gold']} gold"
        case StepKind.CURSE_DRAW:
            return f"Level {ROMAN[d['level']]}"
        case StepKind.CURSE_FAILED:
            return "Failed"
        case StepKind.CLAIM:
            return f"+{d['level']} VP"
        case StepKind.QUEST_REVEALED:
            return "Quest" if d.get("card") else "No quest"
        case StepKind.TOWN_FREED:
            return f"{name(d['town'])} freed"
        case StepKind.CARDS_RETURNED:
            return "To the box"
        case StepKind.MARKET:
            return f"Pay {d['pay']}"
        case StepKind.KNOCKOUT:
            return "Knocked out"
        case StepKind.VICTORY_CHECK:
            return f"VP {d['points']} of {d['needed']}"
        case StepKind.GAME_OVER:
            return "Winner" if d.get("winner") else "Game over"
        case StepKind.CORRECTION:
            return "Correction"
    return None


def step_face(step: Step, name: Callable[[str], str]) -> Face | None:
    """The key word of a Runebound step, and the title: the setup, or the hero it is about."""
    key = _keyed(step, name)
    if key is None:
        return None
    hero = step.data.get("hero") or step.data.get("winner")
    setup = step.kind in (StepKind.CURSE_DECKS, StepKind.DEAL, StepKind.INSTRUCTION,
                          StepKind.REVEAL)
    return Face(key, step.text, title=SETUP_TITLE if setup else name(hero) if hero else None)


SCREENS = Screens(face=step_face, short=SHORT)
