"""The Pico as the app sees it: its Glass, Buttons and Dice (``app.ports``) over a ``PicoLink``.

The face translates between the wire's numbers (``protocol.Button``, ``protocol.Die``) and the
app's names (``events.Button``, ``events.Die``), turns a PIL image into the SSD1306's page
layout for the link (which sends only the bytes that changed), and puts into the app's inbox:

- ``Press(button, long)`` once per press (the ROLL button rolls instead: ``Rolled`` with
  request 0). The Pico reports DOWN when a switch closes, then LONG or SHORT. NEXT AI PIECE and
  OK mean the same held or not on most screens (docs/buttons.md), so their ``Press`` goes in at
  DOWN, at the first edge; for BACK/UNDO and CHOICE a held press is another action (undo, the
  option before), and NEXT's is on a number being set (-5), and must not also do the short one,
  so their ``Press`` waits for the Pico to know which: ``Press(button, True)`` at LONG (while
  still held), ``Press(button)`` at SHORT (the release). ``hold(buttons)`` says which buttons
  wait, for the screen now shown (the shell tells it after each screen); what DOWN decided
  holds for that press, whatever screen comes before its release;
- ``Rolled(die, face, request)`` for the answer to ``request(die, request)``;
- ``RollRefused(request, reason)`` when that request will not be answered: the Pico refused it
  (``bad_roll``, ``busy``), no answer came in time (``timeout``), or the link went down first
  (``link_lost``);
- ``LinkChanged(True)`` when a handshake succeeds, ``LinkChanged(False)`` when a ready link goes
  down (unplugged, silent, restarted).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from PIL import Image

from overseer.devices import protocol as p
from overseer.devices.frames import vlsb
from overseer.devices.link_events import (
    DieRolled,
    LinkState,
    PicoEvent,
    PressedButton,
    RollFailed,
)
from overseer.devices.pico_link import PicoLink
from overseer.devices.roll_book import ROLL_TIMEOUT
from overseer.ports.events import (
    Button,
    Die,
    Input,
    LinkChanged,
    Press,
    Rolled,
    RollRefused,
)
from overseer.ports.inbox import Inbox
from overseer.ports.ports import EarlyButtons, GlassAhead, check_glass_image, kept_frame

log = logging.getLogger(__name__)

BUTTONS = {
    p.Button.NEXT_AI_PIECE: Button.NEXT,
    p.Button.OK: Button.OK,
    p.Button.CHOICE: Button.CHOICE,
    p.Button.BACK: Button.BACK,
    p.Button.ROLL: Button.ROLL,
}
# Buttons whose held press does something else than a short one (docs/buttons.md), until the
# shell says otherwise (``Pico.hold``): their Press waits for LONG or SHORT. The others' Press
# goes in at DOWN, and LONG or SHORT say nothing.
HELD_IS_ANOTHER_ACTION = frozenset({Button.BACK, Button.CHOICE, Button.ROLL})
DICE = {p.Die.D12: Die.D12, p.Die.RUNE: Die.RUNE, p.Die.LOCATION: Die.LOCATION}
WIRE_DICE = {die: wire for wire, die in DICE.items()}


WIRE_BUTTONS = {button: wire for wire, button in BUTTONS.items()}
_DOWN, _LONG = p.Press.DOWN, p.Press.LONG  # (bound once: read at every report)


def _frame(image: Image.Image) -> bytes:
    """An image in MONO_VLSB: a screen's picture carries its frame, any other is packed."""
    frame = kept_frame(image)
    return frame if frame is not None else vlsb(check_glass_image(image))


class Presses:
    """The app's one ``Press`` per press from the Pico's DOWN, LONG and SHORT reports."""

    def __init__(self, held: frozenset[Button] = HELD_IS_ANOTHER_ACTION) -> None:
        self.held = held  # buttons whose Press waits for LONG or SHORT, from their next DOWN
        self._waiting: set[Button] = set()  # pressed, their Press waiting for LONG or SHORT

    def report(self, button: Button, press: p.Press) -> Press | None:
        """The ``Press`` this report settles, else None."""
        if press is _DOWN:
            if button in self.held:
                self._waiting.add(button)
                return None
            self._waiting.discard(button)
            return Press(button)
        if button not in self._waiting:
            return None  # its Press went in at DOWN
        self._waiting.discard(button)
        return Press(button, press is _LONG)


class Pico(EarlyButtons, GlassAhead):
    """Glass, Buttons and Dice over the Pico link; ``start(inbox)`` brings the link up."""

    def __init__(
        self,
        port: str | None = None,
        *,
        finder: Callable[[], list[str]] | None = None,
        protocol: int = p.PROTOCOL_VERSION,
        roll_timeout: float = ROLL_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``port``: the Pico's serial device; None searches by USB VID/PID (or ``finder``).
        ``clock``: what times the link (``PicoLink``)."""
        self.link = PicoLink(
            port,
            self._on_event,
            finder=finder,
            protocol=protocol,
            on_state=self._on_state,
            roll_timeout=roll_timeout,
            clock=clock,
        )
        self._lock = threading.RLock()  # a refused request may answer before request() returns
        self._inbox: Inbox | None = None
        self._requests: dict[int, int] = {}  # roll_id -> the app's request number
        self._early: dict[int, str] = {}  # roll_id -> why it failed before request() noted it
        self._ready = False
        self._presses = Presses()

    # Source (Buttons, Dice)

    def start(self, inbox: Inbox) -> None:
        """Put this Pico's inputs into ``inbox`` from now on. Buttons and Dice are the same
        Pico: starting it again with the same inbox does nothing; another inbox is refused."""
        with self._lock:
            if self._inbox is not None and self._inbox is not inbox:
                raise ValueError("this Pico already puts its inputs into another inbox")
            self._inbox = inbox
        self.link.start()

    def close(self) -> None:
        self.link.close()

    def hold(self, buttons: frozenset[Button]) -> None:
        """From the next press on, ``buttons`` (besides ROLL) wait for LONG or SHORT: on the
        screen now shown their held press means something else than a short one."""
        with self._lock:
            self._presses.held = frozenset(buttons) | {Button.ROLL}

    def wait_ready(self, timeout: float) -> p.Ident:
        """Block until the Pico answered; ProtocolMismatch (its message says what to flash) or
        TimeoutError otherwise."""
        return self.link.wait_ready(timeout)

    # Glass

    def show(self, image: Image.Image) -> None:
        """Send ``image`` (128x64) to the Pico's OLED: only the bytes that differ from what it
        holds go over the wire, and only the newest of several quick screens."""
        self.link.show(_frame(image))

    def arm(self, image: Image.Image, button: Button) -> None:
        """Send ``image`` ahead: the Pico puts it up the moment ``button`` goes down on the
        screen shown last (``GlassAhead``)."""
        self.link.arm(_frame(image), WIRE_BUTTONS[button])

    def wait_shown(self, timeout: float) -> bool:
        """True once the Pico acknowledged the last image shown (or there was none)."""
        return self.link.wait_shown(self.link.screen, timeout)

    # Dice

    def request(self, die: Die, request: int) -> None:
        """Roll ``die`` on the Pico with its tumble; the answer reaches the inbox as
        ``Rolled(die, face, request)`` or ``RollRefused(request, reason)``."""
        if request < 1:
            raise ValueError(f"a roll request is numbered from 1 (0 is the ROLL button): {request}")
        wire = WIRE_DICE[Die(die)]
        with self._lock:
            roll_id = self.link.request_roll(wire)
            reason = self._early.pop(roll_id, None)
            if reason is None:
                self._requests[roll_id] = request
            else:  # the link has stopped: it failed the request inside request_roll
                self._put(RollRefused(request, reason))

    # From the link's I/O thread

    def _on_event(self, event: PicoEvent) -> None:
        with self._lock:
            item = self._translate(event)
            if item is not None:
                self._put(item)

    def _translate(self, event: PicoEvent) -> Input | None:
        if isinstance(event, PressedButton):
            return self._presses.report(BUTTONS[event.button], event.press)
        if isinstance(event, DieRolled):
            request = self._requests.pop(event.roll_id, 0) if event.roll_id else 0
            if event.roll_id and not request:
                log.warning("a roll answers request %d, which nobody made", event.roll_id)
                return None
            return Rolled(DICE[event.die], event.face, request)
        if isinstance(event, RollFailed):
            request = self._requests.pop(event.roll_id, None)
            if request is None:  # failed inside request_roll, before the number was noted
                self._early[event.roll_id] = event.reason
                return None
            return RollRefused(request, event.reason)
        raise TypeError(f"unknown Pico event {event!r}")

    def _on_state(self, state: LinkState) -> None:
        with self._lock:
            ready = state is LinkState.READY
            if ready != self._ready:
                self._ready = ready
                self._put(LinkChanged(ready))

    def _put(self, item: Input) -> None:
        if self._inbox is None:
            log.warning("the Pico's %r came before start(inbox): dropped", item)
            return
        self._inbox.put(item)
