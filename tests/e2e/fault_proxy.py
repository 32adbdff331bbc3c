"""A faulty USB cable between the host and a virtual Pico, for the fault tests.

The proxy opens the virtual Pico's port on one side and offers the host a fresh pty on the
other, under a stable path (a symlink, like /dev/serial/by-id/...). A thread copies bytes both
ways, corrupting and dropping a share of them. ``unplug()`` closes the host-facing pty (the port
vanishes, the host's reads fail) and ``replug()`` makes a new one under the same path. ``stall()``
forwards nothing for a while, with the port still present.
"""

from __future__ import annotations

import os
import queue
import random
import select
import threading
import tty
from dataclasses import dataclass
from pathlib import Path


@dataclass
class FaultCounts:
    bytes_in: int = 0
    corrupted: int = 0
    dropped: int = 0
    replugs: int = 0


class FaultProxy:
    def __init__(
        self, pico_port: str, link_path: Path, corrupt: float, drop: float, seed: int
    ) -> None:
        self.link_path = link_path
        self.corrupt = corrupt
        self.drop = drop
        self.counts = FaultCounts()
        self._random = random.Random(seed)
        self._pico = os.open(pico_port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self._pico)
        self._master: int | None = None
        self._slave: int | None = None
        self._stalled = False
        self._stop = False
        # unplug() and replug() are done by the copying thread itself, between two reads, so
        # it never reads an fd that was closed (and perhaps reused) under it.
        self._requests: queue.Queue[tuple[str, threading.Event]] = queue.Queue()
        self._plug()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def replug(self) -> None:
        """A new host-facing port under ``link_path``."""
        self._request("replug")

    def unplug(self) -> None:
        """The host-facing port goes away; bytes on the way are lost."""
        self._request("unplug")

    def stall(self, stalled: bool) -> None:
        """Forward nothing (both ways) while ``stalled``; the port stays present."""
        self._stalled = stalled

    def close(self) -> None:
        self._stop = True
        self._thread.join(timeout=2)
        self._unplug()
        os.close(self._pico)

    def _request(self, what: str) -> None:
        done = threading.Event()
        self._requests.put((what, done))
        if not done.wait(timeout=5):
            raise TimeoutError(f"the proxy did not {what}")

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        temp = self.link_path.with_suffix(".new")
        os.symlink(os.ttyname(slave), temp)
        self._master, self._slave = master, slave
        os.replace(temp, self.link_path)

    def _unplug(self) -> None:
        self.link_path.unlink(missing_ok=True)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None

    def _mangle(self, data: bytes) -> bytes:
        out = bytearray()
        rnd = self._random.random
        for byte in data:
            roll = rnd()
            if roll < self.drop:
                self.counts.dropped += 1
                continue
            if roll < self.drop + self.corrupt:
                self.counts.corrupted += 1
                byte ^= self._random.randrange(1, 256)
            out.append(byte)
        self.counts.bytes_in += len(data)
        return bytes(out)

    def _run(self) -> None:
        while not self._stop:
            while not self._requests.empty():
                what, done = self._requests.get()
                if what == "unplug":
                    self._unplug()
                else:
                    self._plug()
                    self.counts.replugs += 1
                done.set()
            master = self._master
            fds = [self._pico] + ([master] if master is not None else [])
            readable, _, _ = select.select(fds, [], [], 0.002)
            for fd in readable:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    continue
                target = master if fd == self._pico else self._pico
                if self._stalled or not data or target is None:
                    continue
                try:
                    os.write(target, self._mangle(data))
                except OSError:
                    pass
