# The USB serial as the firmware sees it: stdin and stdout, raw bytes (docs/protocol.md).
import select
import sys

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
        self._buf = bytearray(256)
        self._view = memoryview(self._buf)
        self._one = bytearray(1)
        self.closed = False  # the other end hung up (off-board only: the pty was closed)

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

    def read(self):
        """The bytes waiting now (up to 256, possibly none), without blocking."""
        if not _MICROPYTHON:  # one read takes whatever is there
            return self._view[: self._read_into(self._buf)] if self._ready() else b""
        # MicroPython's readinto blocks until the buffer is full: take one byte at a time
        n = 0
        while n < 256 and not self.closed and self._ready():
            if self._read_into(self._one):
                self._buf[n] = self._one[0]
                n += 1
        return self._view[:n]

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
