"""The host's link to the Pico, per docs/protocol.md: handshake, heartbeats, frames, rolls, events.

Three layers, as Klipper splits serialqueue, msgproto and its MCU object:

- ``transport.SerialTransport``: the USB serial port, found, opened, read and written;
- ``protocol`` (blocks, messages, the streaming decoder) and ``reliable`` (numbering, the
  go-back-N window, retransmits, the byte error estimate): the codec, without I/O;
- ``PicoLink`` (here): one I/O thread that joins them. It finds the Pico, handshakes (refusing
  another protocol version), sends frames and roll requests reliably, drops repeated events by
  ``(boot_id, event_id)``, sends heartbeats, declares the link lost after 1 s of silence or a
  port error, reopens, and after every handshake re-sends the current screen and any unanswered
  roll request. On a noisy cable frames go in smaller chunks, each block twice.

The app's device face over it is ``pico.Pico`` (app events, PIL images). Public API::

    link = PicoLink(port=None)          # None: search by USB VID/PID
    link.start()
    link.wait_ready(timeout=2.0)        # the Pico's Ident; raises ProtocolMismatch
    screen = link.show(image_1024)      # returns a screen number; only changed bytes are sent
    link.wait_shown(screen, timeout=1)  # True once the Pico acknowledged showing it
    roll = link.request_roll(Die.D12)   # the roll_id; answered by DieRolled or RollFailed
    event = link.next_event(timeout=1)  # PressedButton | DieRolled | RollFailed | None
    link.close()

With ``on_event`` the events go to that callback (from the I/O thread) instead of
``next_event``; ``on_state`` hears every change of ``LinkState``.
"""

from __future__ import annotations

import logging
import os
import queue
import select
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from overseer.devices import protocol as p
from overseer.devices.frames import changed_chunks
from overseer.devices.reliable import ByteErrors, Receiver, SendWindow
from overseer.devices.transport import SerialTransport
from overseer.devices.usb import RASPBERRY_PI_VID, find_pico_ports

log = logging.getLogger(__name__)

HELLO_INTERVAL = 0.050
HEARTBEAT_INTERVAL = 0.250
# Sent before every HELLO (and before every heartbeat on a noisy cable): no SYNC in it, so the Pico
# discards it, but it completes any cut-off block its decoder still waits on (a LEN byte
# damaged or a block cut by an unplug could otherwise hold up the next ~100 bytes).
FLUSH = bytes(p.MAX_BLOCK)
NOISY_ERROR = 0.002  # a byte error rate from which the cable counts as noisy
CHUNK_SIZES = ((64, NOISY_ERROR), (32, 0.01), (16, 1.0))  # chunk size, below this byte error
DOUBLE_SEND_ERROR = 0.005  # from this byte error on, every block goes out twice
LINK_TIMEOUT = 1.0
REOPEN_INTERVAL = 0.020
RECENT_EVENTS = 256  # (boot_id, event_id) pairs remembered for dropping repeats
ROLL_TIMEOUT = 5.0  # a roll request unanswered this long fails (the tumble takes ~0.6 s)

# Why a roll request failed (RollFailed.reason; the app's RollRefused carries it on).
BAD_ROLL = "bad_roll"  # the Pico does not know that die (ERROR bad_roll)
BUSY = "busy"  # the Pico's queue was full (ERROR queue_full)
TIMEOUT = "timeout"  # no answer within ROLL_TIMEOUT
LINK_LOST = "link_lost"  # the link went down (or was refused or closed) before the answer


class LinkState(Enum):
    SEARCHING = "searching"  # no port open
    HANDSHAKING = "handshaking"  # port open, HELLO sent, waiting for IDENT
    READY = "ready"
    REFUSED = "refused"  # the Pico speaks another protocol version; the link has stopped
    CLOSED = "closed"


class ProtocolMismatch(RuntimeError):
    """The Pico runs a protocol version this host does not speak."""


@dataclass(frozen=True)
class PressedButton:
    """What a button did, as the Pico reported it (each report exactly once): ``press`` is
    DOWN when the switch closed, then LONG or SHORT (docs/protocol.md, Buttons)."""

    button: p.Button
    press: p.Press
    boot_id: int
    event_id: int


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


@dataclass(frozen=True)
class _Shows:
    """The note on a FRAME_SHOW: the screen number and image it shows."""

    screen: int
    image: bytes


@dataclass
class _Roll:
    die: p.Die
    deadline: float


class _LinkLost(Exception):
    pass


def _wire_id(number: int) -> int:
    """Screen and roll numbers grow without end; on the wire they are 1..65535."""
    return (number - 1) % 0xFFFF + 1


def _is_frame(message: p.Message) -> bool:
    return isinstance(message, p.FrameChunk | p.FrameShow)


class PicoLink:
    """The Pico over a serial port; see the module docstring for the API."""

    def __init__(
        self,
        port: str | None = None,
        *,
        vid: int = RASPBERRY_PI_VID,
        pid: int | None = None,
        protocol: int = p.PROTOCOL_VERSION,
        finder: Callable[[], list[str]] | None = None,
        on_event: Callable[[PicoEvent], None] | None = None,
        on_state: Callable[[LinkState], None] | None = None,
        roll_timeout: float = ROLL_TIMEOUT,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``port``: a device path (e.g. /dev/serial/by-id/...); None searches by VID/PID.

        ``protocol`` is the version this host speaks (only tests set another one).
        ``clock`` (seconds) times the link's timeouts, those of its own and those passed to
        ``wait_ready``, ``wait_shown`` and ``next_event``: the Pico's own time for an emulated
        one that runs slower than real time (``rp2040_pico.Rp2040Pico.clock``), so a slow
        emulator is not taken for a lost link.
        ``on_event`` and ``on_state`` are called from the I/O thread and must not block.
        """
        self._transport = SerialTransport(port, finder or (lambda: find_pico_ports(vid, pid)))
        self._protocol = protocol
        self._events: queue.Queue[PicoEvent] | None = None if on_event else queue.Queue()
        self._emit: Callable[[PicoEvent], None] = on_event or self._queue_event
        self._on_state = on_state
        self._roll_timeout = roll_timeout
        self._clock = clock
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._thread: threading.Thread | None = None
        # Shared with the app's threads, guarded by self._cond:
        self._state = LinkState.SEARCHING
        self._error: ProtocolMismatch | None = None
        self._ident: p.Ident | None = None
        self._screen = 0  # number of the newest screen asked for
        self._image: bytes | None = None
        self._shown = 0  # newest screen the Pico acknowledged in this session
        self._rolls: dict[int, _Roll] = {}  # unanswered roll requests
        self._new_rolls: deque[int] = deque()
        self._roll_counter = 0
        self._session = 0
        self.stats = LinkStats()
        # Owned by the I/O thread:
        self._boot_id: int | None = None
        self._window = SendWindow()
        self._receiver = Receiver()
        self._errors = ByteErrors()
        self._roll_errors: list[str] = []  # roll refusals heard since the last ACK
        self._queued_screen = 0  # screen whose messages are queued or in flight
        self._base: bytes | None = None  # image the Pico holds once the queue is through
        self._acked_image: bytes | None = None  # newest image whose FRAME_SHOW was acknowledged
        self._recent: deque[tuple[int, int]] = deque()
        self._recent_set: set[tuple[int, int]] = set()

    # -- the app's side ----------------------------------------------------------------------

    def start(self) -> None:
        """Start the I/O thread (it searches, opens and handshakes on its own)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="pico-link", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the I/O thread and close the port."""
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        if self._state is not LinkState.REFUSED:
            self._set_state(LinkState.CLOSED)
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._wake_r = self._wake_w = -1

    def __enter__(self) -> PicoLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def state(self) -> LinkState:
        return self._state

    @property
    def ident(self) -> p.Ident | None:
        """The IDENT of the last handshake (protocol, boot_id, firmware)."""
        return self._ident

    @property
    def error(self) -> ProtocolMismatch | None:
        """Why the link stopped, when the Pico speaks another protocol version."""
        return self._error

    @property
    def session(self) -> int:
        """How many handshakes succeeded so far (grows with every replug or restart)."""
        return self._session

    @property
    def screen(self) -> int:
        """The number of the newest screen asked for (0 before the first)."""
        return self._screen

    @property
    def shown(self) -> int:
        """The newest screen number the Pico acknowledged showing since the last handshake."""
        return self._shown

    def wait_ready(self, timeout: float) -> p.Ident:
        """Block until a handshake succeeded; raises ProtocolMismatch or TimeoutError."""
        with self._cond:
            self._wait_for(
                lambda: self._state in (LinkState.READY, LinkState.REFUSED, LinkState.CLOSED),
                timeout,
            )
            if self._error is not None:
                raise self._error
            if self._state is not LinkState.READY or self._ident is None:
                raise TimeoutError(f"no Pico answered within {timeout} s ({self._state.value})")
            return self._ident

    def show(self, image: bytes) -> int:
        """Ask the Pico to show a 1024-byte MONO_VLSB image; returns its screen number.

        Showing the image already asked for returns the same number. If several screens are
        asked for faster than the link carries them, only the newest is sent.
        """
        if len(image) != p.FRAME_SIZE:
            raise ValueError(f"a screen is {p.FRAME_SIZE} bytes, not {len(image)}")
        image = bytes(image)
        with self._cond:
            if image != self._image:
                self._screen += 1
                self._image = image
            number = self._screen
        self._wake()
        return number

    def wait_shown(self, screen: int, timeout: float) -> bool:
        """True once the Pico acknowledged showing ``screen`` (or a newer one)."""
        with self._cond:
            return self._wait_for(lambda: self._shown >= screen, timeout)

    def _wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """``self._cond.wait_for`` with ``timeout`` on the link's clock (``_cond`` held)."""
        end = self._clock() + timeout
        while not predicate():
            left = end - self._clock()
            if left <= 0:
                return False
            self._cond.wait(left)  # the clock is never faster than the wall: look again
        return True

    def request_roll(self, die: p.Die) -> int:
        """Ask the Pico to roll ``die``; returns the roll_id of its answer: a DieRolled, or a
        RollFailed (at once when the link has stopped)."""
        die = p.Die(die)
        with self._cond:
            self._roll_counter += 1
            roll_id = _wire_id(self._roll_counter)
            stopped = self._state in (LinkState.REFUSED, LinkState.CLOSED)
            if not stopped:
                self._rolls[roll_id] = _Roll(die, self._clock() + self._roll_timeout)
                self._new_rolls.append(roll_id)
        if stopped:
            self._fail_roll(roll_id, die, LINK_LOST)
        else:
            self._wake()
        return roll_id

    def next_event(self, timeout: float | None = None) -> PicoEvent | None:
        """The next event (each exactly once), or None when none came within ``timeout``."""
        if self._events is None:
            raise RuntimeError("this link hands its events to its on_event callback")
        end = None if timeout is None else self._clock() + timeout
        while True:
            left = None if end is None else max(0.0, end - self._clock())
            try:
                return self._events.get(timeout=left)
            except queue.Empty:
                if left == 0.0 or end is None or self._clock() >= end:
                    return None

    def byte_error(self) -> float:
        """The cable's byte error rate, estimated from the damaged blocks among the last few
        kilobytes the Pico sent (USB itself is clean: this is 0 unless something is wrong)."""
        return self._errors.rate

    # -- the I/O thread ----------------------------------------------------------------------

    def _queue_event(self, event: PicoEvent) -> None:
        assert self._events is not None
        self._events.put(event)

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"\0")
        except OSError:
            pass  # the pipe is full (a wake-up is pending anyway) or closed

    def _set_state(self, state: LinkState) -> None:
        with self._cond:
            changed = state is not self._state
            self._state = state
            self._cond.notify_all()
        if changed and self._on_state is not None:
            self._on_state(state)

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self._open():
                break
            try:
                self._serve()
            except (_LinkLost, OSError) as exc:  # pyserial's SerialException is an OSError
                self.stats.link_lost += 1
                log.info("Pico link lost: %s", exc)
                was_ready = self._state is LinkState.READY
                self._set_state(LinkState.SEARCHING)
                if was_ready:
                    self._fail_rolls(LINK_LOST)
            finally:
                self._transport.close()
            if self._state is LinkState.REFUSED:
                self._fail_rolls(LINK_LOST)
                return
            self._set_state(LinkState.SEARCHING)

    def _open(self) -> bool:
        while not self._stop.is_set():
            if self._transport.open():
                self.stats.opens = self._transport.opens
                return True
            self._expire_rolls(self._clock())
            self._stop.wait(REOPEN_INTERVAL)
        return False

    def _serve(self) -> None:
        transport = self._transport
        decoder = p.Decoder(p.PICO_TO_HOST, stats=self.stats.decoder)
        now = self._clock()
        self._begin_handshake()
        hello_at = now
        heartbeat_at = now
        heard_at = now
        fd = transport.fileno()
        while not self._stop.is_set():
            now = self._clock()
            out = bytearray()
            if self._state is LinkState.HANDSHAKING:
                if now >= hello_at:
                    out += FLUSH + p.encode(p.Hello(self._protocol))
                    hello_at = now + HELLO_INTERVAL
            else:
                self._take_commands()
                out += self._window.pump(now, self._copies())
                self.stats.retransmits = self._window.retransmits
                if now >= heartbeat_at:
                    noisy = self.byte_error() >= NOISY_ERROR
                    out += (FLUSH if noisy else b"") + p.encode(p.HostHeartbeat())
                    heartbeat_at = now + HEARTBEAT_INTERVAL
            if out:
                transport.write(bytes(out))
            self._expire_rolls(now)
            if now - heard_at > LINK_TIMEOUT:
                raise _LinkLost(f"nothing valid from the Pico for {LINK_TIMEOUT} s")
            deadline = min(heard_at + LINK_TIMEOUT, self._roll_deadline())
            if self._state is LinkState.HANDSHAKING:
                deadline = min(deadline, hello_at)
            else:
                resend_at = self._window.deadline()
                deadline = min(deadline, heartbeat_at, deadline if resend_at is None else resend_at)
            # (on a slower clock than the wall's, this wakes early and looks again)
            readable, _, _ = select.select([fd, self._wake_r], [], [], max(0.0, deadline - now))
            if self._wake_r in readable:
                try:
                    os.read(self._wake_r, 4096)
                except BlockingIOError:
                    pass
            if fd not in readable:
                continue
            data = transport.read()
            now = self._clock()
            reply = bytearray()
            damaged = decoder.stats.bad_crc + decoder.stats.bad_length
            blocks = decoder.feed(data)
            self._errors.note(len(data), decoder.stats.bad_crc + decoder.stats.bad_length - damaged)
            for block in blocks:
                heard_at = now
                reply += self._handle(block, now)
                if self._state is LinkState.REFUSED:
                    return
            if reply:
                transport.write(bytes(reply))

    # Handshake and incoming blocks.

    def _begin_handshake(self) -> None:
        self._set_state(LinkState.HANDSHAKING)
        self._window.reset()
        self._roll_errors.clear()

    def _handle(self, block: p.Block, now: float) -> bytes:
        message = p.decode_message(block)
        if isinstance(message, p.Ident):
            return self._on_ident(message)
        if self._state is not LinkState.READY:
            return b""  # until IDENT, the Pico's numbering is not ours to follow
        if isinstance(message, p.PicoHeartbeat):
            if message.boot_id != self._boot_id:
                log.info("the Pico restarted (boot id %04x)", message.boot_id)
                self._begin_handshake()
            return b""
        if isinstance(message, p.PicoAck):
            self._on_ack(message.seq, now)
            return b""
        if isinstance(message, p.Error):
            self._on_error(message.code)
            return b""
        if isinstance(message, p.ButtonEvent | p.RollResult):
            if self._receiver.accept(block.seq):
                self._deliver(message)
            return p.encode(p.HostAck(self._receiver.last))
        return b""

    def _on_ident(self, ident: p.Ident) -> bytes:
        if ident.protocol != self._protocol:
            error = ProtocolMismatch(
                f"the Pico runs protocol {ident.protocol}; this host speaks {self._protocol}: "
                "flash the firmware (scripts/flash)"
            )
            log.error("%s", error)
            with self._cond:
                self._error = error
                self._ident = ident
            self._set_state(LinkState.REFUSED)
            return b""
        if self._state is LinkState.READY:
            if ident.boot_id != self._boot_id:
                self._begin_handshake()
            # Same boot: the answer to an earlier HELLO (a HELLO repeated, or sent twice on a
            # noisy cable). The Pico numbers its queue afresh from 1 then, but no ACK of ours
            # can reach it between two HELLOs of one handshake, so every message keeps the
            # number it had: keep counting. (Starting again from 1 here lost events: the ACKs
            # we had sent made the Pico drop them, and it never sent them again.)
            return b""
        if self._boot_id is not None and ident.boot_id != self._boot_id:
            self.stats.restarts_seen += 1
        self._window.reset()
        self._receiver.reset()
        self._queued_screen = 0
        # The same boot still holds the last image it acknowledged: send only what differs.
        self._base = self._acked_image if ident.boot_id == self._boot_id else None
        self._boot_id = ident.boot_id
        with self._cond:
            self._ident = ident
            self._shown = 0
            self._session += 1
            self.stats.sessions += 1
            self._new_rolls.clear()
            self._new_rolls.extend(self._rolls)  # unanswered requests go again, oldest first
        self._set_state(LinkState.READY)
        log.info("Pico ready: %s, boot id %04x", ident.firmware, ident.boot_id)
        return b""

    def _on_ack(self, seq: int, now: float) -> None:
        done = self._window.on_ack(seq, now)
        # The Pico sends an ERROR while it acts on a message and the ACK after the read it came
        # in: a roll refusal belongs to a roll request this ACK settles. (A queue_full heard with
        # no roll request settled was a dropped press.)
        refused = [e.message for e in done if isinstance(e.message, p.RollRequest)]
        for reason, request in zip(self._roll_errors, refused, strict=False):
            with self._cond:
                roll = self._rolls.pop(request.roll_id, None)
            if roll is not None:
                self._fail_roll(request.roll_id, roll.die, reason)
        self._roll_errors.clear()
        shows = [e.note for e in done if isinstance(e.note, _Shows)]
        if shows:
            self._acked_image = shows[-1].image
            with self._cond:
                self._shown = max(self._shown, shows[-1].screen)
                self._cond.notify_all()

    def _on_error(self, code: int) -> None:
        self.stats.pico_errors[code] = self.stats.pico_errors.get(code, 0) + 1
        if code in (p.ErrorCode.FRAME_CRC, p.ErrorCode.BAD_CHUNK):
            self._resend_whole_screen()
        elif code == p.ErrorCode.BAD_ROLL:
            self._roll_errors.append(BAD_ROLL)
        elif code == p.ErrorCode.QUEUE_FULL:
            self._roll_errors.append(BUSY)

    def _copies(self) -> int:
        """How many times each block goes out: twice on a noisy cable (the Pico takes the first
        good copy and acknowledges the other again), saving whole go-back-N rounds."""
        return 2 if self.byte_error() >= DOUBLE_SEND_ERROR else 1

    def _chunk_size(self) -> int:
        """Chunk data size for the byte error rate: on a noisy cable small blocks get through
        where large ones hardly ever do, and go-back-N repeats less."""
        error = self.byte_error()
        return next((size for size, limit in CHUNK_SIZES if error < limit), CHUNK_SIZES[-1][0])

    def _deliver(self, message: p.ButtonEvent | p.RollResult) -> None:
        assert self._boot_id is not None
        key = (self._boot_id, message.event_id)
        if key in self._recent_set:
            self.stats.duplicates_dropped += 1
            return
        self._recent.append(key)
        self._recent_set.add(key)
        if len(self._recent) > RECENT_EVENTS:
            self._recent_set.discard(self._recent.popleft())
        event = self._event_of(message)
        if event is not None:
            self._emit(event)

    def _event_of(self, message: p.ButtonEvent | p.RollResult) -> PicoEvent | None:
        assert self._boot_id is not None
        if isinstance(message, p.ButtonEvent):
            if (message.button not in p.Button._value2member_map_
                    or message.press not in p.Press._value2member_map_):
                self.stats.invalid_events += 1
                return None
            return PressedButton(
                p.Button(message.button), p.Press(message.press), self._boot_id,
                message.event_id,
            )
        if message.die not in p.Die._value2member_map_ or not (
            1 <= message.face <= p.FACES[p.Die(message.die)]
        ):
            self.stats.invalid_events += 1
            return None
        if message.roll_id:
            with self._cond:
                if self._rolls.pop(message.roll_id, None) is None:
                    self.stats.duplicates_dropped += 1  # answered already, or failed
                    return None
        return DieRolled(
            p.Die(message.die), message.face, message.roll_id, self._boot_id, message.event_id
        )

    # Roll requests that will not be answered.

    def _fail_roll(self, roll_id: int, die: p.Die, reason: str) -> None:
        self.stats.rolls_failed += 1
        log.info("roll request %d (%s) failed: %s", roll_id, die.name, reason)
        self._emit(RollFailed(die, roll_id, reason))

    def _fail_rolls(self, reason: str) -> None:
        with self._cond:
            failed = list(self._rolls.items())
            self._rolls.clear()
        for roll_id, roll in failed:
            self._fail_roll(roll_id, roll.die, reason)

    def _expire_rolls(self, now: float) -> None:
        if not self._rolls:  # most passes: none asked (a new one wakes the loop again)
            return
        with self._cond:
            late = [(r, roll) for r, roll in self._rolls.items() if roll.deadline <= now]
            for roll_id, _ in late:
                del self._rolls[roll_id]
        if late:
            gone = {roll_id for roll_id, _ in late}
            self._window.drop_queued(lambda m: isinstance(m, p.RollRequest) and m.roll_id in gone)
        for roll_id, roll in late:
            self._fail_roll(roll_id, roll.die, TIMEOUT)

    def _roll_deadline(self) -> float:
        if not self._rolls:
            return float("inf")
        with self._cond:
            return min((roll.deadline for roll in self._rolls.values()), default=float("inf"))

    # Outgoing reliable messages.

    def _take_commands(self) -> None:
        with self._cond:
            screen, image = self._screen, self._image
            rolls = [(r, self._rolls[r].die) for r in self._new_rolls if r in self._rolls]
            self._new_rolls.clear()
        if image is not None and screen != self._queued_screen and not self._window.has_queued(
            _is_frame
        ):
            self._queue_screen(screen, image)
        for roll_id, die in rolls:
            self._window.put(p.RollRequest(roll_id, int(die)))

    def _queue_screen(self, screen: int, image: bytes) -> None:
        wire = _wire_id(screen)
        for offset, data in changed_chunks(self._base, image, self._chunk_size()):
            self._window.put(p.FrameChunk(wire, offset, data))
        self._window.put(p.FrameShow(wire, p.crc32(image)), _Shows(screen, image))
        self._queued_screen = screen
        self._base = image

    def _resend_whole_screen(self) -> None:
        # The Pico refused a FRAME_SHOW (it sends ERROR before the ACK): the ACKs of the shows
        # now in flight must not count as shown, and the next screen goes whole.
        self._window.forget_notes()
        self._window.drop_queued(_is_frame)
        self._queued_screen = 0
        self._base = None
        self._acked_image = None

