"""The box without its hardware: the real firmware on a virtual Pico, and the simulated seat
LEDs and card reader.

The Pico is the one a table would plug in: ``devices.virtual_pico.VirtualPico`` runs the
firmware (MicroPython's Unix port, else CPython with the firmware's shims) at the far end of a
pty, and the host talks to it through ``devices.pico.Pico`` exactly as to a Pico on USB (Glass,
Buttons, Dice). A key is a press on the board's pin; what the simulator draws is the board's
own OLED RAM. The LEDs and the reader are ``app.sim``'s adapters of the app's ports.
"""

from __future__ import annotations

from overseer.app.events import Button
from overseer.app.sim import SimLeds, SimTags
from overseer.devices.pico import BUTTONS, Pico
from overseer.devices.pico_link import ProtocolMismatch
from overseer.devices.virtual_pico import VirtualPico

PINS = {button: wire for wire, button in BUTTONS.items()}  # the app's button -> the board's pin
READY_TIMEOUT = 15.0  # seconds for the board to boot and answer the handshake


class BoardError(RuntimeError):
    """The virtual Pico did not come up; the message carries what the board said."""


class VirtualBox:
    """The virtual Pico (``board``, its device face ``pico``), the seat LEDs and the reader."""

    def __init__(self, interpreter: str | None = None) -> None:
        self.board = VirtualPico(interpreter)
        self.pico: Pico | None = None
        self.leds = SimLeds()
        self.tags = SimTags()

    def power_on(self) -> Pico:
        """Boot the firmware and open the link's device face (``start(inbox)`` is the app's)."""
        self.board.start()
        self.pico = Pico(self.board.port)
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
        return "MicroPython" if self.board.runs_micropython else "CPython (firmware shims)"

    def close(self) -> None:
        if self.pico is not None:
            self.pico.close()
        self.leds.close()
        self.tags.close()
        self.board.close()
