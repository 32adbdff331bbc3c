"""The reliable half of the link protocol (docs/protocol.md, Reliability), without I/O or a clock.

``SendWindow`` numbers reliable messages, keeps at most ``size`` in flight (go-back-N: the link
widens it on a clean cable, ``protocol.CLEAN_WINDOW``), sends them all
again when the oldest waited past the retransmit timeout, or one smoothed round trip after a
repeated ACK reported a loss. Each timeout with no progress doubles the next (up to
``MAX_BACKOFF`` times): a Pico starved of CPU is not buried under copies of the window it has
not read yet; an ACK that settles something brings the timeout back. ``Receiver`` accepts only
the next SEQ. ``ByteErrors`` estimates the cable's byte error rate from the damaged blocks
among the bytes received lately. Callers pass ``now`` (``time.monotonic()``); the link
(``pico_link.PicoLink``) owns the port and the clock.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable
from typing import NamedTuple

from overseer.devices import protocol as p

# The longest a block waits for its ACK in normal operation, measured on MicroPython's rp2 port
# (bench/pico_rp2.py, emulated RP2040, board time): 13 ms for a window of 8 chunks, 37 ms for
# one sent while the panel takes a whole frame (23 ms of I2C at 400 kHz). Twice that, so that
# nothing is sent again unless it was lost. (With the clean cable's window of 24 the same bench,
# 60 frames, 2026-12-04: at most 38.5 ms, against 34.8 ms for 8 in the same run.)
RETRANSMIT_TIMEOUT = 0.080
MAX_BACKOFF = 16  # the retransmit timeout grows to at most 16 x 80 ms while nothing is settled
FAST_RETRANSMIT_FLOOR = 0.002  # a repeated ACK resends no sooner than this after the last send
INITIAL_SRTT = 0.005  # the round-trip guess until ACKs measure it
ERROR_WINDOW = 4096  # bytes: the span of the byte error estimate


def next_seq(seq: int) -> int:
    """The SEQ after ``seq``: 1, 2, ..., 255, 1, ... (0 is never a reliable message's)."""
    return 1 if seq >= 255 else seq + 1


class Outgoing(NamedTuple):
    """A reliable message in flight, until acknowledged: a named tuple, made as the tuple it is
    (one a block sent) and made again when it is sent again.

    ``note`` is the sender's own: it comes back with the message once the message is
    acknowledged (the link notes which screen a FRAME_SHOW shows).
    """

    message: p.Message
    note: object
    seq: int
    sent_at: float
    sends: int


_new = tuple.__new__


class SendWindow:
    """Go-back-N sender: ``put`` queues, ``pump`` gives the bytes to write, ``on_ack`` settles."""

    def __init__(self, size: int = p.WINDOW) -> None:
        self.size = size
        self.in_flight: deque[Outgoing] = deque()
        # waiting for room in the window, (message, note): an ``Outgoing`` once it is sent
        self.queued: deque[tuple[p.Message, object]] = deque()
        self.srtt = INITIAL_SRTT  # smoothed round trip of a reliable message
        self.retransmits = 0  # go-back-N rounds, over every session
        self._seq = 0
        self.fast_at: float | None = None  # resend then: a repeated ACK reported a loss
        self.backoff = 1  # the retransmit timeout's multiple: doubled by each timeout

    def reset(self) -> None:
        """A handshake: forget everything queued and in flight; numbering restarts at 1."""
        self.in_flight.clear()
        self.queued.clear()
        self._seq = 0
        self.fast_at = None
        self.backoff = 1

    def timeout(self) -> float:
        """How long the oldest message in flight waits before the window goes again."""
        return RETRANSMIT_TIMEOUT * self.backoff

    def put(self, message: p.Message, note: object = None) -> None:
        self.queued.append((message, note))

    def put_all(self, messages: Iterable[tuple[p.Message, object]]) -> None:
        """``put`` each (message, note), in order (a screen's dozen chunks and its show)."""
        self.queued.extend(messages)

    def has_queued(self, test: Callable[[p.Message], bool]) -> bool:
        return any(test(message) for message, _ in self.queued)

    def drop_queued(self, test: Callable[[p.Message], bool]) -> None:
        """Take back the queued messages (not those in flight) for which ``test`` holds."""
        self.queued = deque(e for e in self.queued if not test(e[0]))

    def forget_notes(self) -> None:
        """The messages in flight come back from ``on_ack`` without their notes."""
        self.in_flight = deque(entry._replace(note=None) for entry in self.in_flight)

    def pump(self, now: float, copies: int = 1) -> bytes:
        """The blocks to write now: the window again if its time came, then queued messages
        while there is room. Each block goes ``copies`` times (twice on a noisy cable)."""
        in_flight = self.in_flight
        out: list[tuple[p.Message, int]] = []  # encoded at the end, in one pass
        fast = self.fast_at is not None and now >= self.fast_at
        if in_flight and (fast or now - in_flight[0].sent_at >= self.timeout()):
            self.retransmits += 1
            if not fast:
                self.backoff = min(2 * self.backoff, MAX_BACKOFF)
            out = [(entry.message, entry.seq) for entry in in_flight]
            self.in_flight = in_flight = deque(
                entry._replace(sent_at=now, sends=entry.sends + 1) for entry in in_flight)
            self.fast_at = None
        queued, size, seq = self.queued, self.size, self._seq
        while queued and len(in_flight) < size:
            message, note = queued.popleft()
            seq = 1 if seq >= 255 else seq + 1  # next_seq, inline: once a block sent
            in_flight.append(_new(Outgoing, (message, note, seq, now, 1)))
            out.append((message, seq))
        self._seq = seq
        return p.encode_all(out, copies) if out else b""

    def on_ack(self, seq: int, now: float) -> list[Outgoing]:
        """An ACK of ``seq`` (cumulative): the messages it settled, oldest first."""
        in_flight = self.in_flight
        # the SEQs in flight follow each other (1 to 255, then 1 again): where ``seq`` would be
        index = (seq - in_flight[0].seq) % 255 if in_flight and seq else len(in_flight)
        if index >= len(in_flight) or in_flight[index].seq != seq:
            # A repeated ACK of what came just before the oldest message in flight: the Pico
            # got something after a gap, so that message was lost. Resend one smoothed round
            # trip after its last send rather than at the retransmit timeout.
            if in_flight and next_seq(seq) == in_flight[0].seq and self.fast_at is None:
                self.fast_at = in_flight[0].sent_at + self._fast_timeout()
            return []
        self.fast_at = None
        self.backoff = 1
        if in_flight[index].sends == 1:  # round trip samples only from unrepeated sends
            sample = now - in_flight[index].sent_at
            self.srtt = 0.875 * self.srtt + 0.125 * sample
        if index + 1 == len(in_flight):  # most ACKs: everything in flight (one read's worth)
            done = list(in_flight)
            in_flight.clear()
            return done
        return [in_flight.popleft() for _ in range(index + 1)]

    def deadline(self) -> float | None:
        """When ``pump`` has something to send again without being asked, if ever."""
        fast = self.fast_at
        if not self.in_flight:
            return fast
        resend = self.in_flight[0].sent_at + RETRANSMIT_TIMEOUT * self.backoff  # timeout()
        return resend if fast is None or resend <= fast else fast

    def _fast_timeout(self) -> float:
        return min(RETRANSMIT_TIMEOUT, max(FAST_RETRANSMIT_FLOOR, 2 * self.srtt))


class Receiver:
    """In-order receiver: only the next SEQ is accepted; ``last`` is what every ACK carries."""

    def __init__(self) -> None:
        self.last = 0  # the last SEQ accepted since the handshake (0: none)

    def reset(self) -> None:
        self.last = 0

    def accept(self, seq: int) -> bool:
        """True if ``seq`` is the next one (act on the message); False for a repeat or a gap."""
        if seq != 0 and seq == next_seq(self.last):
            self.last = seq
            return True
        return False


class ByteErrors:
    """The byte error rate of what arrives, over about the last ``ERROR_WINDOW`` bytes."""

    def __init__(self) -> None:
        self._bytes = 0.0  # bytes received, and damaged blocks among them, both decaying
        self._damaged = 0.0  # with every ERROR_WINDOW bytes received
        self.rate = 0.0  # their ratio, kept (the link reads it at every pass that sends)

    def note(self, size: int, damaged: int) -> None:
        """``size`` bytes arrived, in which the decoder found ``damaged`` bad blocks."""
        decay = math.exp(-size / ERROR_WINDOW)
        self._bytes = total = self._bytes * decay + size
        self._damaged = self._damaged * decay + damaged
        self.rate = self._damaged / max(total, 1.0)
