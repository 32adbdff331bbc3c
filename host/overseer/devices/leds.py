"""The seat LEDs on the Pi's GPIO (gpiozero ``PWMLED``, one per seat, pins from
``hardware/pins.toml``): off, on, dim, or pulsing."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gpiozero import PWMLED
from gpiozero.pins import Factory

from overseer.devices.pins import seat_leds
from overseer.ports.events import SetLeds
from overseer.ports.ports import light_modes

DIM = 0.15  # the brightness of a dim seat
PULSE_FADE = 1  # seconds to fade in, and again to fade out, while pulsing


class GpioLeds:
    """Leds on PWM pins: ``pins`` maps seat -> BCM number (default: the pin map)."""

    def __init__(
        self, pins: Mapping[int, int] | None = None, *, pin_factory: Factory | None = None
    ) -> None:
        pins = dict(pins) if pins is not None else seat_leds()
        self._leds: dict[int, PWMLED] = {}
        try:
            for seat, bcm in pins.items():
                self._leds[seat] = PWMLED(bcm, pin_factory=pin_factory)
        except Exception:
            self.close()
            raise
        self.seats = tuple(self._leds)
        self.modes: dict[int, str] = dict.fromkeys(self.seats, "off")

    def set(self, lights: SetLeds) -> None:
        """Bad lights (a seat the box has not, an unknown mode) raise and change nothing. A seat
        whose mode stays is left alone (a pulse goes on without a jump)."""
        modes = light_modes(lights, self.seats)
        for seat, mode in modes.items():
            if mode != self.modes[seat]:
                _light(self._leds[seat], mode)
        self.modes = modes

    def close(self) -> None:
        """Every LED off and its pin released."""
        for led in self._leds.values():
            led.close()


def pin_factory(name: str) -> Any:
    """gpiozero's pin factory ``name`` (passed to the LEDs, never the global default)."""
    if name == "mock":
        from gpiozero.pins.mock import MockFactory, MockPWMPin

        return MockFactory(pin_class=MockPWMPin)
    from importlib.metadata import entry_points

    found = list(entry_points(group="gpiozero_pin_factories", name=name))
    if not found:
        raise ValueError(f"gpiozero has no pin factory {name!r}")
    return found[0].load()()


def _light(led: PWMLED, mode: str) -> None:
    if mode == "off":
        led.off()
    elif mode == "on":
        led.on()
    elif mode == "dim":
        led.value = DIM
    else:  # pulse
        led.pulse(fade_in_time=PULSE_FADE, fade_out_time=PULSE_FADE)
