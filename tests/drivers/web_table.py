"""A Catacombs room played through the Gadget's inbox (tools.table.Table) with the web page
following it on loopback, and a plain HTTP client of that page: what the browser tests and
the load test share."""

from __future__ import annotations

import http.client
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from overseer import web
from overseer.ports.ports import Glass
from tests.drivers import catacombs_table as play
from tools.table import Table

LOOPBACK = "127.0.0.1"


@dataclass
class Followed:
    table: Table
    page: web.Page

    @property
    def url(self) -> str:
        return self.page.server.urls[0]

    @property
    def host(self) -> str:
        return f"{LOOPBACK}:{self.page.server.port}"

    def take(self) -> None:
        """Act on what a phone put into the inbox."""
        self.table._take()

    def close(self) -> None:
        self.page.close()
        self.table.gadget.close()


def follow(store: Path, answers: bool = True, glass: Glass | None = None) -> Followed:
    """A new gadget on ``store`` (``glass``: its glass, else the memory one) and its page on
    loopback (any free port)."""
    table = Table(store, glass=glass)
    page = web.follow(table.gadget, [LOOPBACK], 0, answers)
    assert page.server.started()
    return Followed(table, page)


def into_the_battle(table: Table) -> None:
    """The campaign's first room (Glaaoth: a Minotaur and two Orcs) set up and placed: the
    battle's idle screen."""
    play.new_campaign(table)
    play.first_stage(table)
    table.read()
    assert table.screen.key == "Battle"


def request(followed: Followed, method: str, path: str, body: object = None,
            headers: dict[str, str] | None = None) -> tuple[int, dict]:
    """One request to the page (Host and Origin the box's unless ``headers`` say otherwise):
    its status and its JSON (or {})."""
    conn = http.client.HTTPConnection(LOOPBACK, followed.page.server.port, timeout=10)
    sent = {"Host": followed.host, "Origin": f"http://{followed.host}",
            "Content-Type": "application/json", **(headers or {})}
    sent = {k: v for k, v in sent.items() if v}
    try:
        conn.request(method, path, json.dumps(body) if body is not None else None, sent)
        response = conn.getresponse()
        data = response.read()
    finally:
        conn.close()
    try:
        parsed = json.loads(data)
    except ValueError:
        parsed = {"text": data.decode(errors="replace")}
    return response.status, parsed if isinstance(parsed, dict) else {}


def code_on_the_glass(table: Table) -> str:
    """The pairing code the glass shows (after a phone asked for it)."""
    found = re.search(r"\b(\d{6})\b", " ".join((table.screen.key, *table.screen.lines)))
    assert found, table.screen
    return found.group(1)


def sse_events(lines: Iterator[bytes]) -> Iterator[tuple[int, str, dict]]:
    """(id, event, data) of a server-sent event stream, read line by line."""
    ident, kind, data = None, "message", ""
    for raw in lines:
        line = raw.decode().rstrip("\n")
        if not line:
            if ident is not None:
                yield ident, kind, json.loads(data) if data else {}
            ident, kind, data = None, "message", ""
        elif line.startswith("id: "):
            ident = int(line[4:])
        elif line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: "):
            data += line[6:]
