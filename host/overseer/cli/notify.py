"""systemd's service notifications (sd_notify(3)) without libsystemd: a datagram to the unix
socket ``$NOTIFY_SOCKET`` names. The unit is ``Type=notify`` with ``WatchdogSec=``
(hardware/overseer.service.in): the gadget says ``READY=1`` once it is up and ``WATCHDOG=1``
from the loop that serves the table's inputs, so a loop that hangs stops the heartbeat and
systemd restarts the service. Outside systemd (no ``$NOTIFY_SOCKET``) nothing is sent."""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

log = logging.getLogger("overseer.gadget")


class Notifier:
    """What the service tells systemd. ``alive()`` may be called every turn of a loop: it sends
    at most one heartbeat every quarter of the watchdog's period (``$WATCHDOG_USEC``)."""

    def __init__(self, env: Mapping[str, str] = os.environ,
                 clock: Callable[[], float] = time.monotonic) -> None:
        address = env.get("NOTIFY_SOCKET", "")
        # "@name": the abstract namespace (a NUL byte first)
        self.address = "\0" + address[1:] if address.startswith("@") else address
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        watched = usec.isdigit() and int(usec) > 0 and (not pid or pid == str(os.getpid()))
        self.every = int(usec) / 4e6 if watched else None  # seconds between heartbeats
        self._clock = clock
        self._last: float | None = None
        self._failed = False

    def send(self, message: str) -> bool:
        """One datagram to systemd; False when there is no socket or it cannot be reached
        (said once to the journal: a missed heartbeat is systemd's to act on)."""
        if not self.address:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
                sock.sendto(message.encode(), self.address)
        except OSError as err:
            if not self._failed:
                self._failed = True
                log.warning("systemd's notify socket %s: %s", self.address, err)
            return False
        return True

    def ready(self) -> None:
        self.send("READY=1")

    def alive(self) -> None:
        """A turn of the loop ran: the heartbeat, when one is due."""
        if self.every is None:
            return
        now = self._clock()
        if self._last is None or now - self._last >= self.every:
            self._last = now
            self.send("WATCHDOG=1")

    def stopping(self) -> None:
        self.send("STOPPING=1")
