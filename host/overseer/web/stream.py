"""The event stream of every page, written by one task: ``GET /events`` as a raw ASGI handler.

A page's request sends the events after its ``Last-Event-ID`` (all of the game without one),
then joins the streams. At every wake of the feed (one a press) the broadcaster reads the
feed once for the streams that stand at the same id and writes each its chunk, in order: the
cost of a phone is one write a press. A stream whose write has not gone through after
``STALL`` seconds (a phone that stopped reading) is dropped, so that it holds up nobody; its
browser comes back with the last id it had and misses nothing. Every ``KEEPALIVE`` seconds a
quiet stream gets a comment, which tells a dead connection from a quiet game.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from overseer.web.feed import Feed

KEEPALIVE = 15.0  # seconds between comments on a quiet stream
STALL = 5.0  # seconds a write may wait before its stream is dropped
RETRY = b"retry: 1000\n\n"
RELOAD = b"event: reload\ndata: {}\n\n"
STILL_HERE = b": still here\n\n"
HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"),
           (b"cache-control", b"no-store"), (b"x-accel-buffering", b"no")]

Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]


class Stream:
    """One page's stream: how to write to it, the last id it has, whether it is over."""

    __slots__ = ("send", "last", "over", "broken")

    def __init__(self, send: Send, last: int | None) -> None:
        self.send, self.last = send, last
        self.over = asyncio.Event()
        self.broken = False  # a write failed or stalled: nothing more is written to it


class Streams:
    """Every stream of one event loop (the server's), and the task that writes them."""

    def __init__(self, feed: Feed, keepalive: float = KEEPALIVE, stall: float = STALL) -> None:
        self.feed, self.keepalive, self.stall = feed, keepalive, stall
        self.streams: list[Stream] = []
        self.closing = False
        self._flag: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self._writing: tuple[Stream, float] | None = None  # the write under way, since when
        self._quiet = False

    async def handle(self, scope: MutableMapping[str, Any], receive: Receive,
                     send: Send) -> None:
        """``GET /events``."""
        self._start()
        last_header = dict(scope.get("headers", [])).get(b"last-event-id", b"").decode()
        last = int(last_header) if last_header.isdigit() else None
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        backlog = self.feed.since(last)
        if backlog is None or self.closing:
            await send({"type": "http.response.body", "body": RETRY + RELOAD})
            return
        if backlog:
            last = backlog[-1].id
        await send({"type": "http.response.body", "more_body": True,
                    "body": RETRY + b"".join(e.wire for e in backlog)})
        stream = Stream(send, last)
        self.streams.append(stream)
        assert self._flag is not None
        self._flag.set()  # what came while the backlog went
        gone = asyncio.ensure_future(_disconnect(receive))
        over = asyncio.ensure_future(stream.over.wait())
        try:
            await asyncio.wait((gone, over), return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._drop(stream)
            gone.cancel()
            over.cancel()
        if over.done() and not gone.done() and not stream.broken:
            await send({"type": "http.response.body", "body": b""})

    def close(self) -> None:
        """End every stream (in the loop's thread)."""
        self.closing = True
        for stream in list(self.streams):
            stream.over.set()
        for task in (self._writer, self._ticker):
            if task is not None:
                task.cancel()

    def _drop(self, stream: Stream) -> None:
        stream.over.set()
        if stream in self.streams:
            self.streams.remove(stream)

    def _start(self) -> None:
        if self._flag is None:
            self._flag = self.feed.waiter()
        loop = asyncio.get_running_loop()
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write())
        if self._ticker is None or self._ticker.done():
            self._ticker = loop.create_task(self._tick())

    async def _write(self) -> None:
        flag = self._flag
        assert flag is not None
        while not self.closing:
            await flag.wait()
            flag.clear()
            quiet, self._quiet = self._quiet, False
            chunks: dict[int | None, tuple[bytes, int | None]] = {}
            for stream in list(self.streams):
                if stream.over.is_set():
                    continue
                chunk = chunks.get(stream.last)
                if chunk is None:
                    chunk = chunks[stream.last] = self._chunk(stream.last)
                body, last = chunk
                if not body and not quiet:
                    continue
                self._writing = (stream, time.monotonic())
                try:
                    await stream.send({"type": "http.response.body", "more_body": True,
                                       "body": body or STILL_HERE})
                except Exception:  # noqa: BLE001 - the connection is gone, whatever the server says
                    stream.broken = True
                    self._drop(stream)
                    continue
                finally:
                    self._writing = None
                if body == RELOAD:
                    self._drop(stream)
                stream.last = last

    def _chunk(self, last: int | None) -> tuple[bytes, int | None]:
        """What a stream at ``last`` gets now, and the id it is at after it."""
        events = self.feed.since(last)
        if events is None:
            return RELOAD, last
        if not events:
            return b"", last
        return b"".join(e.wire for e in events), events[-1].id

    async def _tick(self) -> None:
        """The keepalive comments, and the streams that stall dropped."""
        while not self.closing:
            await asyncio.sleep(min(self.keepalive, self.stall))
            writing = self._writing
            if writing is not None and time.monotonic() - writing[1] > self.stall:
                stream = writing[0]
                if self._writer is not None:
                    self._writer.cancel()
                stream.broken = True
                self._drop(stream)
                self._writing = None
                self._writer = asyncio.get_running_loop().create_task(self._write())
            self._quiet = True
            if self._flag is not None:
                self._flag.set()
            await asyncio.sleep(max(self.keepalive - self.stall, 0))


async def _disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
