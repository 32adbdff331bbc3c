"""Catacombs on the glass: each step's key word, the questions' short forms, and the summary of
an activation in four short lines (the README's pictures).

The trace's sentences are for the terminal and the log; the key words are built from the
steps' facts (the gadget's step screens put the sentence under them, ``screens/pages.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from overseer.rules.procedure import ChooseOne, ChooseSome, Question, Step, describe
from overseer.screens.render import Face, Screen, key_lines, wrap

# The questions' short forms (the title bar holds 23 characters); the whole prompt comes on a
# page before the question's own screen.
SHORT = {
    "template": "Template covers it?",
    "edge": "At the edge?",
    "in_range": "Within Ruler 3?",
    "closest": "Which is closest?",
    "los": "Who is in sight?",
    "first_by_direction": "Which comes first?",
    "under_ruler": "Under the ruler?",
    "poison_value": "Poison card value?",
    "shot_icons": "How many shot icons?",
    "discard_poison": "Discard a Poison card?",
    "poison_card": "Which Poison card?",
    "hidden_cave_item": "Which item?",
    "lord_playmat": "Which playmat (left)?",
    "lord_second_playmat": "A second playmat?",
    "lord_playmat_right": "Which playmat (right)?",
}


def _after(text: str, sep: str = ": ") -> str:
    """The sentence without its speaker ("Wraith Commander: sword" -> "sword")."""
    head, found, tail = text.partition(sep)
    return tail if found and tail else text


SETUP_KEYS = {
    "playmat": "Playmat", "reroll": "Roll again", "character_order": "Character tiles",
    "monster_order": "Monster tiles", "direction": "Direction tiles",
    "direction_discard": "Draw again", "playmat_rules": "Obstacles",
    "room_suppression": "Suppressed", "suppression": "Suppressed",
    "hidden_cave_items": "Hidden Cave", "hidden_cave_targets": "Hidden Cave",
    "campaign": "Campaign", "campaign_lord": "Campaign Lord",
    "campaign_complete": "Last stage",
}
SETUP_TITLE = "Setup"
HEROES_TITLE = "Heroes' side"  # what the table entered between AI turns
END_KEYS = {"room_won": "Room won", "party_defeated": "Defeated", "game_over": "Game over"}


def _said(value: object, name: Callable[[str], str]) -> str:
    """A changed value in words: yes / no, a list's items, nothing for none."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) if value else "none"
    return name(value) if isinstance(value, str) else str(value)


def _key(word: str, fallback: str) -> str:
    """``word`` as the key word when it fits the key's two lines uncut, else ``fallback``."""
    return word if "~" not in "".join(key_lines(word)[1]) else fallback


def _heroes_face(step: Step, name: Callable[[str], str]) -> Face | None:
    """The steps of what the heroes did: a hit, a kill, its gold, a hero's new state."""
    d = step.data
    match step.kind:
        case "piece_damaged":
            return Face(_key(f"{name(d['piece'])} -{d['amount']}", f"Damage -{d['amount']}"),
                        step.text, title=HEROES_TITLE)
        case "piece_down":
            return Face(_key(f"{name(d['piece'])} down", "Destroyed"), step.text,
                        title=HEROES_TITLE)
        case "gold":
            return Face(f"+{d['reward']} gold", step.text, title=HEROES_TITLE)
        case "hero_updated":
            changes = ", ".join(f"{k} {_said(v, name)}" for k, v in d.items() if k != "hero")
            return Face(_key(name(d["hero"]), "Hero changed"), changes or step.text,
                        title=HEROES_TITLE)
        case "no_damage":
            return Face("No damage", step.text, title=HEROES_TITLE)
        case "reward_gold":
            return Face(f"+{d['gold']} gold", step.text, title="Rewards")
        case "reward_spell":
            return Face("Spell card", step.text, title="Rewards")
    return None


def _setup_face(step: Step, name: Callable[[str], str]) -> Face | None:
    """The steps of a room's setup and of a campaign: the key word, and "Setup" above."""
    d = step.data
    match step.kind:
        case "room" | "lord":
            return Face(_key(_after(step.text).split(" (")[0], step.kind.capitalize()),
                        step.text, title=SETUP_TITLE)
        case "hero_target":
            return Face(_key(name(d["hero"]), "Hero Target"), step.text, title=SETUP_TITLE)
        case "monster_metre":
            return Face(_key(d["monster"], "Monster Metre"), step.text, title=SETUP_TITLE)
        case "minion_choice":
            return Face(_key(d["chosen"], "Minions"), step.text, title=SETUP_TITLE)
        case "mercenary":
            return Face(_key(d["mercenary"], "Mercenary"), step.text, title=SETUP_TITLE)
        case "place":
            # "3. Orc A (level-1 tile): the spot": the piece big, the spot under it.
            return Face(_key(name(d["piece"]), "Place"), _after(step.text),
                        title=f"Place piece {d['order']}")
        case "campaign":
            return Face(_key(str(d["campaign"]).capitalize(), "Campaign"), step.text,
                        title="Campaign")
        case "playmat":
            said = step.text.split(":")[0]
            return Face(_key(said, "Playmat") if ":" in step.text else "Playmat", step.text,
                        title=SETUP_TITLE)
        case "campaign_stage":
            return Face(_key(" then ".join(d["rooms"]), f"Stage {d['stage']}"), step.text,
                        title=f"Stage {d['stage']}")
    if step.kind in SETUP_KEYS:
        title = "Campaign" if step.kind.startswith("campaign") else SETUP_TITLE
        return Face(SETUP_KEYS[step.kind], step.text, title=title)
    if step.kind in END_KEYS:
        return Face(END_KEYS[step.kind], step.text, title="Battle over"
                    if step.kind != "game_over" else "Game over")
    return None


def step_face(step: Step, name: Callable[[str], str]) -> Face | None:
    """The key word of a Catacombs step (``None``: the kind and the sentence will do)."""
    d = step.data
    found = _setup_face(step, name) or _heroes_face(step, name)
    if found is not None:
        return found
    match step.kind:
        case "round":
            return Face(f"Round {d['round']}", step.text, title=f"Round {d['round']}")
        case "active_character":
            who = name(d["piece"])
            detail = step.text.removeprefix(f"{who} ({d['piece']}) ").removeprefix(f"{who} ")
            return Face(who, detail, title=who)
        case "target":
            return Face(name(d["target"]), "target: " + _after(step.text))
        case "shot_sequence" if d.get("shots"):
            return Face(", ".join(d["shots"]).capitalize(), _after(step.text))
        case "shot":
            aim = f" at {name(d['target'])}" if d.get("target") else ""
            return Face(d["shot"].capitalize(), f"shot{aim}")
        case "move":
            return Face(f"Ruler {d['ruler']}", _after(step.text))
        case "move_to_rune":
            return Face(f"Rune {d['rune']}", _after(step.text))
        case "token":
            return Face(f"Token {d['value']}" + (" R" if d["reset"] else ""), step.text)
        case "damage":
            return Face(f"{name(d['target'])} -{d['amount']}", step.text)
        case "clock":
            return Face(f"{d['face']} o'clock", step.text)
        case "portal_trap":
            return Face(f"Portal {d['face']}", step.text)
        case "instruction" if d.get("implemented") is False:
            return Face("By the card", step.text)
        case "instruction":
            return Face("Do this", step.text)
    return None


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
    """A question for the table in four lines: its short form and, for a choice, the options
    (the README's picture; the gadget's own question screens are in ``screens/pages.py``)."""
    names = names or {}
    rows = wrap(SHORT.get(question.key, describe(question)))
    if isinstance(question, ChooseOne | ChooseSome):
        rows += wrap(", ".join(names.get(o, o) for o in question.options))
    return Screen("Question", tuple(rows[-4:]), "?")
