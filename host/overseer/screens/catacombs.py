"""Catacombs on the glass: each step's key word, the questions' short forms, and the summary of
an activation in four short lines (the README's pictures).

The trace's sentences are for the terminal and the log; the key words are built from the
steps' facts (the gadget's step screens put the sentence under them, ``screens/pages.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import SimpleNamespace

from overseer.core.procedure import ChooseOne, ChooseSome, Question, Step, describe
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.screens.facet import Screens
from overseer.screens.pages import Details, ReelPage, namer, packed, row_pages
from overseer.screens.render import COLUMNS, Face, Screen, key_lines, wrap

# The step kinds through a plain namespace, the same members: a member read off an Enum class
# goes through ``EnumType.__getattr__``'s hook in Python 3.11 (some 1,200 instructions each),
# and a page's faces read hundreds (each ``case`` of a ``match`` on the kind is one).
K = SimpleNamespace(**StepKind.__members__)

# The questions' short forms (the title bar holds 23 characters); the whole prompt comes on a
# page before the question's own screen.
SHORT: dict[str, str] = {  # by Key
    Key.TEMPLATE: "Template covers it?",
    Key.IN_RANGE: "Within Ruler 3?",
    Key.CLOSEST: "Which is closest?",
    Key.CLOSEST_IN_SIGHT: "Closest in sight?",
    Key.FIRST_IN_SIGHT: "First in sight?",
    Key.LOS: "Who is in sight?",
    Key.FIRST_BY_DIRECTION: "Which comes first?",
    Key.UNDER_RULER: "Under the ruler?",
    Key.POISON_VALUE: "Poison card value?",
    Key.SHOT_ICONS: "How many shot icons?",
    Key.DISCARD_POISON: "Discard a Poison card?",
    Key.POISON_CARD: "Which Poison card?",
    Key.HIDDEN_CAVE_ITEM: "Which item?",
    Key.HIDDEN_CAVE_ANTIENT: "Which Antient?",
    Key.CATACOMB_HERO: "A Catacomb hero?",
    Key.LORD_PLAYMAT: "Which playmat (left)?",
    Key.LORD_SECOND_PLAYMAT: "A second playmat?",
    Key.LORD_PLAYMAT_RIGHT: "Which playmat (right)?",
    Key.EQUALLY_CLOSE: "Equally closest?",
    Key.WYVERN_SHIELD: "Wyvern shields rider?",
    Key.UNITS: "How many pieces?",
    Key.START_ZONE_RUNES: "Vacant runes?",
    Key.REWARD_SPELL: "Spell card icon?",
    Key.REWARD_GOLD: "Gold on the card?",
    Key.SPELL_HERO: "Spell card to whom?",
    Key.CAMPAIGN_CHOICE: "Which room next?",
    Key.CAMPAIGN_FIRST: "Which room first?",
}
# The questions with no short form: their own prompt, or the kind of answer they want ("Enter
# the number"), titles them (``pages.short_prompt``). Every key is in SHORT or here
# (tests/test_shared_names.py); a title that says what is asked reads better, so none is now.
BY_PROMPT: frozenset[Key] = frozenset()


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
BOOKS_TITLE = "Books"  # a correction of the books (the packs' title too)
END_KEYS = {"room_won": "Room won", "party_defeated": "Defeated", "game_over": "Game over"}


def _said(value: object, name: Callable[[str], str]) -> str:
    """A changed value in words: yes / no, a list's items, nothing for none."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) if value else "none"
    return name(value) if isinstance(value, str) else str(value)


def _key(word: str, fallback: str) -> str:
    """``word`` as the key word when it fits the key's two lines uncut, else ``fallback``."""
    return word if "~" not in "".join(key_lines(word)[1]) else fallback


def _heroes_face(step: Step, name: Callable[[str], str]) -> Face | None:
    """The steps of what the heroes did: a hit, a kill, its gold, a hero's new state."""
    d = step.data
    match step.kind:
        case K.PIECE_DAMAGED:
            return Face(_key(f"{name(d['piece'])} -{d['amount']}", f"Damage -{d['amount']}"),
                        step.text, title=HEROES_TITLE)
        case K.PIECE_DOWN:
            return Face(_key(f"{name(d['piece'])} down", "Destroyed"), step.text,
                        title=HEROES_TITLE)
        case K.GOLD:
            return Face(f"+{d['reward']} gold", step.text, title=HEROES_TITLE)
        case K.HERO_UPDATED:
            changes = ", ".join(f"{k} {_said(v, name)}" for k, v in d.items() if k != "hero")
            return Face(_key(name(d["hero"]), "Hero changed"), changes or step.text,
                        title=HEROES_TITLE)
        case K.NO_DAMAGE:
            return Face("No damage", step.text, title=HEROES_TITLE)
        case K.REWARD_GOLD:
            return Face(f"+{d['gold']} gold", step.text, title="Rewards")
        case K.REWARD_SPELL:
            return Face("Spell card", step.text, title="Rewards")
    return None


def _setup_face(step: Step, name: Callable[[str], str]) -> Face | None:
    """The steps of a room's setup and of a campaign: the key word, and "Setup" above."""
    d = step.data
    match step.kind:
        case K.ROOM | K.LORD:
            return Face(_key(_after(step.text).split(" (")[0], step.kind.capitalize()),
                        step.text, title=SETUP_TITLE)
        case K.HERO_TARGET:
            return Face(_key(name(d["hero"]), "Hero Target"), step.text, title=SETUP_TITLE)
        case K.MONSTER_METRE:
            return Face(_key(d["monster"], "Monster Metre"), step.text, title=SETUP_TITLE)
        case K.MINION_CHOICE:
            return Face(_key(d["chosen"], "Minions"), step.text, title=SETUP_TITLE)
        case K.MERCENARY:
            return Face(_key(d["mercenary"], "Mercenary"), step.text, title=SETUP_TITLE)
        case K.PLACE:
            # "3. Orc A (level-1 tile): the spot": the piece big, the spot under it.
            return Face(_key(name(d["piece"]), "Place"), _after(step.text),
                        title=f"Place piece {d['order']}")
        case K.CAMPAIGN:
            return Face(_key(str(d["campaign"]).capitalize(), "Campaign"), step.text,
                        title="Campaign")
        case K.PLAYMAT:
            said = step.text.split(":")[0]
            return Face(_key(said, "Playmat") if ":" in step.text else "Playmat", step.text,
                        title=SETUP_TITLE)
        case K.CAMPAIGN_STAGE:
            return Face(_key(" then ".join(d["rooms"]), f"Stage {d['stage']}"), step.text,
                        title=f"Stage {d['stage']}")
    if step.kind in SETUP_KEYS:
        title = "Campaign" if step.kind.startswith("campaign") else SETUP_TITLE
        return Face(SETUP_KEYS[step.kind], step.text, title=title)
    if step.kind in END_KEYS:
        return Face(END_KEYS[step.kind], step.text, title="Battle over"
                    if step.kind != K.GAME_OVER else "Game over")
    return None


# The kinds ``_setup_face`` and ``_heroes_face`` give a face (checked against them,
# tests/screens): ``step_face`` asks each only of its own, not every step through both
# ``match`` statements (an activation's step walked some 20 cases for nothing).
SETUP_FACES = frozenset({K.ROOM, K.LORD, K.HERO_TARGET, K.MONSTER_METRE, K.MINION_CHOICE,
                         K.MERCENARY, K.PLACE, K.CAMPAIGN, K.PLAYMAT, K.CAMPAIGN_STAGE,
                         *SETUP_KEYS, *END_KEYS})
HEROES_FACES = frozenset({K.PIECE_DAMAGED, K.PIECE_DOWN, K.GOLD, K.HERO_UPDATED, K.NO_DAMAGE,
                          K.REWARD_GOLD, K.REWARD_SPELL})


def step_face(step: Step, name: Callable[[str], str]) -> Face | None:
    """The key word of a Catacombs step (``None``: the kind and the sentence will do)."""
    d = step.data
    if step.kind in SETUP_FACES:
        return _setup_face(step, name)
    if step.kind in HEROES_FACES:
        return _heroes_face(step, name)
    match step.kind:
        case K.CORRECTION:
            return Face("Correction", step.text, title=BOOKS_TITLE)
        case K.ROUND:
            return Face(f"Round {d['round']}", step.text, title=f"Round {d['round']}")
        case K.ACTIVE_CHARACTER:
            who = name(d["piece"])
            detail = step.text.removeprefix(f"{who} ({d['piece']}) ").removeprefix(f"{who} ")
            return Face(who, detail, title=who)
        case K.TARGET:
            return Face(name(d["target"]), "target: " + _after(step.text))
        case K.SHOT_SEQUENCE if d.get("shots"):
            return Face(", ".join(d["shots"]).capitalize(), _after(step.text))
        case K.SHOT:
            aim = f" at {name(d['target'])}" if d.get("target") else ""
            return Face(d["shot"].capitalize(), f"shot{aim}")
        case K.MOVE:
            return Face(f"Ruler {d['ruler']}", _after(step.text))
        case K.MOVE_TO_RUNE:
            return Face(f"Rune {d['rune']}", _after(step.text))
        case K.TOKEN:
            return Face(f"Token {d['value']}" + (" R" if d["reset"] else ""), step.text)
        case K.DAMAGE:
            return Face(f"{name(d['target'])} -{d['amount']}", step.text)
        case K.CLOCK:
            return Face(f"{d['face']} o'clock", step.text)
        case K.PORTAL_TRAP:
            return Face(f"Portal {d['face']}", step.text)
        case K.INSTRUCTION if d.get("implemented") is False:
            return Face("By the card", step.text)
        case K.INSTRUCTION:
            return Face("Do this", step.text)
    return None


# The kinds whose face never sets a title (an activation's target, shots, moves, tokens...):
# a look back for the title the next steps take passes over them without making their faces
# (``pages.title_before``). Each is checked against ``step_face`` (tests/screens).
UNTITLED = frozenset({
    K.TARGET, K.SHOT_SEQUENCE, K.SHOT, K.MOVE, K.MOVE_TO_RUNE, K.TOKEN, K.DAMAGE, K.CLOCK,
    K.PORTAL_TRAP, K.INSTRUCTION, K.RESET, K.MISS, K.COVERED, K.NO_TARGET, K.NO_EFFECT,
    K.REPEAT, K.REACTIVE, K.CONDITION, K.FIRST_ALIKE, K.REASK,
})


# The steps with no key word of their own: the glass shows their kind over their sentence
# (``pages.step_face``). Every kind has a case in ``step_face`` or is here
# (tests/test_shared_names.py).
PLAIN = frozenset({
    K.REASK, K.REROLL, K.NO_TARGET, K.NO_EFFECT,
    K.CONDITION, K.FREED, K.RIDES, K.MISS, K.COVERED, K.FIRST_ALIKE,
    K.SUMMON,
    K.ANTIENT, K.HEAL, K.TELEPORT, K.REPEAT, K.DAGGER_MOVE,
    K.PORTAL_PUSH, K.TELEPORTED, K.KNOCKED_OFF, K.RESET,
    K.HERO_DOWN, K.INVULNERABLE, K.PASSES_TO_RIDER, K.MOUNT_REMOVED,
    K.POISON, K.POISON_DECK_EMPTY, K.STUNNED, K.CAPTURE_COIN,
    K.RECKLESS, K.DEATH_CARD, K.NO_DAMAGE, K.YILLEPH_FLIP,
    K.PIECE_DAMAGED, K.PIECE_DOWN, K.GOLD, K.REACTIVE,
    K.WYVERN_WILD, K.HERO_UPDATED, K.PLAYMAT, K.CHARACTER_ORDER,
    K.MONSTER_ORDER, K.HERO_TARGET, K.DIRECTION_DISCARD, K.DIRECTION,
    K.MONSTER_METRE, K.MINION_CHOICE, K.ROOM_SUPPRESSION,
    K.SUPPRESSION, K.ROOM, K.MERCENARY, K.LORD,
    K.PLAYMAT_RULES, K.PLACE, K.REWARD_SPELL, K.REWARD_GOLD,
    K.HIDDEN_CAVE_ITEMS, K.HIDDEN_CAVE_TARGETS, K.HIDDEN_CAVE_COLLECT,
    K.HIDDEN_CAVE_OPEN, K.HIDDEN_CAVE_ENTER, K.KRAKEN,
    K.KRAKEN_RESULT, K.HIDDEN_CAVE_POISON, K.HIDDEN_CAVE_ITEM,
    K.HIDDEN_CAVE_REWARD, K.HIDDEN_CAVE_ANTIENT, K.HIDDEN_CAVE_LEAVE,
    K.BATTLE_PHASE_OVER, K.HERO_START_ZONE, K.MOUNT_RETURNS,
    K.NO_GOLD, K.FROZEN, K.MOUNT_RECRUITED,
    K.CAMPAIGN, K.CAMPAIGN_LORD, K.CAMPAIGN_STAGE,
    K.CAMPAIGN_COMPLETE, K.ROOM_WON, K.PARTY_DEFEATED, K.GAME_OVER,
})


def _line(step: Step, name) -> str | None:
    d = step.data
    match step.kind:
        case K.TARGET:
            why = d.get("criterion") or d.get("column", "")
            return f"> {name(d['target'])} {why.replace('_', ' ')}"
        case K.SHOT:
            return d["shot"].capitalize()
        case K.MOVE:
            return f"move R{d['ruler']} to {name(d['toward'])}" if "toward" in d \
                else f"move R{d['ruler']}"
        case K.MOVE_TO_RUNE:
            return f"to rune {d['rune']}" + (f" / {d['location']}" if "location" in d else "")
        case K.TOKEN:
            return f"L{d['level']} token: {d['value']}" + (" reset" if d["reset"] else "")
        case K.DAMAGE:
            return f"{name(d['target'])} -{d['amount']} ({d['health']} left)"
        case K.MISS:
            return "miss"
        case K.COVERED:
            return f"template on {name(d['target'])}"
        case K.FIRST_ALIKE:
            line = f"= first {step.facts['tile']}" if step.facts else ""
            return line if 8 < len(line) <= COLUMNS else "= first by the tiles"
        case K.CLOCK:
            return f"push {name(d['who'])} {d['face']}h R{d['ruler']}"
        case K.NO_TARGET:
            return "no target: " + d["action"].replace("_", " ")
        case K.SUMMON:
            return f"summon {d['summons']}"
        case K.PORTAL_TRAP:
            return f"portal {d['face']}: {d['outcome'].replace('_', ' ')}"
        case K.DEATH_CARD | K.POISON | K.CAPTURE_COIN | K.STUNNED:
            return step.kind.replace("_", " ") + (f" {d['value']}" if "value" in d else "")
        case K.TELEPORT:
            return "to Teleported! card"
        case K.INSTRUCTION if "shot" in d:
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
        if step.kind == K.ACTIVE_CHARACTER:
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
    if isinstance(question, (ChooseOne, ChooseSome)):
        rows += wrap(", ".join(names.get(o, o) for o in question.options))
    return Screen("Question", tuple(rows[-4:]), "?")


# --------------------------------------------------------------------------- the activation
# The glass shows an activation as the few screens the table acts on, not a page a step: who
# acts and at whom; the move and the shot; the result. A group is the steps of one of these
# between two questions; its page has one key word and a short line a step (the sentences,
# the rules and the unprinted marks are on its detail page, and in the log).

WHO, MOVE, RESULT, HEROES = 0, 1, 2, 3
PHASES: dict[str, int] = {
    K.ROUND: WHO, K.ACTIVE_CHARACTER: WHO, K.FIRST_ALIKE: WHO, K.TARGET: WHO,
    K.SHOT_SEQUENCE: WHO, K.REASK: WHO, K.NO_TARGET: WHO,
    K.SHOT: MOVE, K.MOVE: MOVE, K.MOVE_TO_RUNE: MOVE,
    K.DAGGER_MOVE: MOVE, K.TELEPORT: MOVE, K.SUMMON: MOVE,
    K.INSTRUCTION: MOVE, K.COVERED: MOVE,
    K.TOKEN: RESULT, K.DAMAGE: RESULT, K.MISS: RESULT,
    K.CLOCK: RESULT, K.HERO_DOWN: RESULT, K.POISON: RESULT,
    K.STUNNED: RESULT, K.DEATH_CARD: RESULT, K.CAPTURE_COIN: RESULT,
    K.PORTAL_TRAP: RESULT, K.PORTAL_PUSH: RESULT, K.TELEPORTED: RESULT,
    K.KNOCKED_OFF: RESULT, K.RECKLESS: RESULT,
    K.PIECE_DAMAGED: HEROES, K.PIECE_DOWN: HEROES, K.GOLD: HEROES,
    K.HERO_UPDATED: HEROES, K.NO_DAMAGE: HEROES,
}
# The step whose key word a group's page takes, the first of these found in it.
KEY_ORDER = (K.HERO_DOWN, K.DAMAGE, K.MISS, K.PIECE_DOWN,
             K.PIECE_DAMAGED, K.NO_DAMAGE, K.HERO_UPDATED,
             K.TARGET, K.SHOT, K.TOKEN, K.CLOCK)
# Sentences the table reads whole the first time this game, and short after.
LONG_FIRST = frozenset({K.MOVE, K.CLOCK, K.RESET})


def grouped(step: Step) -> bool:
    """Whether the step joins a group page (the setup's steps keep a page each)."""
    return step.kind in PHASES or (step.kind not in SETUP_FACES
                                   and step.kind != K.CORRECTION
                                   and step.kind != K.REWARD_GOLD
                                   and step.kind != K.REWARD_SPELL)


def groups(steps: list[Step]) -> list[list[int]]:
    """The steps (by their place in ``steps``) that share a page: a new page at each active
    character and round, when a step goes back to an earlier phase (a second shot after a
    result), and at each step that keeps a page of its own."""
    out: list[list[int]] = []
    phase = -1
    for n, step in enumerate(steps):
        mine = PHASES.get(step.kind, phase if phase >= 0 else MOVE)
        alone = not grouped(step)
        starts = (not out or alone or phase < 0 or mine < phase
                  or step.kind in (K.ACTIVE_CHARACTER, K.ROUND)
                  and any(steps[i].kind == K.ACTIVE_CHARACTER for i in out[-1])
                  or (mine == HEROES) != (phase == HEROES))
        if starts:
            out.append([n])
        else:
            out[-1].append(n)
        phase = -1 if alone else max(mine, phase if not starts else mine)
    return out


def brief(step: Step, name: Callable[[str], str], seen: frozenset[str],
          aimed: frozenset[str] = frozenset()) -> str:
    """A step in one short line (its sentence the first time a long one is seen); a shot at
    a hero of ``aimed`` (the one the page's key word names, or the activation's target shown
    already) does not name it again."""
    d = step.data
    match step.kind:
        case K.ROUND:
            return f"Round {d['round']}"
        case K.ACTIVE_CHARACTER if d.get("why") == "placement":
            return "acts: first as placed"  # the ruling is on the detail page
        case K.ACTIVE_CHARACTER:
            who = name(d["piece"])
            return step.text.removeprefix(f"{who} ({d['piece']}) ").removeprefix(f"{who} ")
        case K.RESET if step.kind in seen:
            return ""  # its token's line says "+ reset"
        case K.RESET:
            return "reset: tokens back in bags"
        case K.PIECE_DAMAGED:
            return f"-{d['amount']}: {d['health']} left"
        case K.PIECE_DOWN:
            return "destroyed"
        case K.GOLD:
            return f"+{d['reward']} gold to {name(d['hero'])}"
        case K.TARGET:
            return ""  # the key word names the target; why it (the column) is on the details
        case K.SHOT_SEQUENCE if d.get("shots"):
            return ""  # each shot has a line of its own as it comes; the list is on the details
        case K.SHOT:
            aim = f" at {name(d['target'])}" if d.get("target") and \
                d["target"] not in aimed else ""
            return f"{d['shot'].capitalize()}{aim}"
        case K.MOVE if step.kind in seen or "ruler" not in d:
            toward = f" to {name(d['toward'])}" if "toward" in d else ""
            return _fitted(f"move R{d['ruler']}{toward}", d.get("toward"), name)
        case K.CLOCK if step.kind in seen:
            return _fitted(f"push {name(d['who'])} {d['face']} o'clock R{d['ruler']}",
                           d["who"], name)
        case K.INSTRUCTION if "modifier" in d and BY_HAND in seen:
            return f"{d['modifier']}: by the card, then tell the gadget"
        case K.TOKEN:
            return f"token {d['value']}" + (" + reset" if d["reset"] else "")
        case K.DAMAGE:
            return f"{d['health']} left"
    line = _line(step, name)
    if line and step.kind not in LONG_FIRST:
        return line
    return _after(step.text) if step.kind == K.MOVE else step.text


def _fitted(line: str, who: str | None, name: Callable[[str], str]) -> str:
    """A line naming ``who``, with its first word only ("Ulom") when its whole name would
    wrap the line."""
    if who is None or len(line) <= COLUMNS:
        return line
    whole = name(who)
    return line.replace(whole, whole.split()[0], 1)


def group_face(steps: list[Step], name: Callable[[str], str], seen: frozenset[str]
               ) -> Face:
    """One page for a group of steps: the key word of its main step, a short line a step
    (a shot at the activation's target, shown already or by this key word, not named
    again)."""
    if len(steps) == 1 and not grouped(steps[0]):
        return step_face(steps[0], name) or Face(steps[0].kind.replace("_", " ").capitalize(),
                                                 steps[0].text)
    title = next((name(s.data["piece"]) for s in steps
                  if s.kind == K.ACTIVE_CHARACTER), None)
    if any(s.kind in (K.PIECE_DAMAGED, K.PIECE_DOWN, K.HERO_UPDATED,
                      K.NO_DAMAGE) for s in steps):
        title = HEROES_TITLE
    main = next((s for kind in KEY_ORDER for s in steps if s.kind == kind), steps[0])
    face = step_face(main, name) or Face(main.kind.replace("_", " ").capitalize(), main.text)
    keyed = frozenset({main.data["target"]}) if main.kind in KEYED_TARGET and \
        main.data.get("target") else frozenset()
    aimed = _aimed(seen) | keyed
    lines = []
    for step in steps:
        if step.kind == K.ACTIVE_CHARACTER:
            aimed = keyed  # a new activation: its target is named again
        if step is main and step.kind == K.HERO_UPDATED:
            lines.append(face.detail)
        elif step.kind == K.ACTIVE_CHARACTER and step is not main:
            continue  # the title names it; why it acts first is on the detail page
        elif step is not main or step.kind in SAID_TOO:
            line = brief(step, name, seen, aimed)
            if step is not main or line != face.key:  # a shot's line that is its key word
                lines.append(line)
    return Face(face.key, "\n".join(line for line in lines if line), title=title or face.title)


# The main steps whose line says more than their key word (the health left, the shot's aim).
SAID_TOO = frozenset({K.DAMAGE, K.SHOT, K.ACTIVE_CHARACTER,
                      K.PIECE_DAMAGED})
# The main steps whose key word names the hero they are about (a shot at it need not).
KEYED_TARGET = frozenset({K.TARGET, K.DAMAGE})
BY_HAND = "by_hand"  # ``seen`` holds it once a modifier left to the table was read whole
AIM = "aim:"  # ``seen`` holds the activation's target shown already as "aim:<hero id>"


def _aimed(seen: frozenset[str]) -> frozenset[str]:
    return frozenset(s.removeprefix(AIM) for s in seen if s.startswith(AIM))


def _seen_after(seen: frozenset[str], steps: Sequence[Step]) -> frozenset[str]:
    """``seen`` after a page of ``steps``: the long sentences read whole, and the target of
    the activation under way once a page named it (a new activation forgets it)."""
    out = set(seen)
    for step in steps:
        if step.kind == K.ACTIVE_CHARACTER:
            out = {s for s in out if not s.startswith(AIM)}
        elif step.kind == K.TARGET and step.data.get("target"):
            out = {s for s in out if not s.startswith(AIM)} | {AIM + step.data["target"]}
        elif step.kind in LONG_FIRST:
            out.add(step.kind)
        elif step.kind == K.INSTRUCTION and "modifier" in step.data:
            out.add(BY_HAND)
    return frozenset(out)


def question_title(key: str, piece: str | None, target: str | None) -> str | None:
    """A question's title naming the piece or hero it is about, when it fits the title bar
    (a hero by its first word when its whole name does not: "Template on Ulom?")."""
    said = _titled(key, piece, target)
    if said is None and target is not None and " " in target:
        said = _titled(key, piece, target.split()[0])
    return said


def _titled(key: str, piece: str | None, target: str | None) -> str | None:
    """The first of the key's titles that fits (a shorter one after: its rows say the rest,
    "none in sight" the LOS check)."""
    titles = _TITLES.get(key)
    said = () if titles is None else titles(piece, target)
    return next((title for title in said if len(title) <= 23), None)


# A question's titles by its key, of the piece acting and the hero aimed at (none without the
# one it names): made only for the key asked.
_TITLES: dict[str, Callable[[str | None, str | None], tuple[str, ...]]] = {
    str(Key.CLOSEST): lambda piece, target: (f"Closest to {piece}?",) if piece else (),
    str(Key.CLOSEST_IN_SIGHT): lambda piece, target: (
        (f"{piece} sees closest?", f"{piece}: closest?") if piece else ()),
    str(Key.FIRST_IN_SIGHT): lambda piece, target: (
        (f"{piece} sees first?", f"{piece}: first?") if piece else ()),
    str(Key.TEMPLATE): lambda piece, target: (f"Template on {target}?",) if target else (),
    str(Key.IN_RANGE): lambda piece, target: (f"{target} within R3?",) if target else (),
    str(Key.LOS): lambda piece, target: (f"{piece} sees whom?",) if piece else (),
    str(Key.UNDER_RULER): lambda piece, target: (f"{target} under ruler?",) if target else (),
}


def reel_pages(steps: Sequence[tuple[int, Step, bool]], names: Mapping[str, str], title: str,
               seen: frozenset[str]) -> tuple[list[ReelPage], str, frozenset[str]]:
    """``pages.reel_pages`` for Catacombs: a group of steps a page (who acts, the move and
    shot, the result)."""
    name = namer(names)
    out: list[ReelPage] = []
    for group in groups([step for _, step, _ in steps]):
        members = [steps[n] for n in group]
        face = group_face([m[1] for m in members], name, seen)
        seen = _seen_after(seen, [m[1] for m in members])
        title = face.title or title
        rows = packed(face.detail.split("\n")) if face.detail else []
        mark = "" if all(m[2] for m in members) else "!"
        kinds = tuple(m[1].kind for m in members)
        target = next((m[1].data.get("target") for m in members
                       if m[1].kind == K.TARGET), None)
        detail = Details([m[1] for m in members])
        out += [ReelPage(s, members[-1][0], kinds, target, detail, members[0][0])
                for s in row_pages(title, face.key, rows, mark)]
    return out, title, seen


SCREENS = Screens(face=step_face, short=SHORT, question_title=question_title, reel=reel_pages,
                  asks_inline=True, all_likely=frozenset({Key.LOS}), untitled=UNTITLED)
