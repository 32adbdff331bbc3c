"""The gadget's local form host: the one procedure the gadget runs itself at a time (a move's
form, the Dice form, the new game's questions: app/local.py), before anything reaches the
session.

The shell opens a form when the controller asks to begin a move that has one (``open``), and
hands the host the controller's calls while its question is on the glass (``call``): an answer
(a tapped card's too: a card its question lists is taken as given), BACK (a question back; on
the first, the form is left; the new game's questions go back, they are not left) and
``Cancel``. A form that is done goes to the shell's ``perform`` (``Session.begin``, the dice
mode, a new game); a refusal leaves it at its last question, as it was.

A form under way is kept in the store's gadget table beside its game, its menu action and its
answers so far (``keep``: the shell calls it before the next screen shows), and ``resume``
replays it after a restart. The new game's questions (no game is stored yet) are not kept.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from overseer.app import kept
from overseer.app.controller import Answer, Begin, Cancel, Refused, SessionCall, Undo
from overseer.app.flow import DICE_MODE, MakeForm, Table, dice_form
from overseer.app.local import Local, LocalProcedure
from overseer.core.procedure import AnswerError, ChooseOne, Pick
from overseer.session.session import Session
from overseer.session.store import Store

Perform = Callable[[Any], Refused | None]  # a done form's result, to the session


class FormHost:
    """The local procedure under way (``local``), if any; see the module's docstring."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.local: Local | None = None
        self.name: str | None = None  # the form's menu action (None: the new game's questions)
        self.stored: dict[str, Any] | None = None  # the form as the store holds it
        self.remembered: dict[str, int] = {}  # the last value of a form's number, by key

    def ask(self, make: Callable[[], LocalProcedure], title: str) -> None:
        """The new game's questions (not kept: BACK goes back a question)."""
        self.local, self.name = Local(make, title, leaves=False), None

    def drop(self) -> None:
        self.local, self.name = None, None

    def open(self, name: str, made: tuple[MakeForm, str], answered: Mapping[str, Any],
             card: tuple[str, str] | None) -> Refused | Begin | None:
        """The form of menu action ``name``, with the answers a tapped card gave (by question
        key, while they come first) and the card itself for its next question: None while it
        asks; the action to begin, when they complete it; Refused when its list is empty."""
        local = Local(made[0], made[1], leaves=True)
        _answer_ahead(local, answered)
        empty = _empty_choice(local)
        if empty is not None:
            return Refused(f"{made[1]}: nothing to choose from now ({empty})")
        if card is not None and not local.done:
            local.tap(*card)
        if local.done:
            return Begin(local.result)
        self.local, self.name = local, name
        return None

    def call(self, call: SessionCall, perform: Perform, game: bool) -> Refused | None:
        """A controller's call on the question of the procedure under way (``game``: a game
        is open to go back to)."""
        local = self.local
        assert local is not None
        if isinstance(call, Answer):
            ask = local.ask
            try:
                local.answer(call.value)
            except AnswerError as err:
                return Refused(str(err))
            if ask is not None and ask.remember and isinstance(call.value, int):
                self.remembered[ask.question.key] = call.value
            return self._done(local, perform)
        if isinstance(call, Undo) or (isinstance(call, Cancel) and not local.leaves):
            return None if local.back() else self._leave(game)
        if isinstance(call, Cancel):
            return self._leave(game)
        return Refused("finish or leave these questions first (BACK)")

    def _leave(self, game: bool) -> Refused | None:
        if not game:
            return Refused("the first question, and no game to go back to")
        self.drop()
        return None

    def _done(self, local: Local, perform: Perform) -> Refused | None:
        """When the procedure is done, its result to ``perform`` (a refusal leaves it at its
        last question, as it was)."""
        if not local.done:
            return None
        if local.result is None:  # the table said no (a confirmation): nothing is begun
            self.drop()
            return None
        refused = perform(local.result)
        if refused is not None:
            local.refuse_last()
        else:
            self.drop()
        return refused

    def keep(self, game_id: int | None) -> None:
        """Keep the form under way (its name, its answers so far) beside the game, or drop it
        when there is none: written only when it changed."""
        if game_id is None:
            return
        form = None
        if self.local is not None and self.name is not None:
            form = {"do": self.name, "answers": list(self.local.answers)}
        if form == self.stored:
            return
        # (not written: the form goes on; only a restart would not bring it back)
        if kept.update(self.store, game_id, "the form under way could not be kept",
                          form=form):
            self.stored = form

    def resume(self, session: Session, made: Callable[[str], tuple[MakeForm, str] | None]
               ) -> bool:
        """The form under way when the gadget stopped, at the question it was on (the table
        had read every step before it): True when there is one. A form that no longer fits
        the game is dropped."""
        stored = self.store.gadget(session.id).get("form")
        self.stored = stored if isinstance(stored, dict) else None
        local = None
        if self.stored is not None and session.pending is None:
            name, answers = self.stored.get("do"), self.stored.get("answers")
            form = made(name) if isinstance(name, str) else None
            local = replayed(form, answers) if form is not None else None
            if local is not None:
                self.local, self.name = local, name
        self.keep(session.id)
        return local is not None


def form_of(table: Table, session: Session, pico: bool, name: str
            ) -> tuple[MakeForm, str] | None:
    """The form a menu item opens (the Dice form, or the game's), and its title."""
    if name == DICE_MODE:
        dice = session.dice
        return (lambda: dice_form(dice, pico)), "Dice"
    return table.form_of(name, session.state, table.labels(session.state))


def replayed(made: tuple[MakeForm, str], answers: Any) -> Local | None:
    """A kept form given its answers again, at its next question; None when they no longer
    fit (or finish it: the form is asked again from the menu)."""
    if not isinstance(answers, list):
        return None
    local = Local(made[0], made[1], leaves=True)
    try:
        for value in answers:
            local.answer(value)
    except (AnswerError, ValueError):
        return None
    return None if local.done else local


def _empty_choice(local: Local) -> str | None:
    """The prompt of a form's question that has no option to choose (a fight where the player
    stands in no lair), else None. A question a tapped card answers is not empty: it lists
    no option when the cards are a secret (Conquest's card to play, from a hand)."""
    ask = local.ask
    if local.done or ask is None or ask.cards:
        return None
    question = ask.question
    if isinstance(question, ChooseOne) and not question.options:
        return question.prompt
    if isinstance(question, Pick) and not question.options:
        return question.purpose
    return None


def _answer_ahead(local: Local, answered: Mapping[str, Any]) -> None:
    """Answer the form's questions whose answers the table gave with the action (a tapped
    card's), while they come first; an answer the question refuses is left to the table."""
    while not local.done and local.ask is not None and local.ask.question.key in answered:
        try:
            local.answer(answered[local.ask.question.key])
        except AnswerError:
            return

