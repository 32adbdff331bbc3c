"""A load test on loopback: eight clients follow one game by server-sent events while the
table makes 200 presses (NEXT AI PIECE, the answers, reading on, undo); every client gets
every event of the game, once and in order, one of them after dropping its connection and
coming back with the last id it had (Last-Event-ID)."""

from __future__ import annotations

import http.client
import threading
import time

from overseer.web.feed import Event
from tests.drivers import catacombs_table as play
from tests.drivers import web_table
from tests.drivers.web_table import LOOPBACK, into_the_battle, sse_events

CLIENTS = 8
PRESSES = 200


class Client(threading.Thread):
    """One phone following the game: the ids and kinds it received, in order."""

    def __init__(self, followed: web_table.Followed, drop_after: int | None = None) -> None:
        super().__init__(daemon=True)
        self.followed, self.drop_after = followed, drop_after
        self.got: list[tuple[int, str]] = []
        self.resumed = False
        self.stop = threading.Event()
        self.ready = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self._follow(None)
            if self.drop_after is not None and not self.stop.is_set():
                self.resumed = True
                self._follow(self.got[-1][0])
        except BaseException as err:  # the test reads it
            self.error = err

    def _follow(self, last: int | None) -> None:
        conn = http.client.HTTPConnection(LOOPBACK, self.followed.page.server.port, timeout=30)
        headers = {"Host": self.followed.host}
        if last is not None:
            headers["Last-Event-ID"] = str(last)
        conn.request("GET", "/events", headers=headers)
        response = conn.getresponse()
        assert response.status == 200
        self.ready.set()
        try:
            for ident, kind, _ in sse_events(iter(response.readline, b"")):
                self.got.append((ident, kind))
                if kind == "done":
                    return
                if self.drop_after is not None and not self.resumed \
                        and len(self.got) >= self.drop_after:
                    return  # the connection drops here
        finally:
            conn.close()


def presses(table) -> int:
    """Play on for PRESSES presses: read on, answer, NEXT AI PIECE; every 25th press holds
    BACK (undo). Returns how many were made."""
    made = 0
    while made < PRESSES:
        app = table.gadget.app
        if made % 25 == 24:
            table.press(play.BACK, long=True)
        elif app.reading or app.notice:
            table.press(play.OK)
        elif table.session.pending is not None:
            table.press(play.NEXT if table.screen.done else play.OK)
        else:
            table.press(play.NEXT)
        made += 1
    return made


def test_eight_clients_lose_no_event_and_stay_in_order(tmp_path):
    followed = web_table.follow(tmp_path / "games.db")
    try:
        table = followed.table
        into_the_battle(table)
        first = followed.page.feed.since(None)
        start = first[0].id  # the game's first event
        clients = [Client(followed, drop_after=40 if n == 0 else None) for n in range(CLIENTS)]
        for client in clients:
            client.start()
        for client in clients:
            assert client.ready.wait(10)
        assert presses(table) == PRESSES
        followed.page.feed.publish("done", {})  # the end of the test's game, for the clients
        for client in clients:
            client.join(60)
            assert not client.is_alive() and client.error is None, client.error
        wanted = [(e.id, e.kind) for e in followed.page.feed.since(start - 1)]
        assert len(wanted) > 2 * PRESSES  # the presses made steps, answers, glasses, cuts
        kinds = {kind for _, kind in wanted}
        assert {"step", "answer", "glass", "cut", "ask", "party"} <= kinds
        for client in clients:
            assert client.got == wanted
        assert clients[0].resumed
        # each event the watcher gave its own encoder (web/wire.py) reads as the json module's
        own = [e for e in followed.page.feed.since(start - 1) or [] if e.encode is not None]
        assert {e.kind for e in own} == {"step", "answer", "action", "glass", "party", "ask"}
        assert all(e.wire == Event(e.id, e.kind, e.data, e.bits).wire for e in own)
    finally:
        followed.close()


def test_a_phone_that_stops_reading_holds_up_nobody(tmp_path):
    """A page whose socket cannot take a press's events (its phone no longer reads, its
    buffers are full) is shut at once; the others are written on, and a page shut for being
    slow comes back with its last id, as a browser does, and misses nothing."""
    import socket

    from overseer.web.feed import Feed
    from overseer.web.server import Web
    from overseer.web.watch import Live

    feed = Feed()
    web = Web(Live(), feed, None)
    server = web.serve([LOOPBACK], 0)
    try:
        assert server.started()
        host = f"{LOOPBACK}:{server.port}"
        stuck = socket.socket()
        stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before the handshake
        stuck.connect((LOOPBACK, server.port))
        stuck.sendall(f"GET /events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        got: list[int] = []

        def read() -> None:
            last = None
            while True:
                conn = http.client.HTTPConnection(LOOPBACK, server.port, timeout=30)
                conn.request("GET", "/events", headers={"Host": host, **(
                    {"Last-Event-ID": str(last)} if last is not None else {})})
                try:
                    for ident, kind, _ in sse_events(iter(conn.getresponse().readline, b"")):
                        got.append(ident)
                        last = ident
                        if kind == "done":
                            return
                except http.client.IncompleteRead:
                    pass  # shut: too slow for the events at that moment
                finally:
                    conn.close()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        for _ in range(200):  # both pages' streams open, up to 10 s
            if len(web.streams.sinks) == 2:
                break
            time.sleep(0.05)
        assert len(web.streams.sinks) == 2
        ids = [feed.publish("step", {"text": "x" * 40_000}).id for _ in range(600)]
        ids.append(feed.publish("done", {}).id)
        reader.join(60)
        assert not reader.is_alive() and got == ids  # every event once, in order
        stuck.settimeout(10)
        while stuck.recv(1 << 16):  # what it was sent, then the end: it was shut
            pass
        stuck.close()
    finally:
        server.close()
