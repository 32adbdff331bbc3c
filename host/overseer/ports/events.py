"""What reaches the app (inputs, through its one inbox) and what the app asks of its ports
(effects). Plain frozen values: the controller is a pure function of them.

The names are the gadget's, not the wire's: the Pico's protocol numbers live in
``overseer.devices.protocol`` and its device face translates.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from overseer.core.dice import DIE_FACES, Die


class Button(StrEnum):
    """The five buttons on the box."""

    NEXT = "next_ai_piece"  # NEXT AI PIECE
    OK = "ok"
    CHOICE = "choice"
    BACK = "back"  # BACK/UNDO: a long press undoes one step
    ROLL = "roll"


# The dice the gadget rolls are the rules' own (``Die``, ``Roll.die``), with their faces.
FACES = DIE_FACES


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True, slots=True)
class Press:
    """A button press, reported once (long: held past the long-press time)."""

    button: Button
    long: bool = False


@dataclass(frozen=True, slots=True)
class Tap:
    """A card held on the reader: ``game`` and ``kind`` (hero, monster, room, lord, conquest
    card ...) and the card's id in that game's data."""

    game: str
    kind: str
    card: str


@dataclass(frozen=True, slots=True)
class UnknownTap:
    """A tag the reader saw that names no card (no record of ours, UID not registered)."""

    uid: str


@dataclass(frozen=True, slots=True)
class Rolled:
    """A die rolled on the Pico (``request`` is the roll request's number, 0 for the ROLL
    button pressed on its own)."""

    die: Die
    face: int
    request: int = 0


@dataclass(frozen=True, slots=True)
class RollRefused:
    """The Pico refused a roll request (a bad die, a busy board): the app asks again or falls
    back to the table's dice."""

    request: int
    reason: str


@dataclass(frozen=True, slots=True)
class LinkChanged:
    """The Pico link came up (``ready``) or went down."""

    ready: bool


@dataclass(frozen=True, slots=True)
class ReaderNotice:
    """What the card reader has to say that is not a card: a tap ignored (the same card again
    within its window), a tag that could not be read, the reader lost or back. Shown over the
    current screen under ``key``; nothing changes."""

    key: str
    text: str


@dataclass(frozen=True, slots=True)
class Remote:
    """An answer from a paired phone (web/): ``value`` answers the question the view numbers
    ``asked`` (``GameView.asked``); a question that has moved on since drops it. It becomes
    the same session call as the buttons' answer (logged, undone the same way)."""

    value: Any
    asked: int


Input = Press | Tap | UnknownTap | Rolled | RollRefused | LinkChanged | ReaderNotice | Remote


# --------------------------------------------------------------------------- effects


@dataclass(frozen=True, slots=True)
class SeatLight:
    """One seat LED: ``off``, ``on``, ``dim`` or ``pulse``."""

    seat: int
    mode: str


@dataclass(frozen=True, slots=True)
class SetLeds:
    """The whole set of seat lights (seats not named are off)."""

    lights: tuple[SeatLight, ...]


@dataclass(frozen=True, slots=True)
class RequestRoll:
    """Ask the Pico to roll ``die`` with its animation; the answer comes back as ``Rolled``
    (with this ``request`` number) or ``RollRefused``."""

    die: Die
    request: int
