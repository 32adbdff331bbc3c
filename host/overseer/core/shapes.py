"""Checking JSON-shaped input (scenarios, session setups): keys and types, one clear message.

A refusal is a ``BadInput`` naming the path of the key or value (``setup.heroes[1].helth``) and
the problem, with a suggestion for a misspelt key or name (``did you mean 'health'?``). Paths
are relative to the object checked; ``BadInput.under`` puts them under the object's own place
when a caller knows it.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

# What a value may be: a type, or a tuple of types (``(str, NONE)`` for an optional string).
Kind = type | tuple[type, ...]
NONE = type(None)

KIND_NAMES = {str: "a string", int: "a whole number", bool: "true or false", list: "a list",
              dict: "an object", float: "a number", NONE: "null"}


# Bounds on any JSON-shaped input, whatever its keys: no count, health, gold, amount or face in
# these games comes near a million, and a scenario nests six or seven levels deep.
MAX_NUMBER = 1_000_000
MAX_DEPTH = 32


class BadInput(ValueError):
    """A key or value refused at ``path``: reads ``path: problem``."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"{path}: {problem}" if path else problem)
        self.path = path
        self.problem = problem

    def under(self, prefix: str) -> BadInput:
        """The same refusal, its path taken from ``prefix`` (the checked object's place)."""
        return BadInput(at(prefix, self.path), self.problem)


def at(path: str, key: str | int) -> str:
    """The path of ``key`` (a name, or a list index) inside ``path``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if not path:
        return key
    if not key:
        return path
    return f"{path}{key}" if key.startswith("[") else f"{path}.{key}"


def suggestion(word: str, choices: Iterable[str]) -> str:
    """``did you mean 'x'?`` for the closest choice (or one the word begins), else the list of
    choices."""
    choices = list(choices)
    if len(word) > 200:  # no name is that long: nothing is close (and difflib would crawl)
        return f"known: {', '.join(choices)}" if choices else "none is allowed here"
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6) or [
        c for c in choices if len(word) >= 3 and c.startswith(word)][:1]
    if close:
        return f"did you mean {close[0]!r}?"
    return f"known: {', '.join(choices)}" if choices else "none is allowed here"


def kind_name(kind: Kind) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(KIND_NAMES.get(k, k.__name__) for k in kinds)


def is_kind(value: Any, kind: Kind) -> bool:
    """``isinstance``, except that true and false are not numbers here (``object``: any)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool):
        return bool in kinds or object in kinds
    return isinstance(value, kinds)


def check_type(value: Any, kind: Kind, path: str) -> Any:
    """``value`` if it is of ``kind``; else ``BadInput`` naming the wanted type."""
    if not is_kind(value, kind):
        raise BadInput(path, f"wanted {kind_name(kind)}, got {_shown(value)}")
    return value


def check_keys(obj: Any, allowed: Iterable[str], path: str) -> dict[str, Any]:
    """``obj`` if it is an object whose keys are all ``allowed``; else ``BadInput`` naming the
    first unknown key, with the closest allowed key as a suggestion."""
    check_type(obj, dict, path)
    allowed = list(allowed)
    for key in obj:
        if key not in allowed:
            raise BadInput(at(path, str(key)), f"unknown key; {suggestion(str(key), allowed)}")
    return obj


def check_fields(obj: Any, fields: Mapping[str, Kind], path: str,
                 required: Iterable[str] = ()) -> dict[str, Any]:
    """``check_keys`` with the allowed keys of ``fields``, then each value's type; every key of
    ``required`` must be there."""
    check_keys(obj, fields, path)
    for key in required:
        if key not in obj:
            raise BadInput(at(path, key), "missing")
    for key, value in obj.items():
        check_type(value, fields[key], at(path, key))
    return obj


def check_list(value: Any, item: Kind, path: str) -> list[Any]:
    """``value`` if it is a list of ``item``; else ``BadInput`` at the list or the item."""
    check_type(value, list, path)
    for n, element in enumerate(value):
        check_type(element, item, at(path, n))
    return value


def check_choice(value: Any, choices: Iterable[str], path: str, what: str) -> str:
    """``value`` if it is one of ``choices`` (``what`` they are, e.g. "a hero kind"); else
    ``BadInput`` with the closest one."""
    choices = list(choices)
    if not isinstance(value, str) or value not in choices:
        hint = suggestion(value, choices) if isinstance(value, str) else \
            f"known: {', '.join(choices)}"
        raise BadInput(path, f"{_shown(value)} is not {what}; {hint}")
    return value


def check_plain(value: Any, path: str = "") -> Any:
    """``value`` if it is plain JSON data of a sane size: objects with string keys, lists,
    strings, true, false, null and numbers from -MAX_NUMBER to MAX_NUMBER, nested at most
    MAX_DEPTH deep; else ``BadInput`` at the first place (in document order) that is not.
    Iterative: a document nested a hundred thousand deep is refused, not a RecursionError."""
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if isinstance(item, dict | list | tuple) and depth >= MAX_DEPTH:
            raise BadInput(where, f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(item, dict):
            for key in item:
                if not isinstance(key, str):
                    raise BadInput(where, f"a key must be a string, got {_shown(key)}")
            stack.extend((v, at(where, k), depth + 1) for k, v in reversed(item.items()))
        elif isinstance(item, list | tuple):
            stack.extend((v, at(where, n), depth + 1) for n, v in reversed(list(enumerate(item))))
        elif isinstance(item, bool) or item is None or isinstance(item, str):
            continue
        elif isinstance(item, int | float):
            finite = isinstance(item, int) or math.isfinite(item)
            if not (finite and -MAX_NUMBER <= item <= MAX_NUMBER):
                raise BadInput(where, f"{_number(item)} is out of range (-{MAX_NUMBER:,} to "
                                      f"{MAX_NUMBER:,})")
        else:
            raise BadInput(where, f"not plain JSON data (a {type(item).__name__})")
    return value


def _number(value: int | float) -> str:
    """A number as it may be shown: a huge one by its size (printing it could be refused)."""
    if isinstance(value, int) and abs(value) >= 10 ** 30:
        digits = len(str(abs(value))) if value.bit_length() < 10_000 else "thousands of"
        return f"a {digits}-digit number" if value > 0 else f"minus a {digits}-digit number"
    return _shown(value)


def _shown(value: Any) -> str:
    """The value as JSON writes it, cut short."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
