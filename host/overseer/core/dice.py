"""The dice of the Catacombs family, shared by the rules (``Roll.die``) and the gadget (the
Pico rolls them): a module of its own so a device can name a die without importing rules."""

from __future__ import annotations

from enum import StrEnum


class Die(StrEnum):
    """The dice a ``Roll`` asks for (the gadget rolls the same ones)."""

    D12 = "d12"
    RUNE = "rune"  # the black Rune Die
    LOCATION = "location"  # the red Location Die


DIE_FACES = {Die.D12: 12, Die.RUNE: 6, Die.LOCATION: 6}
