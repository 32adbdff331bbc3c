"""GpioLeds on gpiozero's mock PWM pins: each seat's LED off, on, dim or pulsing."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from overseer.devices.leds import DIM, GpioLeds
from overseer.devices.pins import seat_leds
from overseer.ports.events import SeatLight, SetLeds


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    before = Device.pin_factory
    Device.pin_factory = MockFactory(pin_class=MockPWMPin)
    yield Device.pin_factory
    Device.pin_factory.reset()
    Device.pin_factory = before


def lights(**modes: str) -> SetLeds:
    return SetLeds(tuple(SeatLight(int(seat[1:]), mode) for seat, mode in modes.items()))


def levels(factory: MockFactory, pins: dict[int, int]) -> dict[int, float]:
    return {seat: float(factory.pin(bcm).state) for seat, bcm in pins.items()}


def test_the_seats_come_from_the_pin_map(factory: MockFactory) -> None:
    assert seat_leds() == {1: 5, 2: 6, 3: 13, 4: 19}
    leds = GpioLeds()
    try:
        assert leds.seats == (1, 2, 3, 4)
        leds.set(lights(s3="on"))
        assert factory.pin(13).state == 1.0
    finally:
        leds.close()


def test_on_dim_off(factory: MockFactory) -> None:
    pins = seat_leds()
    leds = GpioLeds(pins)
    try:
        leds.set(lights(s1="on", s2="dim"))
        assert levels(factory, pins) == {1: 1.0, 2: DIM, 3: 0.0, 4: 0.0}
        leds.set(lights(s2="on"))  # seat 1 not named: off
        assert levels(factory, pins) == {1: 0.0, 2: 1.0, 3: 0.0, 4: 0.0}
        assert leds.modes == {1: "off", 2: "on", 3: "off", 4: "off"}
    finally:
        leds.close()


def test_a_pulse_fades_up_and_goes_on_when_set_again(factory: MockFactory) -> None:
    leds = GpioLeds({1: 5})
    pin = factory.pin(5)
    try:
        leds.set(lights(s1="pulse"))
        time.sleep(0.3)
        start = pin.states[1].timestamp
        ramp = [float(s.state) for s in pin.states[1:] if s.timestamp < start + 0.9]
        assert len(set(ramp)) >= 4 and all(0.0 <= v < 1.0 for v in ramp)
        assert ramp == sorted(ramp)  # fading in, for the first second
        level = float(pin.state)
        leds.set(lights(s1="pulse"))  # the same mode: no restart from dark
        assert float(pin.state) >= level > 0.0
        leds.set(lights(s1="dim"))
        time.sleep(0.1)
        assert pin.state == DIM  # the pulse stopped
    finally:
        leds.close()
    assert pin.state == 0.0


def test_bad_lights_are_refused_and_change_nothing(factory: MockFactory) -> None:
    pins = seat_leds()
    leds = GpioLeds(pins)
    try:
        leds.set(lights(s1="on"))
        with pytest.raises(ValueError, match="unknown light mode 'pulsing' \\(did you mean 'pulse'\\?\\)"):
            leds.set(lights(s2="on", s3="pulsing"))
        with pytest.raises(ValueError, match="no seat 5: the seats are 1, 2, 3, 4"):
            leds.set(lights(s5="on"))
        with pytest.raises(ValueError, match="seat 2 is named twice"):
            leds.set(SetLeds((SeatLight(2, "on"), SeatLight(2, "dim"))))
        assert levels(factory, pins) == {1: 1.0, 2: 0.0, 3: 0.0, 4: 0.0}
    finally:
        leds.close()
