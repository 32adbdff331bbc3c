"""The events of a game log and how they go in and out of JSON.

A game is its setup, its seed and a list of events, in order:

* ``action``: the players started an action (``data`` is the action dict given to the game);
* ``answer``: the players (or the Pico's dice) answered the pending question;
* ``chance``: the seeded source answered a chance question the rules asked;
* ``setting``: a session setting changed (``{"dice": "seeded" | "pico" | "table"}``).

Every event but ``chance`` is a player input: undo drops the last input together with the
``chance`` events that follow it. ``seen`` marks a chance result that came from the physical
world (the Pico's dice, the players' dice or tokens): the table saw it before anyone could undo.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from overseer.core.procedure import DrawToken, Question, Token

KINDS = ("action", "answer", "chance", "setting")
INPUTS = ("action", "answer", "setting")
DICE_MODES = ("seeded", "pico", "table")


# Not frozen, like the rules' questions: an event is made at every input and every chance
# answer and never changed (a frozen dataclass sets each field through ``object.__setattr__``,
# three times slower to make).
@dataclass(slots=True)
class Event:
    kind: str
    data: Any
    seen: bool = False

    @property
    def is_input(self) -> bool:
        return self.kind in INPUTS

    def as_dict(self) -> dict[str, Any]:
        out = {"kind": self.kind, "data": self.data}
        if self.seen:
            out["seen"] = True
        return out

    def payload(self) -> str:
        """The ``data`` as stored: canonical JSON."""
        return canonical(self.data)


def json_writer(separators: tuple[str, str], ensure_ascii: bool) -> Callable[[Any], str]:
    """``json.dumps(value, sort_keys=True, separators=..., ensure_ascii=...)``, the same text,
    for what is written at every input: one encoder made once (``json.dumps`` given options
    makes a ``JSONEncoder`` at each call, most of its cost for an event's few keys)."""
    return json.JSONEncoder(sort_keys=True, separators=separators,
                            ensure_ascii=ensure_ascii).encode


# The JSON text of a value as the store keeps it (an event's data): keys sorted, no spaces.
canonical = json_writer((",", ":"), ensure_ascii=False)


def encode_answer(value: Any) -> Any:
    """An answer as JSON data: a ``Token`` becomes ``{"value": n, "reset": bool}``,
    a tuple a list."""
    if isinstance(value, Token):
        return {"value": value.value, "reset": value.reset}
    if isinstance(value, tuple):
        return list(value)
    return value


def decode_answer(question: Question, value: Any) -> Any:
    """JSON data back into the answer ``question`` takes (the question checks it after)."""
    if isinstance(question, DrawToken) and isinstance(value, dict):
        return Token(cast(int, value.get("value")), bool(value.get("reset", False)))
    return value


def event_from_dict(item: Any, where: str) -> Event:
    """An event from its JSON form; ``ValueError`` naming ``where`` when malformed."""
    if not isinstance(item, dict) or "kind" not in item or "data" not in item:
        raise ValueError(f"{where}: an event is an object with 'kind' and 'data' (got {item!r})")
    kind = item["kind"]
    if kind not in KINDS:
        raise ValueError(f"{where}: 'kind' must be one of {', '.join(KINDS)} (got {kind!r})")
    seen = item.get("seen", False)
    if not isinstance(seen, bool):
        raise ValueError(f"{where}: 'seen' must be true or false (got {seen!r})")
    data = item["data"]
    if kind == "action" and not (isinstance(data, dict) and "do" in data):
        raise ValueError(f"{where}: an action's data is an object with 'do' (got {data!r})")
    if kind in ("answer", "chance") and not (isinstance(data, dict) and "key" in data
                                             and "value" in data):
        raise ValueError(f"{where}: an answer's data is an object with 'key' and 'value' "
                         f"(got {data!r})")
    if kind == "setting" and not (isinstance(data, dict) and data.get("dice") in DICE_MODES):
        raise ValueError(f"{where}: a setting's data is {{\"dice\": one of "
                         f"{', '.join(DICE_MODES)}}} (got {data!r})")
    return Event(kind, data, seen)


def digest(events: list[Event]) -> str:
    """A SHA-256 over the events in order: two logs with the same digest are the same log."""
    h = hashlib.sha256()
    for event in events:
        h.update(f"{event.kind}\x1f{int(event.seen)}\x1f{event.payload()}\x1e".encode())
    return h.hexdigest()
