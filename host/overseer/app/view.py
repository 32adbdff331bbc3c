"""What the controller reads of a game: an immutable snapshot, made by the shell from the session
after every change (``GameView``), and the trace steps in it (``StepView``).

The controller never touches the session: it reads a view and asks for session calls as
effects; the shell applies them and hands it the next view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from overseer.core.procedure import Question, Step


@dataclass(frozen=True)
class OpensForm:
    """What a tapped card begins when it gives the first answers of its action's form, by
    question key (a hero card at the idle screen: "Hero changed" with that hero chosen)."""

    action: Mapping[str, Any]
    answered: Mapping[str, Any]
    card: tuple[str, str] | None = None  # the card, tapped on the form's first question


@dataclass(frozen=True)
class MenuItem:
    """One legal action the table may begin from the menu: its label and the action itself
    (``{"do": ...}``, as ``Session.begin`` takes it)."""

    label: str
    action: Mapping[str, Any]


@dataclass(frozen=True)
class StepView:
    """A trace step and where it stands: ``index`` is its place in the whole trace;
    ``verified`` is False when the step rests on data the books do not print."""

    index: int
    step: Step
    verified: bool = True


def new_steps(trace: Sequence[Step], start: int) -> tuple[StepView, ...]:
    """The steps of ``trace`` from ``start`` on, each with its place and whether its data is
    printed (a step whose facts say ``verified: false`` is not)."""
    return tuple(StepView(n, step, step.data.get("verified") is not False)
                 for n, step in enumerate(trace[start:], start))


@dataclass(frozen=True)
class GameView:
    """The game as the controller sees it after a change.

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
      skipped), else the steps are read first;
    - ``asked``: the number of the question on the glass (the shell counts each new one): a
      phone's answer (``Remote``) names it, so a late one cannot answer the next question.

    ``menu``, ``next_action``, ``next_refusal``, ``status``, ``idle_key`` and ``tap_actions``
    are read only when no question waits (the menu, NEXT AI PIECE and the idle
    screen belong there): a shell may leave them at their defaults while one does.
    """

    game: str
    question: Question | None = None
    menu: tuple[MenuItem, ...] = ()
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
    tap_actions: Mapping[tuple[str, str], Mapping[str, Any] | OpensForm | str] = field(
        default_factory=dict)
    lights: Mapping[int, str] = field(default_factory=dict)
    undo_refusal: str = "the game is at its start"
    card_options: Mapping[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)
    own_dice: bool = False
    tap_answers: frozenset[str] = frozenset()
    taps_skip_reading: bool = False
    asked: int = 0

    def name(self, ident: str) -> str:
        return self.names.get(ident, ident)


def character_names(state: Any) -> dict[str, str]:
    """Display names by id of a state's characters (Catacombs heroes and AI pieces)."""
    people = {**getattr(state, "heroes", {}), **getattr(state, "pieces", {})}
    return {k: v.name for k, v in people.items() if getattr(v, "name", None)}


def session_view(session: Any, since: int, **fields: Any) -> GameView:
    """The view of a ``Session`` (read only): its pending question, the trace steps from
    ``since`` on (the trace length of the last view; after an undo it is past the end, which is
    fine), undo and redo, whether it is over, the characters' names. ``fields`` give the rest
    (``menu``, ``next_action``, ``seats``, ``result``, ``status``...). For a resumed game,
    ``since`` 0 shows its whole trace again; where the current action began shows only that."""
    trace = session.runner.trace
    return GameView(
        game=session.game,
        question=session.pending,
        steps=new_steps(trace, min(since, len(trace))),
        trace_length=len(trace),
        names={**character_names(session.state), **fields.pop("names", {})},
        can_undo=session.can_undo,
        can_redo=session.can_redo,
        over=session.finished,
        **fields,
    )
