"""What keeps the page safe on a home network, as an ASGI middleware: a request whose Host is
not one of the box's names and addresses is refused (a DNS-rebinding page cannot reach it), so
is one whose Origin is another site's, and a POST with no Origin at all; each client has a
budget of requests (a token bucket by address), and pairing attempts a budget of their own
(a six-digit code cannot be guessed at that pace)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
ASGI = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]],
                Awaitable[None]]

RATE = 20.0  # requests a second a client may keep up
BURST = 60  # and at once
PAIR_TRIES = 5  # pairing attempts a client may make
PAIR_WINDOW = 60.0  # in this many seconds


class Bucket:
    """Tokens by client: ``take(client)`` is False when the client has none left."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
                 ) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.level: dict[str, tuple[float, float]] = {}

    def take(self, client: str, cost: float = 1.0) -> bool:
        now = self.clock()
        tokens, then = self.level.get(client, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < cost:
            self.level[client] = (tokens, now)
            return False
        self.level[client] = (tokens - cost, now)
        if len(self.level) > 4096:  # forget the quiet ones
            self.level = {c: v for c, v in self.level.items() if now - v[1] < 60}
        return True


def allowed_hosts(addresses: Iterable[str], port: int, names: Iterable[str] = ()) -> frozenset[str]:
    """The Host headers the box answers to: each address and name, with and without the
    port (an IPv6 address in brackets)."""
    hosts = set()
    for address in (*addresses, *names):
        host = f"[{address}]" if ":" in address else address
        hosts |= {host.lower(), f"{host}:{port}".lower()}
    return frozenset(hosts)


class Guard:
    """The middleware (see the module's docstring) around ``app``."""

    def __init__(self, app: ASGI, hosts: frozenset[str],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.app, self.hosts = app, hosts
        self.requests = Bucket(RATE, BURST, clock)
        self.pairs = Bucket(PAIR_TRIES / PAIR_WINDOW, PAIR_TRIES, clock)

    async def __call__(self, scope: Scope, receive: Callable[[], Awaitable[Any]],
                       send: Callable[[Any], Awaitable[None]]) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        client = (scope.get("client") or ("?", 0))[0]
        refusal = self.refusal(scope["method"], scope["path"], headers, client)
        if refusal is not None:
            status, text = refusal
            await send({"type": "http.response.start", "status": status,
                        "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                    (b"cache-control", b"no-store")]})
            await send({"type": "http.response.body", "body": text.encode()})
            return
        await self.app(scope, receive, send)

    def refusal(self, method: str, path: str, headers: dict[str, str], client: str
                ) -> tuple[int, str] | None:
        host = headers.get("host", "").lower()
        if host not in self.hosts:
            return 421, "This box answers only to its own address.\n"
        origin = headers.get("origin")
        if origin is not None and (not origin.startswith("http://")
                                   or origin[len("http://"):].lower() not in self.hosts):
            return 403, "Requests from another site are refused.\n"
        if method not in ("GET", "HEAD") and origin is None:
            return 403, "A change needs the page's own Origin.\n"
        if not self.requests.take(client):
            return 429, "Too many requests: wait a moment.\n"
        if path == "/pair" and method == "POST" and not self.pairs.take(client):
            return 429, "Too many pairing attempts: wait a minute.\n"
        return None
