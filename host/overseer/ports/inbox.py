"""The app's one inbox: every source (the Pico's presses and rolls, NFC taps, terminal keys,
timers) puts its inputs here, from any thread; the app takes them one at a time, in order.

It holds at most ``LIMIT`` inputs: a source that floods it (a Pico gone wrong sending presses
without end) has what does not fit dropped, and the next input the app takes is a notice saying
how many were, never a queue that grows until the box runs out of memory."""

from __future__ import annotations

import logging
import queue
import threading
import typing

from overseer.ports.events import Input, ReaderNotice

_INPUTS = typing.get_args(Input)
LIMIT = 1024  # inputs waiting at most: the table never queues this many by hand
DROPPED = "Inputs dropped"
log = logging.getLogger(__name__)


class Inbox:
    """A thread-safe queue of ``events.Input``."""

    def __init__(self, limit: int = LIMIT) -> None:
        # A SimpleQueue (C; its get waits in one call), bounded by ``put`` under the lock: a
        # queue.Queue(maxsize) waits in Python (a Condition and a lock made at each look), which
        # cost the shell's idle loop 3.5x the instructions of this one.
        self._queue: queue.SimpleQueue[Input] = queue.SimpleQueue()
        self._limit = limit
        self._lock = threading.Lock()  # the bound's check and the put; the dropped counts
        self.dropped = 0  # inputs dropped since the app last heard of it
        self.dropped_total = 0

    def put(self, item: Input) -> None:
        """Add an input; anything else is refused (ValueError) and nothing is added. An input
        that finds the inbox full is dropped and counted."""
        if not isinstance(item, _INPUTS):
            names = ", ".join(kind.__name__ for kind in _INPUTS)
            raise ValueError(f"the inbox takes inputs ({names}), not {type(item).__name__}")
        with self._lock:  # only the app takes out: the queue holds at most the limit
            if self._queue.qsize() < self._limit:
                self._queue.put(item)
                return
            self.dropped += 1
            self.dropped_total += 1
            first = self.dropped == 1
        if first:
            log.warning("the inbox is full (%d inputs wait): dropping what comes until the "
                        "box catches up", self._limit)

    def get(self, timeout: float | None = None) -> Input | None:
        """The oldest input, waiting up to ``timeout`` seconds (None: for ever); None when none
        came in time. After inputs were dropped, a notice saying so comes first."""
        dropped = 0
        if self.dropped:  # read without the lock first: an idle look takes no lock
            with self._lock:
                dropped, self.dropped = self.dropped, 0
        if dropped:
            return ReaderNotice(DROPPED, f"{dropped:,} inputs came faster than the box can take "
                                "them and were dropped (a Pico sending presses without end?). "
                                "Nothing else changed.")
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def put_after(self, delay: float, item: Input) -> threading.Timer:
        """A timer: ``item`` goes in after ``delay`` seconds unless the returned timer's
        ``cancel()`` comes first. The item is checked now."""
        if not isinstance(item, _INPUTS):
            self.put(item)  # raises with the message above
        timer = threading.Timer(delay, self.put, (item,))
        timer.daemon = True
        timer.start()
        return timer

    def __len__(self) -> int:
        """How many inputs wait (a snapshot: sources may be adding)."""
        return self._queue.qsize()
