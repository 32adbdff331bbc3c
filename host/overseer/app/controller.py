"""The gadget's controller: ``(app state, input) -> (new app state, effects)``, with no I/O.

The controller reads the game only through a ``GameView`` (app/view.py) and asks for changes as
effects. The shell applies them in order: ``Hold`` (which buttons wait to know a held press,
before the screen that needs it), ``Show`` (the glass), ``SetLeds``, ``RequestRoll``
(ports/events.py) and at most one session call per step, ``Begin``, ``Answer``, ``Undo``,
``Redo`` or ``Cancel``: the session's, or the local form's while one is on the glass (every
tap and press goes through here, a form's too). After a call the shell calls
``refresh(app, view)`` with the new view, or ``handle(app, Refused(reason))`` when it was
refused (nothing changed); inputs that come while a call is out are ignored. ``start(view)``
makes the first state.

The five buttons (docs/buttons.md has the whole map):

- steps: every trace step new since the last view is shown before the next question, on the
  pages ``pages.reel_pages`` makes (Catacombs: a page for who acts at whom, the shot and the
  move, the result; the other games a step a page); OK or NEXT goes on, BACK goes back a
  page, CHOICE shows the page's details (its steps whole, with their rules). None is skipped.
  On the last page with no question, NEXT and a card act as on the idle screen.
- a question carries its prompt in a game whose screens ask inline (``pages.asks_inline``: no
  page before it; NEXT on a list shows it whole); its entry starts on the likely answer
  (``_first_entry``).
- ChooseOne, Pick and YesNo: CHOICE moves the cursor (held: back), OK answers.
- ChooseSome: CHOICE moves, OK ticks or unticks (on the last row, Done: answers), NEXT answers.
- EnterNumber: CHOICE steps up, NEXT steps down (held: by 5), wrapping inside the range; the
  number starts at the view's ``number_start`` (a form's current value) or the lowest; OK
  answers.
- DrawToken (the table's own tokens): the value as a number, then the reset icon yes or no.
- Roll: ROLL rolls on the Pico; or CHOICE (NEXT: down) sets the face of the table's own die and
  OK takes it.
- a tapped card answers a question whose options include it (ChooseSome: ticks it), on its
  screen or on the pages of its prompt before it (steps not read yet: read on first); with no
  question, a card of the view's ``tap_actions`` begins its action (or says why it cannot).
  A card of another game, an unknown tag and the reader's own notices (``ReaderNotice``: a tap
  ignored, a tag not read, the reader lost) are a message over the screen; nothing changes.
- no question: NEXT begins the game's main action; OK or CHOICE opens the menu of legal
  actions (BACK closes it); BACK shows the last steps again.
- BACK held: undo one step (then CHOICE redoes it). In a form (``GameView.back_leaves``) BACK
  on the question leaves it: the shell gets ``Cancel``.

Besides ``Refused``, the shell may answer a call with ``Told(pages)``: nothing changed, show
these pages (a party screen, a summary) over the current screen.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, TypeVar

from overseer import games
from overseer.app.view import GameView, MenuItem, OpensForm
from overseer.core.procedure import (
    TOKEN_MOST,
    ChooseOne,
    ChooseSome,
    DrawToken,
    EnterNumber,
    Facts,
    Pick,
    Question,
    Roll,
    Token,
    YesNo,
)
from overseer.ports.events import (
    Button,
    Die,
    Input,
    LinkChanged,
    Press,
    ReaderNotice,
    Remote,
    RequestRoll,
    Rolled,
    RollRefused,
    SeatLight,
    SetLeds,
    Tap,
    UnknownTap,
)
from overseer.screens import pages
from overseer.screens.render import COLUMNS, Screen, fit

TOKEN_HIGH = TOKEN_MOST  # the highest token value the table can enter (procedure.py)
LONG_STEP = 5  # a held CHOICE steps a number by this much
DIE_STEP = 3  # ... and a die's face by this much
REDO = "Redo"
UNPRINTED = "!"  # a carried line's mark: its step rests on data the books do not print
UNDONE_SHOWN = 2  # an undo's notice names this many of the steps it took back
# The questions by how they are answered, as tuples for isinstance (a union such as
# ``ChooseOne | Pick`` is made again at each call: some 2,000 instructions a check).
SINGLE = (ChooseOne, Pick)  # one option of a list
OPTIONS = (ChooseOne, ChooseSome, Pick)  # options of a list
LISTS = (ChooseOne, ChooseSome, Pick, YesNo)  # a list on the glass (yes / no one of two rows)
HELD = frozenset({Button.BACK, Button.CHOICE, Button.ROLL})  # held everywhere (held_buttons)
HELD_NUMBER = HELD | {Button.NEXT}  # ... and on a number's question

# --------------------------------------------------------------------------- effects


@dataclass(frozen=True, slots=True)
class Show:
    """Put this screen on the glass."""

    screen: Screen


@dataclass(frozen=True, slots=True)
class Hold:
    """Tell the buttons that report a press at its first edge (``ports.EarlyButtons``) which
    ones wait on the screen now to know a held press from a short one (``held_buttons``)."""

    buttons: frozenset[Button]


@dataclass(frozen=True, slots=True)
class Begin:
    """Session call: ``Session.begin(action)``; ``answered``: the first answers of the action's
    form, by question key, when a tapped card gave them (``OpensForm``)."""

    action: Mapping[str, Any]
    answered: Mapping[str, Any] = field(default_factory=dict)
    card: tuple[str, str] | None = None  # a tapped card the form's first question takes
    synced: bool = True  # False: NEXT AI PIECE, which the table adds nothing to (its steps
    # come from the log and the seed): the screen may move before its commit is on disk


@dataclass(frozen=True, slots=True)
class Answer:
    """Session call: ``Session.answer(value, source)``; ``source`` is ``table`` or ``pico``."""

    value: Any
    source: str = "table"


@dataclass(frozen=True, slots=True)
class Undo:
    """Session call: ``Session.undo()``."""


@dataclass(frozen=True, slots=True)
class Redo:
    """Session call: ``Session.redo()``."""


@dataclass(frozen=True, slots=True)
class Cancel:
    """Shell call: leave the form on the glass (``GameView.back_leaves``); nothing is begun."""


SessionCall = Begin | Answer | Undo | Redo | Cancel
Effect = Show | Hold | SetLeds | RequestRoll | SessionCall


@dataclass(frozen=True, slots=True)
class Refused:
    """An input of the controller's own: the session refused the last session call
    (``AnswerError``, ``RulesError`` or ``SessionError``; its message is ``reason``). Nothing
    changed. ``template`` and ``facts``: a ``RulesError``'s reason as data, which the shell
    draws with the table's names."""

    reason: str
    template: str | None = None
    facts: Facts | None = None


@dataclass(frozen=True, slots=True)
class Told:
    """An input of the controller's own: the shell answers the last call with pages to read
    (a party screen, a summary) instead of a change. Nothing changed; OK pages on, BACK or the
    last page's OK closes them."""

    pages: tuple[Screen, ...]


# --------------------------------------------------------------------------- state


S = TypeVar("S")


def replace(state: S, /, **changes: Any) -> S:
    """``dataclasses.replace`` for the controller's own frozen states (App, Entry: no
    ``__post_init__``, no init-only fields): the copy's fields set at once, without the
    per-field checks and the generated ``__init__`` (a press makes several copies of App)."""
    new = object.__new__(type(state))
    fields = new.__dict__
    fields.update(state.__dict__)
    fields.update(changes)  # (not ``**changes``: a second dict of them)
    return new


@dataclass(frozen=True)
class Entry:
    """The answer being put together on a question's screen."""

    cursor: int = 0  # the option under the cursor (lists, yes/no, the reset icon)
    ticked: frozenset[int] = frozenset()  # ChooseSome
    number: int | None = None  # EnterNumber, a die's face (None: not set), a token's value
    stage: int = 0  # DrawToken: 0 its value, 1 its reset icon


NO_ENTRY = Entry()  # nothing entered yet: one value, shared (making a frozen one costs 7,000)


Page = pages.ReelPage  # one page of the reel, as ``pages.reel_pages`` makes it (not copied)


@dataclass(frozen=True)
class App:
    """The controller's state. ``reel`` holds the pages of the latest steps and ``at`` the one
    on the glass (``at == len(reel)``: all shown, the question or the idle screen is up)."""

    view: GameView
    reel: tuple[Page, ...] = ()
    at: int = 0
    title: str = "Overseer"  # the title of the next step pages (the active character)
    entry: Entry = field(default_factory=Entry)
    menu: int | None = None  # the menu's cursor while it is open
    notice: tuple[Screen, ...] = ()  # a message over the current screen, page by page
    notice_at: int = 0
    redo_offer: bool = False  # the notice is the undo's: CHOICE redoes
    waiting: SessionCall | None = None  # a session call the shell has not answered yet
    rolling: int = 0  # the Pico roll asked for and not answered yet (its request number)
    requests: int = 0  # roll requests made so far
    target: str | None = None  # the hero targeted in the steps shown (its seat lights)
    shown: Screen | None = None
    lights: tuple[SeatLight, ...] | None = None
    held: frozenset[Button] | None = None  # the buttons the last Hold named
    seen: frozenset[str] = frozenset()  # the long sentences read whole this game (by kind)
    seen_before: frozenset[str] = frozenset()  # those before the reel's pages were laid out
    named: str | None = None  # the option the last list question was answered with
    said: range = range(0)  # the steps the question's title says in place of their page
    acting: str | None = None  # the piece acting in the action under way (by its name)
    carried: tuple[str, ...] = ()  # the last page's lines, on the question's screen instead
    asked_keys: frozenset[str] = frozenset()  # the question keys answered this game

    @property
    def reading(self) -> bool:
        return self.at < len(self.reel)

    @property
    def settled(self) -> bool:
        """The last page of the steps is up and nothing is asked: the idle screen's presses
        (NEXT AI PIECE, a card) work here as they do there; OK goes on to it."""
        return (self.at == len(self.reel) - 1 and self.view.question is None
                and not self.notice and self.menu is None
                and self.reel[self.at].index >= 0)


Result = tuple[App, tuple[Effect, ...]]


# --------------------------------------------------------------------------- entry points


def start(view: GameView, kept: Place | None = None) -> Result:
    """The first state, over the game as it stands (a resumed game's pending question too);
    ``kept``: where a restart knows the table was (``Place``: what it had read and answered,
    who was acting), so the pages are laid out as they were, then the glass on its page."""
    app = App(view=GameView(view.game, title=view.title))
    if kept is None:
        return refresh(app, view)
    app = replace(app, seen=kept.read_before, asked_keys=kept.asked_keys, acting=kept.acting,
                  named=kept.named, target=kept.target)  # (refresh sets ``seen_before``)
    app, effects = refresh(app, view)
    app, more = resume_at(app, kept.step, kept.page)  # BACK still pages back
    return app, (*effects, *more)


def refresh(app: App, view: GameView) -> Result:
    """The game changed (the shell applied a session call, or opened the game): take the new
    view. Steps that are gone (undone) leave the reel; new ones join it, unread."""
    call = app.waiting
    if call is None and view == app.view:
        return _out(app)
    gone = tuple(dict.fromkeys(p.screen.key for p in app.reel  # (what an undo says it took)
                               if p.index >= view.trace_length and p.screen.key)) \
        if isinstance(call, Undo) else ()
    kept = tuple(p for p in app.reel if 0 <= p.index < view.trace_length)
    title = view.step_title if view.step_title is not None else next(
        (p.screen.title for p in reversed(kept)), app.title)
    known = {p.index for p in kept}
    new = [(s.index, s.step, s.verified) for s in view.steps
           if s.index not in known and s.index < view.trace_length]
    made, title, seen = pages.reel_pages(view.game, new, view.names, title, app.seen)
    fresh = list(made)
    said = range(0)
    acting = None if isinstance(call, Begin) else app.acting
    actor = _kinds(view.game).actor_kind
    for page in fresh:
        if actor is not None and actor in page.kinds:
            acting = page.screen.title
    if view.question is not None and (not pages.asks_inline(view.game) or view.back_leaves):
        fresh += [Page(s, -1) for s in pages.intro_pages(view.game, view.question)]
    elif view.question is not None and fresh and acting is not None \
            and _said_by(view.game, fresh[-1], view.question,
                         pages.title_name(acting, view.names.values())):
        said = fresh[-1].steps  # the question names the piece acting: its pages say no more
        while fresh and fresh[-1].steps == said:
            fresh.pop()
    asked_keys = app.asked_keys
    if isinstance(call, Answer) and app.view.question is not None:
        asked_keys |= {app.view.question.key}
    carried = _carried(view, fresh[-1], acting, asked_keys) if fresh else ()
    if app.reading:
        reel, at = kept + tuple(fresh), min(app.at, len(kept))
    elif fresh:
        reel, at = tuple(fresh), 1 if carried and len(fresh) == 1 else 0
    else:
        reel, at = kept, len(kept)
    # (the reel still begins with pages laid out before: the sentences read before those)
    seen_before = app.seen_before if kept and reel[0] is kept[0] else app.seen
    named = _named(app, call)
    app = replace(app, view=view, reel=reel, at=at, title=title, seen=seen,
                  seen_before=seen_before, named=named,
                  said=said, acting=acting, carried=carried, asked_keys=asked_keys,
                  entry=_first_entry(view, named), menu=None,
                  notice=(), notice_at=0, redo_offer=False, waiting=None, rolling=0)
    if isinstance(call, Undo):
        app = _undone(app, gone)
    return _out(app)


def _said_by(game: str, page: Page, question: Question, piece: str) -> bool:
    """A page that only names the piece acting, before a question whose title names it."""
    if set(page.kinds) != {_kinds(game).actor_kind} or page.screen.mark:
        return False
    return piece in pages.short_prompt(game, question, piece, None)


def _carried(view: GameView, page: Page, acting: str | None,
             asked: frozenset[str]) -> tuple[str, ...]:
    """The lines of the last page before a question that its screen carries instead (a
    question of two rows has room for two lines under them): its key word (unless the
    question's title or a line says it) and its lines, when they fit beside a line of the
    prompt the first time this question is asked this game, else in place of it (the
    whole prompt is NEXT away). A page marked "!" (its steps rest on data the books do not
    print) gives its first line the mark ("! Melee, move R2 to Elf": the question's own
    mark stays "?"). None for a page of several and a form's question."""
    question = view.question
    if question is None or view.back_leaves or not pages.asks_inline(view.game) \
            or page.index < 0 or page.screen.page is not None \
            or not (_two_rows(question) or isinstance(question, Roll)):
        return ()
    target = view.name(page.target) if page.target else None
    title = pages.short_prompt(view.game, question,
                               pages.title_name(acting, view.names.values())
                               if acting else None, target)
    key = page.screen.key
    said = key and (key in title or target is not None and key == target
                    and target.split()[0] in title.split()
                    or any(line.startswith(key) for line in page.screen.lines))
    items = [*(() if said or not key else (key,)), *page.screen.lines]
    if isinstance(question, Roll) and key and not page.screen.lines:
        items = [f"{page.screen.title} at {key}"]  # who acts at whom, before its D12
    if items and page.screen.mark == "!":
        marked = f"{UNPRINTED} {items[0]}"
        items[0] = marked if len(marked) <= COLUMNS else UNPRINTED + items[0]
    lines = pages.packed(items)
    room = pages.ROLL_CARRIED if isinstance(question, Roll) \
        else pages.PROMPT_ROWS - (0 if question.key in asked else 1)
    return tuple(lines) if 0 < len(lines) <= room and all(
        len(line) <= COLUMNS for line in lines) else ()


def _two_rows(question: Question) -> bool:
    return isinstance(question, YesNo) or (
        isinstance(question, SINGLE) and len(question.options) == 2)


def _kinds(game: str) -> games.StepKinds:
    """The step kinds the game's record names for who acts and whom a piece aims at."""
    spec = games.GAMES.get(game)
    return games.StepKinds() if spec is None else spec.kinds


def _named(app: App, call: SessionCall | None) -> str | None:
    """The option a list question was just answered with (a hero, a piece), else the one
    before: the next question's cursor starts on it where it is an option."""
    question = app.view.question
    if isinstance(call, Answer) and isinstance(question, ChooseOne) \
            and isinstance(call.value, str) and call.value in app.view.seats:
        return call.value
    return app.named


@dataclass(frozen=True)
class Place:
    """Where the table is in the pages, kept beside the game for a restart to lay out the
    same pages and show the same one (``place``, ``resume_at``):

    - ``step``, ``page``: the trace step whose page is on the glass (past the reel: the
      trace's length) and which of that step's pages (0: its first; a long step has more);
    - ``reel_from``: the first trace step of the reel, whose pages are laid out from there
      as they were at the table (after an answer the reel holds only the new steps' pages);
    - ``read_before``, ``read``: the long sentences read whole before the reel's pages were
      laid out, and so far (a page is shorter once its sentence was read: laid out from
      ``reel_from`` with the first, else from the action's start with the second);
    - ``asked_keys``: the questions answered this game (a question's screen is shorter then);
    - ``acting``, ``named``, ``target``: the piece acting in the action under way (a
      question's title names it), the option the last list question was answered with (the
      next one's cursor starts on it) and the hero targeted in the steps shown (its seat's
      light).
    """

    step: int
    page: int = 0
    reel_from: int = 0
    read_before: frozenset[str] = frozenset()
    read: frozenset[str] = frozenset()
    asked_keys: frozenset[str] = frozenset()
    acting: str | None = None
    named: str | None = None
    target: str | None = None

    def as_json(self) -> dict[str, Any]:
        """As the store keeps it: each set of words one string, the words sorted and apart
        by a space (written with every step: a list of strings costs the JSON encoder many
        times more than one string)."""
        return {"step": self.step, "page": self.page, "reel_from": self.reel_from,
                "read_before": " ".join(sorted(self.read_before)),
                "read": " ".join(sorted(self.read)), "asked": " ".join(sorted(self.asked_keys)),
                "acting": self.acting, "named": self.named, "target": self.target}

    @classmethod
    def from_json(cls, data: object) -> Place | None:
        """What ``as_json`` wrote; None for anything else (the place is the gadget's own
        note: one that does not fit is not used, and the glass starts at the action's
        beginning, as it did before places were kept)."""
        if not isinstance(data, dict) or set(data) != _PLACE_KEYS:
            return None
        numbers = (data["step"], data["page"], data["reel_from"])
        words = (data["read_before"], data["read"], data["asked"])
        names = (data["acting"], data["named"], data["target"])
        if not all(isinstance(n, int) and n >= 0 for n in numbers) \
                or not all(isinstance(w, str) for w in words) \
                or not all(n is None or isinstance(n, str) for n in names):
            return None
        return cls(data["step"], data["page"], data["reel_from"],
                   frozenset(data["read_before"].split()), frozenset(data["read"].split()),
                   frozenset(data["asked"].split()), data["acting"], data["named"],
                   data["target"])


_PLACE_KEYS = frozenset(Place(0).as_json())  # the keys ``as_json`` writes, and no other


def place(app: App) -> Place:
    """Where the table is (``Place``)."""
    reel, at = app.reel, app.at
    first = next((p.steps.start for p in reel if p.index >= 0), app.view.trace_length)
    step, page = app.view.trace_length, 0
    if app.reading and reel[at].index >= 0:
        step, start = reel[at].index, at
        while start > 0 and reel[start - 1].index == step:
            start -= 1
        page = at - start
    before = app.seen_before if first < app.view.trace_length else app.seen
    return Place(step, page, first, before, app.seen, app.asked_keys, app.acting, app.named,
                 app.target)


def resume_at(app: App, index: int, page: int = 0) -> Result:
    """After a restart: the glass on page ``page`` of trace step ``index``'s pages (the store
    keeps the last one shown, ``Place``; a step with fewer pages: its last), else on the
    first page after it; BACK still pages back to the ones before."""
    reel = app.reel
    at = next((n for n, found in enumerate(reel) if found.index >= index or found.index < 0),
              len(reel))
    if at < len(reel) and reel[at].index == index:
        last = at
        while last + 1 < len(reel) and reel[last + 1].index == index:
            last += 1
        at = min(at + page, last)
    return _out(replace(app, at=at))


def handle(app: App, event: Input | Refused | Told) -> Result:
    """One input: a button, a card, a die, the link, or the shell's answer to a call that
    changed nothing (``Refused``, ``Told``)."""
    if isinstance(event, Refused):
        if app.waiting is None:
            return _out(app)
        return _out(_say(replace(app, waiting=None), "Not taken", _why(event.reason)))
    if isinstance(event, Told):
        if app.waiting is None or not event.pages:
            return _out(replace(app, waiting=None))
        return _out(replace(app, waiting=None, notice=event.pages, notice_at=0,
                            redo_offer=False))
    if app.waiting is not None:
        return app, ()
    if isinstance(event, LinkChanged):
        return _out(app, force=event.ready)
    if isinstance(event, Press):
        return _press(app, event)
    if isinstance(event, Tap):
        return _tap(app, event)
    if isinstance(event, UnknownTap):
        return _out(_say(app, "Unknown tag", f"This tag ({event.uid}) names no card."))
    if isinstance(event, ReaderNotice):
        return _out(_say(app, event.key, event.text))
    if isinstance(event, Rolled):
        return _rolled(app, event)
    if isinstance(event, Remote):
        return _remote(app, event)
    return _roll_refused(app, event)


def _remote(app: App, remote: Remote) -> Result:
    """A paired phone's answer to the question on the glass: the session call a button's
    answer makes (a message or the menu over the question is put away). An answer to a
    question that has gone is dropped: the phone sees the game move on."""
    if app.view.question is None or remote.asked != app.view.asked:
        return app, ()
    return _call(_dismiss(replace(app, menu=None)), Answer(remote.value))


def say(app: App, key: str, text: str) -> Result:
    """A message from the shell over the current screen (nothing changed)."""
    return _out(_say(app, key, text))


# --------------------------------------------------------------------------- buttons


def _press(app: App, press: Press) -> Result:
    if press.button == Button.BACK and press.long:
        return _undo(app)
    if app.notice:
        return _on_notice(app, press)
    if app.reading:
        return _on_reel(app, press)
    if app.menu is not None:
        return _on_menu(app, press)
    if app.view.question is not None:
        return _on_question(app, press)
    return _on_idle(app, press)


def _why(reason: str) -> str:
    """A refusal as the table reads it: an ``AnswerError`` says what it wanted at its end."""
    _, found, wanted = reason.partition(", wanted ")
    if found:
        return f"It wants {wanted}; nothing changed."
    return f"{reason.rstrip('.')}. Nothing changed."


def _undo(app: App) -> Result:
    if not app.view.can_undo:
        return _out(_say(app, "No undo", f"Nothing to undo: {app.view.undo_refusal}."))
    return _call(app, Undo())


def _undone(app: App, gone: tuple[str, ...]) -> App:
    """The notice after an undo: what went (the key words of the steps it took off the glass,
    as the glass showed them), and how to put it back."""
    text = "Last press taken back"
    if gone:
        more = " and more" if len(gone) > UNDONE_SHOWN else ""
        text = f"Taken back: {', '.join(gone[:UNDONE_SHOWN])}{more}"
    text += ". CHOICE: redo, OK: go on." if app.view.can_redo else "."
    return replace(_say(app, "Undone", text), redo_offer=app.view.can_redo)


def _on_notice(app: App, press: Press) -> Result:
    if press.button == Button.CHOICE and app.redo_offer:
        return _call(_dismiss(app), Redo())
    if press.button in (Button.OK, Button.NEXT) and app.notice_at + 1 < len(app.notice):
        return _out(replace(app, notice_at=app.notice_at + 1))
    if press.button in (Button.OK, Button.NEXT, Button.BACK):
        return _out(_dismiss(app))
    return _press(_dismiss(app), press)  # CHOICE and ROLL act on the screen underneath


def _on_reel(app: App, press: Press) -> Result:
    if app.settled and press.button == Button.NEXT:
        return _on_idle(replace(app, at=len(app.reel)), press)
    question = app.view.question
    if press.button == Button.ROLL and isinstance(question, Roll) \
            and app.at == len(app.reel) - 1:
        return _roll(replace(app, at=len(app.reel)), question)  # the last page: ROLL rolls
    if press.button in (Button.OK, Button.NEXT):
        at = app.at + 1
        if app.carried and at == len(app.reel) - 1:
            at += 1  # the question's screen carries the last page
        return _out(replace(app, at=at))
    if press.button == Button.BACK:
        if app.at == 0 and app.view.back_leaves:
            return _call(app, Cancel())
        return _out(replace(app, at=max(app.at - 1, 0)))
    page = app.reel[app.at]
    if press.button == Button.CHOICE and page.detail:
        mark = "!" if page.screen.mark == "!" else ""
        return _out(replace(app, notice=pages.detail_pages(page.screen.title, page.detail,
                                                            mark), notice_at=0,
                            redo_offer=False))
    return _out(_say(app, "Read on", "OK shows the next step, BACK the one before, CHOICE "
                     "its details."))


def _on_menu(app: App, press: Press) -> Result:
    items = _menu_items(app.view)
    cursor = app.menu or 0
    if press.button == Button.CHOICE:
        return _out(replace(app, menu=_cycle(cursor, len(items), -1 if press.long else 1)))
    if press.button == Button.OK:
        item = items[cursor]
        if item is None:
            return _call(replace(app, menu=None), Redo())
        return _call(replace(app, menu=None), Begin(item.action))
    app = replace(app, menu=None)
    if press.button == Button.BACK:
        return _out(app)
    return _on_idle(app, press)  # NEXT and ROLL do what they do without the menu


def _on_idle(app: App, press: Press) -> Result:
    view = app.view
    if press.button == Button.NEXT:
        if view.over:
            return _out(_say(app, "Game over", view.result or "The game has ended."))
        if view.next_action is None:
            return _out(_say(app, "Not now", view.next_refusal or "NEXT AI PIECE is not "
                             "possible now."))
        return _call(app, Begin(view.next_action, synced=False))
    if press.button in (Button.OK, Button.CHOICE):
        if not _menu_items(view):
            return _out(_say(app, "No menu", "Nothing else can be done now."))
        return _out(replace(app, menu=0))
    if press.button == Button.BACK:
        return _out(_back_to_reel(app))
    return _out(_say(app, "No roll", "Nothing asks for a roll now."))


def _back_to_reel(app: App) -> App:
    """BACK from a question or the idle screen: the last page of the reel, if there is one."""
    return replace(app, at=len(app.reel) - 1) if app.reel else app


# --------------------------------------------------------------------------- questions


def _first_entry(view: GameView, named: str | None = None) -> Entry:
    """Where a question's entry starts: on its likely answer (a number at the view's start,
    the table's own die at its middle face, the option the last question was answered with,
    every row ticked where the game says all is likely)."""
    question, start = view.question, view.number_start
    cursor = view.cursor_start
    if isinstance(question, LISTS) \
            and 0 < cursor < _list_length(question):
        return Entry(cursor=cursor)  # where the game says the likely answer is (none ticked)
    if isinstance(question, EnterNumber):
        if start is not None and question.low <= start <= question.high:
            return Entry(number=start)
        return Entry(number=question.low)
    if isinstance(question, DrawToken):
        return Entry(number=0)
    if isinstance(question, Roll) and view.own_dice:
        return Entry(number=(question.faces + 1) // 2)
    if isinstance(question, ChooseSome) and pages.all_likely(view.game, question.key):
        return Entry(cursor=len(question.options),
                     ticked=frozenset(range(len(question.options))))
    if isinstance(question, SINGLE) and named in question.options:
        return Entry(cursor=question.options.index(named))
    return NO_ENTRY


def _is_list(question: Question, entry: Entry) -> bool:
    return isinstance(question, LISTS) or (
        isinstance(question, DrawToken) and entry.stage == 1)


def _list_length(question: Question) -> int:
    if isinstance(question, ChooseSome):
        return len(question.options) + 1  # the last row is Done
    if isinstance(question, SINGLE):
        return len(question.options)
    return 2  # yes, no


def _range(question: Question) -> tuple[int, int]:
    if isinstance(question, EnterNumber):
        return question.low, question.high
    if isinstance(question, Roll):
        return 1, question.faces
    return 0, TOKEN_HIGH


def _on_question(app: App, press: Press) -> Result:
    question, entry = app.view.question, app.entry
    assert question is not None
    button = press.button
    if button == Button.ROLL:
        return _roll(app, question)
    if button == Button.BACK:
        if isinstance(question, DrawToken) and entry.stage == 1:
            return _out(replace(app, entry=replace(entry, stage=0)))
        if app.view.back_leaves:
            return _call(app, Cancel())
        return _out(_back_to_reel(app))
    if button == Button.CHOICE:
        if _is_list(question, entry):
            step = -1 if press.long else 1
            cursor = _cycle(entry.cursor, _list_length(question), step)
            return _out(replace(app, entry=replace(entry, cursor=cursor)))
        return _out(_step_number(app, question, _long_step(question) if press.long else 1))
    if button == Button.NEXT:
        if isinstance(question, ChooseSome):
            return _call(app, Answer(_ticked(question, entry)))
        if not _is_list(question, entry):
            return _out(_step_number(app, question, -_long_step(question) if press.long
                                     else -1))
        return _out(_say(app, "Question", pages.full_prompt(question)))
    return _ok(app, question, entry)


def _long_step(question: Question) -> int:
    """A held press steps a die's face by three (from the middle, any face in three), a
    number by five."""
    return DIE_STEP if isinstance(question, Roll) else LONG_STEP


def _step_number(app: App, question: Question, step: int) -> App:
    """The number (a value, a token's value, a die's face) ``step`` on, wrapping in its range;
    a die's face not set yet starts below its lowest (CHOICE: 1) or above its highest (NEXT:
    the highest)."""
    low, high = _range(question)
    entry = app.entry
    current = entry.number
    if current is None:
        current = low - 1 if step > 0 else high + 1
    number = low + (current - low + step) % (high - low + 1)
    return replace(app, entry=replace(entry, number=number))


def _ok(app: App, question: Question, entry: Entry) -> Result:
    if isinstance(question, SINGLE) and not question.options:
        return _out(_say(app, "Tap a card", "This question is answered by tapping a card."))
    if isinstance(question, SINGLE):
        if not 0 <= entry.cursor < len(question.options):  # an empty list: nothing to choose
            return _out(_say(app, "Nothing here", "There is nothing to choose here: BACK."))
        return _call(app, Answer(question.options[entry.cursor]))
    if isinstance(question, YesNo):
        return _call(app, Answer(entry.cursor == 0))
    if isinstance(question, ChooseSome):
        if entry.cursor == len(question.options):  # Done
            return _call(app, Answer(_ticked(question, entry)))
        return _out(replace(app, entry=replace(entry, ticked=entry.ticked ^ {entry.cursor})))
    if isinstance(question, EnterNumber):
        return _call(app, Answer(entry.number))
    if isinstance(question, DrawToken):
        if entry.stage == 0:
            return _out(replace(app, entry=replace(entry, stage=1, cursor=1)))  # "No" first
        return _call(app, Answer(Token(entry.number or 0, entry.cursor == 0)))
    if entry.number is None:  # a Roll with no face set
        return _out(_say(app, "No face yet", "ROLL rolls on the Pico; or CHOICE sets the "
                         "face of your own die, then OK."))
    return _call(app, Answer(entry.number, "table"))


def _ticked(question: ChooseSome, entry: Entry) -> tuple[str, ...]:
    return tuple(o for n, o in enumerate(question.options) if n in entry.ticked)


# --------------------------------------------------------------------------- dice


def _roll(app: App, question: Question) -> Result:
    if not isinstance(question, Roll):
        return _out(_say(app, "No roll", "This question is not a roll."))
    request = app.requests + 1
    app = replace(app, requests=request, rolling=request)
    shown, effects = _out(app)
    return shown, (RequestRoll(Die(question.die), request), *effects)


def _rolled(app: App, rolled: Rolled) -> Result:
    question = app.view.question
    if not isinstance(question, Roll):
        return app, ()  # the table rolled for itself: the Pico shows the face
    asked = rolled.request != 0 and rolled.request == app.rolling
    if rolled.request != 0 and not asked:
        return app, ()  # an answer to a request given up (an earlier question's)
    if app.reading and not asked:
        if app.at < len(app.reel) - 1:
            return _out(_say(app, "Read on", "Read the steps first (OK), then roll."))
        app = replace(app, at=len(app.reel))  # on the last page the die answers the roll
    if rolled.die != question.die:
        if asked:
            return app, ()
        return _roll(_dismiss(app), question)  # the ROLL button rolls the D12: the right die
    return _call(_dismiss(replace(app, rolling=0)), Answer(rolled.face, "pico"))


def _roll_refused(app: App, refused: RollRefused) -> Result:
    if refused.request == 0 or refused.request != app.rolling:
        return app, ()
    app = replace(app, rolling=0)
    return _out(_say(app, "No roll", f"The Pico did not roll ({refused.reason}). ROLL tries "
                     "again; or CHOICE sets your own die's face."))


# --------------------------------------------------------------------------- cards


def _tap(app: App, tap: Tap) -> Result:
    view, question = app.view, app.view.question
    if tap.game != view.game:
        return _out(_say(app, "Wrong game", f"That card is from {tap.game}, not {view.game}."))
    if app.reading and (view.taps_skip_reading or all(
            kind in view.taps_skip for page in app.reel[app.at:] for kind in page.kinds)):
        app = replace(app, at=len(app.reel))  # the steps not read yet are skipped
    if question is None:
        return _tap_idle(replace(app, at=len(app.reel)) if app.settled else app, tap)
    if app.reading and not _prompt_left(app):
        return _out(_say(app, "Read on", "Read the steps first (OK), then tap."))
    if not isinstance(question, OPTIONS):
        return _out(_say(app, "Not a card", "This question is not answered with a card."))
    option = view.cards.get((tap.kind, tap.card), tap.card)
    if option in view.tap_answers and not isinstance(question, ChooseSome):
        return _call(_dismiss(app), Answer(option))  # a card the list keeps secret
    several = [o for o in view.card_options.get((tap.kind, tap.card), ())
               if o in question.options]
    if option not in question.options and len(several) == 1:
        option = several[0]
    elif option not in question.options and several and isinstance(question, SINGLE):
        entry = replace(app.entry, cursor=question.options.index(several[0]))
        return _out(replace(_dismiss(app), entry=entry, at=len(app.reel)))
    if option not in question.options:
        return _out(_say(app, "Not an answer", f"{_card_name(view, tap, option)} is not one "
                         "of the answers here."))
    if isinstance(question, ChooseSome):
        n = question.options.index(option)
        entry = replace(app.entry, cursor=n, ticked=app.entry.ticked ^ {n})
        return _out(replace(_dismiss(app), entry=entry, at=len(app.reel)))
    return _call(_dismiss(app), Answer(option))


def _card_name(view: GameView, tap: Tap, option: str) -> str:
    """A tapped card as the table reads it: the game's name for the option, else the card's
    own name in the game's data (a Room card at a new game's question), never its id."""
    if option in view.names:
        return view.names[option]
    spec = games.GAMES.get(tap.game)
    name = spec.cards().get(tap.kind, {}).get(tap.card) if spec is not None else None
    return name or f"That {tap.kind} card"


def _prompt_left(app: App) -> bool:
    """Every step has been read: only the question's own prompt pages are left (a card
    tapped there answers it: the prompt says to tap)."""
    return all(page.index == -1 for page in app.reel[app.at:])


def _tap_idle(app: App, tap: Tap) -> Result:
    """A card with no question waiting: the action it begins (a Room card: set the room up),
    or why not now."""
    if app.reading:
        return _out(_say(app, "Read on", "Read the steps first (OK), then tap."))
    found = app.view.tap_actions.get((tap.kind, tap.card))
    if found is None:
        return _out(_say(app, "No question", "No question waits for a card now, and this "
                         f"{tap.kind} card begins nothing."))
    if isinstance(found, str):
        return _out(_say(app, "Not now", found))
    begin = Begin(found.action, found.answered, found.card) if isinstance(found, OpensForm) \
        else Begin(found)
    return _call(_dismiss(replace(app, menu=None)), begin)


# --------------------------------------------------------------------------- the glass


def _menu_items(view: GameView) -> tuple[MenuItem | None, ...]:
    """The menu: the legal actions, and Redo (``None``) when there is something to redo."""
    return (*view.menu, *((None,) if view.can_redo else ()))


def _cycle(n: int, length: int, step: int) -> int:
    return (n + step) % length if length else 0


def _say(app: App, key: str, text: str) -> App:
    return replace(app, notice=pages.notice(key, text, app.view.title), notice_at=0,
                   redo_offer=False)


def _dismiss(app: App) -> App:
    return replace(app, notice=(), notice_at=0, redo_offer=False)


def _call(app: App, call: SessionCall) -> Result:
    """Ask the shell for a session call; the glass stays until the new view comes."""
    return replace(app, waiting=call), (call,)


def _question_screen(app: App) -> Screen:
    view, entry = app.view, app.entry
    question = view.question
    assert question is not None
    target = view.name(app.target) if app.target else None
    acting = pages.title_name(app.acting, view.names.values()) if app.acting else None
    title = pages.short_prompt(view.game, question, acting, target)
    said = () if view.back_leaves else pages.prompt_lines(view.game, question, title)
    if app.carried:
        room = pages.PROMPT_ROWS - len(app.carried)
        said = (*app.carried, *(fit(" ".join(said), COLUMNS),)[:room]) \
            if said and room else app.carried
    if isinstance(question, SINGLE):
        return pages.choice_screen(title, pages.option_labels(question, view.names),
                                   entry.cursor, lines=said)
    if isinstance(question, ChooseSome):
        return pages.choice_screen(title, pages.option_labels(question, view.names),
                                   entry.cursor, entry.ticked)
    if isinstance(question, YesNo):
        return pages.choice_screen(title, ("Yes", "No"), entry.cursor, lines=said)
    if isinstance(question, EnterNumber):
        number = question.low if entry.number is None else entry.number
        return pages.number_screen(title, number, question.low, question.high, said)
    if isinstance(question, DrawToken):
        if entry.stage == 1:
            return pages.choice_screen("Reset icon on it?", ("Yes", "No"), entry.cursor)
        return pages.number_screen("Token value?", entry.number or 0, 0, TOKEN_HIGH)
    return pages.roll_screen(question, title, entry.number, app.rolling != 0, app.carried)


def screen(app: App) -> Screen:
    """What the glass shows in this state."""
    view = app.view
    if app.notice:
        return app.notice[app.notice_at]
    if app.reading:
        return app.reel[app.at].screen
    if app.menu is not None:
        labels = tuple(REDO if item is None else item.label for item in _menu_items(view))
        return pages.menu_screen(labels, app.menu)
    if view.question is not None:
        return _question_screen(app)
    if view.over:
        return pages.idle_screen("Game over", "Game over", (view.result, *view.status))
    hint = "NEXT: next AI piece" if view.next_action is not None else "OK: the menu"
    return pages.idle_screen(view.title, view.idle_key, (hint, *view.status))


def next_may_begin(app: App) -> bool:
    """NEXT AI PIECE pressed in this state may begin the game's main move (``_press``'s way
    to ``_on_idle``): no notice over the screen, the steps read to their last page, no
    question (or the menu open over the idle screen). False: it reads on, pages a notice or
    steps a number, and begins nothing."""
    if app.notice:
        return False
    if app.reading:
        return app.settled
    return app.menu is not None or app.view.question is None


def held_buttons(app: App) -> frozenset[Button]:
    """The buttons whose held press means another thing than a short one in this state
    (docs/buttons.md): a source that reports a press at its first edge must wait for these to
    know which. BACK held undoes everywhere, CHOICE held steps back; NEXT held steps a number
    down by five, on a number's question only."""
    question = app.view.question
    if app.notice or app.reading or app.menu is not None or question is None \
            or _is_list(question, app.entry):
        return HELD
    return HELD_NUMBER


def _target(app: App) -> str | None:
    """The hero targeted in the steps shown so far (an active character, a new turn clears
    it)."""
    ends = _kinds(app.view.game).target_ends
    for page in reversed(app.reel[:app.at + 1]):
        if page.target is not None:
            return page.target
        if any(kind in ends for kind in page.kinds):
            return None
    return app.target


def _lights(app: App, target: str | None) -> tuple[SeatLight, ...]:
    """The game's own lights (``GameView.lights``), then the ``target`` hero's seat on; on a
    question, the seat that answers pulses: the seat of the hero (or seat) under the cursor,
    else the targeted hero's."""
    seats = app.view.seats
    lit: dict[int, str] = {seat: mode for seat, mode in app.view.lights.items() if mode != "off"}
    if target is not None and target in seats:
        lit[seats[target]] = "on"
    question = app.view.question
    if not app.reading and app.menu is None and not app.notice and question is not None:
        option = None
        if isinstance(question, OPTIONS) \
                and app.entry.cursor < len(question.options):
            option = question.options[app.entry.cursor]
        if option is not None and option in seats:
            lit[seats[option]] = "pulse"
        elif target is not None and target in seats:
            lit[seats[target]] = "pulse"
    return tuple(_light(seat, mode) for seat, mode in sorted(lit.items()))


@cache
def _light(seat: int, mode: str) -> SeatLight:
    """One seat's light, made once (a frozen value): each press's lights are the same few,
    and a tuple of the same objects compares equal at once."""
    return SeatLight(seat, mode)


def _out(app: App, force: bool = False) -> Result:
    """The state with the glass and the lights it implies, and the effects that change them."""
    target = _target(app)
    if target != app.target:
        app = replace(app, target=target)  # a question's title may name it
    effects: list[Effect] = []
    held = held_buttons(app)
    if held != app.held:
        effects.append(Hold(held))  # before the screen that needs it
    now = screen(app)
    if force or now != app.shown:
        effects.append(Show(now))
    lights = _lights(app, target)
    if lights != app.lights:
        effects.append(SetLeds(lights))
    return replace(app, target=target, shown=now, lights=lights, held=held), tuple(effects)
