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
from dataclasses import dataclass
from typing import Any

KEPT = 50_000  # events kept of one game; a phone further behind than that loads the page anew


@dataclass(frozen=True, slots=True)
class Event:
    """One event: its id, its kind (the SSE event name) and its data, encoded once."""

    id: int
    kind: str
    data: Any
    wire: bytes

    @classmethod
    def of(cls, ident: int, kind: str, data: Any) -> Event:
        text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        return cls(ident, kind, data, f"id: {ident}\nevent: {kind}\ndata: {text}\n\n".encode())


class Feed:
    """The events of the game followed (see the module's docstring). Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._events: list[Event] = []  # of the current game, oldest first
        self._next = 1
        self._waiters: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    @property
    def last_id(self) -> int:
        return self._next - 1

    def publish(self, kind: str, data: Any) -> Event:
        """Add an event (a ``game`` event starts the feed again) and wake the readers."""
        with self._lock:
            event = Event.of(self._next, kind, data)
            self._next += 1
            if kind == "game":
                self._events = []
            self._events.append(event)
            if len(self._events) > KEPT:
                del self._events[:len(self._events) - KEPT]
        self.wake()
        return event

    def wake(self) -> None:
        """Wake every reader (to read, or to see that the server stops)."""
        with self._lock:
            waiters = list(self._waiters)
        for loop, flag in waiters:
            try:
                loop.call_soon_threadsafe(flag.set)
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
            self._waiters.add((asyncio.get_running_loop(), flag))
        return flag

    def drop(self, flag: asyncio.Event) -> None:
        with self._lock:
            self._waiters = {(loop, f) for loop, f in self._waiters if f is not flag}
