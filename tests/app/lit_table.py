"""The tour's table with its seat LEDs on gpiozero's mock pins (GpioLeds over the factory the
test passes in), shared by the LED tests of Catacombs and of the packs."""

from __future__ import annotations

from pathlib import Path

from gpiozero.pins.mock import MockFactory

from overseer.app.shell import Gadget
from overseer.app.sim import MemoryGlass
from overseer.devices.leds import GpioLeds
from overseer.devices.pins import seat_leds
from tools.table import Table

PINS = seat_leds()  # seat -> BCM: 1 -> 5, 2 -> 6, 3 -> 13, 4 -> 19


class LitTable(Table):
    """The tour's table, its seat LEDs on mock GPIO pins."""

    def __init__(self, store: Path, factory: MockFactory, seed: int) -> None:
        self.glass = MemoryGlass()
        self.leds = GpioLeds(PINS, pin_factory=factory)  # type: ignore[assignment]
        self.gadget = Gadget(store, self.glass, self.leds, seed=seed)
        self.shown = []
        self.gadget.open(None)
        self._note()

    def close(self) -> None:
        super().close()
        self.leds.close()
