"""The byte pipe to the Pico: its USB serial port, found, opened, read and written (pyserial).

``SerialTransport`` knows nothing of blocks or messages. ``open`` tries the configured path (or
every port the finder names, e.g. by USB VID/PID) once; the link retries. Reads never block (the
link selects on ``fileno()``); a port error is an ``OSError`` (pyserial's ``SerialException``
is one), which the link takes as the link lost.
"""

from __future__ import annotations

from collections.abc import Callable

import serial

BAUD = 115200  # USB CDC ignores it; pyserial wants one
WRITE_TIMEOUT = 0.5


class SerialTransport:
    """One serial port at a time: a configured path, or the first the finder names that opens."""

    def __init__(self, port: str | None, finder: Callable[[], list[str]]) -> None:
        self._path = port
        self._finder = finder
        self._serial: serial.Serial | None = None
        self.opens = 0  # ports opened so far

    @property
    def is_open(self) -> bool:
        return self._serial is not None

    def open(self) -> bool:
        """Try each candidate port once; True if one is open now (input already waiting is
        discarded: it belongs to another session)."""
        if self._serial is not None:
            return True
        for path in [self._path] if self._path else self._finder():
            try:
                port = serial.Serial(
                    path, BAUD, timeout=0, write_timeout=WRITE_TIMEOUT, exclusive=True
                )
            except (serial.SerialException, OSError):
                continue
            port.reset_input_buffer()
            self._serial = port
            self.opens += 1
            return True
        return False

    def _port(self) -> serial.Serial:
        if self._serial is None:
            raise OSError("the Pico's serial port is not open")
        return self._serial

    def fileno(self) -> int:
        return self._port().fileno()

    def read(self) -> bytes:
        """The bytes waiting (at least one once ``fileno()`` selected readable; b"" at EOF)."""
        port = self._port()
        return port.read(max(1, port.in_waiting))

    def write(self, data: bytes) -> None:
        self._port().write(data)

    def close(self) -> None:
        port, self._serial = self._serial, None
        if port is not None:
            try:
                port.close()
            except OSError:
                pass  # the device went away with the port still open
