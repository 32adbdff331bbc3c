# The USB serial as the firmware sees it: stdin and stdout, raw bytes (docs/protocol.md).
import select
import sys

import micropython

_MICROPYTHON = sys.implementation.name == "micropython"


class Usb:
    def __init__(self, rx=None, tx=None) -> None:
        rx = rx or sys.stdin.buffer
        # CPython: read the unbuffered file under stdin, so poll() sees every byte waiting.
        self.rx = rx if _MICROPYTHON else getattr(rx, "raw", rx)
        self.tx = tx or sys.stdout.buffer
        # CPython's stdout is buffered; MicroPython's is not (and its flush() is an fsync())
        self._flush = None if _MICROPYTHON else self.tx.flush
        self._out = []
        self._poll = select.poll()
        self._poll.register(self.rx, select.POLLIN)
        self._ipoll = getattr(self._poll, "ipoll", self._poll.poll)  # ipoll allocates nothing
        self._buf = bytearray(256)  # off-board (CPython): what one read takes
        self._view = memoryview(self._buf)
        self.closed = False  # the other end hung up (off-board only: the pty was closed)

    @micropython.native
    def _ready(self):
        for _obj, event in self._ipoll(0):
            if event & ~select.POLLIN:
                self.closed = True
            return event & select.POLLIN
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
        if not _MICROPYTHON:  # one read takes whatever is there
            n = self._read_into(self._buf) if self._ready() else 0
            if n:
                decoder.feed(self._view[:n])
            return n
        # MicroPython's readinto(buf, n) returns once it has n bytes: read exactly what the
        # decoder needs for its next decision (a block's SYNC and LEN, then the rest of it),
        # straight into its buffer. The host writes whole blocks, so the rest is on its way;
        # the host's FLUSH before a HELLO completes a block cut short.
        total = 0
        rx = self.rx
        while total < limit and not self.closed:
            # each call costs ~0.1 ms on a Pico: poll only between blocks, not inside one
            if decoder.n == 0 and not self._ready():
                break
            k = decoder.need - decoder.n
            try:
                got = rx.readinto(decoder.space(), k)
            except OSError:
                got = 0
            if not got:
                self.closed = True
                break
            decoder.fill(got)
            total += got
        return total

    def wait(self, ms: int) -> None:
        """Sleep until bytes arrive or ms pass."""
        for _item in self._ipoll(ms):
            return

    def write(self, block: bytes) -> None:
        """Queue a block; send() writes all queued blocks at once."""
        self._out.append(block)

    def send(self) -> None:
        if not self._out:
            return
        self.tx.write(b"".join(self._out))
        self._out = []
        if self._flush:
            self._flush()
