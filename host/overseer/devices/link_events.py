"""What the Pico link hands on (``pico_link.PicoLink``): its state, its events and its counters,
and the two pure steps between a reliable message from the Pico and an event: dropping a repeat
(``Repeats``) and checking the message against the protocol (``event_of``)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from overseer.devices import protocol as p

RECENT_EVENTS = 256  # (boot_id, event_id) pairs remembered for dropping repeats

# Why a roll request failed (RollFailed.reason; the app's RollRefused carries it on).
BAD_ROLL = "bad_roll"  # the Pico does not know that die (ERROR bad_roll)
BUSY = "busy"  # the Pico's queue was full (ERROR queue_full)
TIMEOUT = "timeout"  # no answer within the roll timeout
LINK_LOST = "link_lost"  # the link went down (or was refused or closed) before the answer


class LinkState(Enum):
    SEARCHING = "searching"  # no port open
    HANDSHAKING = "handshaking"  # port open, HELLO sent, waiting for IDENT
    READY = "ready"
    REFUSED = "refused"  # the Pico speaks another protocol version; the link has stopped
    CLOSED = "closed"


class ProtocolMismatch(RuntimeError):
    """The Pico runs a protocol version this host does not speak."""


class PressedButton(NamedTuple):
    """What a button did, as the Pico reported it (each report exactly once): ``press`` is
    DOWN when the switch closed, then LONG or SHORT (docs/protocol.md, Buttons). A named
    tuple (two or three a press) that equals only another ``PressedButton``."""

    button: p.Button
    press: p.Press
    boot_id: int
    event_id: int
    __eq__ = p._same  # type: ignore[assignment]
    __ne__ = p._not_same  # type: ignore[assignment]
    __hash__ = tuple.__hash__  # type: ignore[assignment]


@dataclass(frozen=True)
class DieRolled:
    """A roll the Pico made: ``roll_id`` is the request's, or 0 for the ROLL button."""

    die: p.Die
    face: int
    roll_id: int
    boot_id: int
    event_id: int


@dataclass(frozen=True)
class RollFailed:
    """A roll request that will not be answered (``reason``: BAD_ROLL, BUSY, TIMEOUT or
    LINK_LOST). A late answer to it is dropped."""

    die: p.Die
    roll_id: int
    reason: str


PicoEvent = PressedButton | DieRolled | RollFailed


@dataclass
class LinkStats:
    """Counters, for logs, tests and the benchmark."""

    sessions: int = 0  # successful handshakes
    opens: int = 0
    link_lost: int = 0
    restarts_seen: int = 0  # handshakes that found a new boot_id
    retransmits: int = 0
    duplicates_dropped: int = 0
    invalid_events: int = 0
    rolls_failed: int = 0
    pico_errors: dict[int, int] = field(default_factory=dict)
    decoder: p.DecoderStats = field(default_factory=p.DecoderStats)


class Repeats:
    """The events heard lately, by ``(boot_id, event_id)``: one the Pico sends again (after a
    handshake, under a new SEQ) is a repeat."""

    def __init__(self, size: int = RECENT_EVENTS) -> None:
        self.size = size
        self._order: deque[tuple[int, int]] = deque()
        self._seen: set[tuple[int, int]] = set()

    def repeat(self, boot_id: int, event_id: int) -> bool:
        """True if this event was heard lately; else it is noted and False."""
        key = (boot_id, event_id)
        if key in self._seen:
            return True
        self._order.append(key)
        self._seen.add(key)
        if len(self._order) > self.size:
            self._seen.discard(self._order.popleft())
        return False


def event_of(message: p.ButtonEvent | p.RollResult, boot_id: int
             ) -> PressedButton | DieRolled | None:
    """The event a Pico's message reports, or None when it is outside the protocol (a button,
    press or die it does not have, a face off the die)."""
    if isinstance(message, p.ButtonEvent):
        button, press = _BUTTONS.get(message.button), _PRESSES.get(message.press)
        if button is None or press is None:
            return None
        return _new(PressedButton, (button, press, boot_id, message.event_id))
    die = _DICE.get(message.die)
    if die is None or not 1 <= message.face <= p.FACES[die]:
        return None
    return DieRolled(die, message.face, message.roll_id, boot_id, message.event_id)


# The members by wire number, looked up (``p.Button(n)`` is a Python call through EnumType).
_BUTTONS = {int(b): b for b in p.Button}
_PRESSES = {int(b): b for b in p.Press}
_DICE = {int(d): d for d in p.Die}
_new = tuple.__new__  # a named tuple made as the tuple it is (its ``__new__`` is a Python call)
