"""The Pico link protocol, version 4 (docs/protocol.md): blocks, messages and a streaming decoder.

A block is ``SYNC LEN SEQ TYPE PAYLOAD CRC32``. ``encode_block`` builds one; ``Decoder`` turns
any stream of bytes into the good blocks it contains, resynchronising on garbage and never
raising. ``decode_message`` turns a block into a typed message. Both directions are here (the
host speaks one, the tests and the fault proxy read the other).
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import NamedTuple

PROTOCOL_VERSION = 4  # 4: the armed image kept (3: FRAME_ARM; 2: BUTTON DOWN)
SYNC = 0x7E
MAX_PAYLOAD = 96
HEADER_SIZE = 4  # SYNC, LEN, SEQ, TYPE
CRC_SIZE = 4
MAX_BLOCK = HEADER_SIZE + MAX_PAYLOAD + CRC_SIZE
DECODER_LIMIT = 2 * MAX_BLOCK  # bytes of unparsed input a decoder may hold
KNOWN_READS = 512  # reads of one unreliable block a decoder remembers (the 256 ACKs first)
FRAME_SIZE = 1024  # 128 x 64 pixels, 1 bit each, framebuf.MONO_VLSB
MAX_CHUNK = 64
MAX_FIRMWARE_NAME = 32
WINDOW = 8  # reliable messages in flight (the Pico's; the host's on a noisy cable)
# The host's on a clean cable: a changed screen (most often 8 to 17 chunks and its FRAME_SHOW)
# in one round of the Pico's ACKs, not two or three (docs/protocol.md, Reliability). On the rp2
# port 24 blocks are some 40 ms of decoding: their ACK still comes well inside the retransmit
# timeout while the panel takes a frame.
CLEAN_WINDOW = 24


class MsgType(IntEnum):
    """Every TYPE byte of the protocol."""

    HELLO = 0x01
    FRAME_CHUNK = 0x02
    FRAME_SHOW = 0x03
    ROLL_REQUEST = 0x04
    HOST_HEARTBEAT = 0x05
    HOST_ACK = 0x06
    FRAME_ARM = 0x07
    IDENT = 0x81
    BUTTON = 0x82
    ROLL_RESULT = 0x83
    PICO_HEARTBEAT = 0x84
    PICO_ACK = 0x85
    ERROR = 0x86


class Die(IntEnum):
    """The dice the Pico rolls, by their wire number."""

    D12 = 0
    RUNE = 1  # the black Rune Die
    LOCATION = 2  # the red Location Die


FACES = {Die.D12: 12, Die.RUNE: 6, Die.LOCATION: 6}


class Button(IntEnum):
    """The Pico's buttons, by their wire number."""

    NEXT_AI_PIECE = 0
    OK = 1
    CHOICE = 2
    BACK = 3
    ROLL = 4


class Press(IntEnum):
    """A BUTTON message's ``press``: DOWN when the switch closes (its first edge), then one of
    LONG (still held 600 ms after DOWN) or SHORT (released before that)."""

    DOWN = 0
    LONG = 1
    SHORT = 2


class ErrorCode(IntEnum):
    """ERROR codes the Pico sends."""

    FRAME_CRC = 1
    BAD_CHUNK = 2
    QUEUE_FULL = 3
    BAD_ROLL = 4


# (smallest, largest) payload per TYPE.
PAYLOAD_SIZES: dict[int, tuple[int, int]] = {
    MsgType.HELLO: (1, 1),
    MsgType.FRAME_CHUNK: (5, 4 + MAX_CHUNK),
    MsgType.FRAME_SHOW: (6, 6),
    MsgType.ROLL_REQUEST: (3, 3),
    MsgType.HOST_HEARTBEAT: (0, 0),
    MsgType.HOST_ACK: (1, 1),
    MsgType.FRAME_ARM: (9, 9),
    MsgType.IDENT: (4, 3 + MAX_FIRMWARE_NAME),
    MsgType.BUTTON: (4, 4),
    MsgType.ROLL_RESULT: (6, 6),
    MsgType.PICO_HEARTBEAT: (4, 4),
    MsgType.PICO_ACK: (1, 1),
    MsgType.ERROR: (1, 1),
}
HOST_TO_PICO = frozenset(t for t in PAYLOAD_SIZES if t < 0x80)
PICO_TO_HOST = frozenset(t for t in PAYLOAD_SIZES if t >= 0x80)
RELIABLE = frozenset(
    {MsgType.FRAME_CHUNK, MsgType.FRAME_SHOW, MsgType.FRAME_ARM, MsgType.ROLL_REQUEST,
     MsgType.BUTTON, MsgType.ROLL_RESULT}
)


def wire_id(number: int) -> int:
    """A screen or roll number on the wire: they grow without end, the wire holds 1..65535."""
    return (number - 1) % 0xFFFF + 1


def crc32(data: bytes | bytearray) -> int:
    """CRC-32 (ISO-HDLC), as the protocol uses it for blocks and whole frames."""
    return zlib.crc32(data) & 0xFFFFFFFF


def _same(self: tuple[object, ...], other: object) -> bool:
    """A named tuple of the protocol's equals only one of its own class, as a dataclass does
    (a plain named tuple would equal any tuple of the same values)."""
    return other.__class__ is self.__class__ and tuple.__eq__(self, other)  # type: ignore[arg-type]


def _not_same(self: tuple[object, ...], other: object) -> bool:
    return not _same(self, other)


class Block(NamedTuple):
    """One framed block: its sequence number, TYPE and raw payload. A named tuple (immutable),
    not a frozen dataclass: the link makes one for every block the Pico sends, and a frozen
    dataclass sets each field through ``object.__setattr__``."""

    seq: int
    type: int
    payload: bytes
    __eq__ = _same  # type: ignore[assignment]
    __ne__ = _not_same  # type: ignore[assignment]
    __hash__ = tuple.__hash__  # type: ignore[assignment]


_SYNC_BYTE = bytes((SYNC,))
_pack_crc = struct.Struct("<I").pack
_unpack_crc = struct.Struct("<I").unpack_from
_pack_head = struct.Struct("<BBB").pack  # LEN, SEQ, TYPE
_pack_place = struct.Struct("<HH").pack  # a chunk's screen_id and offset
_pack_chunk_head = struct.Struct("<BBBHH").pack  # a chunk's LEN, SEQ, TYPE, screen_id, offset
_crc32 = zlib.crc32
_FRAME_CHUNK = int(MsgType.FRAME_CHUNK)
# A named tuple made in a hot path as the tuple it is (its own ``__new__`` is a Python call,
# seven times the cost): ``_new(Block, (seq, type, payload))``.
_new = tuple.__new__


def encode_block(seq: int, msg_type: int, payload: bytes) -> bytes:
    """The bytes of one block; raises ValueError for a payload over 96 bytes or a bad field."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"payload of {len(payload)} bytes; the protocol allows {MAX_PAYLOAD}")
    if not 0 <= seq <= 255 or not 0 <= msg_type <= 255:
        raise ValueError(f"SEQ {seq} and TYPE {msg_type} must each fit in a byte")
    body = _pack_head(len(payload), seq, msg_type) + payload
    return _SYNC_BYTE + body + _pack_crc(zlib.crc32(body))  # (zlib's CRC-32 is unsigned)


# The Pico's ACK of each SEQ, the one block most of the host's reads hold (the Pico acknowledges
# each read of its own), and the block the decoder makes of it.
_PICO_ACK_READS = {
    encode_block(0, MsgType.PICO_ACK, bytes((seq,))):
        _new(Block, (0, int(MsgType.PICO_ACK), bytes((seq,)))) for seq in range(256)
}


@dataclass
class DecoderStats:
    """What a decoder threw away, by reason."""

    blocks: int = 0
    discarded_bytes: int = 0  # bytes before a SYNC, or dropped SYNC bytes
    bad_length: int = 0
    bad_crc: int = 0
    unknown_type: int = 0
    bad_size: int = 0


@dataclass
class Decoder:
    """A streaming block decoder with resync; ``feed`` never raises and holds <= 208 bytes.

    ``accept`` is the set of TYPEs this end understands (``PICO_TO_HOST`` on the host); blocks
    of other TYPEs, or with a payload size wrong for their TYPE, are dropped and counted.
    """

    accept: frozenset[int] = PICO_TO_HOST
    stats: DecoderStats = field(default_factory=DecoderStats)
    _buf: bytearray = field(default_factory=bytearray)
    # Reads that were one good unreliable block, and that block: most of the host's reads are
    # one ACK or heartbeat of the Pico's, and those come again byte for byte.
    _known: dict[bytes, Block] = field(default_factory=dict, repr=False, compare=False)
    # PAYLOAD_SIZES of the TYPEs accepted; the reads known from the start (the Pico's ACKs)
    _sizes: dict[int, tuple[int, int]] = field(init=False, repr=False, compare=False)
    _preset: dict[bytes, Block] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._sizes = {kind: PAYLOAD_SIZES[kind] for kind in self.accept if kind in PAYLOAD_SIZES}
        self._preset = _PICO_ACK_READS if MsgType.PICO_ACK in self.accept else {}
        self._known.update(self._preset)

    @property
    def buffered(self) -> int:
        """Bytes held, waiting for the rest of a block."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[Block]:
        """Take any bytes; return the good blocks completed by them, in order."""
        out: list[Block] = []
        if not self._buf and data and len(data) <= DECODER_LIMIT:
            known = self._known.get(data) if data.__class__ is bytes else None
            if known is not None:  # (decoding is a function of the bytes, nothing held)
                self.stats.blocks += 1
                return [known]
            # most reads: whole blocks and nothing held, parsed where they are (what is left
            # of a block cut by the read is kept)
            rest = self._parse_from(data, out)
            if rest < len(data):
                self._buf += data[rest:]
                self._parse(out)
            elif len(out) == 1 and out[0].type not in RELIABLE \
                    and len(data) == HEADER_SIZE + CRC_SIZE + len(out[0].payload) \
                    and data.__class__ is bytes:
                known = self._known  # (that block alone: nothing else was counted)
                if len(known) >= KNOWN_READS:
                    known.clear()
                    known.update(self._preset)
                known[data] = out[0]
            return out
        if len(data) <= DECODER_LIMIT - len(self._buf):  # a few blocks, all taken
            if data:
                self._buf += data
                self._parse(out)
            return out
        view = memoryview(bytes(data))
        while view:
            room = DECODER_LIMIT - len(self._buf)
            self._buf += view[:room]
            view = view[room:]
            self._parse(out)
        return out

    def _parse(self, out: list[Block]) -> None:
        buf = self._buf
        while True:
            start = buf.find(SYNC)
            if start < 0:
                self.stats.discarded_bytes += len(buf)
                buf.clear()
                return
            if start:
                self.stats.discarded_bytes += start
                del buf[:start]
            if len(buf) < 2:
                return
            length = buf[1]
            if length > MAX_PAYLOAD:
                self.stats.bad_length += 1
                self._drop_sync()
                continue
            total = HEADER_SIZE + length + CRC_SIZE
            if len(buf) < total:
                return
            end = HEADER_SIZE + length
            if zlib.crc32(buf[1:end]) != _unpack_crc(buf, end)[0]:
                self.stats.bad_crc += 1
                self._drop_sync()
                continue
            block = _new(Block, (buf[2], buf[3], bytes(buf[HEADER_SIZE:end])))
            del buf[:total]
            if block.type not in self.accept:
                self.stats.unknown_type += 1
                continue
            low, high = PAYLOAD_SIZES[block.type]
            if not low <= length <= high:
                self.stats.bad_size += 1
            else:
                self.stats.blocks += 1
                out.append(block)

    def _parse_from(self, data: bytes, out: list[Block]) -> int:
        """``_parse`` over ``data`` in place while it holds whole good blocks from its start:
        where the rest begins (``len(data)``: nothing is left for ``_parse``)."""
        at, size, stats, sizes_of = 0, len(data), self.stats, self._sizes
        while size - at >= HEADER_SIZE + CRC_SIZE and data[at] == SYNC:
            length = data[at + 1]
            end = at + HEADER_SIZE + length
            if length > MAX_PAYLOAD or end + CRC_SIZE > size \
                    or _crc32(data[at + 1:end]) != _unpack_crc(data, end)[0]:
                break  # (``_parse`` counts it, resynchronises or waits for the rest)
            kind = data[at + 3]
            sizes = sizes_of.get(kind)
            if sizes is None:
                stats.unknown_type += 1
            elif not sizes[0] <= length <= sizes[1]:
                stats.bad_size += 1
            else:
                stats.blocks += 1
                out.append(_new(Block, (data[at + 2], kind, data[at + HEADER_SIZE:end])))
            at = end + CRC_SIZE
        return at

    def _drop_sync(self) -> None:
        self.stats.discarded_bytes += 1
        del self._buf[:1]


# Typed messages. ``payload()`` gives the wire payload, ``decode_message`` the reverse.


@dataclass(frozen=True)
class Hello:
    protocol: int = PROTOCOL_VERSION
    type = MsgType.HELLO

    def payload(self) -> bytes:
        return bytes((self.protocol,))


class FrameChunk(NamedTuple):
    """A named tuple, as ``Block``: a dozen are made for a changed screen."""

    screen_id: int
    offset: int
    data: bytes
    type = MsgType.FRAME_CHUNK
    __eq__ = _same  # type: ignore[assignment]
    __ne__ = _not_same  # type: ignore[assignment]
    __hash__ = tuple.__hash__  # type: ignore[assignment]

    def payload(self) -> bytes:
        return _pack_place(self.screen_id, self.offset) + self.data


class FrameChunks:
    """The FRAME_CHUNKs of one screen, cut from the runs where its image changed (each run in
    chunks of ``size`` bytes; ``frames.changed_runs``): one item in the link's queue, not one
    message a chunk. ``encode`` makes their blocks straight from the image into bytes, as many
    as the window has room for; the rest stay. Iterating gives the FrameChunk messages left."""

    __slots__ = ("screen_id", "image", "runs", "size")
    type = MsgType.FRAME_CHUNK

    def __init__(self, screen_id: int, image: bytes, runs: list[tuple[int, int]],
                 size: int = MAX_CHUNK) -> None:
        if not 1 <= size <= MAX_CHUNK:
            raise ValueError(f"a chunk holds 1 to {MAX_CHUNK} bytes, not {size}")
        self.screen_id, self.image, self.runs, self.size = screen_id, image, runs, size

    def __iter__(self) -> Iterator[FrameChunk]:
        image, size = self.image, self.size
        for start, end in self.runs:
            for offset in range(start, end, size):
                yield FrameChunk(self.screen_id, offset, image[offset : min(offset + size, end)])

    def encode(self, seq: int, room: int, out: list[bytes]) -> int:
        """The blocks of up to ``room`` chunks, the first first, numbered on after ``seq``,
        appended to ``out`` (those are taken: ``runs`` keeps the rest); the last SEQ given."""
        runs, size, image, wire = self.runs, self.size, self.image, self.screen_id
        for index, (start, end) in enumerate(runs):
            for offset in range(start, end, size):
                if not room:
                    runs[: index + 1] = [(offset, end)]
                    return seq
                room -= 1
                seq = 1 if seq >= 255 else seq + 1  # (reliable.next_seq, inline)
                stop = offset + size
                data = image[offset : stop if stop < end else end]
                body = _pack_chunk_head(len(data) + 4, seq, _FRAME_CHUNK, wire, offset) + data
                out.append(_SYNC_BYTE + body + _pack_crc(_crc32(body)))
        runs.clear()
        return seq


class FrameShow(NamedTuple):
    screen_id: int
    crc: int
    type = MsgType.FRAME_SHOW
    __eq__ = _same  # type: ignore[assignment]
    __ne__ = _not_same  # type: ignore[assignment]
    __hash__ = tuple.__hash__  # type: ignore[assignment]

    def payload(self) -> bytes:
        return struct.pack("<HI", self.screen_id, self.crc)


class FrameArm(NamedTuple):
    """The image of ``screen_id`` (its CRC ``crc``) to show when ``button`` goes DOWN while
    host screen ``after`` is on the glass."""

    screen_id: int
    crc: int
    button: int
    after: int
    type = MsgType.FRAME_ARM
    __eq__ = _same  # type: ignore[assignment]
    __ne__ = _not_same  # type: ignore[assignment]
    __hash__ = tuple.__hash__  # type: ignore[assignment]

    def payload(self) -> bytes:
        return struct.pack("<HIBH", self.screen_id, self.crc, self.button, self.after)


@dataclass(frozen=True)
class RollRequest:
    roll_id: int
    die: int
    type = MsgType.ROLL_REQUEST

    def payload(self) -> bytes:
        return struct.pack("<HB", self.roll_id, self.die)


@dataclass(frozen=True)
class HostHeartbeat:
    type = MsgType.HOST_HEARTBEAT

    def payload(self) -> bytes:
        return b""


@dataclass(frozen=True)
class HostAck:
    seq: int
    type = MsgType.HOST_ACK

    def payload(self) -> bytes:
        return bytes((self.seq,))


@dataclass(frozen=True)
class Ident:
    protocol: int
    boot_id: int
    firmware: str
    type = MsgType.IDENT

    def payload(self) -> bytes:
        return struct.pack("<BH", self.protocol, self.boot_id) + self.firmware.encode("ascii")


class ButtonEvent(NamedTuple):
    """A named tuple, as ``Block``: two or three come at every press."""

    event_id: int
    button: int
    press: int  # a Press; the decoder keeps whatever number came, PicoLink checks it
    type = MsgType.BUTTON
    __eq__ = _same  # type: ignore[assignment]
    __ne__ = _not_same  # type: ignore[assignment]
    __hash__ = tuple.__hash__  # type: ignore[assignment]

    def payload(self) -> bytes:
        return struct.pack("<HBB", self.event_id, self.button, self.press)


@dataclass(frozen=True)
class RollResult:
    event_id: int
    roll_id: int
    die: int
    face: int
    type = MsgType.ROLL_RESULT

    def payload(self) -> bytes:
        return struct.pack("<HHBB", self.event_id, self.roll_id, self.die, self.face)


class PicoHeartbeat(NamedTuple):
    """A named tuple, as ``Block``: one comes every 250 ms."""

    boot_id: int
    screen_id: int
    type = MsgType.PICO_HEARTBEAT
    __eq__ = _same  # type: ignore[assignment]
    __ne__ = _not_same  # type: ignore[assignment]
    __hash__ = tuple.__hash__  # type: ignore[assignment]

    def payload(self) -> bytes:
        return struct.pack("<HH", self.boot_id, self.screen_id)


@dataclass(frozen=True)
class PicoAck:
    seq: int
    type = MsgType.PICO_ACK

    def payload(self) -> bytes:
        return bytes((self.seq,))


@dataclass(frozen=True)
class Error:
    code: int
    type = MsgType.ERROR

    def payload(self) -> bytes:
        return bytes((self.code,))


Message = (
    Hello | FrameChunk | FrameShow | FrameArm | RollRequest | HostHeartbeat | HostAck | Ident
    | ButtonEvent | RollResult | PicoHeartbeat | PicoAck | Error
)
Sendable = Message | FrameChunks  # what the host's window takes: a message, or a screen's chunks


def encode(message: Message, seq: int = 0) -> bytes:
    """The block carrying ``message``; ``seq`` is 0 for unreliable messages (``encode_block``
    inline: a dozen blocks go out for a changed screen, and the call is a fifth of each)."""
    payload = message.payload()
    if len(payload) > MAX_PAYLOAD or not 0 <= seq <= 255:
        return encode_block(seq, message.type, payload)  # (raises, saying why)
    body = _pack_head(len(payload), seq, message.type) + payload
    return _SYNC_BYTE + body + _pack_crc(zlib.crc32(body))


# The host's ACK of each SEQ, made once: one goes out for every BUTTON or ROLL_RESULT block.
HOST_ACKS = tuple(encode(HostAck(seq)) for seq in range(256))
HOST_HEARTBEAT = encode(HostHeartbeat())  # made once: one goes out every 250 ms


_unpack_heartbeat = struct.Struct("<HH").unpack
_unpack_button = struct.Struct("<HBB").unpack
# The TYPEs the host decodes at every press, as plain ints (no enum lookup per comparison).
_PICO_ACK, _PICO_HEARTBEAT, _BUTTON = int(MsgType.PICO_ACK), int(MsgType.PICO_HEARTBEAT), \
    int(MsgType.BUTTON)


def decode_message(block: Block) -> Message:
    """The typed message of a block the decoder yielded (its TYPE and size are known good).
    The Pico's messages are looked at first: the host decodes them at every press."""
    p = block.payload
    t = block.type
    if t == _PICO_ACK:
        return PicoAck(p[0])
    if t == _PICO_HEARTBEAT:
        return _new(PicoHeartbeat, _unpack_heartbeat(p))
    if t == _BUTTON:
        return _new(ButtonEvent, _unpack_button(p))
    if t == MsgType.ROLL_RESULT:
        return RollResult(*struct.unpack("<HHBB", p))
    if t == MsgType.IDENT:
        protocol, boot_id = struct.unpack_from("<BH", p)
        return Ident(protocol, boot_id, p[3:].decode("ascii", errors="replace"))
    if t == MsgType.ERROR:
        return Error(p[0])
    if t == MsgType.HELLO:
        return Hello(p[0])
    if t == MsgType.FRAME_CHUNK:
        screen_id, offset = struct.unpack_from("<HH", p)
        return FrameChunk(screen_id, offset, p[4:])
    if t == MsgType.FRAME_SHOW:
        return FrameShow(*struct.unpack("<HI", p))
    if t == MsgType.FRAME_ARM:
        return FrameArm(*struct.unpack("<HIBH", p))
    if t == MsgType.ROLL_REQUEST:
        return RollRequest(*struct.unpack("<HB", p))
    if t == MsgType.HOST_HEARTBEAT:
        return HostHeartbeat()
    if t == MsgType.HOST_ACK:
        return HostAck(p[0])
    raise ValueError(f"unknown message TYPE 0x{t:02x}")
