"""Typed parameters of a game's moves, read from JSON once, at the edge.

A move's parameters are a frozen dataclass. Each field says what it takes with ``param(...)``:
its JSON type, and, where the state decides what fits, the ``options`` a menu offers (ids) or
the ``low``/``high`` of a number. ``from_json`` refuses unknown keys (with a suggestion) and
wrong types, naming the field and the procedure; the rules then receive typed values.

"Not given" and "set to none" are told apart here, once: a field whose JSON ``null`` is a value
the table sets (a hero back from teleport: ``"away": null``) defaults to ``NOT_GIVEN``, and
``given`` lists the fields an action gave. A field defaulting to ``None`` reads ``null`` as not
given.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Any, Final, TypeVar

from overseer.core.shapes import suggestion

P = TypeVar("P")


class ParamError(ValueError):
    """Parameters that do not fit their move: ``move: field: problem``."""

    def __init__(self, move: str, field: str, problem: str) -> None:
        super().__init__(f"{move}: {field}: {problem}" if field else f"{move}: {problem}")
        self.move = move
        self.field = field
        self.problem = problem


class NotGiven(Enum):
    """The default of a field the action may leave out, where ``None`` is a value it may set."""

    NOT_GIVEN = "not given"

    def __repr__(self) -> str:
        return "NOT_GIVEN"


NOT_GIVEN: Final = NotGiven.NOT_GIVEN


def given(params: Any) -> dict[str, Any]:
    """The fields an action gave, by name (``None`` included where it is a value), in the
    dataclass's order; a field left at ``NOT_GIVEN`` is not among them."""
    return {f.name: getattr(params, f.name) for f in dataclasses.fields(params)
            if getattr(params, f.name) is not NOT_GIVEN}


@dataclass(frozen=True, slots=True)
class Ask:
    """How the gadget asks one parameter: options from the state (ids with their display
    names), or a number range. ``options`` is called on the state."""

    options: Callable[[Any], Sequence[str]] | None = None
    low: int = 0
    high: int = 99
    prompt: str = ""


@dataclass(frozen=True, slots=True)
class NoParams:
    """The parameters of a move that takes none."""


def param(*, default: Any = dataclasses.MISSING, options: Callable[[Any], Sequence[str]]
          | None = None, low: int = 0, high: int = 99, prompt: str = "") -> Any:
    """A parameter field: ``x: str = param(options=lambda battle: [...])``."""
    ask = Ask(options, low, high, prompt)
    if default is dataclasses.MISSING:
        return dataclasses.field(metadata={"ask": ask})
    if isinstance(default, list | dict):
        raise TypeError("use a tuple default, parameters are frozen")
    return dataclasses.field(default=default, metadata={"ask": ask})


def fields(cls: type) -> list[dataclasses.Field[Any]]:
    return list(dataclasses.fields(cls))


def ask_of(field: dataclasses.Field[Any]) -> Ask:
    return field.metadata.get("ask", Ask())


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None) and a is not NotGiven]
        name = " or ".join(_type_name(a) for a in args)
        return f"{name} (or null)" if type(None) in typing.get_args(tp) else name
    if tp is type(None):
        return "null"
    if origin in (tuple, list):
        (inner, *_rest) = typing.get_args(tp) or (Any,)
        return f"a list of {_type_name(inner)}"
    if origin is dict or tp is dict:
        return "an object"
    return {int: "a whole number", str: "a string", bool: "true or false"}.get(tp, str(tp))


def _convert(tp: Any, value: Any) -> tuple[bool, Any]:
    """(fits, the typed value)."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        for arg in typing.get_args(tp):
            ok, typed = _convert(arg, value)
            if ok:
                return True, typed
        return False, None
    if tp is type(None):
        return value is None, None
    if tp is NotGiven:
        return False, None  # never from JSON: a key left out keeps its default
    if tp is Any:
        return True, value
    if origin is tuple:
        args = typing.get_args(tp)
        inner = args[0] if args else Any
        if not isinstance(value, list | tuple):
            return False, None
        out = []
        for item in value:
            ok, typed = _convert(inner, item)
            if not ok:
                return False, None
            out.append(typed)
        return True, tuple(out)
    if origin is dict:
        return isinstance(value, dict), value
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool), value
    if tp is bool:
        return isinstance(value, bool), value
    if tp is str:
        return isinstance(value, str), value
    return isinstance(value, tp), value


@cache
def _schema(cls: type) -> tuple[dict[str, Any], list[str]]:
    """A parameter class's field types and names, read once."""
    return typing.get_type_hints(cls), [f.name for f in fields(cls)]


def hints(cls: type) -> dict[str, Any]:
    """A parameter class's field types by name (read once; do not change the dict)."""
    return _schema(cls)[0]


def from_json(cls: type[P], data: dict[str, Any], move: str) -> P:
    """Build ``cls`` from a JSON object, refusing unknown keys, missing ones and wrong types.
    ``data`` holds the parameters only (no ``do``)."""
    if not isinstance(data, dict):
        raise ParamError(move, "", f"the parameters are an object (got {data!r})")
    hints, known = _schema(cls)
    if not data and not known:
        return cls()  # a move without parameters (the common NEXT AI PIECE)
    for key in data:
        if key not in known:
            raise ParamError(move, key, f"unknown key; {suggestion(key, known)}")
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in data:
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise ParamError(move, f.name, f"missing ({_type_name(hints[f.name])})")
            continue
        ok, typed = _convert(hints[f.name], data[f.name])
        if not ok:
            raise ParamError(move, f.name, f"wanted {_type_name(hints[f.name])}, got "
                             f"{json.dumps(data[f.name])}")
        values[f.name] = typed
    return cls(**values)
