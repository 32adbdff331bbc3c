"""Procedures the gadget runs itself, before anything reaches the session: a move's form (its
parameters asked on the buttons) and the new-game wizard.

A local procedure is a generator that yields questions (a ``Question``, or an ``Ask``: the
question with what its screen needs beside it) and returns its result (an action, a new
game). ``Local`` keeps the answers given so far and replays the generator over them, so going
back a question is dropping the last answer, and a form is resumed after a restart by giving
its kept answers again (the shell keeps a form's name and ``answers`` in the store's gadget
table; the new-game wizard, before any game is stored, is not kept).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from typing import Any

from overseer.core.procedure import AnswerError, Question


@dataclass(frozen=True)
class Ask:
    """A question of a local procedure and what its screen needs beside it: where a number
    starts (``start``: the current value), the options' display names, and the cards whose
    tap answers it (``cards``: (card kind, card id) -> the answer sent, which may be an
    option of the field a group question narrows down; the procedure takes it as given), and
    the seat LED of an option (it pulses under the cursor); ``cursor``: the row a list's cursor
    starts on, its likely answer (a ChooseSome's ``len(options)`` is its Done row: nothing
    ticked is likely)."""

    question: Question
    start: int | None = None
    names: Mapping[str, str] = field(default_factory=dict)
    cards: Mapping[tuple[str, str], Any] = field(default_factory=dict)
    seats: Mapping[str, int] = field(default_factory=dict)
    remember: bool = False  # a number that starts at the last value entered for its key
    cursor: int = 0


LocalProcedure = Generator[Question | Ask, Any, Any]


def as_ask(item: Question | Ask) -> Ask:
    return item if isinstance(item, Ask) else Ask(item)


class Local:
    """One local procedure under way: ``ask`` is its question, ``done``/``result`` its end.
    ``title`` names it on the glass; ``leaves``: BACK on its question leaves it (a form), else
    BACK goes back a question (the new-game wizard)."""

    def __init__(self, make: Callable[[], LocalProcedure], title: str, leaves: bool) -> None:
        self.make = make
        self.title = title
        self.leaves = leaves
        self.answers: list[Any] = []
        self.ask: Ask | None = None
        self.done = False
        self.result: Any = None
        self._replay(self.answers)

    def _replay(self, answers: list[Any]) -> None:
        """Run the procedure afresh over ``answers`` (each already checked)."""
        proc = self.make()
        ask, done, result = None, False, None
        try:
            ask = as_ask(next(proc))
            for value in answers:
                ask = as_ask(proc.send(value))
        except StopIteration as stop:
            ask, done, result = None, True, stop.value
        self.answers, self.ask, self.done, self.result = list(answers), ask, done, result

    def answer(self, value: Any) -> None:
        """Answer the question: checked (``AnswerError`` and nothing moves), unless it is the
        answer of a card its ``Ask.cards`` lists (taken as given: it may name what a group
        question narrows down to)."""
        ask = self.ask
        if ask is None:
            raise ValueError(f"{self.title}: no question is waiting")
        try:
            value = ask.question.check(value)
        except AnswerError:
            if value not in ask.cards.values():
                raise
        self._replay([*self.answers, value])

    def tap(self, kind: str, card: str) -> bool:
        """A tapped card that answers the question (``Ask.cards``): answered, True."""
        if self.ask is None or (kind, card) not in self.ask.cards:
            return False
        self._replay([*self.answers, self.ask.cards[(kind, card)]])
        return True

    def back(self) -> bool:
        """Go back one question (its answer is dropped); False at the first question."""
        if not self.answers:
            return False
        self._replay(self.answers[:-1])
        return True

    def refuse_last(self) -> None:
        """The result was refused (by the session): back to the last question, as it was."""
        self.back()

