"""The gadget's screens, built from the rules' steps and questions: one idea a screen.

A trace step becomes a key word (big: the monster, the target, the shot...) over its sentence in
small type, paged when the sentence needs more room than one screen has. A question becomes the
screen the five buttons work on: a list with a cursor, a number, a die face. What each game's
steps and questions are called on the glass comes from its module (``screens/catacombs.py``);
a game without one still shows every step, keyed by its kind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from overseer.rules.procedure import (
    ChooseOne,
    ChooseSome,
    Die,
    DrawToken,
    EnterNumber,
    Pick,
    Question,
    Roll,
    Step,
    YesNo,
    describe,
)
from overseer.screens import catacombs, clank, conquest, runebound
from overseer.screens.render import Face, Screen, rows_under, wrap

TITLE_COLUMNS = 23  # the title bar's characters beside a mark (5x8)
DIE_NAMES = {Die.D12: "D12", Die.RUNE: "Rune Die", Die.LOCATION: "Location Die"}
DONE = "Done"  # the last row of a ChooseSome list
TICK_KEYS = "OK ticks, NEXT: done"  # the line under a ChooseSome list


Namer = Callable[[str], str]
FACES: dict[str, Callable[[Step, Namer], Face | None]] = {
    "catacombs": catacombs.step_face, "conquest": conquest.face, "clank": clank.step_face,
    "runebound": runebound.step_face}
NEW = "new_"  # how the keys of a new game's questions begin
SHORT: dict[str, Mapping[str, str]] = {
    "catacombs": catacombs.SHORT, "conquest": conquest.SHORT, "clank": clank.SHORT,
    "runebound": runebound.SHORT}


def namer(names: Mapping[str, str]) -> Namer:
    return lambda ident: names.get(ident, ident)


def step_face(game: str, step: Step, name: Namer) -> Face:
    """The game's face for the step, or its kind over its sentence."""
    found = FACES[game](step, name) if game in FACES else None
    return found or Face(step.kind.replace("_", " ").capitalize(), step.text)


def text_pages(title: str, key: str, text: str, mark: str = "") -> tuple[Screen, ...]:
    """A key word over a text that may need several screens: the first page has the key word,
    the next ones give the whole screen to the text. Each page says where it is ("2/3")."""
    rows = wrap(text) if text else []
    first = rows_under(key)
    chunks = [rows[:first]]
    rest = rows[first:]
    per = rows_under("")
    while rest:
        chunks.append(rest[:per])
        rest = rest[per:]
    count = len(chunks)
    return tuple(Screen(title, tuple(chunk), mark, key=key if n == 0 else "",
                        page=(n + 1, count) if count > 1 else None)
                 for n, chunk in enumerate(chunks))


def step_pages(game: str, step: Step, verified: bool, names: Mapping[str, str],
               title: str) -> tuple[tuple[Screen, ...], str]:
    """The pages of one step and the title for the steps after it. A step that rests on data
    the books do not print is marked "!" (and no other is)."""
    found = step_face(game, step, namer(names))
    title = found.title or title
    return text_pages(title, found.key, found.detail, "" if verified else "!"), title


LOOK_BACK = 200  # steps a title is looked for before the first new one (a title is never far)


def title_before(game: str, trace: Sequence[Step], index: int, names: Mapping[str, str],
                 default: str) -> str:
    """The title the step at ``index`` takes when it sets none: that of the last step before
    it that sets one (the character acting, "Heroes' side", "Setup"), else ``default``."""
    name = namer(names)
    for step in reversed(trace[max(0, index - LOOK_BACK):index]):
        found = FACES[game](step, name) if game in FACES else None
        if found is not None and found.title:
            return found.title
    return default


# --------------------------------------------------------------------------- questions


def short_prompt(game: str, question: Question) -> str:
    """The question in the title bar: the game's short form for its key, the prompt itself
    when it is short, else what kind of answer it wants."""
    short = SHORT.get(game, {}).get(question.key)
    if short:
        return short
    if question.key.startswith(NEW):  # a new game's question: asked before its game is known
        short = next((s[question.key] for s in SHORT.values() if question.key in s), None)
        if short:
            return short
    if isinstance(question, Roll):
        return f"Roll the {DIE_NAMES.get(question.die, question.die)}"
    if isinstance(question, DrawToken):
        return "Token drawn?"
    if isinstance(question, Pick):
        return "Which was drawn?"
    prompt = describe(question)
    if len(prompt) <= TITLE_COLUMNS:
        return prompt
    if isinstance(question, YesNo):
        return "Yes or no?"
    if isinstance(question, ChooseSome):
        return "Choose any"
    if isinstance(question, EnterNumber):
        return "Enter the number"
    return "Choose one"


def full_prompt(question: Question) -> str:
    """Everything the table must read before it answers."""
    if isinstance(question, Pick):
        return f"{describe(question)}, then tap the card or choose it."
    return describe(question)


def option_labels(question: ChooseOne | ChooseSome | Pick, names: Mapping[str, str]
                  ) -> tuple[str, ...]:
    """The options by their names, an id with no name in words ("monster-to-hero" as
    "monster to hero")."""
    return tuple(names.get(o) or o.replace("_", " ").replace("-", " ") for o in question.options)


def choice_screen(title: str, labels: tuple[str, ...], cursor: int,
                  ticked: frozenset[int] | None = None) -> Screen:
    """A list to choose from; ``ticked`` (several may be chosen) adds a last row, Done, and a
    line under the list that says how to tick and how to finish (the Done row is often out of
    sight)."""
    if ticked is None:
        return Screen(title, (), "?", options=labels, cursor=cursor)
    return Screen(title, (TICK_KEYS,), "?", options=labels, cursor=cursor, selected=ticked,
                  done=DONE)


NUMBER_KEYS = "CHOICE +1, NEXT -1"  # held: by 5


def number_screen(title: str, number: int, low: int, high: int) -> Screen:
    """A number to set: CHOICE steps it up, NEXT down (held: by 5), wrapping inside
    ``low`` .. ``high``."""
    return Screen(title, (f"{low} to {high} (held: 5)", NUMBER_KEYS), "?", number=number)


def roll_screen(question: Roll, title: str, face: int | None, rolling: bool) -> Screen:
    """The die to roll: ROLL on the Pico, or the face of the table's own die set with CHOICE."""
    if face is not None:
        return Screen(title, ("your own die's face", NUMBER_KEYS), "?", number=face)
    key = "Rolling" if rolling else "ROLL"
    rows = wrap(question.purpose)
    room = rows_under(key)
    if len(rows) > room:
        rows = []  # the purpose was on the page before
    if len(rows) < room:
        rows.append("or CHOICE: your own die")
    return Screen(title, tuple(rows), "?", key=key)


def roll_fits(question: Roll) -> bool:
    """Whether the roll screen shows the roll's purpose (else a page before it does)."""
    return len(wrap(question.purpose)) <= rows_under("ROLL")


def intro_pages(game: str, question: Question) -> tuple[Screen, ...]:
    """The pages that come before the question's own screen when that screen cannot say all
    of it: the whole prompt, under "Question"."""
    if isinstance(question, Roll) and roll_fits(question):
        return ()
    prompt = full_prompt(question)
    if prompt == short_prompt(game, question):
        return ()
    return text_pages("Question", "", prompt, "?")


def notice(key: str, text: str, title: str = "Overseer") -> tuple[Screen, ...]:
    """A message over the current screen (a refusal, an undo): its key word on white."""
    return tuple(replace(page, inverse_key=bool(page.key))
                 for page in text_pages(title, key, text))


def menu_screen(labels: tuple[str, ...], cursor: int) -> Screen:
    return Screen("Menu", (), "", options=labels, cursor=cursor)


def idle_screen(title: str, key: str, status: tuple[str, ...]) -> Screen:
    """Between actions: the key word over the status lines (each wrapped; what does not fit
    is left out)."""
    room = rows_under(key)
    rows = [row for line in status for row in wrap(line)]
    return Screen(title, tuple(rows[:room]), "", key=key)
