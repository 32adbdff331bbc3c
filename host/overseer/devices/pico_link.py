"""The host's link to the Pico, per docs/protocol.md: handshake, heartbeats, frames, rolls, events.

Layers, as Klipper splits serialqueue, msgproto and its MCU object:

- ``transport.SerialTransport``: the USB serial port, found, opened, read and written;
- ``protocol`` (blocks, messages, the streaming decoder) and ``reliable`` (numbering, the
  go-back-N window, retransmits, the byte error estimate): the codec, without I/O;
- ``link_core.LinkCore``: the handshake and what goes each way, without I/O, over the roll
  book (``roll_book``: the requests not answered) and the screen book (``screen_book``: the
  newest screen and what the Pico holds); ``link_events``: what the link hands on;
- ``PicoLink`` (here): the port and one I/O thread. It finds the Pico, runs the core over it,
  declares the link lost after 1 s of silence or a port error, and reopens.

The app's device face over it is ``pico.Pico`` (app events, PIL images). Public API::

    link = PicoLink(port, sink)         # port None: search by USB VID/PID
    link.start()                        # sink(event) from the I/O thread, each event once:
                                        # PressedButton, DieRolled, RollFailed
    link.wait_ready(timeout=2.0)        # the Pico's Ident; raises ProtocolMismatch
    screen = link.show(image_1024)      # returns a screen number; only changed bytes are sent
    link.wait_shown(screen, timeout=1)  # True once the Pico acknowledged showing it
    roll = link.request_roll(Die.D12)   # the roll_id; answered by DieRolled or RollFailed
    link.close()
"""

from __future__ import annotations

import os
import select
import threading
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from overseer.devices import protocol as p
from overseer.devices.link_core import LINK_TIMEOUT, STOPPED, LinkCore
from overseer.devices.link_events import (
    LINK_LOST,
    LinkState,
    LinkStats,
    PicoEvent,
    ProtocolMismatch,
)
from overseer.devices.roll_book import ROLL_TIMEOUT
from overseer.devices.transport import SerialTransport
from overseer.devices.usb import RASPBERRY_PI_VID, find_pico_ports

REOPEN_INTERVAL = 0.020
A = ParamSpec("A")
R = TypeVar("R")


class _LinkLost(Exception):
    pass


class PicoLink:
    """The Pico over a serial port; see the module docstring for the API."""

    def __init__(self, port: str | None, sink: Callable[[PicoEvent], None], *,
                 vid: int = RASPBERRY_PI_VID, pid: int | None = None,
                 protocol: int = p.PROTOCOL_VERSION,
                 finder: Callable[[], list[str]] | None = None,
                 on_state: Callable[[LinkState], None] | None = None,
                 roll_timeout: float = ROLL_TIMEOUT,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """``port``: a device path (e.g. /dev/serial/by-id/...); None searches by VID/PID.
        ``sink`` takes every event and ``on_state`` hears every change of ``LinkState``, both
        from the I/O thread (a failed roll request may come from ``request_roll``'s): they must
        not block. ``protocol`` is the version this host speaks (only tests set another one).
        ``clock`` (seconds) times the link's timeouts and those passed to ``wait_ready`` and
        ``wait_shown``: the Pico's own time for an emulated one that runs slower than real
        time (``rp2040_pico.Rp2040Pico.clock``), so a slow emulator is not taken for a lost
        link."""
        self._transport = SerialTransport(port, finder or (lambda: find_pico_ports(vid, pid)))
        self._sink, self._on_state, self._clock = sink, on_state, clock
        self._lock = threading.RLock()  # held around every call of the core
        self._cond = threading.Condition(self._lock)  # a change the app's side waits for
        self._waiting = 0  # how many of the app's threads wait on it (none: no notify)
        self._core = LinkCore(protocol, roll_timeout)
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._thread: threading.Thread | None = None

    # -- the app's side ----------------------------------------------------------------------

    def start(self) -> None:
        """Start the I/O thread (it searches, opens and handshakes on its own)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="pico-link", daemon=True)
            self._thread.start()

    def close(self) -> None:
        """Stop the I/O thread and close the port."""
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
        if self._core.state is not LinkState.REFUSED:
            self._call(self._core.set_state, LinkState.CLOSED)
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._wake_r = self._wake_w = -1

    def __enter__(self) -> PicoLink:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def state(self) -> LinkState:
        return self._core.state

    @property
    def ident(self) -> p.Ident | None:
        """The IDENT of the last handshake (protocol, boot_id, firmware)."""
        return self._core.ident

    @property
    def error(self) -> ProtocolMismatch | None:
        """Why the link stopped, when the Pico speaks another protocol version."""
        return self._core.error

    @property
    def session(self) -> int:
        """How many handshakes succeeded so far (grows with every replug or restart)."""
        return self._core.session

    @property
    def screen(self) -> int:
        """The number of the newest screen asked for (0 before the first)."""
        return self._core.screens.screen

    @property
    def shown(self) -> int:
        """The newest screen number the Pico acknowledged showing since the last handshake."""
        return self._core.screens.shown

    @property
    def stats(self) -> LinkStats:
        """Counters, for logs, tests and the benchmark."""
        return self._core.stats

    def wait_ready(self, timeout: float) -> p.Ident:
        """Block until a handshake succeeded; raises ProtocolMismatch or TimeoutError."""
        core = self._core
        with self._cond:
            self._wait_for(lambda: core.state in (LinkState.READY, *STOPPED), timeout)
            if core.error is not None:
                raise core.error
            if core.state is not LinkState.READY or core.ident is None:
                raise TimeoutError(f"no Pico answered within {timeout} s ({core.state.value})")
            return core.ident

    def show(self, image: bytes) -> int:
        """Ask the Pico to show a 1024-byte MONO_VLSB image; returns its screen number.

        Showing the image already asked for returns the same number. If several screens are
        asked for faster than the link carries them, only the newest is sent.
        """
        if len(image) != p.FRAME_SIZE:
            raise ValueError(f"a screen is {p.FRAME_SIZE} bytes, not {len(image)}")
        with self._cond:
            number = self._core.screens.ask(bytes(image))
        self._wake()
        return number

    def arm(self, image: bytes, button: p.Button) -> None:
        """Send ``image`` ahead: a press of ``button`` on the newest screen asked for puts it
        up at once on the Pico (``ScreenBook.arm``)."""
        if len(image) != p.FRAME_SIZE:
            raise ValueError(f"a screen is {p.FRAME_SIZE} bytes, not {len(image)}")
        with self._cond:
            self._core.screens.arm(bytes(image), int(button))
        self._wake()

    def wait_sent(self, timeout: float) -> bool:
        """True once the Pico acknowledged everything asked of it (``LinkCore.sent``)."""
        with self._cond:
            return self._wait_for(lambda: self._core.sent, timeout)

    def wait_shown(self, screen: int, timeout: float) -> bool:
        """True once the Pico acknowledged showing ``screen`` (or a newer one)."""
        with self._cond:
            return self._wait_for(lambda: self._core.screens.shown >= screen, timeout)

    def _wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """``self._cond.wait_for`` with ``timeout`` on the link's clock (``_cond`` held)."""
        end = self._clock() + timeout
        self._waiting += 1
        try:
            while not predicate():
                left = end - self._clock()
                if left <= 0:
                    return False
                self._cond.wait(left)  # the clock is never faster than the wall: look again
            return True
        finally:
            self._waiting -= 1

    def request_roll(self, die: p.Die) -> int:
        """Ask the Pico to roll ``die``; returns the roll_id of its answer: a DieRolled, or a
        RollFailed (at once when the link has stopped)."""
        roll_id = self._call(self._core.request_roll, p.Die(die), self._clock())
        self._wake()
        return roll_id

    def byte_error(self) -> float:
        """The cable's byte error rate, estimated from the damaged blocks among the last few
        kilobytes the Pico sent (USB itself is clean: this is 0 unless something is wrong)."""
        return self._core.errors.rate

    # -- the I/O thread ----------------------------------------------------------------------

    def _call(self, do: Callable[A, R], *args: A.args, **kwargs: A.kwargs) -> R:
        """One call of the core under the lock; then what it has for the app is handed on
        (outside the lock, in order)."""
        with self._lock:
            result = do(*args, **kwargs)
            out = self._taken()
        if out:
            self._hand_on(out)
        return result

    def _taken(self) -> list[LinkState | PicoEvent]:
        """Under the lock, after a call of the core: what it has for the app, taken from it
        (most calls: nothing), the threads waiting on the link woken."""
        out = self._core.outbox
        if out:
            self._core.outbox = []
        if self._waiting:
            self._cond.notify_all()
        return out

    def _hand_on(self, out: list[LinkState | PicoEvent]) -> None:
        for item in out:
            if isinstance(item, LinkState):
                if self._on_state is not None:
                    self._on_state(item)
            else:
                self._sink(item)

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"\0")
        except OSError:
            pass  # the pipe is full (a wake-up is pending anyway) or closed

    def _run(self) -> None:
        core = self._core
        while not self._stop.is_set():
            if not self._open():
                break
            try:
                self._serve()
            except (_LinkLost, OSError) as exc:  # pyserial's SerialException is an OSError
                self._call(core.lost, exc)
            finally:
                self._transport.close()
            if core.state is LinkState.REFUSED:
                self._call(core.fail_rolls, LINK_LOST)
                return
            self._call(core.set_state, LinkState.SEARCHING)

    def _open(self) -> bool:
        while not self._stop.is_set():
            if self._transport.open():
                self._core.stats.opens = self._transport.opens
                return True
            self._call(self._core.expire, self._clock())
            self._stop.wait(REOPEN_INTERVAL)
        return False

    def _serve(self) -> None:
        core, transport = self._core, self._transport
        self._call(core.opened, self._clock())
        fd, wake = transport.fileno(), self._wake_r
        poll = select.poll()  # (registered once: select's lists are made again at every pass)
        poll.register(fd, select.POLLIN)
        poll.register(wake, select.POLLIN)
        lock, refused, stopped, clock = self._lock, LinkState.REFUSED, self._stop.is_set, \
            self._clock
        data: bytes | None = None  # what the last pass read
        while not stopped():
            now = clock()
            with lock:  # (``_call`` without its generic call: a press is some ten passes of this)
                if data is None:
                    out, silent, deadline = core.turn(now)
                else:  # the reply to what came, then the pass's bytes: one write
                    out, silent, deadline = core.answer(data, now)
                handed = self._taken()
            if handed:
                self._hand_on(handed)
            if core.state is refused:
                return
            if out:
                transport.write(out)
            if silent:
                raise _LinkLost(f"nothing valid from the Pico for {LINK_TIMEOUT} s")
            # (on a slower clock than the wall's, this wakes early and looks again)
            data = None
            for ready, _ in poll.poll(max(0.0, deadline - now) * 1000.0):
                if ready == fd:  # readable, or hung up: the read says which
                    data = transport.read()
                else:
                    try:
                        os.read(wake, 4096)
                    except BlockingIOError:
                        pass
