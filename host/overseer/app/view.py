"""What the controller reads of a game: an immutable snapshot (``GameView``) with the trace steps
in it (``StepView``), and the one function that makes it (``build``) of the game's table and
what is open: the session, or a local procedure's question (a form, the new game's questions).

The controller never touches the session: it reads a view and asks for session calls as
effects; the shell applies them and hands it the view ``build`` makes next.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from overseer.app.menu import MenuItem, OpensForm
from overseer.core import procedure
from overseer.core.made import Made, MadeTuple
from overseer.core.procedure import Question, Step
from overseer.screens import pages

if TYPE_CHECKING:  # what build reads, not imported when only the view's shape is
    from overseer.app.flow import Table
    from overseer.app.local import Local
    from overseer.core.moves import Move
    from overseer.session.session import Session

__all__ = ["GameView", "Made", "Menu", "MenuItem", "OpensForm", "StepView", "build"]

TapAction = Mapping[str, Any] | OpensForm | str


class Menu(MadeTuple[MenuItem]):
    """A view's menu, made when it is first read (the menu opened, the web page's list), not
    at every view: each legal move asked whether its form has something to choose costs more
    than the rest of an idle view. Equal to a tuple of the same items."""


class AtTable(Step):
    """``step.at_table(names)`` worked out when first read: the glass reads few of an answer's
    new sentences (a shot, a token, the health left are drawn of their data; the sentences
    are the detail page's, CHOICE away), and ``at_table`` drew each and wrote it in the rules'
    words too (some 10,000 instructions a step). Reads as the step ``at_table`` gives: its
    sentence with the table's names, and the step's own template and facts where that
    sentence is the rules' (``at_table`` gives the step itself), none where it is not (its
    copy). Never changed once made."""

    __slots__ = ("_step", "_names")

    def __init__(self, step: Step, names: Mapping[str, str]) -> None:
        self.kind, self.rule, self.data = step.kind, step.rule, step.data
        self._step, self._names, self._text = step, names, None

    @property
    def text(self) -> str:
        text = self._text
        if text is None:
            text = self._text = self._step.drawn(self._names)
        return text

    @property
    def template(self) -> str:  # pyright: ignore[reportIncompatibleVariableOverride]
        return self._step.template if self._same() else self.text

    @property
    def facts(self) -> procedure.Facts | None:  # pyright: ignore[reportIncompatibleVariableOverride]
        return self._step.facts if self._same() else None

    def _same(self) -> bool:
        """The sentence at the table is the rules' own (``at_table`` gives the step itself)."""
        return self.text == self._step.text


@dataclass
class StepView:
    """A trace step and where it stands: ``index`` is its place in the whole trace;
    ``verified`` is False when the step rests on data the books do not print. Never changed
    once made (not frozen, as ``GameView``)."""

    index: int
    step: Step
    verified: bool = True


def new_steps(trace: Sequence[Step], start: int) -> tuple[StepView, ...]:
    """The steps of ``trace`` from ``start`` on, each with its place and whether its data is
    printed (a step whose facts say ``verified: false`` is not)."""
    return tuple(StepView(n, step, step.data.get("verified") is not False)
                 for n, step in enumerate(trace[start:], start))


@dataclass
class GameView:
    """The game as the controller sees it after a change: never changed once read (the shell
    numbers its question, and leaves hidden moves off its menu, on the view it has just
    built, app/playing.py). Not frozen: a view is made at every change, and a frozen
    dataclass sets each of its 31 fields through ``object.__setattr__``, five times slower
    (some 40,000 instructions a view; the rules' questions are not frozen for the same
    reason, core/procedure.py).

    - ``question``: the question waiting for the table (``Session.pending``), or ``None``;
    - ``menu``: the legal actions (the lead fills them from the game's legal actions);
    - ``next_action``: what NEXT AI PIECE begins when it is legal now, else ``None`` and
      ``next_refusal`` says why;
    - ``steps``: the trace steps new since the last view; ``trace_length``: the whole trace's
      length now (shorter after an undo: the controller drops the steps that are gone);
      ``step_title``: the title the first of ``steps`` takes when it sets none (the character
      acting in the steps before it); ``None``: the title of the last step the controller had;
    - ``names``: display names by id (heroes, pieces, cards: whatever options name);
    - ``cards``: a tapped card's option id by (card kind, card id), where they differ;
    - ``seats``: a hero's seat (its LED) by hero id;
    - ``over`` and ``result``: the game has ended, and how;
    - ``status``: a few short lines for the screen between actions (round, health...);
      ``idle_key``: that screen's key word ("Ready", "Heroes' turn", "Room won");
    - ``number_start``: where a number question's entry starts (a form's current value);
      ``cursor_start``: the row a list question's cursor starts on (its likely answer);
    - ``back_leaves``: the question is a form's, run by the shell: BACK leaves it (``Cancel``);
    - ``tap_actions``: what a tapped card begins when no question waits, by (card kind, card
      id): the action, or the reason it cannot be begun now;
    - ``lights``: the game's own seat lights by seat (``on``, ``dim``, ``pulse``: a turn
      tracker, the seats that answer the question); a target's and the cursor's lights go
      over them;
    - ``undo_refusal``: why there is nothing to undo, said when BACK is held and ``can_undo``
      is false;
    - ``card_options``: the options a tapped card may name, by (card kind, card id), where
      it names several (a monster's card: each of its pieces); the one among a question's
      options answers it, of several the cursor goes to the first;
    - ``own_dice``: the table rolls its own dice (a die's face entry starts at its middle);
    - ``tap_answers``: answers of the question a tapped card gives that its list does not show
      (a hand's cards: secret);
    - ``taps_skip_reading``: a tapped card is taken on any page (the steps not read yet are
      skipped), else the steps are read first, unless they are all of the kinds in
      ``taps_skip``;
    - ``asked``: the number of the question on the glass (the shell counts each new one): a
      phone's answer (``Remote``) names it, so a late one cannot answer the next question.

    ``menu``, ``next_action``, ``next_refusal``, ``status``, ``idle_key`` and ``tap_actions``
    are read only when no question waits (the menu, NEXT AI PIECE and the idle
    screen belong there): a shell may leave them at their defaults while one does.
    ``build`` makes the menu, the taps and what a tapped card names (``cards``,
    ``card_options``) when they are first read (``Menu``, ``Made``).
    """

    game: str
    question: Question | None = None
    menu: Sequence[MenuItem] = ()
    next_action: Mapping[str, Any] | None = None
    next_refusal: str = ""
    steps: tuple[StepView, ...] = ()
    trace_length: int = 0
    step_title: str | None = None
    names: Mapping[str, str] = field(default_factory=dict)
    cards: Mapping[tuple[str, str], str] = field(default_factory=dict)
    seats: Mapping[str, int] = field(default_factory=dict)
    can_undo: bool = False
    can_redo: bool = False
    over: bool = False
    result: str = ""
    title: str = "Overseer"
    status: tuple[str, ...] = ()
    idle_key: str = "Ready"
    number_start: int | None = None
    cursor_start: int = 0
    back_leaves: bool = False
    tap_actions: Mapping[tuple[str, str], TapAction] = field(default_factory=dict)
    lights: Mapping[int, str] = field(default_factory=dict)
    undo_refusal: str = "the game is at its start"
    card_options: Mapping[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    own_dice: bool = False
    tap_answers: frozenset[str] = frozenset()
    taps_skip_reading: bool = False
    taps_skip: frozenset[str] = frozenset()
    asked: int = 0

    def name(self, ident: str) -> str:
        return self.names.get(ident, ident)


def build(table: Table, session: Session | None, seen: int, seats: Mapping[str, int],
          local: Local | None = None, remembered: Mapping[str, int] | None = None) -> GameView:
    """The view, made of the game's table and what is under way: a local procedure's question
    (``local``: a form, the new game's questions; ``remembered``: the last value entered for a
    form's number, by key), else the session's (``seen``: the trace steps the controller has
    had: the view's ``steps`` are the ones after). Reads the session, changes nothing. The
    menu, NEXT AI PIECE and the idle screen's fields are worked out only when nothing is
    asked."""
    names = table.labels(session.state) if session is not None else {}
    if local is not None:
        ask = local.ask
        assert ask is not None
        start = (remembered or {}).get(ask.question.key, ask.start) if ask.remember \
            else ask.start
        return GameView(table.game, question=ask.question, trace_length=seen,
                        names={**names, **ask.names}, seats={**seats, **ask.seats},
                        cards=dict(ask.cards), tap_answers=frozenset(ask.cards.values()),
                        can_undo=bool(local.answers) or session is not None,
                        undo_refusal="nothing has been entered yet",  # no game, no answer
                        title=local.title, back_leaves=True, number_start=start,
                        cursor_start=ask.cursor,
                        next_refusal="answer these questions first, or BACK to leave them",
                        lights={} if session is None else table.lights(session.state, seats,
                                                                       None))
    assert session is not None
    battle, trace = session.state, session.runner.trace
    since = min(seen, len(trace))
    steps = tuple(StepView(n, step if step.facts is None else AtTable(step, names),
                           step.data.get("verified") is not False)
                  for n, step in enumerate(trace[since:], since) if table.on_glass(step))
    title = table.title(battle)
    step_title = pages.title_before(table.game, trace, since, names, title) if steps else None
    question, hidden = session.pending, frozenset[str]()
    last = last_action(session)
    if question is not None:
        names = {**names, **table.option_names(battle, question)}
        shown = table.asked(procedure.shown(question, names), battle)
        hidden = frozenset(_options(question)) - frozenset(_options(shown))
        question = shown
    return GameView(
        table.game, question=question, steps=steps, trace_length=len(trace), names=names,
        cards=Made(lambda: table.cards(battle)), seats=seats, can_undo=session.can_undo,
        can_redo=session.can_redo, over=session.finished,
        result=table.result(battle, names) if session.finished else "",
        step_title=step_title, title=title,
        lights=table.lights(battle, seats, session.pending),
        card_options=Made(lambda: table.card_options(battle)), own_dice=session.dice == "table",
        tap_answers=hidden, taps_skip_reading=table.taps_skip_reading, taps_skip=table.taps_skip,
        back_leaves=question is not None and table.back_leaves(last),
        cursor_start=0 if session.pending is None else table.likely(battle, session.pending),
        **({} if question is not None else _idle(table, session, names, last)))


def _idle(table: Table, session: Session, names: Mapping[str, str], last: str | None
          ) -> dict[str, Any]:
    """The view's fields the controller reads only when no question waits (the menu, NEXT AI
    PIECE, the idle screen, what a tapped card begins). The menu and the taps are made when
    first read, of the session as it is then: the state this view shows while it is the
    controller's (a refused call leaves the session folded to the same log), and the legal
    moves are listed for them alone (NEXT AI PIECE asks its own move)."""
    battle, over = session.state, session.finished
    moves, main = table.spec.moves.moves, table.spec.main_move

    @cache
    def legal() -> list[Move[Any]]:
        return [] if over else table.spec.legal_actions(session.state)

    next_action = {"do": main} if main and not over and moves[main].available(battle) \
        else None
    if main is None:
        refusal = f"{table.label} has no AI piece: OK opens the menu"
    elif next_action is None:
        refusal = moves[main].refused(battle).drawn(names)
    else:
        refusal = ""
    return {"menu": Menu(lambda: table.menu(session.state, legal(), over)),
            "next_action": next_action, "next_refusal": refusal,
            "status": table.status(battle, names), "idle_key": table.idle_key(battle, last),
            "tap_actions": Made(lambda: table.tap_actions(session.state, legal()))}


def _options(question: Question) -> tuple[str, ...]:
    options = getattr(question, "options", ())
    return tuple(o for o in options if isinstance(o, str))


def last_action(session: Session) -> str | None:
    """The name of the last action the log holds (under the head), read back from the head
    (not the whole log copied at every press)."""
    for seq in range(session.head - 1, -1, -1):
        event = session.log[seq]
        if event.kind == "action":
            return event.data.get("do")
    return None


def action_start(session: Session, first: int = 0) -> int:
    """The trace's length when the current (last) action began: a resumed game shows its steps
    from there. The table gives an input only after reading every step before it, so every
    step it may not have seen comes after its last input, inside this action; but the
    ``first`` actions of a new game are the gadget's, begun one after the other: while the log
    holds no more than those, every step is shown again. Bounded whatever the game's length:
    the log read back from the head to its last action, and forward only while it could still
    be one of those first ones; the trace's length there from the last snapshot before it."""
    log = session.log
    last = next((seq for seq in range(session.head - 1, -1, -1)
                 if log[seq].kind == "action"), None)
    if last is None or _only_first_actions(session, first):
        return 0
    return session.trace_length_at(last)


def _only_first_actions(session: Session, first: int) -> bool:
    """The log (to the head) holds at most ``first`` actions and no answer."""
    actions = 0
    for seq in range(session.head):
        kind = session.log[seq].kind
        if kind == "answer":
            return False
        actions += kind == "action"
        if actions > first:
            return False
    return True
