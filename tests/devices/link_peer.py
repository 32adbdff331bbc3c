"""A scripted far end for PicoLink's protocol tests: a pty whose master speaks the codec.

The real firmware is tested against PicoLink in tests/e2e; this peer exists to produce the
cases a healthy firmware never does on cue (a lost ACK, a repeated event, a gap, a new boot id,
another protocol version). It answers HELLO with IDENT, accepts reliable messages in order and
acknowledges them (unless ``acking`` is off), sends heartbeats every 250 ms (unless
``heartbeats`` is off), answers roll requests with an ERROR when ``refuse_rolls`` names its code,
and records everything it received.
"""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Callable

from overseer.devices import protocol as p


class ScriptedPico:
    def __init__(self, boot_id: int = 0xB007, protocol: int = p.PROTOCOL_VERSION) -> None:
        self.boot_id = boot_id
        self.protocol = protocol
        self.acking = True
        self.lose_once: set[int] = set()  # SEQs to treat as lost the first time they come
        self.heartbeats = True
        self.refuse_rolls: int | None = None  # an ERROR code to answer ROLL_REQUESTs with
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.port = os.ttyname(self.slave)
        self.received: list[tuple[int, p.Message]] = []
        self.accepted: list[p.Message] = []
        self.rx_seq = 0
        self.tx_seq = 0
        self.back = bytearray(p.FRAME_SIZE)
        self.back_id = -1
        self.shown = bytes(p.FRAME_SIZE)
        self._cond = threading.Condition()
        self._decoder = p.Decoder(p.HOST_TO_PICO)
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop listening, take in what is still buffered, and release the pty."""
        self._stop = True
        self._thread.join(timeout=2)
        os.set_blocking(self.master, False)
        try:
            self._take(os.read(self.master, 65536))
        except OSError:
            pass
        for fd in (self.master, self.slave):
            try:
                os.close(fd)
            except OSError:
                pass

    def send(self, message: p.Message, seq: int = 0) -> None:
        os.write(self.master, p.encode(message, seq))

    def send_reliable(self, message: p.Message) -> int:
        self.tx_seq = 1 if self.tx_seq >= 255 else self.tx_seq + 1
        self.send(message, self.tx_seq)
        return self.tx_seq

    def wait(self, test: Callable[[], bool], timeout: float = 3.0) -> bool:
        with self._cond:
            return self._cond.wait_for(test, timeout)

    def of_type(self, kind: type) -> list[tuple[int, p.Message]]:
        with self._cond:
            return [(seq, m) for seq, m in self.received if isinstance(m, kind)]

    def _run(self) -> None:
        beat_at = 0.0
        while not self._stop:
            if self.heartbeats and time.monotonic() >= beat_at:
                self.send(p.PicoHeartbeat(self.boot_id, 0))
                beat_at = time.monotonic() + 0.25
            ready, _, _ = select.select([self.master], [], [], 0.01)
            if not ready:
                continue
            self._take(os.read(self.master, 4096))

    def _take(self, data: bytes) -> None:
        for block in self._decoder.feed(data):
            message = p.decode_message(block)
            with self._cond:
                self.received.append((block.seq, message))
                self._react(block.seq, message)
                self._cond.notify_all()

    def _react(self, seq: int, message: p.Message) -> None:
        if isinstance(message, p.Hello):
            self.rx_seq = self.tx_seq = 0
            self.send(p.Ident(self.protocol, self.boot_id, "scripted 1"))
        elif message.type in p.RELIABLE:
            if seq in self.lose_once:
                self.lose_once.discard(seq)
                return
            if seq == (1 if self.rx_seq >= 255 else self.rx_seq + 1):
                self.rx_seq = seq
                self.accepted.append(message)
                self._act(message)
            if self.acking:
                self.send(p.PicoAck(self.rx_seq))

    def _act(self, message: p.Message) -> None:
        if isinstance(message, p.FrameChunk | p.FrameShow) and message.screen_id != self.back_id:
            self.back[:] = self.shown  # a new screen starts from the image shown
            self.back_id = message.screen_id
        if isinstance(message, p.RollRequest) and self.refuse_rolls is not None:
            self.send(p.Error(self.refuse_rolls))  # as the firmware does: before the ACK
        if isinstance(message, p.FrameChunk):
            self.back[message.offset : message.offset + len(message.data)] = message.data
        elif isinstance(message, p.FrameShow):
            if p.crc32(bytes(self.back)) == message.crc:
                self.shown = bytes(self.back)
            else:
                self.send(p.Error(p.ErrorCode.FRAME_CRC))
