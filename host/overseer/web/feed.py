"""The page's events, in order: what the gadget did, as server-sent events with ids.

The gadget's thread publishes (``Feed.publish``); the server's event loop reads (``since``)
and waits (``wait``). Each event is encoded once, whatever the number of phones following;
a phone that lost its connection comes back with the last id it had (``Last-Event-ID``) and
gets every event after it, in order. A new game starts the feed again (its first event is
``game``); ids keep counting, so an id of the game before is still after nothing it lacks.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

KEPT = 50_000  # events kept of one game; a phone further behind than that loads the page anew


class Event:
    """One event: its id, its kind (the SSE event name) and its data, encoded once, by the
    first reader (the server's thread: nothing is encoded while nobody follows). A value of
    the data may be a ``Later``: made then too."""

    __slots__ = ("id", "kind", "data", "_wire")

    def __init__(self, ident: int, kind: str, data: Any) -> None:
        self.id, self.kind, self.data = ident, kind, data
        self._wire: bytes | None = None

    @property
    def wire(self) -> bytes:
        if self._wire is None:
            data = self.data
            if isinstance(data, dict) and any(isinstance(v, Later) for v in data.values()):
                data = {k: v.make() if isinstance(v, Later) else v for k, v in data.items()}
                self.data = data  # made: what it was made from (a picture) is let go
            text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
            self._wire = f"id: {self.id}\nevent: {self.kind}\ndata: {text}\n\n".encode()
        return self._wire


@dataclass(frozen=True, slots=True)
class Later:
    """A value of an event's data made when the event is first sent (``make()``)."""

    make: Callable[[], Any]


class Feed:
    """The events of the game followed (see the module's docstring). Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: list[Event] = []  # of the current game, oldest first
        self._next = 1
        self._waiters: dict[asyncio.AbstractEventLoop, set[asyncio.Event]] = {}

    @property
    def last_id(self) -> int:
        return self._next - 1

    @property
    def followed(self) -> bool:
        """Someone follows (a reader waits or reads)."""
        return any(self._waiters.values())

    def publish(self, kind: str, data: Any, wake: bool = True) -> Event:
        """Add an event (a ``game`` event starts the feed again) and wake the readers (with
        ``wake`` false, at the next ``wake()``: one wake for the events of one press)."""
        with self._lock:
            event = Event(self._next, kind, data)
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
        """Wake every reader (to read, or to see that the server stops): one call into each
        event loop, whatever the number of readers."""
        with self._lock:
            waiters = [(loop, tuple(flags)) for loop, flags in self._waiters.items() if flags]
        for loop, flags in waiters:
            try:
                loop.call_soon_threadsafe(_set_all, flags)
            except RuntimeError:  # its loop has closed
                pass

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

    def waiter(self) -> asyncio.Event:
        """An asyncio event of the running loop, set at every publish (``drop`` it after)."""
        flag = asyncio.Event()
        with self._lock:
            self._waiters.setdefault(asyncio.get_running_loop(), set()).add(flag)
        return flag

    def drop(self, flag: asyncio.Event) -> None:
        with self._lock:
            for flags in self._waiters.values():
                flags.discard(flag)


def _set_all(flags: tuple[asyncio.Event, ...]) -> None:
    for flag in flags:
        flag.set()
