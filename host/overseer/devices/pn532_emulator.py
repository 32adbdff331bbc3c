"""A PN532 NFC reader with NTAG215 stickers, emulated byte for byte on its serial line (HSU).

The host side is the real driver library (nfcpy); this is the far end of its serial port:

- ``Pn532`` takes the bytes the host writes (``feed``) and gives back the bytes the chip would
  send: ACK frames, normal and extended information frames, error frames. It answers the
  commands nfcpy sends (Diagnose, GetFirmwareVersion, SetParameters, SAMConfiguration,
  RFConfiguration, ReadRegister, WriteRegister, InListPassiveTarget, InCommunicateThru,
  InDataExchange, InDeselect, InRelease, SetSerialBaudrate, PowerDown) and keeps the CIU
  registers the driver reads back (the receive CRC switch, the FIFO's first byte).
- ``Ntag215`` is one sticker: 135 pages of 4 bytes, READ (16 bytes, rolling over), WRITE
  (ACK 0x0A, NAK for a read-only page), GET_VERSION, and NAK-then-mute for any other command,
  as the chip does. With the reader's receive CRC off (nfcpy turns it off for Type 2 tags) the
  answers carry their CRC_A and the 4-bit ACK/NAK arrive as one byte.
- ``PtyPn532`` serves a ``Pn532`` on a pty pair in a thread (``path`` is the serial port to
  give the library); ``LoopSerial`` is an in-process serial port object and ``LoopTTY`` the
  library's own TTY transport on it.

Faults for the tests: ``remove_after_reads`` (the tag leaves mid-read), ``fail_reads`` (READ
commands the tag does not answer), ``garble`` (the next response frames get a bad checksum;
``garble_code``: the next answer to one command),
``silent`` (the chip answers nothing at all), ``drop`` (the next host frames go unanswered: a
reader that misses a beat, then answers again).
"""

from __future__ import annotations

import os
import select
import threading
import tty
from collections import deque

from nfc.clf.transport import TTY

ACK = bytes.fromhex("0000ff00ff00")
NACK = bytes.fromhex("0000ffff0000")
FIRMWARE = bytes([0x32, 0x01, 0x06, 0x07])  # PN532, firmware 1.6, supports ISO A, B, 18092

# CIU registers the driver reads or writes (address -> power-on value)
RX_MODE = 0x6303
TX_MODE = 0x6302
FIFO_DATA = 0x6339
CRC_ON = 0x80
REGISTERS = {TX_MODE: 0x80, RX_MODE: 0x80, 0x6305: 0x00, 0x6304: 0x80, FIFO_DATA: 0x00}

NTAG215_VERSION = bytes.fromhex("0004040201001103")
NTAG215_PAGES = 135  # 0-134: UID and lock (0-2), CC (3), user (4-129), lock and config (130-134)
ACK_4BIT, NAK_4BIT = 0x0A, 0x00
COMMANDS_KEPT = 4096


def crc_a(data: bytes) -> bytes:
    """ISO/IEC 14443-3 type A CRC, low byte first."""
    crc = 0x6363
    for byte in data:
        byte ^= crc & 0xFF
        byte = (byte ^ (byte << 4)) & 0xFF
        crc = ((crc >> 8) ^ (byte << 8) ^ (byte << 3) ^ (byte >> 4)) & 0xFFFF
    return bytes([crc & 0xFF, crc >> 8])


class Ntag215:
    """One NTAG215 sticker as it leaves the factory: an empty NDEF message, nothing locked."""

    def __init__(self, uid: bytes) -> None:
        if len(uid) != 7 or uid[0] != 0x04:
            raise ValueError("an NTAG215 has a 7-byte UID from NXP (first byte 04)")
        self.uid = bytes(uid)
        bcc0 = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        bcc1 = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        memory = bytearray(NTAG215_PAGES * 4)
        memory[0:12] = bytes([*uid[0:3], bcc0, *uid[3:7], bcc1, 0x48, 0x00, 0x00])
        memory[12:16] = bytes([0xE1, 0x10, 0x3E, 0x00])  # CC: NDEF 1.0, 496 bytes, read/write
        memory[16:20] = bytes([0x03, 0x00, 0xFE, 0x00])  # an empty NDEF message TLV
        memory[130 * 4:135 * 4] = bytes.fromhex("000000bd 040000ff 00050000 ffffffff 00000000")
        self.memory = memory
        self.active = False  # selected by the reader (else it answers nothing)
        self.reads = 0  # READ commands answered
        self.writes = 0

    def page(self, number: int) -> bytes:
        return bytes(self.memory[number * 4:number * 4 + 4])

    def command(self, data: bytes) -> bytes | int | None:
        """The tag's answer to one command: bytes, a 4-bit ACK/NAK (int), or None (silence)."""
        if not self.active or not data:
            return None
        code = data[0]
        if code == 0x30 and len(data) == 2:
            return self._read(data[1])
        if code == 0xA2 and len(data) == 6:
            return self._write(data[1], data[2:6])
        if code == 0x60 and len(data) == 1:
            return NTAG215_VERSION
        if code == 0x3C and len(data) == 2:  # READ_SIG: an all-zero signature
            return bytes(32)
        self.active = False  # an unknown command: NAK, then the tag goes back to idle
        return NAK_4BIT

    def _read(self, page: int) -> bytes | int:
        if page >= NTAG215_PAGES:
            self.active = False
            return NAK_4BIT
        self.reads += 1
        return bytes(self.memory[((page + i) % NTAG215_PAGES) * 4 + j]
                     for i in range(4) for j in range(4))

    def _write(self, page: int, data: bytes) -> int:
        if page < 2 or page >= NTAG215_PAGES:
            self.active = False
            return NAK_4BIT
        start = page * 4
        if page == 3:  # the capability container is one-time programmable: bits only set
            data = bytes(a | b for a, b in zip(self.memory[start:start + 4], data, strict=True))
        self.memory[start:start + 4] = data
        self.writes += 1
        return ACK_4BIT


class Pn532:
    """The chip: bytes in (``feed``), bytes out (returned), one command at a time."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self.registers = dict(REGISTERS)
        self.field = False
        self.tag: Ntag215 | None = None  # the tag on the reader, if any
        self._selected: Ntag215 | None = None
        self._listed_nothing = True
        self._last = b""  # the last response frame (sent again on a NACK)
        # the last command codes received, in order (bounded: the simulator's reader polls
        # for hours)
        self.commands: deque[int] = deque(maxlen=COMMANDS_KEPT)
        self.looks = 0  # InListPassiveTarget commands received: the reader looking for a tag
        self.extended = 0  # extended frames received (and answered in kind)
        # faults
        self.silent = False
        self.drop = 0
        self.garble = 0
        self.garble_code: int | None = None  # garble the next answer to this command only
        self.fail_reads = 0
        self.remove_after_reads: int | None = None

    # ----------------------------------------------------------------------- the field

    def place(self, tag: Ntag215) -> None:
        """Put ``tag`` on the reader (taking any other away)."""
        self.remove()
        self.tag = tag

    def remove(self) -> None:
        if self.tag is not None:
            self.tag.active = False
        self.tag = None
        self._selected = None

    # ----------------------------------------------------------------------- framing

    def feed(self, data: bytes) -> bytes:
        """The chip's answer to ``data`` (any part of a stream of host frames)."""
        self._buffer += data
        out = bytearray()
        while True:
            frame = self._next_frame()
            if frame is None:
                break
            if self.silent:
                continue
            if self.drop:
                self.drop -= 1
                continue
            out += self._answer(frame)
        return bytes(out)

    def _next_frame(self) -> bytes | None:
        """The next complete frame's content: b"ACK", b"NACK", b"BAD" or TFI + data."""
        buf = self._buffer
        start = buf.find(b"\x00\xff")
        if start < 0:
            del buf[:max(0, len(buf) - 1)]
            return None
        del buf[:start]
        if len(buf) < 4:
            return None
        if buf[2:4] == b"\x00\xff":
            del buf[:4]
            return b"ACK"
        if buf[2:4] == b"\xff\x00":
            del buf[:4]
            return b"NACK"
        if buf[2:4] == b"\xff\xff":  # extended frame: LENM LENL LCS
            if len(buf) < 7:
                return None
            length = buf[4] << 8 | buf[5]
            head, checksum = 7, (buf[4] + buf[5] + buf[6]) & 0xFF
        else:
            length, head, checksum = buf[2], 4, (buf[2] + buf[3]) & 0xFF
        if checksum != 0:
            del buf[:2]
            return b"BAD"
        if len(buf) < head + length + 1:
            return None
        body = bytes(buf[head:head + length])
        dcs = buf[head + length]
        self.extended += head == 7
        del buf[:head + length + 1]
        if (sum(body) + dcs) & 0xFF != 0 or not body or body[0] != 0xD4:
            return b"BAD"
        return body

    def _answer(self, frame: bytes) -> bytes:
        if frame == b"ACK":  # the host cancels the command in progress: nothing to send
            return b""
        if frame == b"NACK":
            return self._last
        if frame == b"BAD":  # an application level error frame (syntax error)
            return frame_of(b"\x7f")
        code, params = frame[1], frame[2:]
        self.commands.append(code)
        data = self._command(code, params)
        if data is None:
            return ACK + frame_of(b"\x7f")
        response = frame_of(bytes([0xD5, code + 1]) + data)
        if self.garble or self.garble_code == code:
            self.garble = max(0, self.garble - 1)
            if self.garble_code == code:
                self.garble_code = None
            response = response[:-2] + bytes([response[-2] ^ 0x5A]) + response[-1:]
        self._last = response
        return ACK + response

    # ----------------------------------------------------------------------- commands

    def _command(self, code: int, params: bytes) -> bytes | None:
        handler = COMMANDS.get(code)
        return None if handler is None else handler(self, params)

    def _diagnose(self, params: bytes) -> bytes:
        return params if params[:1] == b"\x00" else b"\x00"  # line test echoes; others pass

    def _rf_configuration(self, params: bytes) -> bytes:
        if params[:1] == b"\x01":  # RF field on or off
            self.field = bool(params[1] & 0x01) if len(params) > 1 else False
            if not self.field:
                self._field_off()
        return b""

    def _field_off(self) -> None:
        if self.tag is not None:
            self.tag.active = False
        self._selected = None

    def _read_register(self, params: bytes) -> bytes:
        values = bytearray()
        for i in range(0, len(params) - 1, 2):
            address = params[i] << 8 | params[i + 1]
            if address == FIFO_DATA:  # SENS_REQ (26h) stays in the FIFO when nothing answered
                values.append(0x26 if self._listed_nothing else 0x00)
            else:
                values.append(self.registers.get(address, 0x00))
        return bytes(values)

    def _write_register(self, params: bytes) -> bytes:
        for i in range(0, len(params) - 2, 3):
            self.registers[params[i] << 8 | params[i + 1]] = params[i + 2]
        return b""

    def _in_list_passive_target(self, params: bytes) -> bytes:
        self.field = True
        self.looks += 1
        brty, wanted = params[1], params[2:]
        tag = self.tag
        if brty != 0 or tag is None or (wanted and _plain_uid(wanted) != tag.uid):
            self._listed_nothing = True
            return b"\x00"
        tag.active = True
        self._selected = tag
        self._listed_nothing = False
        # NbTg, Tg, SENS_RES (ATQA 0044h, as the chip reports it), SEL_RES, NFCID length, NFCID
        return bytes([1, 1, 0x00, 0x44, 0x00, len(tag.uid)]) + tag.uid

    def _exchange(self, data: bytes) -> bytes | int | None:
        """Send ``data`` to the selected tag: its answer (with the faults applied)."""
        tag = self._selected
        if tag is None or self.tag is not tag:
            return None
        if data[:1] == b"\x30":
            if self.remove_after_reads is not None and tag.reads >= self.remove_after_reads:
                self.remove_after_reads = None
                self.remove()
                return None
            if self.fail_reads:
                self.fail_reads -= 1
                return None
        return tag.command(data)

    def _in_communicate_thru(self, params: bytes) -> bytes:
        if not self.registers[TX_MODE] & CRC_ON:  # the host sent its own CRC
            if len(params) < 3 or crc_a(params[:-2]) != params[-2:]:
                return b"\x02"
            params = params[:-2]
        answer = self._exchange(params)
        if answer is None:
            return b"\x01"  # time out: the target has not answered
        if isinstance(answer, int):  # a 4-bit ACK or NAK: no CRC to check
            return b"\x00" + bytes([answer]) if not self.registers[RX_MODE] & CRC_ON else b"\x02"
        if self.registers[RX_MODE] & CRC_ON:
            return b"\x00" + answer
        return b"\x00" + answer + crc_a(answer)

    def _in_data_exchange(self, params: bytes) -> bytes:
        if params[:1] != b"\x01":
            return b"\x27"  # no such target
        answer = self._exchange(params[1:])
        if answer is None:
            return b"\x01"
        if isinstance(answer, int):
            return b"\x00" if answer == ACK_4BIT else b"\x14"
        return b"\x00" + answer

    def _in_deselect(self, params: bytes) -> bytes:
        if self._selected is not None:
            self._selected.active = False
        self._selected = None
        return b"\x00"

    def _power_down(self, params: bytes) -> bytes:
        self._field_off()
        return b"\x00"


def _plain_uid(initiator: bytes) -> bytes:
    """The UID in InListPassiveTarget's initiator data, without its cascade tags (88h)."""
    if len(initiator) == 8 and initiator[0] == 0x88:
        return initiator[1:]
    if len(initiator) == 12 and initiator[0] == 0x88 and initiator[4] == 0x88:
        return initiator[1:4] + initiator[5:]
    return initiator


COMMANDS = {
    0x00: Pn532._diagnose,
    0x02: lambda chip, params: FIRMWARE,
    0x04: lambda chip, params: bytes([0x00, int(chip.field), 0x00, 0x80]),
    0x06: Pn532._read_register,
    0x08: Pn532._write_register,
    0x10: lambda chip, params: b"",  # SetSerialBaudrate (a pty has no baud rate)
    0x12: lambda chip, params: b"",  # SetParameters
    0x14: lambda chip, params: b"",  # SAMConfiguration
    0x16: Pn532._power_down,
    0x32: Pn532._rf_configuration,
    0x40: Pn532._in_data_exchange,
    0x42: Pn532._in_communicate_thru,
    0x44: Pn532._in_deselect,
    0x4A: Pn532._in_list_passive_target,
    0x52: Pn532._in_deselect,  # InRelease
}


def frame_of(data: bytes) -> bytes:
    """An information frame around ``data`` (TFI first): normal, or extended past 255 bytes."""
    if len(data) < 256:
        head = bytes([0x00, 0x00, 0xFF, len(data), (0x100 - len(data)) & 0xFF])
    else:
        high, low = len(data) >> 8, len(data) & 0xFF
        head = bytes([0x00, 0x00, 0xFF, 0xFF, 0xFF, high, low, (0x100 - high - low) & 0xFF])
    return head + data + bytes([(0x100 - sum(data)) & 0xFF, 0x00])


# --------------------------------------------------------------------------- on a serial line


class PtyPn532:
    """A ``Pn532`` at the far end of a pty: give ``path`` to the library as its serial port."""

    def __init__(self, chip: Pn532 | None = None) -> None:
        self.chip = chip or Pn532()
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # raw before the host opens it: no echo, no line editing
        self.path = os.ttyname(self._slave)
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, name="pn532-emulator", daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.05)
            if not ready:
                continue
            try:
                data = os.read(self._master, 4096)
            except OSError:
                return
            with self.lock:
                out = self.chip.feed(data)
            if out:
                os.write(self._master, out)

    def __enter__(self) -> PtyPn532:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        for fd in (self._master, self._slave):
            os.close(fd)


class LoopSerial:
    """An in-process serial port wired to a ``Pn532``: what pyserial's ``Serial`` gives the
    library's TTY transport (read, write, timeout, baudrate, flush, close)."""

    def __init__(self, chip: Pn532, port: str = "pn532-emulator", baudrate: int = 115200,
                 timeout: float | None = None) -> None:
        self.chip, self.port, self.baudrate, self.timeout = chip, port, baudrate, timeout
        self._out: deque[int] = deque()
        self._ready = threading.Condition()
        self.is_open = True

    def write(self, data: bytes) -> int:
        answer = self.chip.feed(bytes(data))
        with self._ready:
            self._out.extend(answer)
            self._ready.notify_all()
        return len(data)

    def read(self, size: int = 1) -> bytes:
        with self._ready:
            self._ready.wait_for(lambda: len(self._out) >= size, timeout=self.timeout)
            count = min(size, len(self._out))
            return bytes(self._out.popleft() for _ in range(count))

    def flushInput(self) -> None:  # noqa: N802 (pyserial's name, called by the library)
        with self._ready:
            self._out.clear()

    def flushOutput(self) -> None:  # noqa: N802
        pass

    def close(self) -> None:
        self.is_open = False


class LoopTTY(TTY):
    """nfcpy's own TTY transport over a ``LoopSerial``: the library's framing code runs as on a
    real port; only the port object is in-process."""

    def __init__(self, chip: Pn532) -> None:
        self.chip = chip
        super().__init__("pn532-emulator")

    def open(self, port: str, baudrate: int = 115200) -> None:
        self.close()
        self.tty = LoopSerial(self.chip, port, baudrate, timeout=0.05)
