# The link to the host (docs/protocol.md): blocks, resync, and the reliable sender and receiver.
import struct

import micropython
from micropython import const
from ticks import ticks_diff

try:
    from binascii import crc32
except ImportError:  # a build without binascii.crc32: the same CRC-32 (ISO-HDLC) from a table
    _TABLE = []
    for _n in range(256):
        _c = _n
        for _k in range(8):
            _c = (_c >> 1) ^ 0xEDB88320 if _c & 1 else _c >> 1
        _TABLE.append(_c)

    def crc32(data, value=0):
        crc = value ^ 0xFFFFFFFF
        for b in data:
            crc = _TABLE[(crc ^ b) & 0xFF] ^ (crc >> 8)
        return crc ^ 0xFFFFFFFF


PROTOCOL = 4  # docs/protocol.md, version 4: the armed image kept, armed again by FRAME_ARM alone
SYNC = const(0x7E)
MAX_LEN = const(96)
MAX_BLOCK = const(4 + 96 + 4)
# The CRC-32 of a block's SEQ TYPE PAYLOAD with its CRC after them (little-endian), whatever they
# are: a block is whole when that is this. (A small int on the Pico, where a 32-bit CRC would
# be a heap object.)
RESIDUE = const(0x2144DF1C)

# Host to Pico
HELLO = const(0x01)
FRAME_CHUNK = const(0x02)
FRAME_SHOW = const(0x03)
ROLL_REQUEST = const(0x04)
HEARTBEAT = const(0x05)
ACK = const(0x06)
FRAME_ARM = const(0x07)
# Pico to host
IDENT = const(0x81)
BUTTON = const(0x82)
ROLL_RESULT = const(0x83)
PICO_HEARTBEAT = const(0x84)
PICO_ACK = const(0x85)
ERROR = const(0x86)

ERROR_FRAME_CRC = 1
ERROR_BAD_CHUNK = 2
ERROR_QUEUE_FULL = 3
ERROR_BAD_ROLL = 4

# Payload sizes (min, max) of the TYPEs each side receives.
HOST_TO_PICO = {
    HELLO: (1, 1),
    FRAME_CHUNK: (5, 4 + 64),
    FRAME_SHOW: (6, 6),
    ROLL_REQUEST: (3, 3),
    HEARTBEAT: (0, 0),
    ACK: (1, 1),
    FRAME_ARM: (9, 9),
}
PICO_TO_HOST = {
    IDENT: (4, 3 + 32),
    BUTTON: (4, 4),
    ROLL_RESULT: (6, 6),
    PICO_HEARTBEAT: (4, 4),
    PICO_ACK: (1, 1),
    ERROR: (1, 1),
}

WINDOW = 8  # reliable messages in flight
MAX_PENDING = 32  # unacknowledged reliable messages kept (the Pico's event queue)
RETRANSMIT_MS = 60


def encode(seq: int, typ: int, payload: bytes = b"") -> bytes:
    """One block: SYNC LEN SEQ TYPE PAYLOAD CRC."""
    n = len(payload)
    if n > MAX_LEN:
        raise ValueError("payload longer than 96 bytes")
    body = bytes((n, seq, typ)) + payload
    return bytes((SYNC,)) + body + struct.pack("<I", crc32(body))


class AckBlock:
    """PICO_ACK blocks (one after every read that held reliable messages), made in a buffer
    kept for them: a third of encode()'s time on a Pico."""

    def __init__(self) -> None:
        self.block = bytearray((SYNC, 1, 0, PICO_ACK, 0, 0, 0, 0, 0))
        self._body = memoryview(self.block)[1:5]

    def encode(self, seq: int) -> bytes:
        block = self.block
        block[4] = seq
        struct.pack_into("<I", block, 5, crc32(self._body))
        return bytes(block)


def next_seq(seq: int) -> int:
    """The SEQ after seq: 1, 2, ..., 255, 1, ... (0 is never a reliable SEQ)."""
    return 1 if seq >= 255 else seq + 1


class Decoder:
    """Bytes in, blocks out; never raises on input, resynchronises on garbage.

    Holds at most one block (104 bytes) of unparsed input in ``buf``. ``need`` is how many
    bytes it must hold before its next decision: a reader that knows its stream can put exactly
    ``need - n`` bytes at ``space()`` and call ``fill()`` (the firmware's USB reads whole blocks
    so, two reads a block, nothing allocated a byte); ``feed()`` takes any bytes. Each valid
    block goes to ``handle(type, seq, length)`` while it is in ``buf`` (its payload at
    ``buf[4:4 + length]``); without a handler, ``get()`` returns (type, seq, payload) copies.
    """

    def __init__(self, sizes: dict, handle=None) -> None:
        self.sizes = sizes
        self.buf = bytearray(MAX_BLOCK)
        view = self.view = memoryview(self.buf)
        self._at = (view, view[1:], view[2:])  # space() without allocating
        self._length = -1  # the LEN of the last block read, and a view of that block from SEQ
        self._checked = view  # to its CRC: a run of same-length blocks allocates no view
        self._low = bytearray(b"\xff" * 256)  # per TYPE: its payload sizes (none: 255 to 0)
        self._high = bytearray(256)
        for typ, (low, high) in sizes.items():
            self._low[typ] = low
            self._high[typ] = high
        self.n = 0
        self.need = 2  # held bytes needed before the next decision
        self.dropped = 0
        self.ready = []
        self.handle = handle or self._keep

    def _keep(self, typ, seq, length):
        self.ready.append((typ, seq, bytes(self.buf[4 : 4 + length])))

    def get(self) -> "tuple | None":
        """The next decoded (type, seq, payload) kept without a handler, or None."""
        if self.ready:
            return self.ready.pop(0)
        return None

    @micropython.native
    def space(self):
        """Where the next bytes go (``need - n`` of them at most)."""
        n = self.n
        return self._at[n] if n < 3 else self.view[n:]

    @micropython.native
    def fill(self, k: int) -> None:
        """``k`` bytes were put at ``space()``."""
        n = self.n
        if n == 0:  # hunting for SYNC: drop what comes before it
            buf = self.buf
            i = 0
            while i < k and buf[i] != SYNC:
                i += 1
            if i:
                k -= i
                for j in range(k):  # rare (garbage): a loop, as the views overlap
                    buf[j] = buf[i + j]
        self.n = n + k
        if self.n >= self.need:
            self._scan()

    @micropython.native
    def pull(self, readinto, poll, limit: int) -> int:
        """Read whole blocks from a stream whose ``readinto(buf, n)`` returns once it has n
        bytes (MicroPython's stdin), while ``poll(0)`` (its ``select.poll``'s ``ipoll``: at most
        one (stream, event) pair) says bytes wait, up to about ``limit``
        bytes: a block's SYNC and LEN, then the rest of it straight into ``buf``, each valid
        one to the handler as it is read. The sender writes whole blocks, so the rest is on its
        way. Garbage takes the general way (``space``, ``fill``) until a SYNC. The bytes read;
        -1 when the stream ended."""
        buf = self.buf
        head = self._at[0]
        rest = self._at[2]
        low = self._low
        high = self._high
        handle = self.handle
        total = 0
        while total < limit:
            if self.n:  # a block being hunted for after garbage: as far as its next decision
                k = self.need - self.n
                if readinto(self.space(), k) != k:
                    return -1
                total += k
                self.fill(k)
                continue
            waiting = 0
            for _obj, event in poll(0):
                waiting = event
            if not waiting & 1:  # POLLIN
                break
            if waiting & ~1:  # the other end hung up (off-board)
                return -1
            if readinto(head, 2) != 2:
                return -1
            total += 2
            length = buf[1]
            if buf[0] != SYNC or length > MAX_LEN:
                self.fill(2)
                continue
            k = length + 6
            if readinto(rest, k) != k:
                return -1
            total += k
            if length != self._length:
                self._length = length
                self._checked = self.view[1 : 8 + length]
            if crc32(self._checked) != RESIDUE:
                self.n = 8 + length
                self._scan()  # dropped; a SYNC inside it may start the next block
                continue
            typ = buf[3]
            if length < low[typ] or length > high[typ]:
                self.dropped += 1
            else:
                handle(typ, buf[2], length)
        return total

    @micropython.native
    def feed(self, data) -> None:
        """Any bytes: copied in as far as each decision needs. A block as the sender wrote it
        goes the short way, its head and its checks here (one call a block: the handler's);
        garbage and damage go the general way (``fill``)."""
        buf = self.buf
        low = self._low
        high = self._high
        i = 0
        end = len(data)
        while i < end:
            held = self.n
            k = self.need - held
            if k > end - i:
                k = end - i
            buf[held : held + k] = data[i : i + k]
            i += k
            held += k
            if held < self.need:  # the rest of data: too little for a decision
                if held == k and buf[0] != SYNC:
                    self.fill(k)  # garbage: dropped up to a SYNC
                else:
                    self.n = held
                return
            length = buf[1]
            if buf[0] != SYNC or length > MAX_LEN:
                self.n = held - k
                self.fill(k)  # garbage before a SYNC, or a bad LEN: resynchronise
            elif held == 2:  # a block's SYNC and LEN: the rest next
                self.n = 2
                self.need = length + 8
            else:  # held == length + 8: one whole block, if its CRC says so
                if length != self._length:
                    self._length = length
                    self._checked = self.view[1 : 8 + length]
                if crc32(self._checked) != RESIDUE:
                    self.n = held - k
                    self.fill(k)  # dropped; a SYNC inside it may start the next block
                    continue
                typ = buf[3]
                if length < low[typ] or length > high[typ]:
                    self.dropped += 1
                else:
                    self.handle(typ, buf[2], length)
                self.n = 0
                self.need = 2

    def _shift(self, k):
        # drop the first k held bytes, then any bytes before the next SYNC
        buf = self.buf
        n = self.n
        i = k
        while i < n and buf[i] != SYNC:
            i += 1
        for j in range(n - i):  # rare (a damaged block): a loop, as the views overlap
            buf[j] = buf[i + j]
        self.n = n - i

    @micropython.native
    def _scan(self):
        buf = self.buf
        while self.n >= 2:
            length = buf[1]
            if length > MAX_LEN:
                self.dropped += 1
                self._shift(1)
                continue
            end = 4 + length
            if self.n < end + 4:
                self.need = end + 4
                return
            if crc32(self.view[1 : end + 4]) != RESIDUE:
                self.dropped += 1
                self._shift(1)
                continue
            typ = buf[3]
            size = self.sizes.get(typ)
            if size is None or length < size[0] or length > size[1]:
                self.dropped += 1
            else:
                self.handle(typ, buf[2], length)
            self._shift(end + 4)
        self.need = 2


class Receiver:
    """Accepts reliable messages in order, exactly once (docs/protocol.md, Reliability)."""

    def __init__(self) -> None:
        self.last = 0  # last accepted SEQ; 0 = none since the handshake

    def reset(self) -> None:
        self.last = 0

    @micropython.native
    def accept(self, seq: int) -> bool:
        """True if seq is the next expected one (act on it); ACK self.last either way."""
        if seq == (1 if self.last >= 255 else self.last + 1):  # next_seq, without the call
            self.last = seq
            return True
        return False


class Sender:
    """Go-back-N sender of reliable messages, at most WINDOW in flight, MAX_PENDING kept.

    Messages stay until acknowledged, across handshakes (renumbered from 1 by reset()).
    """

    def __init__(
        self,
        write,
        window: int = WINDOW,
        max_pending: int = MAX_PENDING,
        timeout_ms: int = RETRANSMIT_MS,
    ) -> None:
        self.write = write
        self.window = window
        self.max_pending = max_pending
        self.timeout_ms = timeout_ms
        self.pending = []  # [seq or 0 (not sent yet), type, payload], oldest first
        self.in_flight = 0  # the first in_flight entries of pending have been sent
        self.seq = 0  # SEQ of the last message numbered
        self.sent_at = 0  # when the oldest in-flight message was (re)sent
        self.enabled = False  # nothing is sent before the first handshake

    def full(self) -> bool:
        return len(self.pending) >= self.max_pending

    def send(self, typ: int, payload: bytes) -> bool:
        """Queue a reliable message; False (nothing queued) when the queue is full."""
        if self.full():
            return False
        self.pending.append([0, typ, payload])
        return True

    def reset(self) -> None:
        """A handshake: renumber everything not acknowledged from 1 and send it again."""
        self.seq = 0
        self.in_flight = 0
        self.enabled = True
        for entry in self.pending:
            entry[0] = 0

    def on_ack(self, seq: int, now: int) -> bool:
        """ACK seq: everything up to seq arrived. False if seq is not in flight (a stale ACK)."""
        for i in range(self.in_flight):
            if self.pending[i][0] == seq:
                del self.pending[: i + 1]
                self.in_flight -= i + 1
                self.sent_at = now  # the retransmit timer restarts for what is left in flight
                return True
        return False

    def poll(self, now: int) -> None:
        """Send new messages the window allows; resend all in flight after the timeout."""
        if not self.enabled:
            return
        pending = self.pending
        if self.in_flight and ticks_diff(now, self.sent_at) >= self.timeout_ms:
            for i in range(self.in_flight):
                entry = pending[i]
                self.write(encode(entry[0], entry[1], entry[2]))
            self.sent_at = now
        while self.in_flight < self.window and self.in_flight < len(pending):
            entry = pending[self.in_flight]
            self.seq = next_seq(self.seq)
            entry[0] = self.seq
            self.write(encode(entry[0], entry[1], entry[2]))
            if self.in_flight == 0:
                self.sent_at = now
            self.in_flight += 1
