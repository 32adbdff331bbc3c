"""The simulator's card reader: the byte-level PN532 emulator (``devices.pn532_emulator``)
behind a pty, read by nfcpy through ``devices.nfc.NfcTags`` exactly as the Pi reads its reader.

"Tap this card" writes the card's record (``devices.tags``) on an NTAG215 sticker with the real
writer (once per card), holds the sticker on the emulated reader until the reader has dealt
with it (a ``Tap``, or a notice such as the same card again within the window) and at least
``hold`` seconds (``hold_for``), then lifts it off, as a card held on the reader and taken
away. So the gadget gets what it gets on the Pi, notices included.

Without nfcpy (it loads libusb-1.0 even for a serial reader: a laptop may not have it)
``card_reader`` gives ``SimTags`` instead, which puts the ``Tap`` straight into the inbox, and
says why.
"""

from __future__ import annotations

import hashlib
import threading
import time
from typing import TYPE_CHECKING

from overseer.app.sim import SimTags
from overseer.devices.nfc import NfcTags, ReaderLost, load_nfcpy
from overseer.devices.tags import CardRef, card_record
from overseer.ports.events import Input
from overseer.ports.inbox import Inbox

if TYPE_CHECKING:
    from overseer.devices.pn532_emulator import Ntag215, PtyPn532

HOLD = 0.3  # seconds a tapped card stays on the reader at least
MAX_HOLD = 5.0  # seconds it stays at most, when the reader has not dealt with it yet
INTERVAL = 0.05  # seconds between two looks of the reader
REPEAT_WINDOW = 2.0  # seconds in which the same card again is ignored, as at the table


class EmulatedReader:
    """The ``Tags`` port of the simulator: ``NfcTags`` on the emulated PN532's pty.

    ``tap(game, kind, card)`` returns at once; the card is put on the reader in a thread.
    ``said`` counts what the reader put into the inbox (taps and notices)."""

    def __init__(self, *, hold: float = HOLD, max_hold: float = MAX_HOLD,
                 interval: float = INTERVAL, repeat_window: float = REPEAT_WINDOW) -> None:
        from overseer.devices.pn532_emulator import PtyPn532

        self.hold_for, self.max_hold = hold, max_hold
        self.emulator: PtyPn532 = PtyPn532()
        self.port = NfcTags(self.emulator.path, interval=interval, repeat_window=repeat_window)
        self.stickers: dict[CardRef, Ntag215] = {}
        self.said = 0
        self._inbox: Inbox | None = None
        self._said = threading.Condition()
        self._writing = threading.Lock()
        self._hand = threading.Lock()  # one card on the reader at a time

    @property
    def where(self) -> str:
        return f"the emulated PN532 on {self.emulator.path}"

    def start(self, inbox: Inbox) -> None:
        self._inbox = inbox
        self.port.start(self)  # type: ignore[arg-type]  # NfcTags only puts (see ``put``)

    def put(self, item: Input) -> None:
        """What the reader puts, on its way to the gadget's inbox."""
        assert self._inbox is not None, "start first"
        self._inbox.put(item)
        with self._said:
            self.said += 1
            self._said.notify_all()

    def tap(self, game: str, kind: str, card: str) -> None:
        """Hold the card's sticker on the reader (in a thread), then lift it off. A card whose
        record cannot be written (an empty or upper-case id) is refused here (TagError)."""
        ref = CardRef(game, kind, card)
        card_record(ref)
        threading.Thread(target=self._hold, args=(ref,), name="sim-tap", daemon=True).start()

    def sticker(self, ref: CardRef) -> Ntag215:
        """The card's NTAG215, its record written by the real writer on a reader of its own
        the first time."""
        from overseer.devices.nfc import Reader
        from overseer.devices.pn532_emulator import LoopTTY, Ntag215, Pn532

        with self._writing:
            if ref not in self.stickers:
                tag = Ntag215(uid_of(ref))
                chip = Pn532()
                chip.place(tag)
                writer = Reader.on(LoopTTY(chip))
                try:
                    writer.write(writer.sense(), ref)
                finally:
                    writer.close()
                chip.remove()
                self.stickers[ref] = tag
            return self.stickers[ref]

    def _hold(self, ref: CardRef) -> None:
        """One hand: a card tapped while another is held waits until that one is lifted and
        the reader has seen the empty field (a card is never put on itself)."""
        tag = self.sticker(ref)
        chip = self.emulator.chip
        with self._hand:
            with self._said:
                before = self.said
            with self.emulator.lock:
                chip.place(tag)
            placed = time.monotonic()
            with self._said:
                self._said.wait_for(lambda: self.said > before, timeout=self.max_hold)
            time.sleep(max(0.0, placed + self.hold_for - time.monotonic()))
            with self.emulator.lock:
                chip.remove()
                lifted = chip.looks
            self._until_sensed_empty(lifted)

    def _until_sensed_empty(self, looks: int) -> None:
        """Wait until the reader has looked for a tag again since it had looked ``looks``
        times (it then knows the card was taken away)."""
        deadline = time.monotonic() + self.max_hold
        while time.monotonic() < deadline:
            with self.emulator.lock:
                if self.emulator.chip.looks > looks:
                    return
            time.sleep(self.port.interval / 2)

    def close(self) -> None:
        self.port.close()
        self.emulator.close()


def uid_of(ref: CardRef) -> bytes:
    """A sticker's UID for the card: NXP's 04, then 6 bytes of the card's hash (the same card
    is the same sticker every run)."""
    digest = hashlib.sha256(f"{ref.game}:{ref.kind}:{ref.card}".encode()).digest()
    return b"\x04" + digest[:6]


def driver_missing() -> str | None:
    """Why nfcpy cannot drive the emulated reader here (None: it can)."""
    try:
        load_nfcpy()
    except ReaderLost as err:
        return str(err)
    return None


def card_reader() -> tuple[EmulatedReader | SimTags, str | None]:
    """The simulator's reader and what to say of it once: the emulated PN532 read by nfcpy;
    else (no nfcpy) ``SimTags``, and why."""
    why = driver_missing()
    if why is None:
        return EmulatedReader(repeat_window=REPEAT_WINDOW), None
    return SimTags(), f"The card reader is simulated without the driver: {why}."
