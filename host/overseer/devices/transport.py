"""The byte pipe to the Pico: its USB serial port, found, opened, read and written (pyserial).

``SerialTransport`` knows nothing of blocks or messages. ``open`` tries the configured path (or
every port the finder names, e.g. by USB VID/PID) once; the link retries. Reads never block (the
link selects on ``fileno()``); a port error is an ``OSError`` (pyserial's ``SerialException``
is one), which the link takes as the link lost.
"""

from __future__ import annotations

import os
from collections.abc import Callable

import serial

BAUD = 115200  # USB CDC ignores it; pyserial wants one
WRITE_TIMEOUT = 0.5
READ_SIZE = 4096  # bytes a read takes at most (more waits for the next)


class SerialTransport:
    """One serial port at a time: a configured path, or the first the finder names that opens."""

    def __init__(self, port: str | None, finder: Callable[[], list[str]]) -> None:
        self._path = port
        self._finder = finder
        self._serial: serial.Serial | None = None
        self._fd = -1  # the open port's descriptor (-1: none; os.read and os.write say so)
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
            self._serial, self._fd = port, port.fileno()
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
        """The bytes waiting, once ``fileno()`` selected readable (b"" if none after all).

        One ``os.read`` of the port's non-blocking descriptor: pyserial's ``read`` would ask
        the size first (an ioctl) and wait in a loop of its own, several times the
        instructions of a press's whole link work. Readable with nothing to read is the
        device gone, as pyserial says it."""
        try:
            data = os.read(self._fd, READ_SIZE)
        except BlockingIOError:
            return b""
        if not data:
            raise serial.SerialException("device reports readiness to read but returned no "
                                         "data (device disconnected?)")
        return data

    def write(self, data: bytes) -> None:
        """All of ``data``: one ``os.write`` when the port takes it whole (as USB does), else
        pyserial's write for the rest (it waits up to ``WRITE_TIMEOUT``)."""
        try:
            done = os.write(self._fd, data)
        except BlockingIOError:
            done = 0
        if done < len(data):
            self._port().write(data[done:])

    def close(self) -> None:
        port, self._serial, self._fd = self._serial, None, -1
        if port is not None:
            try:
                port.close()
            except OSError:
                pass  # the device went away with the port still open
