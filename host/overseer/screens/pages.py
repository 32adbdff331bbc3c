"""The gadget's screens, built from the rules' steps and questions: one idea a screen.

A trace step becomes a key word (big: the monster, the target, the shot...) over its sentence in
small type, paged when the sentence needs more room than one screen has. A question becomes the
screen the five buttons work on: a list with a cursor, a number, a die face. What each game's
steps and questions are called on the glass comes from its record's screens facet
(``screens/facet.py``, made by ``screens/catacombs.py``...); a game without one still shows every
step, keyed by its kind.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from overseer import games
from overseer.core.made import MadeTuple
from overseer.core.procedure import (
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
from overseer.screens import facet
from overseer.screens.render import (
    COLUMNS,
    Face,
    Screen,
    detail_rows,
    fit,
    rows_under,
    wrap,
)

TITLE_COLUMNS = 23  # the title bar's characters beside a mark (5x8)
DIE_NAMES = {Die.D12: "D12", Die.RUNE: "Rune Die", Die.LOCATION: "Location Die"}
DONE = "Done"  # the last row of a ChooseSome list
TICK_KEYS = "OK ticks, NEXT: done"  # the line under a ChooseSome list


Namer = Callable[[str], str]
NEW = "new_"  # how the keys of a new game's questions begin


def namer(names: Mapping[str, str]) -> Namer:
    return lambda ident: names.get(ident, ident)


def step_face(game: str, step: Step, name: Namer) -> Face:
    """The game's face for the step, or its kind over its sentence."""
    found = facet.of(game).face(step, name)
    return found or Face(step.kind.replace("_", " ").capitalize(), step.text)


def text_pages(title: str, key: str, text: str, mark: str = "") -> tuple[Screen, ...]:
    """A key word over a text that may need several screens: the first page has the key word,
    the next ones give the whole screen to the text. Each page says where it is ("2/3")."""
    return row_pages(title, key, wrap(text) if text else [], mark)


def row_pages(title: str, key: str, rows: list[str], mark: str = "") -> tuple[Screen, ...]:
    """``text_pages`` of rows already wrapped."""
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


class Details(MadeTuple[str]):
    """A page's steps whole (``detail_text``: their sentences and rules), written when first
    read: its detail page is CHOICE away, and each sentence written costs more than the
    page's own line for it. Equal to a tuple of the same texts."""

    def __init__(self, steps: Sequence[Step]) -> None:
        super().__init__(lambda: tuple(detail_text(step) for step in steps), len(steps))


@dataclass
class ReelPage:
    """A page of the reel (the controller's ``Page``): its screen, the last trace step it
    shows (-1: a question's prompt), the kinds of its steps, the hero its target step names,
    and its steps whole (sentence and rule: its detail page, CHOICE). Never changed once made
    (not frozen, as ``Screen``: pages are made at every answer)."""

    screen: Screen
    index: int
    kinds: tuple[str, ...] = ()
    target: str | None = None
    detail: Sequence[str] = ()  # (``Details``: written when first read)
    first: int = -1  # the first trace step it shows (-1: ``index`` alone)

    @property
    def steps(self) -> range:
        """The trace steps this page shows."""
        return range(self.first if self.first >= 0 else self.index, self.index + 1)


def reel_pages(game: str, steps: Sequence[tuple[int, Step, bool]], names: Mapping[str, str],
               title: str, seen: frozenset[str]) -> tuple[list[ReelPage], str, frozenset[str]]:
    """The pages of new steps (each: its place in the trace, the step, whether its data is
    printed), the title after them and the long sentences seen so far. A game that groups
    its steps (Catacombs: who acts, the move and shot, the result) shows a group a page, the
    others a step a page."""
    own = facet.of(game)
    if own.reel is not None:
        return own.reel(steps, names, title, seen)
    target_kind = games.get(game).kinds.target_kind if game in games.GAMES else None
    out: list[ReelPage] = []
    for index, step, verified in steps:
        screens, title = step_pages(game, step, verified, names, title)
        target = step.data.get("target") if step.kind == target_kind else None
        detail = Details((step,))
        out += [ReelPage(s, index, (step.kind,), target, detail) for s in screens]
    return out, title, seen


def detail_text(step: Step) -> str:
    """A step whole for its detail page: its sentence and the rule it follows."""
    return f"{step.text} ({step.rule})" if step.rule else step.text


DETAILS = "Details"


def packed(lines: Sequence[str]) -> list[str]:
    """Short lines joined two or more to a row where they fit ("token 2, 8 left"), long ones
    wrapped on rows of their own."""
    rows: list[str] = []
    for line in lines:
        if rows and len(rows[-1]) + 2 + len(line) <= COLUMNS and len(line) < COLUMNS:
            rows[-1] += f", {line}"
        else:
            rows += wrap(line)
    return rows


def detail_pages(title: str, detail: Sequence[str], mark: str) -> tuple[Screen, ...]:
    """The detail page of a page of steps: each step's sentence and rule, paged."""
    rows = [row for text in detail for row in wrap(text)]
    return row_pages(DETAILS, "", rows, mark)


LOOK_BACK = 200  # steps a title is looked for before the first new one (a title is never far)


def title_before(game: str, trace: Sequence[Step], index: int, names: Mapping[str, str],
                 default: str) -> str:
    """The title the step at ``index`` takes when it sets none: that of the last step before
    it that sets one (the character acting, "Heroes' side", "Setup"), else ``default``."""
    name = namer(names)
    own = facet.of(game)
    untitled = own.untitled
    for step in reversed(trace[max(0, index - LOOK_BACK):index]):
        if step.kind in untitled:
            continue  # its face sets none: not made
        found = own.face(step, name)
        if found is not None and found.title:
            return found.title
    return default


# --------------------------------------------------------------------------- questions


def asks_inline(game: str) -> bool:
    """Whether the game's question screens carry their prompt (no page before them: the
    title names the piece and the fact, the lines under a short list or a number say the
    rest, NEXT on a list shows the whole prompt)."""
    return facet.of(game).asks_inline


def all_likely(game: str, key: str) -> bool:
    """Whether the question's likely answer is every row ticked (the cursor starts on
    Done)."""
    return key in facet.of(game).all_likely


NAME_FITS = 10  # a piece's name in a question's title, whole up to this long


def title_name(name: str, names: Iterable[str]) -> str:
    """A piece's name short enough for a question's title: whole when short, else its first
    word and its letter ("Skeleton Warrior A" -> "Skeleton A"), else (two words, no letter)
    its last word ("Giant Scorpion" -> "Scorpion"), when no other name in ``names`` shortens
    the same."""
    words = name.split()
    if len(name) <= NAME_FITS or len(words) < 2:
        return name
    if len(words[-1]) == 1:
        if len(words) < 3:
            return name
        short = f"{words[0]} {words[-1]}"
        same = [n for n in names if n != name and n.split()[:1] == words[:1]
                and n.split()[-1:] == words[-1:]]
        return name if same else short
    same = [n for n in names if n != name and n.split()[-1:] == words[-1:]]
    return name if same else words[-1]


def short_prompt(game: str, question: Question, piece: str | None = None,
                 target: str | None = None) -> str:
    """The question in the title bar: its title naming the piece acting (``piece``) or the
    hero it aims at (``target``) where the game has one and it fits, else the game's short
    form for its key, the prompt itself when it is short, else what kind of answer it
    wants."""
    own = facet.of(game)
    named = own.question_title(question.key, piece, target)
    if named:
        return named
    short = own.short.get(question.key)
    if short:
        return short
    if question.key.startswith(NEW):  # a new game's question: asked before its game is known
        short = next((s.short[question.key] for s in facet.every() if question.key in s.short),
                     None)
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


PROMPT_ROWS = 2  # the prompt's lines under a list of two rows


def prompt_lines(game: str, question: Question, title: str) -> tuple[str, ...]:
    """The prompt under a question's screen, in a game whose questions carry it: under a
    number, and under a list of at most two rows (a longer list leaves it to NEXT)."""
    if not asks_inline(game) or isinstance(question, (Roll, DrawToken, ChooseSome)):
        return ()
    prompt = full_prompt(question)
    if prompt == title:
        return ()
    rows = wrap(prompt)
    if isinstance(question, EnterNumber):
        return tuple(rows)
    if len(getattr(question, "options", ("yes", "no"))) > 2:
        return ()
    if len(rows) > PROMPT_ROWS:
        rows = [*rows[:PROMPT_ROWS - 1], fit(" ".join(rows[PROMPT_ROWS - 1:]), COLUMNS)]
    return tuple(rows)


def choice_screen(title: str, labels: tuple[str, ...], cursor: int,
                  ticked: frozenset[int] | None = None, lines: tuple[str, ...] = ()
                  ) -> Screen:
    """A list to choose from; ``ticked`` (several may be chosen) adds a last row, Done, and a
    line under the list that says how to tick and how to finish (the Done row is often out of
    sight). ``lines``: the prompt under a single choice."""
    if ticked is None:
        return Screen(title, lines, "?", options=labels, cursor=cursor)
    return Screen(title, (TICK_KEYS,), "?", options=labels, cursor=cursor, selected=ticked,
                  done=DONE)


NUMBER_KEYS = "CHOICE +1, NEXT -1"  # held: by 5


def number_screen(title: str, number: int, low: int, high: int,
                  said: tuple[str, ...] = ()) -> Screen:
    """A number to set: CHOICE steps it up, NEXT down (held: by 5), wrapping inside
    ``low`` .. ``high``; ``said``: the prompt, over the keys where it leaves room (a longer
    one is cut, its whole is a press of BACK away on the steps before)."""
    keys = (f"{low} to {high} (held: 5)", NUMBER_KEYS)
    if not said:
        return Screen(title, keys, "?", number=number)
    room = detail_rows(Screen(title, (), "?", number=number))
    rows = [*said, *keys][:max(room, len(said[:room]))]
    if len(said) > room:
        rows = [*said[:room - 1], fit(" ".join(said[room - 1:]), COLUMNS)]
    return Screen(title, tuple(rows), "?", number=number)


ROLL_CARRIED = 2  # the lines of the page before a roll its screen carries (a damage page)


def roll_screen(question: Roll, title: str, face: int | None, rolling: bool,
                carried: tuple[str, ...] = ()) -> Screen:
    """The die to roll: ROLL on the Pico, or the face of the table's own die set with CHOICE;
    ``carried``: the line of the page before it (the damage before a push), over the rest."""
    if face is not None:
        rows = (*carried, NUMBER_KEYS)[:ROLL_CARRIED] if carried \
            else ("your die's face (held: 3)", NUMBER_KEYS)
        return Screen(title, rows, "?", number=face)
    key = "Rolling" if rolling else "ROLL"
    rows = wrap(question.purpose)
    room = rows_under(key) - len(carried)
    if len(rows) > room:
        rows = [fit(question.purpose, COLUMNS)] if carried else []  # else: on the page before
    if len(rows) < room:
        rows.append("or CHOICE: your own die")
    return Screen(title, (*carried, *rows), "?", key=key)


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
