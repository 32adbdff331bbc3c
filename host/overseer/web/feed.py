"""The page's events, in order: what the gadget did, as server-sent events with ids.

The gadget's thread publishes (``Feed.publish``) and wakes the listeners once a press
(``Feed.wake``: web/stream.py writes the new events to every page there and then). Each
event is encoded once, whatever the number of phones following; a phone that lost its
connection comes back with the last id it had (``Last-Event-ID``) and gets every event after
it, in order. A new game starts the feed again (its first event is
``game``); ids keep counting, so an id of the game before is still after nothing it lacks.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any, Protocol

KEPT = 50_000  # events kept of one game; a phone further behind than that loads the page anew


def _refuse(value: Any) -> Any:
    raise TypeError(f"an event's data holds a {type(value).__name__}")


def _encoder() -> Callable[[Any], str]:
    """One JSON encoder for every event, made once: the json module's C encoder itself when
    it has one (``JSONEncoder.encode`` makes one, and a closure, at every call)."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return json.JSONEncoder(separators=(",", ":"), ensure_ascii=False,
                                check_circular=False).encode
    encode = make(None, _refuse, json.encoder.encode_basestring, None, ":", ",", False, False,
                  True)
    return lambda data: "".join(encode(data, 0))


dumps = _encoder()  # a value in compact JSON, as json.dumps(value, separators=(",", ":"))


class Event:
    """One event: its id, its kind (the SSE event name) and its data, encoded once, by the
    first reader (nothing is encoded while nobody follows). ``bits``: a string member of the
    data's object that needs no escaping (the glass's picture, base64), written as it is
    rather than scanned by the encoder. ``encode``: the data's own encoder (web/wire.py: the
    same JSON for the shapes a press makes most), else the json module's."""

    __slots__ = ("id", "kind", "data", "bits", "encode", "_wire")

    def __init__(self, ident: int, kind: str, data: Any, bits: str | None = None,
                 encode: Callable[[Any], str] | None = None) -> None:
        self.id, self.kind, self.data, self.bits, self.encode = ident, kind, data, bits, encode
        self._wire: bytes | None = None

    @property
    def wire(self) -> bytes:
        if self._wire is None:
            try:
                text = (self.encode or dumps)(self.data)
            except (TypeError, KeyError):  # a field its own encoder does not write: json's
                text = dumps(self.data)
            if self.bits is None:
                self._wire = f"id: {self.id}\nevent: {self.kind}\ndata: {text}\n\n".encode()
            else:  # data is a dict: its object ends with "}"
                self._wire = (f'id: {self.id}\nevent: {self.kind}\ndata: {text[:-1]},"bits":"'
                              f'{self.bits}"}}\n\n').encode()
        return self._wire


class Listener(Protocol):
    """What the feed wakes (web/stream.py's ``Streams``)."""

    @property
    def followed(self) -> bool: ...

    def push(self) -> None: ...


class Feed:
    """The events of the game followed (see the module's docstring). Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: list[Event] = []  # of the current game, oldest first
        self._next = 1
        self._listeners: list[Listener] = []

    @property
    def last_id(self) -> int:
        return self._next - 1

    @property
    def followed(self) -> bool:
        """Someone follows (a page's stream is open)."""
        for listener in self._listeners:  # not any() over a generator: asked at every glass
            if listener.followed:
                return True
        return False

    def listen(self, listener: Listener) -> None:
        """``listener.push()`` at every wake, in the thread that wakes."""
        self._listeners.append(listener)

    def publish(self, kind: str, data: Any, wake: bool = True, bits: str | None = None,
                encode: Callable[[Any], str] | None = None) -> Event:
        """Add an event (a ``game`` event starts the feed again) and wake the listeners (with
        ``wake`` false, at the next ``wake()``: one wake for the events of one press);
        ``bits`` and ``encode``: see ``Event``."""
        with self._lock:
            event = Event(self._next, kind, data, bits, encode)
            self._next += 1
            if kind == "game":
                self._events = []
            self._events.append(event)
            if len(self._events) > KEPT:
                del self._events[:len(self._events) - KEPT]
        if wake:
            self.wake()
        return event

    def wake(self) -> None:
        """Each listener pushes what came (in this thread: the gadget's, after a press)."""
        for listener in self._listeners:
            listener.push()

    def since(self, last: int | None) -> list[Event] | None:
        """The events after id ``last`` (None: the whole game so far); None when the feed no
        longer holds every event after it (the page must load anew)."""
        with self._lock:
            events = self._events
            if last is None or not events:
                return list(events)
            if last >= events[-1].id:
                return []
            if last < events[0].id - 1 and events[0].kind != "game":
                return None
            start = max(0, last - events[0].id + 1)
            return events[start:]
