"""The session calls the controller asks for, applied to a ``Session``: the one place that maps
``Begin``/``Answer``/``Undo``/``Redo`` onto ``Session.begin``/``answer``/``undo``/``redo`` and a
refusal onto the controller's ``Refused`` input.

A shell (the gadget's main loop, the picture script, the tests) runs the controller like this:

    app, effects = controller.start(view.build(table, session, 0, seats))
    ...
    for effect in effects:
        if isinstance(effect, SESSION_CALLS):
            refused = apply(session, effect)
            if refused: app, more = controller.handle(app, refused)
            else:       app, more = controller.refresh(app, view.build(table, session, seen,
                                                                      seats))
"""

from __future__ import annotations

from typing import Any

from overseer.app.controller import Answer, Begin, Redo, Refused, SessionCall, Undo
from overseer.core.procedure import AnswerError, RulesError
from overseer.session.session import SessionError
from overseer.session.store import SaveError, StoreError

SESSION_CALLS = (Begin, Answer, Undo, Redo)


def apply(session: Any, call: SessionCall, ahead: Any = None) -> Refused | None:
    """Apply one call; ``Refused`` (with the session's reason) when it is refused, in which
    case nothing changed. ``Cancel`` (leave a form) is the shell's own, not the session's.
    ``ahead``: a ``Begin``'s ``Session.ahead``, taken if it still holds."""
    try:
        if isinstance(call, Begin):
            session.begin(dict(call.action), call.synced, ahead)
        elif isinstance(call, Answer):
            session.answer(call.value, call.source)
        elif isinstance(call, Undo):
            session.undo()
        elif isinstance(call, Redo):
            session.redo()
        else:
            return Refused("there is no form to leave")
    except (AnswerError, RulesError, SessionError, StoreError) as err:
        return refused(err)
    return None


def refused(err: Exception) -> Refused:
    """A refusal as the glass says it: a failed save in short words (the store's path is the
    journal's, not the small screen's)."""
    if isinstance(err, RulesError):
        return Refused(str(err), err.template, err.facts)
    return Refused(err.short if isinstance(err, SaveError) else str(err))


def leave(session: Any, leaves: bool) -> Refused | None:
    """BACK on the question of an action the flow lets BACK leave (``leaves``:
    ``Table.back_leaves``): the action is taken back, its answers and the action itself (each
    undo durable), as if it had never begun."""
    if session.pending is None or not leaves:
        return Refused("there is no form to leave")
    try:
        while session.pending is not None:
            session.undo()
    except (SessionError, StoreError) as err:
        return Refused(str(err))
    return None


def set_dice(session: Any, dice: str) -> Refused | None:
    """Who rolls from now on: a setting event of the log (durable, undone like a press)."""
    try:
        session.set_dice(dice)
    except (SessionError, StoreError) as err:
        return refused(err)
    return None


def begin_queued(session: Any, queued: list[dict[str, Any]]) -> None:
    """A new game's first actions (``queued``, taken from it), one after the other while
    nothing is asked; one refused ends them (the menu still offers it: the table goes on
    from there)."""
    while queued and session.pending is None:
        action = queued.pop(0)
        try:
            session.begin(action)
        except (RulesError, SessionError, StoreError):
            queued.clear()
