"""The app's one inbox: every source (the Pico's presses and rolls, NFC taps, terminal keys,
timers) puts its inputs here, from any thread; the app takes them one at a time, in order."""

from __future__ import annotations

import queue
import threading
import typing

from overseer.app.events import Input

_INPUTS = typing.get_args(Input)


class Inbox:
    """A thread-safe queue of ``events.Input``."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[Input] = queue.SimpleQueue()

    def put(self, item: Input) -> None:
        """Add an input; anything else is refused (ValueError) and nothing is added."""
        if not isinstance(item, _INPUTS):
            names = ", ".join(kind.__name__ for kind in _INPUTS)
            raise ValueError(f"the inbox takes inputs ({names}), not {type(item).__name__}")
        self._queue.put(item)

    def get(self, timeout: float | None = None) -> Input | None:
        """The oldest input, waiting up to ``timeout`` seconds (None: for ever); None when none
        came in time."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def put_after(self, delay: float, item: Input) -> threading.Timer:
        """A timer: ``item`` goes in after ``delay`` seconds unless the returned timer's
        ``cancel()`` comes first. The item is checked now."""
        if not isinstance(item, _INPUTS):
            self.put(item)  # raises with the message above
        timer = threading.Timer(delay, self._queue.put, (item,))
        timer.daemon = True
        timer.start()
        return timer

    def __len__(self) -> int:
        """How many inputs wait (a snapshot: sources may be adding)."""
        return self._queue.qsize()
