"""Catacombs screens: an AI activation in four short lines, and the questions it asks.

The trace's sentences are for the terminal and the log; the OLED has 21 columns, so these
screens are built from the steps' facts instead.
"""

from __future__ import annotations

from overseer.rules.procedure import ChooseOne, ChooseSome, Question, Step, YesNo, describe
from overseer.screens.render import Screen, wrap


def _line(step: Step, name) -> str | None:
    d = step.data
    match step.kind:
        case "target":
            why = d.get("criterion") or d.get("column", "")
            return f"> {name(d['target'])} {why.replace('_', ' ')}"
        case "shot":
            return d["shot"].capitalize()
        case "move":
            return f"move R{d['ruler']} to {name(d['toward'])}" if "toward" in d \
                else f"move R{d['ruler']}"
        case "move_to_rune":
            return f"to rune {d['rune']}" + (f" / {d['location']}" if "location" in d else "")
        case "token":
            return f"L{d['level']} token: {d['value']}" + (" reset" if d["reset"] else "")
        case "damage":
            return f"{name(d['target'])} -{d['amount']} ({d['health']} left)"
        case "miss":
            return "miss"
        case "clock":
            return f"push {name(d['who'])} {d['face']}h R{d['ruler']}"
        case "no_target":
            return "no target: " + d["action"].replace("_", " ")
        case "summon":
            return f"summon {d['summons']}"
        case "portal_trap":
            return f"portal {d['face']}: {d['outcome'].replace('_', ' ')}"
        case "death_card" | "poison" | "capture_coin" | "stunned":
            return step.kind.replace("_", " ") + (f" {d['value']}" if "value" in d else "")
        case "teleport":
            return "to Teleported! card"
        case "instruction" if "shot" in d:
            return "see card: " + d["shot"]
    return None


def activation_screen(steps: list[Step], names: dict[str, str] | None = None) -> Screen:
    """The newest active character and its last four lines; "!" when a step rests on
    unverified data."""
    names = names or {}

    def name(ident: str) -> str:
        return names.get(ident, ident)

    title, lines, unverified = "Overseer", [], False
    for step in steps:
        if step.kind == "active_character":
            title, lines, unverified = name(step.data["piece"]), [], False
            continue
        line = _line(step, name)
        if line:
            lines.append(line)
        unverified |= step.data.get("verified") is False
    return Screen(title, tuple(lines[-4:]), "!" if unverified else "")


def question_screen(question: Question, names: dict[str, str] | None = None) -> Screen:
    """A question for the table, short enough for the OLED."""
    names = names or {}
    if isinstance(question, YesNo):
        short = {"template": "Attack template covers the target?",
                 "edge": "At the edge?", "in_range": "Target within Ruler 3?"}
        text = short.get(question.key, question.prompt)
        rows = wrap(text)
    elif isinstance(question, ChooseOne | ChooseSome):
        short = {"closest": "Which is closest?", "los": "Who is in sight?",
                 "first_by_direction": "Which comes first by the direction tiles?",
                 "under_ruler": "Who is under the ruler?"}
        rows = wrap(short.get(question.key, question.prompt))
        rows += [", ".join(names.get(o, o) for o in question.options)]
    else:
        rows = wrap(describe(question))
    return Screen("Question", tuple(rows[-4:]), "?")
