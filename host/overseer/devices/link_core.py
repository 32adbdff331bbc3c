"""The Pico link without I/O, threads or a clock of its own (docs/protocol.md): one object that
holds the handshake, the reliable window, the roll book and the screen book, takes the bytes
read and the time, and gives the bytes to write. ``pico_link.PicoLink`` owns the port, the
thread and the lock around every call; what happened for the app (a state change, an event)
waits in ``outbox`` until the link hands it on, outside its lock.

Per connection: ``opened`` begins a handshake (HELLO every ``HELLO_INTERVAL``, after bytes that
flush a block the Pico's decoder may still wait on); an IDENT of our protocol makes the link
ready (another version refuses it for good); then ``outgoing`` gives the newest screen and the
roll requests not sent yet, through the go-back-N window, and a heartbeat every
``HEARTBEAT_INTERVAL``; ``incoming`` acknowledges the Pico's events and hands each on once.
A heartbeat with a new boot id is a restarted Pico: a new handshake. ``turn`` is one pass of
the I/O loop (it says when nothing valid came for ``LINK_TIMEOUT``); ``lost`` ends the
connection. On a noisy cable frames
go in smaller chunks, each block twice."""

from __future__ import annotations

import logging
import struct

from overseer.devices import protocol as p
from overseer.devices.link_events import (
    BAD_ROLL,
    BUSY,
    LINK_LOST,
    DieRolled,
    LinkState,
    LinkStats,
    PicoEvent,
    ProtocolMismatch,
    Repeats,
    RollFailed,
    event_of,
)
from overseer.devices.reliable import ByteErrors, Receiver, SendWindow
from overseer.devices.roll_book import RollBook
from overseer.devices.screen_book import Arms, ScreenBook, Shows

log = logging.getLogger("overseer.devices.pico_link")

HELLO_INTERVAL = 0.050
HEARTBEAT_INTERVAL = 0.250
LINK_TIMEOUT = 1.0
# Sent before every HELLO (and before every heartbeat on a noisy cable): no SYNC in it, so the Pico
# discards it, but it completes any cut-off block its decoder still waits on (a LEN byte
# damaged or a block cut by an unplug could otherwise hold up the next ~100 bytes).
FLUSH = bytes(p.MAX_BLOCK)
NOISY_ERROR = 0.002  # a byte error rate from which the cable counts as noisy
CHUNK_SIZES = ((64, NOISY_ERROR), (32, 0.01), (16, 1.0))  # chunk size, below this byte error
DOUBLE_SEND_ERROR = 0.005  # from this byte error on, every block goes out twice
STOPPED = (LinkState.REFUSED, LinkState.CLOSED)
# Bound once: a member read off an Enum class goes through ``EnumType.__getattr__``'s hook in
# Python 3.11, and the link's loop compares its state at every pass.
_READY, _HANDSHAKING, _REFUSED = LinkState.READY, LinkState.HANDSHAKING, LinkState.REFUSED
_PICO_ACK, _PICO_HEARTBEAT = int(p.MsgType.PICO_ACK), int(p.MsgType.PICO_HEARTBEAT)
_BUTTON = int(p.MsgType.BUTTON)
_unpack_button = struct.Struct("<HBB").unpack  # BUTTON's event_id, button, press
_new = tuple.__new__  # a named tuple made as the tuple it is (its ``__new__`` is a Python call)
_EVENTS = (p.ButtonEvent, p.RollResult)  # the Pico's reliable messages


def _is_frame(message: p.Sendable) -> bool:
    return isinstance(message, p.FrameChunks | p.FrameShow | p.FrameArm)


def _is_screen(note: object) -> bool:
    return isinstance(note, Shows | Arms)


class LinkCore:
    """The link's protocol state; see the module's docstring."""

    def __init__(self, protocol: int, roll_timeout: float) -> None:
        self.protocol = protocol
        self.state = LinkState.SEARCHING
        self.error: ProtocolMismatch | None = None
        self.ident: p.Ident | None = None
        self.session = 0  # handshakes that succeeded
        self.screens = ScreenBook()
        self.rolls = RollBook(roll_timeout)
        self.stats = LinkStats()
        self.errors = ByteErrors()
        self.outbox: list[LinkState | PicoEvent] = []  # for the app, in order
        self._boot_id: int | None = None
        self._window = SendWindow()
        self._receiver = Receiver()
        self._repeats = Repeats()
        self._decoder = p.Decoder(p.PICO_TO_HOST, stats=self.stats.decoder)
        self._hello_at = self._heartbeat_at = self._heard_at = 0.0

    # -- the app's side

    @property
    def sent(self) -> bool:
        """Every screen, arm and roll request asked for is acknowledged by the Pico."""
        window = self._window
        return not (window.in_flight or window.queued or self.screens.waiting
                    or self.rolls.unsent_ids)

    def request_roll(self, die: p.Die, now: float) -> int:
        """A roll request's roll_id; it fails at once when the link has stopped."""
        if self.state not in STOPPED:
            return self.rolls.ask(die, now)
        failed = self.rolls.refuse_now(die, LINK_LOST)
        self._fail([failed])
        return failed.roll_id

    def set_state(self, state: LinkState) -> None:
        if state is not self.state:
            self.state = state
            self.outbox.append(state)

    # -- a connection

    def opened(self, now: float) -> None:
        """A port is open: a handshake begins."""
        self._decoder = p.Decoder(p.PICO_TO_HOST, stats=self.stats.decoder)
        self._hello_at = self._heartbeat_at = self._heard_at = now
        self._begin_handshake()

    def lost(self, why: object) -> None:
        """The connection ended (silence, a port error): unanswered rolls fail if it was up."""
        self.stats.link_lost += 1
        log.info("Pico link lost: %s", why)
        was_ready = self.state is LinkState.READY
        self.set_state(LinkState.SEARCHING)
        if was_ready:
            self.fail_rolls(LINK_LOST)

    def turn(self, now: float) -> tuple[bytes, bool, float]:
        """One pass of the I/O loop: the bytes to write (``outgoing``), the requests past
        their deadline failed, whether nothing valid came for ``LINK_TIMEOUT``, and when to
        look again (``deadline``)."""
        out = self.outgoing(now)
        if self.rolls.open:  # most passes: none asked (``expire`` would do nothing)
            self.expire(now)
        return out, now - self._heard_at > LINK_TIMEOUT, self.deadline()

    def answer(self, data: bytes, now: float) -> tuple[bytes, bool, float]:
        """What the Pico sent (``incoming``), then a pass of the loop (``turn``): the reply
        and the bytes ``turn`` gives, in that order, to write at once (the loop's pass after a
        read, one lock and one write fewer). Nothing to write after a refusing IDENT."""
        reply = self.incoming(data, now)
        if self.state is _REFUSED:
            return b"", False, self.deadline()
        out, silent, deadline = self.turn(now)
        return (reply + out if reply else out), silent, deadline

    def fail_rolls(self, reason: str) -> None:
        """Every open roll request fails (the link is gone)."""
        self._fail(self.rolls.fail_all(reason))

    def expire(self, now: float) -> None:
        """Roll requests past their deadline fail (the queued ones are not sent)."""
        if not self.rolls:  # most passes: none asked (a new one wakes the loop again)
            return
        late = self.rolls.expire(now)
        if late:
            gone = {f.roll_id for f in late}
            self._window.drop_queued(lambda m: isinstance(m, p.RollRequest) and m.roll_id in gone)
            self._fail(late)

    def deadline(self) -> float:
        """When ``outgoing`` or ``expire`` has something to do, or the link falls silent."""
        deadline = self._heard_at + LINK_TIMEOUT
        if self.rolls.open:
            deadline = min(deadline, self.rolls.deadline())
        if self.state is _HANDSHAKING:
            return min(deadline, self._hello_at)
        beat = self._heartbeat_at  # (``min`` inline, here and below: once a pass)
        if beat < deadline:
            deadline = beat
        window = self._window
        if not window.in_flight and window.fast_at is None:  # most passes: nothing to resend
            return deadline
        resend_at = window.deadline()
        return deadline if resend_at is None or deadline <= resend_at else resend_at

    def outgoing(self, now: float) -> bytes:
        """The bytes to write now: a HELLO while handshaking; else the newest screen and the
        new roll requests through the window, and a heartbeat when its time came."""
        out = b""
        if self.state is _HANDSHAKING:
            if now >= self._hello_at:
                out = FLUSH + p.encode(p.Hello(self.protocol))
                self._hello_at = now + HELLO_INTERVAL
            return out
        if self.screens.waiting and not self._window.has_queued(_is_frame):
            self._window.put_all(self.screens.take(self._chunk_size()))
        if self.rolls.unsent_ids:  # most passes: none
            for roll_id, die in self.rolls.unsent():
                request = p.RollRequest(roll_id, int(die))
                self._window.put(request, request)  # (noted: its ACK settles a refusal)
        window = self._window
        if window.in_flight or window.queued:  # else ``pump`` has nothing to send
            # (a clean cable's window is wider: fewer ACK rounds; a noisy one's resends less)
            window.size = p.WINDOW if self.errors.rate >= NOISY_ERROR else p.CLEAN_WINDOW
            out = window.pump(now, self._copies())
            self.stats.retransmits = window.retransmits
        if now >= self._heartbeat_at:
            noisy = self.errors.rate >= NOISY_ERROR
            out += (FLUSH if noisy else b"") + p.HOST_HEARTBEAT
            self._heartbeat_at = now + HEARTBEAT_INTERVAL
        return out

    def incoming(self, data: bytes, now: float) -> bytes:
        """What the Pico sent: the reply to write (ACKs). Stops at a refusing IDENT."""
        decoder = self._decoder
        stats = decoder.stats
        reply = b""  # (most reads: none; an ACK of the Pico's events, seldom two)
        damaged = stats.bad_crc + stats.bad_length
        blocks = decoder.feed(data)
        self.errors.note(len(data), stats.bad_crc + stats.bad_length - damaged)
        for block in blocks:
            self._heard_at = now
            if self.state is _READY:  # most blocks: a frame's ACKs, a heartbeat every 250 ms
                kind = block.type
                if kind == _PICO_ACK:
                    self._on_ack(block.payload[0], now)
                    continue
                if kind == _PICO_HEARTBEAT:
                    payload = block.payload
                    boot_id = payload[0] | payload[1] << 8  # (little-endian, as ``<H``)
                    if boot_id != self._boot_id:
                        log.info("the Pico restarted (boot id %04x)", boot_id)
                        self._begin_handshake()
                    continue
                if kind == _BUTTON:  # a press's two reports: ``_handle``'s, without its tests
                    receiver = self._receiver
                    if receiver.accept(block.seq):
                        self._deliver(_new(p.ButtonEvent, _unpack_button(block.payload)))
                    reply += p.HOST_ACKS[receiver.last]
                    continue
            reply += self._handle(block)
            if self.state is _REFUSED:
                return b""
        return reply

    # -- incoming blocks

    def _begin_handshake(self) -> None:
        self.set_state(LinkState.HANDSHAKING)
        self._window.reset()
        self.rolls.forget_refusals()

    def _handle(self, block: p.Block) -> bytes:
        message = p.decode_message(block)
        if isinstance(message, p.Ident):
            self._on_ident(message)
        elif self.state is not _READY:
            pass  # until IDENT, the Pico's numbering is not ours to follow
        elif isinstance(message, _EVENTS):  # (a ready link's ACKs and heartbeats: ``incoming``)
            if self._receiver.accept(block.seq):
                self._deliver(message)
            return p.HOST_ACKS[self._receiver.last]
        elif isinstance(message, p.Error):
            self._on_error(message.code)
        return b""

    def _on_ident(self, ident: p.Ident) -> None:
        if ident.protocol != self.protocol:
            self.error = ProtocolMismatch(
                f"the Pico runs protocol {ident.protocol}; this host speaks {self.protocol}: "
                "flash the firmware (scripts/flash)")
            log.error("%s", self.error)
            self.ident = ident
            self.set_state(LinkState.REFUSED)
            return
        if self.state is LinkState.READY:
            if ident.boot_id != self._boot_id:
                self._begin_handshake()
            # Same boot: the answer to an earlier HELLO (a HELLO repeated, or sent twice on a
            # noisy cable). The Pico numbers its queue afresh from 1 then, but no ACK of ours
            # can reach it between two HELLOs of one handshake, so every message keeps the
            # number it had: keep counting. (Starting again from 1 here lost events: the ACKs
            # we had sent made the Pico drop them, and it never sent them again.)
            return
        if self._boot_id is not None and ident.boot_id != self._boot_id:
            self.stats.restarts_seen += 1
        self._window.reset()
        self._receiver.reset()
        # The same boot still holds the last image it acknowledged: send only what differs.
        self.screens.handshake(same_boot=ident.boot_id == self._boot_id)
        self._boot_id = ident.boot_id
        self.ident = ident
        self.session += 1
        self.stats.sessions += 1
        self.rolls.send_again()  # unanswered requests go again, oldest first
        self.set_state(LinkState.READY)
        log.info("Pico ready: %s, boot id %04x", ident.firmware, ident.boot_id)

    def _on_ack(self, seq: int, now: float) -> None:
        done = self._window.on_ack(seq, now)  # the notes of what it settled
        # The Pico sends an ERROR while it acts on a message and the ACK after the read it came
        # in: a roll refusal belongs to a roll request this ACK settles.
        if self.rolls.refusals:  # (with none heard, ``settled`` finds nothing)
            self._fail(self.rolls.settled(n.roll_id for n in done if isinstance(n, p.RollRequest)))
        armed = False
        for note in reversed(done):  # the newest FRAME_SHOW settled, a FRAME_ARM after it
            if isinstance(note, Shows):
                self.screens.acked(note)
                break
            if isinstance(note, Arms) and not armed:
                armed = True
                self.screens.arm_acked(note)

    def _on_error(self, code: int) -> None:
        self.stats.pico_errors[code] = self.stats.pico_errors.get(code, 0) + 1
        if code in (p.ErrorCode.FRAME_CRC, p.ErrorCode.BAD_CHUNK):
            # The Pico refused a FRAME_SHOW (it sends ERROR before the ACK): the ACKs of the
            # shows now in flight must not count as shown, and the next screen goes whole.
            self._window.forget_notes(_is_screen)
            self._window.drop_queued(_is_frame)
            self.screens.refused()
        elif code == p.ErrorCode.BAD_ROLL:
            self.rolls.refused(BAD_ROLL)
        elif code == p.ErrorCode.QUEUE_FULL:
            self.rolls.refused(BUSY)

    def _deliver(self, message: p.ButtonEvent | p.RollResult) -> None:
        assert self._boot_id is not None
        if self._repeats.repeat(self._boot_id, message.event_id):
            self.stats.duplicates_dropped += 1
            return
        event = event_of(message, self._boot_id)
        if event is None:
            self.stats.invalid_events += 1
        elif isinstance(event, DieRolled) and event.roll_id \
                and not self.rolls.answered(event.roll_id):
            self.stats.duplicates_dropped += 1  # answered already, or failed
        else:
            self.outbox.append(event)

    def _fail(self, failed: list[RollFailed]) -> None:
        for roll in failed:
            self.stats.rolls_failed += 1
            log.info("roll request %d (%s) failed: %s", roll.roll_id, roll.die.name, roll.reason)
        self.outbox.extend(failed)

    def _copies(self) -> int:
        """How many times each block goes out: twice on a noisy cable (the Pico takes the first
        good copy and acknowledges the other again), saving whole go-back-N rounds."""
        return 2 if self.errors.rate >= DOUBLE_SEND_ERROR else 1

    def _chunk_size(self) -> int:
        """Chunk data size for the byte error rate: on a noisy cable small blocks get through
        where large ones hardly ever do, and go-back-N repeats less."""
        error = self.errors.rate
        return next((size for size, limit in CHUNK_SIZES if error < limit), CHUNK_SIZES[-1][0])
