"""The table's phones: a page on the LAN that follows the game the gadget plays (the glass,
every step with its rule, the party, the game's story) and, for a phone paired with the code
the glass shows, answers its questions through the gadget's inbox. docs/web.md.

    page = follow(gadget, ["192.168.1.20"], 8080, answers=True)   # serving from here on
    page.server.urls
    page.close()

``watch`` (the gadget's side: what changed, published once), ``feed`` (the events, resumed
by id), ``wire`` (the JSON of the events a press makes most), ``stream`` (the fan-out to
every page), ``server`` (Starlette on uvicorn, in its own thread), ``guard`` (Host, Origin, rate),
``party`` and ``story`` (the pages' content), ``views`` (their HTML), ``hands`` (a player's
hand on that player's phone only), ``addresses``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from overseer.web.feed import Feed
from overseer.web.server import Server, Web
from overseer.web.watch import Live, Watcher


@dataclass
class Page:
    """The page following one gadget."""

    feed: Feed
    live: Live
    watcher: Watcher
    web: Web
    server: Server

    def close(self) -> None:
        self.server.close()


def follow(gadget: Any, addresses: Sequence[str], port: int, answers: bool = True) -> Page:
    """Serve the page of ``gadget`` on ``addresses`` (checked by the caller: see
    ``addresses.check``); it follows from the gadget's next input, or now when it is open."""
    feed, live = Feed(), Live()
    watcher = Watcher(feed, live, answers)
    web = Web(live, feed, gadget.inbox, answers, getattr(gadget, "path", None))
    server = web.serve(addresses, port)
    watcher.where = server.urls[0]
    gadget.watchers.append(watcher)
    gadget.takers.append(web.claims.take)  # the card held for a phone's claim of a hand
    if gadget.app is not None:
        watcher(gadget, None)
    return Page(feed, live, watcher, web, server)


def from_config(gadget: Any, config: Any, say: Any, forced: bool = False) -> Page | None:
    """The page as the config says (``[web]``; ``forced``: on whatever it says), or None
    when it is off or cannot listen (said with ``say``: the gadget plays on without it)."""
    from overseer.web.addresses import AddressError, check

    if not (config.web or forced):
        return None
    try:
        addresses = check(config.web_listen)
        page = follow(gadget, addresses, config.web_port, config.web_answers)
    except (AddressError, OSError) as err:
        say(f"the web page cannot listen: {err}; going on without it")
        return None
    say("phones follow the game at " + ", ".join(page.server.urls))
    return page
