"""What the app needs of the box, as small protocols. Adapters: the Pico (``devices.pico.Pico``:
Glass, Buttons, Dice), a Pi-side OLED (``devices.oled.LumaGlass``), the seat LEDs
(``devices.leds.GpioLeds``), and the terminal simulator's (``app.sim``).

Sources (Buttons, Dice, Tags) put their inputs into the app's one inbox from ``start(inbox)``
until ``close()``; they never keep a queue of their own for the app to poll.
"""

from __future__ import annotations

import difflib
from abc import ABC, abstractmethod
from typing import Protocol

from PIL import Image

from overseer.ports.events import Button, Die, SetLeds
from overseer.ports.inbox import Inbox

GLASS_SIZE = (128, 64)  # every Glass takes images of this size, mode "1"
LIGHT_MODES = ("off", "on", "dim", "pulse")


class Glass(Protocol):
    """A 128x64 1-bit screen."""

    def show(self, image: Image.Image) -> None:
        """Put ``image`` (128x64, mode "1") on the glass; it stays until the next one. A
        screen's picture from ``render`` carries its frame in MONO_VLSB (``image.mono_vlsb()``,
        kept with the drawing): a glass sending frames may take it instead of packing."""
        ...

    def close(self) -> None: ...


def kept_frame(image: Image.Image) -> bytes | None:
    """The MONO_VLSB frame a screen's picture from ``render`` carries (``image.mono_vlsb()``,
    see ``Glass.show``), else None: the image is to be packed."""
    packed = getattr(image, "mono_vlsb", None)
    frame = packed() if callable(packed) else None
    return frame if isinstance(frame, bytes) else None


class Source(Protocol):
    """Something that puts inputs into the inbox from ``start`` until ``close``."""

    def start(self, inbox: Inbox) -> None: ...

    def close(self) -> None: ...


class Buttons(Source, Protocol):
    """The five buttons: ``Press`` inputs."""


class EarlyButtons(ABC):
    """Buttons that put a press in at its first edge, before they know whether it is held
    (the Pico's face): the shell tells them, after each screen, which buttons' held press
    means something else on it; those wait for the release or the long-press time. A source
    is one by deriving from this class (not by having some attribute named ``hold``)."""

    @abstractmethod
    def hold(self, buttons: frozenset[Button]) -> None: ...


class GlassAhead(ABC):
    """A glass that takes a screen before it is due (the Pico's face: FRAME_ARM) and puts it
    up itself the moment ``button`` goes down, if the screen shown then is still the one it
    was armed on: the press's screen is on the glass before the host has heard of the press.
    The host shows that screen again as usual once it has the press (the same picture: the
    glass does not change). A glass is one by deriving from this class."""

    @abstractmethod
    def arm(self, image: Image.Image, button: Button) -> None: ...


class Dice(Source, Protocol):
    """Dice the gadget rolls: each ``request`` is answered in the inbox by ``Rolled`` (with
    that ``request`` number) or ``RollRefused``; rolls nobody asked for come as ``Rolled``
    with request 0."""

    def request(self, die: Die, request: int) -> None: ...


class Tags(Source, Protocol):
    """A card reader: ``Tap`` for a card it knows, ``UnknownTap`` for any other tag."""


class Leds(Protocol):
    """The seat lights."""

    def set(self, lights: SetLeds) -> None:
        """Show exactly these lights (seats not named go off)."""
        ...

    def close(self) -> None: ...


def check_glass_image(image: Image.Image) -> Image.Image:
    """The image as a Glass shows it (mode "1"); ValueError for another size."""
    if image.size != GLASS_SIZE:
        width, height = image.size
        raise ValueError(f"the glass is 128x64 pixels, not {width}x{height}")
    return image if image.mode == "1" else image.convert("1")


def light_modes(lights: SetLeds, seats: tuple[int, ...]) -> dict[int, str]:
    """Every seat's mode under ``lights`` (seats not named: off). ValueError, naming what is
    wrong, for a seat the box has not, a seat named twice or an unknown mode."""
    modes = dict.fromkeys(seats, "off")
    named: set[int] = set()
    for light in lights.lights:
        if light.seat not in modes:
            raise ValueError(f"no seat {light.seat}: the seats are {', '.join(map(str, seats))}")
        if light.seat in named:
            raise ValueError(f"seat {light.seat} is named twice")
        if light.mode not in LIGHT_MODES:
            close = difflib.get_close_matches(light.mode, LIGHT_MODES, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(
                f"unknown light mode {light.mode!r}{hint}: the modes are {', '.join(LIGHT_MODES)}"
            )
        named.add(light.seat)
        modes[light.seat] = light.mode
    return modes
