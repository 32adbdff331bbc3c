"""The event stream of every page: ``GET /events`` as a raw ASGI handler, and the fan-out that
writes each press's events to every page as the same prebuilt bytes.

A page's request gets its response's head and the events after its ``Last-Event-ID`` (all of
the game without one) through the server, as any response. Then its connection joins the
sinks: from there on its events are written straight to its socket (a duplicate of the
connection's descriptor), by whoever publishes them: the gadget's thread, at the feed's one
wake a press (``Feed.wake``). The events after one id are framed once (an HTTP chunk of their
wire bytes, encoded once) for every sink standing at that id; a phone costs one ``send`` a
press and the server's event loop is not woken at all. A socket that cannot take a whole
chunk at once (a phone that stopped reading, with its buffers full) is shut: its browser
comes back with the last id it had and misses nothing, and it holds up nobody. Every
``KEEPALIVE`` seconds each sink gets a comment, which tells a dead connection from a quiet
game.

The hand-over needs the connection's transport, which uvicorn's ``send`` carries (its
request cycle's ``transport``, httptools' and h11's alike): ``transport_of``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from overseer.web.feed import Feed

KEEPALIVE = 15.0  # seconds between comments on every stream
STALL = 5.0  # seconds a page's backlog may take to go out before its stream is given up
RETRY = b"retry: 1000\n\n"
RELOAD = b"event: reload\ndata: {}\n\n"
STILL_HERE = b": still here\n\n"
HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"),
           (b"cache-control", b"no-store"), (b"x-accel-buffering", b"no"),
           (b"transfer-encoding", b"chunked")]  # the sinks' writes are framed as chunks

Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]


def chunk(data: bytes) -> bytes:
    """``data`` as one chunk of a chunked HTTP/1.1 body."""
    return b"%x\r\n%b\r\n" % (len(data), data)


def transport_of(send: Send) -> asyncio.Transport | None:
    """The connection's transport behind uvicorn's ``send`` (None: another server)."""
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    return transport if isinstance(transport, asyncio.Transport) else None


class Sink:
    """One page's connection once its backlog is out: its socket and the last id it has."""

    __slots__ = ("sock", "last")

    def __init__(self, sock: socket.socket, last: int | None) -> None:
        self.sock, self.last = sock, last


class Streams:
    """Every page's stream (see the module's docstring). ``push`` may be called from any
    thread; ``handle`` and ``close`` run in the server's event loop."""

    def __init__(self, feed: Feed, keepalive: float = KEEPALIVE, stall: float = STALL) -> None:
        self.feed, self.keepalive, self.stall = feed, keepalive, stall
        self.lock = threading.Lock()
        self.sinks: list[Sink] = []
        self.closing = False
        self._over: asyncio.Event | None = None
        self._ticker: asyncio.Task[None] | None = None
        feed.listen(self)

    @property
    def followed(self) -> bool:
        return bool(self.sinks)

    # ------------------------------------------------------------------ any thread

    def push(self) -> None:
        """Write what each sink lacks: the events after its id, framed once for every sink at
        that id."""
        with self.lock:
            if not self.sinks:
                return
            made: dict[int | None, tuple[bytes, int | None]] = {}
            cut: list[Sink] = []
            for sink in self.sinks:  # one send a sink, inline (the loop runs a phone a press)
                framed = made.get(sink.last)
                if framed is None:
                    framed = made[sink.last] = self._chunk(sink.last)
                body, last = framed
                if body:
                    try:
                        whole = sink.sock.send(body) == len(body)
                    except OSError:
                        whole = False
                    if whole and last is not None:
                        sink.last = last
                    else:  # a socket that cannot take it all, or a page to load anew
                        cut.append(sink)
            for sink in cut:
                self._shut(sink)

    def _chunk(self, last: int | None) -> tuple[bytes, int | None]:
        """What a sink at ``last`` gets now (framed), and the id it is at after it."""
        events = self.feed.since(last)
        if events is None:
            return chunk(RELOAD), None  # None: shut after it (the page loads anew)
        if not events:
            return b"", last
        return chunk(b"".join([e.wire for e in events])), events[-1].id

    def _write(self, sink: Sink, body: bytes) -> None:
        """The whole of ``body`` at once, else the sink is shut (under ``lock``)."""
        try:
            sent = sink.sock.send(body)
        except OSError:
            sent = -1
        if sent != len(body) or body == RELOADING:
            self._shut(sink)

    def _shut(self, sink: Sink) -> None:
        if sink in self.sinks:
            self.sinks.remove(sink)
        with contextlib.suppress(OSError):
            sink.sock.shutdown(socket.SHUT_RDWR)  # the connection ends: the server sees it

    # ------------------------------------------------------------------ the server's loop

    async def handle(self, scope: MutableMapping[str, Any], receive: Receive,
                     send: Send) -> None:
        """``GET /events``."""
        if self._over is None:
            self._over = asyncio.Event()
        transport = transport_of(send)
        last_header = dict(scope.get("headers", [])).get(b"last-event-id", b"").decode()
        last = int(last_header) if last_header.isdigit() else None
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        backlog = self.feed.since(last)
        if backlog is None or self.closing or transport is None:
            await send({"type": "http.response.body", "body": RETRY + RELOAD})
            return
        if backlog:
            last = backlog[-1].id
        await send({"type": "http.response.body", "more_body": True,
                    "body": RETRY + b"".join(e.wire for e in backlog)})
        for _ in range(int(self.stall / 0.02)):  # the backlog out before the sink's writes
            if not transport.get_write_buffer_size():
                break
            await asyncio.sleep(0.02)
        else:
            transport.close()  # a page that reads nothing: given up (its browser comes back)
            return
        peer = transport.get_extra_info("socket")
        sink = Sink(socket.socket(fileno=_dup(peer)), last)
        sink.sock.setblocking(False)
        self._join(sink)
        self._start()
        gone = asyncio.ensure_future(_disconnect(receive))
        over = asyncio.ensure_future(self._over.wait())
        try:
            await asyncio.wait((gone, over), return_when=asyncio.FIRST_COMPLETED)
        finally:
            with self.lock:
                joined = sink in self.sinks
                if joined:
                    self.sinks.remove(sink)
            sink.sock.close()
            gone.cancel()
            over.cancel()
        if over.done() and not gone.done() and joined:
            await send({"type": "http.response.body", "body": b""})

    def _join(self, sink: Sink) -> None:
        """A sink joins, with what came while its backlog went."""
        with self.lock:
            self.sinks.append(sink)
            body, last = self._chunk(sink.last)
            if body:
                self._write(sink, body)
                sink.last = last

    def close(self) -> None:
        """End every stream (in the loop's thread)."""
        self.closing = True
        if self._over is not None:
            self._over.set()
        if self._ticker is not None:
            self._ticker.cancel()

    def _start(self) -> None:
        if self._ticker is None or self._ticker.done():
            self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def _tick(self) -> None:
        """The keepalive comments (a sink whose connection is dead is shut by its write)."""
        while not self.closing:
            await asyncio.sleep(self.keepalive)
            with self.lock:
                for sink in list(self.sinks):
                    self._write(sink, KEPT_ALIVE)


RELOADING = chunk(RELOAD)
KEPT_ALIVE = chunk(STILL_HERE)


def _dup(peer: Any) -> int:
    """A duplicate of the connection's descriptor: the sink's own, so that a descriptor the
    server closed (and the system gave to another file) is never written."""
    return os.dup(peer.fileno())


async def _disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass
