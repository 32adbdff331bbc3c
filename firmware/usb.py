# The USB serial as the firmware sees it, raw bytes (docs/protocol.md): the link's own CDC
# interface on the Pico when boot.py started it (cdc.py), else stdin and stdout (off-board, and
# on a Pico whose REPL kept the USB).
import select
import sys

import machine
import micropython
from ticks import ticks_diff, ticks_ms

_MICROPYTHON = sys.implementation.name == "micropython"
_POLLIN = select.POLLIN


class Usb:
    def __init__(self, rx=None, tx=None) -> None:
        # boot.py imported and started cdc on the Pico; off-board it is never loaded (its code
        # would take a tenth of a 64 KB heap for nothing)
        started = getattr(sys.modules.get("cdc"), "device", None)
        self._cdc = started if rx is None and tx is None else None
        rx = rx or sys.stdin.buffer
        # CPython: read the unbuffered file under stdin, so poll() sees every byte waiting.
        self.rx = rx if _MICROPYTHON else getattr(rx, "raw", rx)
        self.tx = tx or sys.stdout.buffer
        # CPython's stdout is buffered; MicroPython's is not (and its flush() is an fsync())
        self._flush = None if _MICROPYTHON else self.tx.flush
        self._out = []
        self._poll = select.poll()
        self._poll.register(self.rx, _POLLIN)
        self._ipoll = getattr(self._poll, "ipoll", self._poll.poll)  # ipoll allocates nothing
        # off-board under CPython: what one read takes (MicroPython reads into the decoder: a
        # Pico's heap keeps its 256 bytes)
        self._buf = bytearray(0 if _MICROPYTHON else 256)
        self._view = memoryview(self._buf)
        self.closed = False  # the other end hung up (off-board only: the pty was closed)

    @micropython.native
    def _ready(self):
        for _obj, event in self._ipoll(0):
            if event & ~_POLLIN:
                self.closed = True
            return event & _POLLIN
        return 0

    def _read_into(self, buf):
        try:
            n = self.rx.readinto(buf)
        except OSError:
            n = 0
        if not n:
            self.closed = True
            return 0
        return n

    @micropython.native
    def pull(self, decoder, limit: int = 1024) -> int:
        """Read what is waiting now (up to about ``limit`` bytes) into ``decoder``, without
        blocking on an idle line; the number of bytes read."""
        if self._cdc is not None:  # whole USB packets
            return self._cdc.pull(decoder.feed, limit)
        if not _MICROPYTHON:  # one read takes whatever is there
            n = self._read_into(self._buf) if self._ready() else 0
            if n:
                decoder.feed(self._view[:n])
            return n
        # MicroPython's readinto(buf, n) returns once it has n bytes: whole blocks, each read
        # in two (its SYNC and LEN, then the rest) straight into the decoder's buffer
        try:
            n = decoder.pull(self.rx.readinto, self._ipoll, limit)
        except OSError:  # off-board: the pty's other end is gone
            n = -1
        if n < 0:
            self.closed = True
            return 0
        return n

    def wait(self, ms: int) -> None:
        """Sleep until bytes arrive or ms pass."""
        device = self._cdc
        if device is not None:
            start = ticks_ms()
            while not device.waiting() and ticks_diff(ticks_ms(), start) < ms:
                machine.idle()  # until an interrupt (a USB transfer), 1 ms at most
            return
        for _item in self._ipoll(ms):
            return

    def write(self, block: bytes) -> None:
        """Queue a block; send() writes all queued blocks at once."""
        self._out.append(block)

    def send(self) -> None:
        if not self._out:
            return
        if self._cdc is not None:
            self._cdc.write(b"".join(self._out))
        else:
            self.tx.write(b"".join(self._out))
        self._out = []
        if self._flush:
            self._flush()
