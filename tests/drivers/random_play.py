"""A random table: it takes a legal action with random parameters, and answers every question
at random from what the question allows. Seeded, so a failure replays."""

from __future__ import annotations

import dataclasses
import random
import typing
from typing import Any

from overseer.core.moves import Move
from overseer.core.params import ask_of, fields
from overseer.core.procedure import (
    ChooseOne,
    ChooseSome,
    DrawToken,
    EnterNumber,
    Pick,
    Question,
    Roll,
    Token,
    YesNo,
)
from overseer.games import GameSpec


def answer(question: Question, rng: random.Random) -> Any:
    if isinstance(question, Roll):
        return rng.randint(1, question.faces)
    if isinstance(question, DrawToken):
        if question.remaining:
            return rng.choice(question.remaining)
        return Token(rng.randint(0, 3), rng.random() < 0.1)
    if isinstance(question, Pick | ChooseOne):
        return rng.choice(question.options)
    if isinstance(question, ChooseSome):
        return [o for o in question.options if rng.random() < 0.4]
    if isinstance(question, YesNo):
        return rng.random() < 0.5
    if isinstance(question, EnterNumber):
        return rng.randint(question.low, min(question.high, question.low + 5))
    raise AssertionError(f"no random answer for {question!r}")


def params(move: Move[Any], state: Any, rng: random.Random) -> dict[str, Any] | None:
    """Random parameters the move's fields allow, or ``None`` when a required field has no
    option now. Optional fields are mostly left out."""
    out: dict[str, Any] = {}
    hints = typing.get_type_hints(move.params)
    for f in fields(move.params):
        ask = ask_of(f)
        required = f.default is dataclasses.MISSING
        if not required and rng.random() < 0.7:
            continue
        if ask.options is not None:
            options = list(ask.options(state))
            if options:
                out[f.name] = rng.choice(options)
            elif required:
                return None
        elif int in (hints[f.name], *typing.get_args(hints[f.name])):
            out[f.name] = rng.randint(ask.low, ask.high)
        elif required:
            return None
    return out


def action(spec: GameSpec, state: Any, rng: random.Random,
           weights: dict[str, float] | None = None) -> dict[str, Any]:
    """A legal action with random parameters."""
    legal = spec.legal_actions(state)
    assert legal, "no legal action in a game that is not over"
    while True:
        w = [(weights or {}).get(m.name, 1.0) for m in legal]
        move = rng.choices(legal, weights=w)[0]
        values = params(move, state, rng)
        if values is not None:
            return {"do": move.name, **values}
