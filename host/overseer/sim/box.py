"""The box without its hardware: the real firmware on a virtual Pico, and the simulated seat
LEDs and card reader.

The Pico is the one a table would plug in: ``devices.virtual_pico.VirtualPico`` runs the
firmware (MicroPython's Unix port, else CPython with the firmware's shims) at the far end of a
pty, and the host talks to it through ``devices.pico.Pico`` exactly as to a Pico on USB (Glass,
Buttons, Dice). A key is a press on the board's pin; what the simulator draws is the board's
own OLED RAM. The LEDs are ``app.sim``'s; the card reader is ``sim.reader``'s: the emulated
PN532 read by nfcpy as on the Pi, or (without nfcpy) ``app.sim.SimTags``, and ``reader_note``
says why.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from overseer.app.sim import SimLeds
from overseer.devices.link_events import ProtocolMismatch
from overseer.devices.pico import BUTTONS, Pico
from overseer.devices.rp2040_pico import Rp2040Pico, missing
from overseer.devices.virtual_pico import FIRMWARE, VirtualPico
from overseer.ports.events import Button, Input, Press, Rolled, RollRefused
from overseer.ports.inbox import Inbox
from overseer.sim.reader import card_reader

PINS = {button: wire for wire, button in BUTTONS.items()}  # the app's button -> the board's pin
READY_TIMEOUT = 15.0  # seconds for the board to boot and answer the handshake
ROLLS_KEPT = 6


class WatchedInbox(Inbox):
    """The gadget's inbox, counting what comes in and keeping the dice the Pico rolled (the
    dice panel shows them)."""

    def __init__(self) -> None:
        super().__init__()
        self.rolls: deque[Rolled | RollRefused] = deque(maxlen=ROLLS_KEPT)
        self.puts = 0  # inputs put so far
        self.presses = 0  # of them, button presses

    def put(self, item: Input) -> None:
        self.puts += 1  # before it can be taken: what is taken never passes ``puts``
        self.presses += isinstance(item, Press)
        super().put(item)
        if isinstance(item, Rolled | RollRefused):
            self.rolls.append(item)


class BoardError(RuntimeError):
    """The virtual Pico did not come up; the message carries what the board said."""


def _rp2040(firmware: Path) -> Rp2040Pico:
    why = missing()
    if why:
        raise BoardError(f"the emulated RP2040 cannot run: {why}")
    return Rp2040Pico(firmware)


class VirtualBox:
    """The virtual Pico (``board``, its device face ``pico``), the seat LEDs and the reader;
    what they put goes into ``inbox``."""

    def __init__(self, interpreter: str | None = None, firmware: Path = FIRMWARE,
                 board: str = "unix") -> None:
        """``firmware``: the folder the board runs (the repository's ``firmware/``); ``board``
        "rp2040": on MicroPython's rp2 port on an emulated RP2040 (``rp2040_pico``; BoardError
        when it cannot run here), else on the Unix port (or CPython)."""
        self.board = VirtualPico(interpreter, firmware) if board != "rp2040" else _rp2040(firmware)
        self.pico: Pico | None = None
        self.leds = SimLeds()
        self.tags, self.reader_note = card_reader()
        self.inbox = WatchedInbox()
        self.closed = False

    def power_on(self) -> Pico:
        """Boot the firmware and bring the link up (the handshake goes on in the link's
        thread: the rest of the simulator can load meanwhile)."""
        if self.pico is None:
            self.board.start()
            self.pico = Pico(self.board.port, clock=self.board.clock)
            self.pico.start(self.inbox)
        return self.pico

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        """Block until the Pico answered the handshake; BoardError with its stderr if not."""
        assert self.pico is not None, "power_on first"
        try:
            self.pico.wait_ready(timeout)
        except (TimeoutError, ProtocolMismatch) as err:
            said = self.board.stderr()[-1500:].strip()
            raise BoardError(f"the virtual Pico did not answer ({err})"
                             + (f"; the board said:\n{said}" if said else "")) from err

    def press(self, button: Button, long: bool = False) -> None:
        """Press a button on the board: short (100 ms) or long (800 ms), in board time."""
        self.board.press(PINS[Button(button)], long=long)

    def oled(self) -> bytes | None:
        """The board's OLED display RAM (1024 bytes, MONO_VLSB), None before its first image."""
        return self.board.oled()

    @property
    def interpreter(self) -> str:
        if isinstance(self.board, Rp2040Pico):
            return "MicroPython rp2, emulated RP2040"
        return "MicroPython" if self.board.runs_micropython else "CPython (firmware shims)"

    def close(self) -> None:
        """Power off and release everything (again: nothing)."""
        if self.closed:
            return
        self.closed = True
        if self.pico is not None:
            self.pico.close()
        self.leds.close()
        self.tags.close()
        self.board.close()
