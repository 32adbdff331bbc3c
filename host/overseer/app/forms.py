"""A move's parameters asked on the five buttons: a small procedure of questions, run by the
app before the action begins (nothing reaches the session until the form is complete).

A field with ``options`` becomes a ``ChooseOne`` (a card tap answers it too); a whole number
with a range an ``EnterNumber``; an optional field is asked only when its ``param`` says
``prompt`` (the rest keep their defaults: the rules ask what they need). A required field with
no option now makes the move unavailable (``None``).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Generator, Sequence
from functools import cache
from typing import Any

from overseer.core.moves import Move
from overseer.core.params import ask_of, fields, hints
from overseer.core.procedure import ChooseOne, EnterNumber, Question

NONE = "-"  # the option "none of these" for an optional choice

Form = Generator[Question, Any, dict[str, Any]]


def _is_int(tp: Any) -> bool:
    return tp is int or int in typing.get_args(tp)


def askable(move: Move[Any], state: Any) -> bool:
    """Every required field has something to choose from now."""
    return all(list(options(state)) for options in _required_options(move.params))


@cache
def _required_options(params: type) -> tuple[Callable[[Any], Sequence[str]], ...]:
    """The options of a move's required fields that have options, in the fields' order (kept
    by the parameters' class: the menu asks every legal move at every idle view)."""
    asks = [ask_of(f) for f in fields(params) if f.default is dataclasses.MISSING]
    return tuple(ask.options for ask in asks if ask.options is not None)


def form(move: Move[Any], state: Any) -> Form:
    """Ask the move's parameters; returns the action (``{"do": name, ...}``)."""
    types = hints(move.params)
    action: dict[str, Any] = {"do": move.name}
    for f in fields(move.params):
        ask = ask_of(f)
        required = f.default is dataclasses.MISSING
        if not required and not ask.prompt:
            continue
        prompt = ask.prompt or f"{move.label}: {f.name.replace('_', ' ')}?"
        if ask.options is not None:
            options = tuple(ask.options(state))
            if not required:
                options = (*options, NONE)
            if len(options) == 1 and required:
                action[f.name] = options[0]
                continue
            chosen = yield ChooseOne(prompt, options, f.name)
            if chosen != NONE:
                action[f.name] = chosen
        elif _is_int(types[f.name]):
            action[f.name] = yield EnterNumber(prompt, f.name, ask.low, ask.high)
    return action
