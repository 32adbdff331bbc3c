"""The page's server: Starlette on uvicorn, in a thread of the gadget's process.

    web = Web(live, feed, inbox, answers=True)   # what the watcher keeps; the gadget's inbox
    server = web.serve(["192.168.1.20"], 8080)   # listening there, in its thread
    server.urls                                  # where it listens
    server.close()

The routes: ``/`` (the glass, the question, the log), ``/party``, ``/story``, ``/glass.png``,
``/events`` (server-sent events, resumed by ``Last-Event-ID``), ``/static/*`` (the page's own
script and style, nothing else), and the changes, each from the page's own Origin:
``POST /pair`` (the code on the glass: sets the pairing cookie), ``POST /show-code`` (puts
the code on the glass), ``POST /answer`` (a paired phone's answer: into the gadget's inbox, as
a ``Remote``), ``POST /claim`` (a paired phone claims a player's hand: web/hands.py);
``/hand``, a paired phone's part of the live page (the hand it holds, else the claim's
buttons); ``/export``, the game's export, for a paired phone only (a game with a player's
secret in it, a Conquest hand: once it is over). Nothing else is served: no file path, no
other game, no store.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import secrets
import socket
import threading
from collections.abc import Callable, MutableMapping, Sequence
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from overseer.core.shipped import shipped
from overseer.ports.events import ReaderNotice, Remote
from overseer.ports.inbox import Inbox
from overseer.screens.render import render
from overseer.session.export import export_game
from overseer.session.store import Store, StoreError
from overseer.web import guard, views
from overseer.web import story as stories
from overseer.web.feed import Feed
from overseer.web.hands import Claim, Claims, asking
from overseer.web.stream import Streams
from overseer.web.watch import Live, pairing_text

COOKIE = "overseer_pair"
STATIC = shipped("web/static")  # the page's script and style (package data)
NO_STORE = {"cache-control": "no-store"}


class Web:
    """The app (``app``) over what the watcher keeps; see the module's docstring."""

    def __init__(self, live: Live, feed: Feed, inbox: Inbox | None, answers: bool = True,
                 store: Path | None = None) -> None:
        self.live, self.feed, self.inbox, self.store = live, feed, inbox, store
        self.answers = answers and inbox is not None
        self.pairs: dict[str, int] = {}  # pairing cookie -> the game it pairs with
        self.streams = Streams(feed)
        self.claims = Claims()
        self._png: tuple[int, bytes] | None = None
        self._story: tuple[tuple[int, int], stories.Story | None] | None = None
        self.app = Starlette(routes=[
            Route("/", self.live_page), Route("/party", self.party_page),
            Route("/story", self.story_page), Route("/glass.png", self.glass),
            Route("/export", self.export), Route("/hand", self.hand),
            Route("/claim", self.claim, methods=["POST"]),
            Route("/pair", self.pair, methods=["POST"]),
            Route("/show-code", self.show_code, methods=["POST"]),
            Route("/answer", self.answer, methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC)),
        ])

    async def asgi(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        """The whole app: ``GET /events`` straight to the streams (no layer between a write
        and the connection: the cost of a phone a press), the rest through Starlette."""
        if scope["type"] == "http" and scope["path"] == "/events" and scope["method"] == "GET":
            await self.streams.handle(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # ------------------------------------------------------------------ pairing

    def token(self, request: Request) -> str | None:
        """The pairing cookie of a phone paired with the game followed (None: not paired)."""
        token = request.cookies.get(COOKIE)
        with self.live.lock:
            game = self.live.game
        paired = (self.answers and token is not None and game is not None
                  and self.pairs.get(token) == game["id"])
        return token if paired else None

    def paired(self, request: Request) -> bool:
        return self.token(request) is not None

    async def pair(self, request: Request) -> Response:
        if not self.answers:
            return _said(403, "This box takes no answers from phones.")
        form = await _json(request)
        code = str(form.get("code", "")).strip()
        with self.live.lock:
            game, expected = self.live.game, self.live.code
        if game is None or expected is None:
            return _said(409, "No game is being played yet.")
        if not secrets.compare_digest(code, expected):
            return _said(403, "That is not the code on the glass.")
        token = secrets.token_urlsafe(24)
        self.pairs[token] = game["id"]
        response = _said(200, "Paired: this phone may answer the glass's questions.")
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
        return response

    async def show_code(self, request: Request) -> Response:
        if not self.answers or self.inbox is None:
            return _said(403, "This box takes no answers from phones.")
        with self.live.lock:
            code = self.live.code
        if code is None:
            return _said(409, "No game is being played yet.")
        self.inbox.put(ReaderNotice("Phones", pairing_text(code, None)))
        return _said(200, "The code is on the glass.")

    async def answer(self, request: Request) -> Response:
        if not self.paired(request):
            return _said(403, "Pair this phone first (the code on the glass).")
        body = await _json(request)
        with self.live.lock:
            question = self.live.question
        if question is None or body.get("asked") != question["asked"]:
            return _said(409, "That question has been answered already.")
        if not question["phone"]:
            return _said(409, "This question is answered on the box.")
        value = body.get("value")
        problem = _check(question, value)
        if problem:
            return _said(400, problem)
        assert self.inbox is not None
        self.inbox.put(Remote(value, question["asked"]))
        return _said(202, "Sent to the box.")

    async def hand(self, request: Request) -> Response:
        """A paired phone's part of the live page: the hand it holds, else the claim's
        buttons (the players whose hand is on no phone yet)."""
        token = self.token(request)
        if token is None:
            return _said(403, "Pair this phone first (the code on the glass).")
        return HTMLResponse(self._hand_part(token), headers=NO_STORE)

    def _hand_part(self, token: str | None) -> str:
        with self.live.lock:
            game, hands, players = self.live.game, self.live.hands, dict(self.live.players)
        if token is None or game is None or hands is None:
            return views.hand_body(None, None, {})
        mine = self.claims.player_of(token, game["id"])
        if mine is not None:
            return views.hand_body(players.get(mine, mine), list(hands.get(mine, {}).values()),
                                   {})
        held = self.claims.held(game["id"])
        return views.hand_body(None, None, {p: n for p, n in players.items() if p not in held})

    async def claim(self, request: Request) -> Response:
        """A paired phone claims a player's hand: the glass asks that player for a card of
        it (web/hands.py)."""
        token = self.token(request)
        if token is None or self.inbox is None:
            return _said(403, "Pair this phone first (the code on the glass).")
        player = str((await _json(request)).get("player", ""))
        with self.live.lock:
            game, hands, names = self.live.game, self.live.hands, dict(self.live.players)
        if game is None or hands is None:
            return _said(409, "This game has no hand the box knows.")
        if player not in hands:
            return _said(400, "That is not a player of this game.")
        claim = self.claims.ask(token, player, int(game["id"]), names)
        if not isinstance(claim, Claim):
            return _said(409, claim)
        self.inbox.put(ReaderNotice("Phones", asking(claim, names.get(player, player))))
        return JSONResponse({"said": f"This phone is number {claim.number}: hold a card of "
                             "your hand on the box's reader.", "number": claim.number},
                            status_code=202, headers=NO_STORE)

    async def export(self, request: Request) -> Response:
        """The game's export (``overseer games export``'s document), for a paired phone only:
        read from the store over a connection of its own, in a thread; a game with a player's
        secret in it (a Conquest hand: its draws) once it is over."""
        if not self.paired(request) or self.store is None:
            return _said(403, "Pair this phone first (the code on the glass).")
        with self.live.lock:
            game, private = self.live.game, self.live.private
        if game is None:
            return _said(409, "No game is being played yet.")
        if private:
            return _said(403, "This game's export holds every player's hand: a phone gets it "
                         "once the game is over (the box exports it: overseer games export).")
        try:
            doc = await asyncio.to_thread(_export, self.store, int(game["id"]))
        except StoreError as err:
            return _said(503, f"The game cannot be read just now: {err}")
        body = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
        return Response(body, media_type="application/json", headers={
            **NO_STORE, "content-disposition":
            f'attachment; filename="overseer-game-{game["id"]}.json"'})

    # ------------------------------------------------------------------ pages

    def _page(self, request: Request, title: str, here: str, body: str, kind: str
              ) -> HTMLResponse:
        with self.live.lock:
            game = self.live.game
        return HTMLResponse(views.page(title, here, body, game, self.paired(request), kind),
                            headers={**NO_STORE, "content-security-policy": CSP,
                                     "x-content-type-options": "nosniff",
                                     "referrer-policy": "no-referrer"})

    async def live_page(self, request: Request) -> Response:
        token = self.token(request)
        with self.live.lock:
            private = self.live.private
        body = views.live_body(token is not None, self.answers, private,
                               self._hand_part(token) if token is not None else "")
        return self._page(request, "Live", "/", body, "live")

    async def party_page(self, request: Request) -> Response:
        with self.live.lock:
            party = self.live.party
        body = views.party_body(party)
        if request.query_params.get("part"):
            return HTMLResponse(body, headers=NO_STORE)
        return self._page(request, "Party", "/party", body, "party")

    async def story_page(self, request: Request) -> Response:
        with self.live.lock:
            record = self.live.record
        story = None
        if record is not None:
            key = (record.game_id, len(record.events))
            if self._story is not None and self._story[0] == key:
                story = self._story[1]
            else:
                story = await asyncio.to_thread(stories.story, record)
                self._story = (key, story)
        body = views.story_body(story, record.game if record is not None else None)
        if request.query_params.get("part"):
            return HTMLResponse(body, headers=NO_STORE)
        return self._page(request, "Story", "/story", body, "story")

    async def glass(self, request: Request) -> Response:
        with self.live.lock:
            screen, version = self.live.screen, self.live.screen_v
        if screen is None:
            return _said(404, "Nothing on the glass yet.")
        if self._png is None or self._png[0] != version:
            image = render(screen)
            out = io.BytesIO()
            image.save(out, "PNG", optimize=False)
            self._png = (version, out.getvalue())
        return Response(self._png[1], media_type="image/png", headers=NO_STORE)

    # ------------------------------------------------------------------ serving

    def serve(self, addresses: Sequence[str], port: int) -> Server:
        """Listen on ``addresses`` (port 0: any free port) in a thread of its own."""
        return Server(self, addresses, port)


CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")


def _export(path: Path, game_id: int) -> dict[str, Any]:
    with Store(path, create=False) as store:  # its own connection: this thread's
        return export_game(store, game_id)


def _said(status: int, text: str) -> JSONResponse:
    return JSONResponse({"said": text}, status_code=status, headers=NO_STORE)


async def _json(request: Request) -> dict[str, Any]:
    body = await request.body()
    if len(body) > 4096:
        return {}
    try:
        value = json.loads(body or b"{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _check(question: dict[str, Any], value: Any) -> str:
    """Why ``value`` cannot answer ``question`` (empty: it can)."""
    kind = question["kind"]
    if kind in ("ChooseOne", "Pick", "YesNo"):
        if value not in [o["value"] for o in question["options"]] or isinstance(value, bool) \
                != (kind == "YesNo"):
            return "That is not one of the answers."
        return ""
    if kind == "ChooseSome":
        options = [o["value"] for o in question["options"]]
        if not isinstance(value, list) or any(v not in options for v in value) \
                or len(set(value)) != len(value):
            return "Choose among the answers, each once."
        return ""
    if isinstance(value, bool) or not isinstance(value, int) \
            or not question["low"] <= value <= question["high"]:
        return f"A number from {question['low']} to {question['high']}."
    return ""


class QuietServer(uvicorn.Server):
    """uvicorn, looking at its clock once a second instead of ten times (the Pi idles), and
    woken at once to stop (``wake``). A second's wait is one timer and one future (not
    ``asyncio.wait_for``: a task, its cancelling and a TimeoutError a second)."""

    woken: asyncio.Future[None] | None = None

    async def main_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while not await self.on_tick(0):  # tick 0: the Date header made anew each time
            self.woken = loop.create_future()
            timer = loop.call_later(1.0, self.wake)
            await self.woken
            timer.cancel()

    def wake(self) -> None:
        """In the server's loop."""
        if self.woken is not None and not self.woken.done():
            self.woken.set_result(None)


def _http() -> str:
    """uvicorn's HTTP parser: httptools (C, fewer instructions a request), else h11."""
    try:
        import httptools  # noqa: F401
    except ImportError:
        return "h11"
    return "httptools"


class Server:
    """uvicorn serving a ``Web`` on sockets bound here, in a daemon thread."""

    def __init__(self, web: Web, addresses: Sequence[str], port: int) -> None:
        if not addresses:
            raise OSError("no address to listen on")
        self.sockets: list[socket.socket] = []
        try:
            for address in addresses:
                family = socket.AF_INET6 if ":" in address else socket.AF_INET
                sock = socket.socket(family, socket.SOCK_STREAM)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.bind((address, port))
                port = port or sock.getsockname()[1]  # the same port on every address
                sock.listen(64)
                sock.set_inheritable(True)
                self.sockets.append(sock)
        except OSError:
            self._close_sockets()
            raise
        self.port = port
        self.web = web
        self.addresses = tuple(addresses)
        names = (socket.gethostname(), f"{socket.gethostname()}.local")
        app = guard.Guard(web.asgi, guard.allowed_hosts(addresses, port, names))
        config = uvicorn.Config(app, log_level="warning", lifespan="off", access_log=False,
                                timeout_graceful_shutdown=1, http=_http())
        self.server = QuietServer(config)
        self._loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=self._run, name="overseer-web", daemon=True)
        self.thread.start()

    @property
    def urls(self) -> list[str]:
        return [f"http://{f'[{a}]' if ':' in a else a}:{self.port}/" for a in self.addresses]

    def _run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        await self.server.serve(sockets=self.sockets)

    def started(self, timeout: float = 10.0) -> bool:
        """Wait until it answers (True) or ``timeout`` passes."""
        done = threading.Event()
        for _ in range(int(timeout / 0.02)):
            if self.server.started:
                return True
            done.wait(0.02)
        return self.server.started

    def call(self, fn: Callable[[], object], timeout: float = 10.0) -> None:
        """``fn()`` in the server's thread (its event loop), waited for (bench/web.py counts
        that thread's instructions from inside it)."""
        done = threading.Event()

        def run() -> None:
            try:
                fn()
            finally:
                done.set()

        assert self._loop is not None, "the server has not started"
        self._loop.call_soon_threadsafe(run)
        done.wait(timeout)

    def close(self) -> None:
        """Stop: the event streams end, then the server (cut short after a few seconds)."""
        loop = self._loop
        self.server.should_exit = True
        if loop is not None and loop.is_running():
            loop.call_soon_threadsafe(self.web.streams.close)
            loop.call_soon_threadsafe(self.server.wake)
        self.thread.join(3)
        if self.thread.is_alive():
            self.server.force_exit = True
            self.thread.join(3)
        self._close_sockets()

    def _close_sockets(self) -> None:
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.close()
