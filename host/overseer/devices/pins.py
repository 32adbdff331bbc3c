"""The box's one pin map, ``hardware/pins.toml``, as the host reads it (the copy the package
ships: core/shipped.py)."""

from __future__ import annotations

import tomllib
from pathlib import Path

from overseer.core.shipped import shipped
from overseer.devices.protocol import Button

PINS = shipped("pins.toml")


def button_names(pins: Path = PINS) -> dict[Button, str]:
    """Wire button number -> the board's button name."""
    table = tomllib.loads(pins.read_text())
    return {Button(b["code"]): b["name"] for b in table["pico"]["button"]}


def button_gpios(pins: Path = PINS) -> dict[str, int]:
    """The board's button name -> the Pico GPIO its switch is on."""
    table = tomllib.loads(pins.read_text())
    return {b["name"]: int(b["gpio"]) for b in table["pico"]["button"]}


def seat_leds(pins: Path = PINS) -> dict[int, int]:
    """Seat number -> the BCM number of its LED on the Raspberry Pi, in seat order."""
    table = tomllib.loads(pins.read_text())
    leds = {int(led["seat"]): int(led["bcm"]) for led in table["pi"]["seat_led"]}
    return dict(sorted(leds.items()))
