"""The host's link to the Pico over USB serial (pyserial), per docs/protocol.md.

``PicoLink`` runs one I/O thread that owns the port. It finds the Pico (a configured path, or by
USB VID/PID), handshakes (HELLO / IDENT, refusing another protocol version), sends frames and
roll requests reliably (go-back-N, retransmit), drops repeated events by ``(boot_id,
event_id)``, sends heartbeats, declares the link lost after 1 s of silence or a port error,
reopens the port, and after every handshake (replug, firmware restart) re-sends the current
screen and any unanswered roll request. A repeated ACK triggers an early go-back-N resend; on a
noisy cable (damaged blocks in what the Pico sends) frames go in smaller chunks, each block twice.

Public API::

    link = PicoLink(port=None)          # None: search by USB VID/PID
    link.start()
    link.wait_ready(timeout=2.0)        # the Pico's Ident; raises ProtocolMismatch
    screen = link.show(image_1024)      # returns a screen number; only changed chunks are sent
    link.wait_shown(screen, timeout=1)  # True once the Pico acknowledged showing it
    roll = link.request_roll(Die.D12)   # returns the roll_id; the answer is a DieRolled event
    event = link.next_event(timeout=1)  # PressedButton | DieRolled | None
    link.close()
"""

from __future__ import annotations

import logging
import math
import os
import queue
import select
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

import serial

from overseer.devices import protocol as p
from overseer.devices.ports import RASPBERRY_PI_VID, find_pico_ports

log = logging.getLogger(__name__)

HELLO_INTERVAL = 0.050
HEARTBEAT_INTERVAL = 0.250
RETRANSMIT_TIMEOUT = 0.030
FAST_RETRANSMIT_FLOOR = 0.002  # a repeated ACK resends no sooner than this after the last send
INITIAL_SRTT = 0.005  # the round-trip guess until ACKs measure it
# Sent before every HELLO (and before every heartbeat on a noisy cable): no SYNC in it, so the Pico
# discards it, but it completes any cut-off block its decoder still waits on (a LEN byte
# damaged or a block cut by an unplug could otherwise hold up the next ~100 bytes).
FLUSH = bytes(p.MAX_BLOCK)
ERROR_WINDOW = 4096  # bytes: the span of the byte error estimate
NOISY_ERROR = 0.002  # a byte error rate from which the cable counts as noisy
CHUNK_SIZES = ((64, NOISY_ERROR), (32, 0.01), (16, 1.0))  # chunk size, below this byte error
DOUBLE_SEND_ERROR = 0.005  # from this byte error on, every block goes out twice
LINK_TIMEOUT = 1.0
REOPEN_INTERVAL = 0.020
RECENT_EVENTS = 256  # (boot_id, event_id) pairs remembered for dropping repeats


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
    """A button press the Pico reported (exactly once per press)."""

    button: p.Button
    long: bool
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


PicoEvent = PressedButton | DieRolled


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
    pico_errors: dict[int, int] = field(default_factory=dict)
    decoder: p.DecoderStats = field(default_factory=p.DecoderStats)


@dataclass
class _Outgoing:
    """A reliable message: waiting in the outbox (seq 0), then in flight until acknowledged."""

    seq: int
    message: p.Message
    sent_at: float
    screen: int = 0  # for FRAME_SHOW: the screen number it shows
    image: bytes | None = None  # for FRAME_SHOW: the image it shows
    sends: int = 1


class _LinkLost(Exception):
    pass


def _next_seq(seq: int) -> int:
    return 1 if seq >= 255 else seq + 1


def _wire_id(number: int) -> int:
    """Screen and roll numbers grow without end; on the wire they are 1..65535."""
    return (number - 1) % 0xFFFF + 1


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
    ) -> None:
        """``port``: a device path (e.g. /dev/serial/by-id/...); None searches by VID/PID.

        ``protocol`` is the version this host speaks (only tests set another one).
        """
        self._port = port
        self._finder = finder or (lambda: find_pico_ports(vid, pid))
        self._protocol = protocol
        self._events: queue.Queue[PicoEvent] = queue.Queue()
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
        self._rolls: dict[int, p.Die] = {}  # unanswered roll requests
        self._new_rolls: deque[int] = deque()
        self._roll_counter = 0
        self._session = 0
        self.stats = LinkStats()
        # Owned by the I/O thread:
        self._boot_id: int | None = None
        self._tx_seq = 0
        self._rx_seq = 0
        self._in_flight: deque[_Outgoing] = deque()
        self._outbox: deque[_Outgoing] = deque()  # waiting for room in the window (seq 0)
        self._queued_screen = 0  # screen whose messages are in the outbox or in flight
        self._base: bytes | None = None  # image the Pico holds once the outbox is through
        self._acked_image: bytes | None = None  # newest image whose FRAME_SHOW was acknowledged
        self._srtt = INITIAL_SRTT  # smoothed round trip of a reliable message
        self._fast_at: float | None = None  # resend then: a repeated ACK reported a loss
        self._rx_bytes = 0.0  # bytes from the Pico, and damaged blocks among them, both
        self._rx_damaged = 0.0  # decaying with every ERROR_WINDOW bytes received
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
        with self._cond:
            if self._state is not LinkState.REFUSED:
                self._state = LinkState.CLOSED
            self._cond.notify_all()
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
    def session(self) -> int:
        """How many handshakes succeeded so far (grows with every replug or restart)."""
        return self._session

    @property
    def shown(self) -> int:
        """The newest screen number the Pico acknowledged showing since the last handshake."""
        return self._shown

    def wait_ready(self, timeout: float) -> p.Ident:
        """Block until a handshake succeeded; raises ProtocolMismatch or TimeoutError."""
        with self._cond:
            self._cond.wait_for(
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
            return self._cond.wait_for(lambda: self._shown >= screen, timeout)

    def request_roll(self, die: p.Die) -> int:
        """Ask the Pico to roll ``die``; returns the roll_id its DieRolled event will carry."""
        die = p.Die(die)
        with self._cond:
            self._roll_counter += 1
            roll_id = _wire_id(self._roll_counter)
            self._rolls[roll_id] = die
            self._new_rolls.append(roll_id)
        self._wake()
        return roll_id

    def next_event(self, timeout: float | None = None) -> PicoEvent | None:
        """The next button press or roll, or None when none came within ``timeout``."""
        try:
            return self._events.get(timeout=timeout)
        except queue.Empty:
            return None

    # -- the I/O thread ----------------------------------------------------------------------

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"\0")
        except OSError:
            pass  # the pipe is full (a wake-up is pending anyway) or closed

    def _set_state(self, state: LinkState) -> None:
        with self._cond:
            self._state = state
            self._cond.notify_all()

    def _run(self) -> None:
        while not self._stop.is_set():
            port = self._open()
            if port is None:
                break
            try:
                self._serve(port)
            except (_LinkLost, serial.SerialException, OSError) as exc:
                self.stats.link_lost += 1
                log.info("Pico link lost: %s", exc)
            finally:
                port.close()
            if self._state is LinkState.REFUSED:
                return
            self._set_state(LinkState.SEARCHING)

    def _open(self) -> serial.Serial | None:
        while not self._stop.is_set():
            paths = [self._port] if self._port else self._finder()
            for path in paths:
                try:
                    port = serial.Serial(path, 115200, timeout=0, write_timeout=0.5, exclusive=True)
                except (serial.SerialException, OSError):
                    continue
                self.stats.opens += 1
                return port
            self._stop.wait(REOPEN_INTERVAL)
        return None

    def _serve(self, port: serial.Serial) -> None:
        port.reset_input_buffer()
        decoder = p.Decoder(p.PICO_TO_HOST, stats=self.stats.decoder)
        now = time.monotonic()
        self._begin_handshake()
        hello_at = now
        heartbeat_at = now
        heard_at = now
        fd = port.fileno()
        while not self._stop.is_set():
            now = time.monotonic()
            out = bytearray()
            if self._state is LinkState.HANDSHAKING:
                if now >= hello_at:
                    out += FLUSH + p.encode(p.Hello(self._protocol))
                    hello_at = now + HELLO_INTERVAL
            else:
                self._take_commands()
                out += self._pump(now)
                if now >= heartbeat_at:
                    noisy = self.byte_error() >= NOISY_ERROR
                    out += (FLUSH if noisy else b"") + p.encode(p.HostHeartbeat())
                    heartbeat_at = now + HEARTBEAT_INTERVAL
            if out:
                port.write(out)
            if now - heard_at > LINK_TIMEOUT:
                raise _LinkLost(f"nothing valid from the Pico for {LINK_TIMEOUT} s")
            deadline = heard_at + LINK_TIMEOUT
            if self._state is LinkState.HANDSHAKING:
                deadline = min(deadline, hello_at)
            else:
                deadline = min(deadline, heartbeat_at)
                if self._in_flight:
                    deadline = min(deadline, self._in_flight[0].sent_at + RETRANSMIT_TIMEOUT)
                if self._fast_at is not None:
                    deadline = min(deadline, self._fast_at)
            readable, _, _ = select.select([fd, self._wake_r], [], [], max(0.0, deadline - now))
            if self._wake_r in readable:
                try:
                    os.read(self._wake_r, 4096)
                except BlockingIOError:
                    pass
            if fd not in readable:
                continue
            data = port.read(max(1, port.in_waiting))
            now = time.monotonic()
            reply = bytearray()
            damaged = decoder.stats.bad_crc + decoder.stats.bad_length
            blocks = decoder.feed(data)
            self._note_received(
                len(data), decoder.stats.bad_crc + decoder.stats.bad_length - damaged
            )
            for block in blocks:
                heard_at = now
                reply += self._handle(block, now)
                if self._state is LinkState.REFUSED:
                    return
            if reply:
                port.write(reply)

    # Handshake and incoming blocks.

    def _begin_handshake(self) -> None:
        self._set_state(LinkState.HANDSHAKING)
        self._in_flight.clear()
        self._outbox.clear()
        self._fast_at = None

    def _handle(self, block: p.Block, now: float) -> bytes:
        message = p.decode_message(block)
        if isinstance(message, p.Ident):
            return self._on_ident(message, now)
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
            self.stats.pico_errors[message.code] = self.stats.pico_errors.get(message.code, 0) + 1
            if message.code in (p.ErrorCode.FRAME_CRC, p.ErrorCode.BAD_CHUNK):
                self._resend_whole_screen()
            return b""
        if isinstance(message, p.ButtonEvent | p.RollResult):
            return self._on_reliable(block.seq, message)
        return b""

    def _on_ident(self, ident: p.Ident, now: float) -> bytes:
        if ident.protocol != self._protocol:
            error = ProtocolMismatch(
                f"the Pico runs protocol {ident.protocol}; this host speaks {self._protocol}: "
                "flash the firmware (scripts/flash)"
            )
            log.error("%s", error)
            with self._cond:
                self._error = error
                self._ident = ident
                self._state = LinkState.REFUSED
                self._cond.notify_all()
            return b""
        if self._state is LinkState.READY:
            if ident.boot_id == self._boot_id:
                # The answer to an earlier HELLO: the Pico numbers its messages afresh from here
                # (its own HELLO-time reset came before any message of ours it accepted).
                self._rx_seq = 0
            else:
                self._begin_handshake()
            return b""
        if self._boot_id is not None and ident.boot_id != self._boot_id:
            self.stats.restarts_seen += 1
        self._tx_seq = 0
        self._rx_seq = 0
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
            self._state = LinkState.READY
            self._cond.notify_all()
        log.info("Pico ready: %s, boot id %04x", ident.firmware, ident.boot_id)
        return b""

    def _on_ack(self, seq: int, now: float) -> None:
        in_flight = self._in_flight
        index = next((i for i, m in enumerate(in_flight) if m.seq == seq), None)
        if index is None:
            # A repeated ACK of what came just before the oldest message in flight: the Pico
            # got something after a gap, so that message was lost. Resend one smoothed round
            # trip after its last send rather than at the retransmit timeout.
            if in_flight and _next_seq(seq) == in_flight[0].seq and self._fast_at is None:
                self._fast_at = in_flight[0].sent_at + self._fast_timeout()
            return
        self._fast_at = None
        if in_flight[index].sends == 1:  # round trip samples only from unrepeated sends
            sample = now - in_flight[index].sent_at
            self._srtt = 0.875 * self._srtt + 0.125 * sample
        shown = 0
        for _ in range(index + 1):
            done = in_flight.popleft()
            if done.screen:
                shown = done.screen
                self._acked_image = done.image
        if shown:
            with self._cond:
                self._shown = max(self._shown, shown)
                self._cond.notify_all()

    def _note_received(self, size: int, damaged: int) -> None:
        decay = math.exp(-size / ERROR_WINDOW)
        self._rx_bytes = self._rx_bytes * decay + size
        self._rx_damaged = self._rx_damaged * decay + damaged

    def byte_error(self) -> float:
        """The cable's byte error rate, estimated from the damaged blocks among the last few
        kilobytes the Pico sent (USB itself is clean: this is 0 unless something is wrong)."""
        return self._rx_damaged / max(self._rx_bytes, 1.0)

    def _chunk_size(self) -> int:
        """Chunk data size for the byte error rate: on a noisy cable small blocks get through
        where large ones hardly ever do, and go-back-N repeats less."""
        error = self.byte_error()
        return next((size for size, limit in CHUNK_SIZES if error < limit), CHUNK_SIZES[-1][0])

    def _copies(self) -> int:
        """How many times each block goes out: twice on a noisy cable (the Pico takes the first
        good copy and acknowledges the other again), saving whole go-back-N rounds."""
        return 2 if self.byte_error() >= DOUBLE_SEND_ERROR else 1

    def _fast_timeout(self) -> float:
        return min(RETRANSMIT_TIMEOUT, max(FAST_RETRANSMIT_FLOOR, 2 * self._srtt))

    def _on_reliable(self, seq: int, message: p.ButtonEvent | p.RollResult) -> bytes:
        if seq == _next_seq(self._rx_seq) and seq != 0:
            self._rx_seq = seq
            self._deliver(message)
        return p.encode(p.HostAck(self._rx_seq))

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
            self._events.put(event)

    def _event_of(self, message: p.ButtonEvent | p.RollResult) -> PicoEvent | None:
        assert self._boot_id is not None
        if isinstance(message, p.ButtonEvent):
            if message.button not in p.Button._value2member_map_:
                self.stats.invalid_events += 1
                return None
            return PressedButton(
                p.Button(message.button), message.long, self._boot_id, message.event_id
            )
        if message.die not in p.Die._value2member_map_ or not (
            1 <= message.face <= p.FACES[p.Die(message.die)]
        ):
            self.stats.invalid_events += 1
            return None
        if message.roll_id:
            with self._cond:
                if self._rolls.pop(message.roll_id, None) is None:
                    self.stats.duplicates_dropped += 1  # answered already
                    return None
        return DieRolled(
            p.Die(message.die), message.face, message.roll_id, self._boot_id, message.event_id
        )

    # Outgoing reliable messages.

    def _take_commands(self) -> None:
        with self._cond:
            screen, image = self._screen, self._image
            rolls = [(r, self._rolls[r]) for r in self._new_rolls if r in self._rolls]
            self._new_rolls.clear()
        has_frame = any(isinstance(e.message, p.FrameChunk | p.FrameShow) for e in self._outbox)
        if image is not None and screen != self._queued_screen and not has_frame:
            self._queue_screen(screen, image)
        for roll_id, die in rolls:
            self._outbox.append(_Outgoing(0, p.RollRequest(roll_id, int(die)), 0.0))

    def _queue_screen(self, screen: int, image: bytes) -> None:
        wire = _wire_id(screen)
        base = self._base
        size = self._chunk_size()
        for offset in range(0, p.FRAME_SIZE, size):
            data = image[offset : offset + size]
            if base is None or base[offset : offset + size] != data:
                self._outbox.append(_Outgoing(0, p.FrameChunk(wire, offset, data), 0.0))
        show = p.FrameShow(wire, p.crc32(image))
        self._outbox.append(_Outgoing(0, show, 0.0, screen, image))
        self._queued_screen = screen
        self._base = image

    def _resend_whole_screen(self) -> None:
        # The Pico refused a FRAME_SHOW (it sends ERROR before the ACK): the ACKs of the shows
        # now in flight must not count as shown, and the next screen goes whole.
        for entry in self._in_flight:
            entry.screen = 0
            entry.image = None
        self._outbox = deque(
            e for e in self._outbox if not isinstance(e.message, p.FrameChunk | p.FrameShow)
        )
        self._queued_screen = 0
        self._base = None
        self._acked_image = None

    def _pump(self, now: float) -> bytes:
        out = bytearray()
        in_flight = self._in_flight
        fast = self._fast_at is not None and now >= self._fast_at
        if in_flight and (fast or now - in_flight[0].sent_at >= RETRANSMIT_TIMEOUT):
            self.stats.retransmits += 1
            copies = self._copies()
            for entry in in_flight:
                out += p.encode(entry.message, entry.seq) * copies
                entry.sent_at = now
                entry.sends += 1
            self._fast_at = None
        while self._outbox and len(in_flight) < p.WINDOW:
            entry = self._outbox.popleft()
            self._tx_seq = _next_seq(self._tx_seq)
            entry.seq, entry.sent_at = self._tx_seq, now
            in_flight.append(entry)
            out += p.encode(entry.message, entry.seq) * self._copies()
        return bytes(out)
