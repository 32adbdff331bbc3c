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


_FrameChunks = p.FrameChunks


class _Write:
    """Blocks in flight that went in one write: how many, when, and whether it was a go-back-N
    round (sent again: their round trips are not sampled)."""

    __slots__ = ("count", "sent_at", "again")

    def __init__(self, count: int, sent_at: float, again: bool) -> None:
        self.count, self.sent_at, self.again = count, sent_at, again


class SendWindow:
    """Go-back-N sender: ``put`` queues, ``pump`` gives the bytes to write, ``on_ack`` settles.

    In flight, a message is only its encoded block (``in_flight``, oldest first; made once, as
    it enters the window: a go-back-N round writes the same bytes again): its SEQ follows from
    the oldest's (``_first``), its note is kept by SEQ (``_notes``: the few messages that have
    one), and when it went by the pump that sent it (``_sends``: the blocks of one write share
    their time). A screen's dozen chunks are one item queued (``protocol.FrameChunks``, encoded
    from the image as they enter the window) and a dozen bytes objects in flight.
    """

    def __init__(self, size: int = p.WINDOW) -> None:
        self.size = size
        self.in_flight: deque[bytes] = deque()  # the blocks sent and not acknowledged
        # waiting for room in the window, (message, note): encoded once it is sent
        self.queued: deque[tuple[p.Sendable, object]] = deque()
        self.srtt = INITIAL_SRTT  # smoothed round trip of a reliable message
        self.retransmits = 0  # go-back-N rounds, over every session
        self._seq = 0  # the last SEQ given
        self._first = 1  # the SEQ of the oldest block in flight
        self._notes: dict[int, object] = {}  # the notes of the messages in flight, by SEQ
        self._sends: deque[_Write] = deque()  # the writes in flight, oldest first
        self.fast_at: float | None = None  # resend then: a repeated ACK reported a loss
        self.backoff = 1  # the retransmit timeout's multiple: doubled by each timeout

    def reset(self) -> None:
        """A handshake: forget everything queued and in flight; numbering restarts at 1."""
        self.in_flight.clear()
        self.queued.clear()
        self._notes.clear()
        self._sends.clear()
        self._seq = 0
        self._first = 1
        self.fast_at = None
        self.backoff = 1

    def timeout(self) -> float:
        """How long the oldest message in flight waits before the window goes again."""
        return RETRANSMIT_TIMEOUT * self.backoff

    def put(self, message: p.Sendable, note: object = None) -> None:
        """Queue ``message``; ``note`` (the sender's own) comes back from the ``on_ack`` that
        settles it (the link notes which screen a FRAME_SHOW shows)."""
        self.queued.append((message, note))

    def put_all(self, messages: Iterable[tuple[p.Sendable, object]]) -> None:
        """``put`` each (message, note), in order (a screen's dozen chunks and its show)."""
        self.queued.extend(messages)

    def has_queued(self, test: Callable[[p.Sendable], bool]) -> bool:
        return any(test(message) for message, _ in self.queued)

    def drop_queued(self, test: Callable[[p.Sendable], bool]) -> None:
        """Take back the queued messages (not those in flight) for which ``test`` holds."""
        self.queued = deque(e for e in self.queued if not test(e[0]))

    def forget_notes(self, test: Callable[[object], bool]) -> None:
        """The messages in flight whose note ``test`` holds for come back without it."""
        self._notes = {seq: note for seq, note in self._notes.items() if not test(note)}

    def pump(self, now: float, copies: int = 1) -> bytes:
        """The blocks to write now: the window again if its time came, then queued messages
        while there is room. Each block goes ``copies`` times (twice on a noisy cable)."""
        in_flight = self.in_flight
        out: list[bytes] = []
        fast = self.fast_at is not None and now >= self.fast_at
        if in_flight and (fast or now - self._sends[0].sent_at >= self.timeout()):
            self.retransmits += 1
            if not fast:
                self.backoff = min(2 * self.backoff, MAX_BACKOFF)
            out = list(in_flight)
            self._sends = deque((_Write(len(in_flight), now, True),))  # one write of them all
            self.fast_at = None
        queued, room, seq = self.queued, self.size - len(in_flight), self._seq
        if queued and room > 0:
            notes, begun = self._notes, len(out)
            while queued and room > 0:
                message, note = queued[0]
                if isinstance(message, _FrameChunks):  # a screen's chunks (no note)
                    before = len(out)
                    seq = message.encode(seq, room, out)
                    room -= len(out) - before
                    if message.runs:  # some left: the window is full
                        break
                    queued.popleft()
                    continue
                queued.popleft()
                room -= 1
                seq = 1 if seq >= 255 else seq + 1  # next_seq, inline: once a block sent
                if note is not None:
                    notes[seq] = note
                out.append(p.encode(message, seq))
            if len(out) > begun:
                in_flight.extend(out[begun:] if begun else out)
                self._sends.append(_Write(len(out) - begun, now, False))
            self._seq = seq
        if copies > 1:  # each block again right after itself (a noisy cable)
            out = [block for block in out for _ in range(copies)]
        return b"".join(out)

    def on_ack(self, seq: int, now: float) -> list[object]:
        """An ACK of ``seq`` (cumulative): the notes of the messages it settled, oldest first
        (only those that have one)."""
        in_flight, first = self.in_flight, self._first
        # the SEQs in flight follow each other (1 to 255, then 1 again): where ``seq`` would be
        index = (seq - first) % 255 if in_flight and seq else len(in_flight)
        if index >= len(in_flight):
            # A repeated ACK of what came just before the oldest message in flight: the Pico
            # got something after a gap, so that message was lost. Resend one smoothed round
            # trip after its last send rather than at the retransmit timeout.
            if in_flight and next_seq(seq) == first and self.fast_at is None:
                self.fast_at = self._sends[0].sent_at + self._fast_timeout()
            return []
        self.fast_at = None
        self.backoff = 1
        sends, left = self._sends, index + 1  # blocks settled, from the oldest write on
        while left > sends[0].count:  # the writes it settles whole, before its own
            left -= sends.popleft().count
        write = sends[0]  # the write of the block ``seq``: its ``left``-th
        if not write.again:  # round trip samples only from unrepeated sends
            sample = now - write.sent_at
            self.srtt = 0.875 * self.srtt + 0.125 * sample
        if index + 1 == len(in_flight):  # most ACKs: everything in flight (one read's worth)
            in_flight.clear()
            sends.clear()
        else:
            if left == write.count:
                sends.popleft()
            else:
                write.count -= left
            for _ in range(index + 1):
                in_flight.popleft()
        self._first = seq + 1 if seq < 255 else 1  # next_seq
        notes = self._notes
        if not notes:
            return []
        done = [seq_ for seq_ in notes if (seq_ - first) % 255 <= index]
        return [notes.pop(seq_) for seq_ in done]

    def deadline(self) -> float | None:
        """When ``pump`` has something to send again without being asked, if ever."""
        fast = self.fast_at
        if not self.in_flight:
            return fast
        resend = self._sends[0].sent_at + RETRANSMIT_TIMEOUT * self.backoff  # timeout()
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
        if not damaged and not self._damaged:  # a clean cable, every read: 0 stays 0 exactly
            return
        self._damaged = self._damaged * decay + damaged
        self.rate = self._damaged / max(total, 1.0)
