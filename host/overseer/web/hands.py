"""A player's secret hand (a Conquest hand) on that player's own phone, and on no other page.

A paired phone claims a player (``POST /claim``); the claim holds once that player holds a
card of their own hand on the box's reader, the one thing at the table only the hand's holder
has:

- the claim waits, one at a time and for ``WAIT`` seconds at most, with a number the phone
  shows and the glass says ("Phone 4831 asks for Player 2's hand: Player 2, hold a card of
  your hand on the reader."), so the player knows the request on the glass is their phone's;
- the next card tapped is the claim's (``Claims.take``, a taker of the gadget: the controller
  never sees it, no card is played by it): a card of that player's hand gives the phone that
  hand for the game, any other card ends the claim; the glass says which;
- one phone a player, one player a phone; a new game (and its new pairing code) starts again.

The hand itself is read from the game (``Table.hands``, kept by the watcher in ``Live``) and
sent only in ``GET /hand``'s answer to the phone that holds it (web/server.py).
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from overseer.ports.events import Input, Tap

WAIT = 60.0  # seconds a claim waits for its player's card


@dataclass(frozen=True)
class Claim:
    """A phone (its pairing cookie) asking for a player's hand; ``number`` is said on the
    glass and shown on the phone."""

    token: str
    player: str
    number: str
    since: float


def asking(claim: Claim, name: str) -> str:
    """What the glass says of a claim waiting."""
    return (f"Phone {claim.number} asks for {name}'s hand: {name}, hold a card of your hand "
            "on the reader.")


class Claims:
    """The hands claimed in the game followed, by pairing cookie (see the module's docstring).
    Thread-safe: the server asks, the gadget's thread takes the card."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._game: int | None = None
        self._held: dict[str, str] = {}  # pairing cookie -> the player whose hand it shows
        self._waiting: Claim | None = None

    def _for(self, game: int | None) -> None:
        """Start again for another game (under the lock)."""
        if game != self._game:
            self._game, self._held, self._waiting = game, {}, None

    def player_of(self, token: str | None, game: int | None) -> str | None:
        """The player whose hand the phone of ``token`` shows in ``game`` (None: none)."""
        with self._lock:
            self._for(game)
            return self._held.get(token) if token is not None else None

    def held(self, game: int | None) -> set[str]:
        """The players whose hands are on a phone in ``game``."""
        with self._lock:
            self._for(game)
            return set(self._held.values())

    def ask(self, token: str, player: str, game: int, names: dict[str, str]) -> Claim | str:
        """The phone of ``token`` claims ``player``'s hand in ``game``: the claim, or why not."""
        name = names.get(player, player)
        with self._lock:
            self._for(game)
            if token in self._held:
                mine = self._held[token]
                return f"This phone shows {names.get(mine, mine)}'s hand already."
            if player in self._held.values():
                return f"{name}'s hand is on another phone."
            waiting, now = self._waiting, self.clock()
            if waiting is not None and waiting.token != token and now - waiting.since < WAIT:
                return "Another phone is claiming a hand: wait for its card (a minute at most)."
            self._waiting = Claim(token, player, f"{secrets.randbelow(10**4):04d}", now)
            return self._waiting

    def take(self, gadget: Any, item: Input) -> bool:
        """A gadget's taker: the card tapped while a claim waits is the claim's (True: taken,
        the controller does not see it); the glass says what came of it."""
        if not isinstance(item, Tap):
            return False
        session = gadget.session
        with self._lock:
            claim, self._waiting = self._waiting, None
            if claim is None or session is None or session.id != self._game \
                    or self.clock() - claim.since >= WAIT:
                return False
            table = gadget.playing.table
            hand = (table.hands(session.state) or {}).get(claim.player, {})
            given = item.game == session.game and item.card in hand
            if given:
                self._held[claim.token] = claim.player
        name = table.labels(session.state).get(claim.player, claim.player)
        gadget.tell("Phones", f"Phone {claim.number} shows {name}'s hand now." if given else
                    f"That card is not in {name}'s hand: phone {claim.number} is not given it.")
        return True
