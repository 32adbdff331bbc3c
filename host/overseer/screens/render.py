"""Screens drawn with luma.core onto a 128x64 1-bit image.

A ``Screen`` is a title bar and up to four lines of text. ``draw`` paints it on a luma device
(the real SSD1306 on the Pi, or luma's dummy device off the Pi); ``frame_bytes`` packs the image
in the SSD1306's own page layout (MONO_VLSB), the format the Pico link sends (docs/protocol.md).
The font is Pillow's built-in bitmap font: luma ships none, and a bitmap font draws the same
pixels everywhere.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from functools import cache

from luma.core.device import dummy
from luma.core.render import canvas
from PIL import Image, ImageFont

WIDTH, HEIGHT = 128, 64
LINE = 11  # pixels per text line
COLUMNS = 21  # characters per line in the 6-pixel bitmap font


@cache
def font() -> ImageFont.ImageFont:
    return ImageFont.load_default_imagefont()


@dataclass(frozen=True)
class Screen:
    title: str
    lines: tuple[str, ...] = field(default_factory=tuple)
    mark: str = ""  # a short tag at the right of the title bar: "?" asks, "!" unverified


def wrap(text: str, width: int = COLUMNS) -> list[str]:
    return textwrap.wrap(text, width) or [""]


def draw(screen: Screen, device=None) -> Image.Image:
    """Paint the screen on ``device`` (a luma device; a dummy one by default) and return the
    1-bit image it shows."""
    device = device or dummy(width=WIDTH, height=HEIGHT, mode="1")
    f = font()
    with canvas(device) as ink:
        ink.rectangle((0, 0, WIDTH - 1, LINE), fill="white")
        ink.text((2, 1), screen.title[: COLUMNS - 2], font=f, fill="black")
        if screen.mark:
            ink.text((WIDTH - 8, 1), screen.mark[:1], font=f, fill="black")
        y = LINE + 3
        for line in screen.lines[:4]:
            ink.text((1, y), line[:COLUMNS], font=f, fill="white")
            y += LINE + 1
    return device.image.convert("1")


def frame_bytes(image: Image.Image) -> bytes:
    """The image in MONO_VLSB: 8 pages of 128 bytes, bit 0 the page's top row."""
    pixels = image.convert("1").load()
    out = bytearray(WIDTH * HEIGHT // 8)
    for page in range(HEIGHT // 8):
        for x in range(WIDTH):
            byte = 0
            for bit in range(8):
                if pixels[x, page * 8 + bit]:
                    byte |= 1 << bit
            out[page * WIDTH + x] = byte
    return bytes(out)


def from_frame_bytes(frame: bytes) -> Image.Image:
    """The inverse of ``frame_bytes``: what a 1024-byte frame looks like."""
    if len(frame) != WIDTH * HEIGHT // 8:
        raise ValueError(f"a frame is {WIDTH * HEIGHT // 8} bytes, not {len(frame)}")
    image = Image.new("1", (WIDTH, HEIGHT))
    pixels = image.load()
    for page in range(HEIGHT // 8):
        for x in range(WIDTH):
            byte = frame[page * WIDTH + x]
            for bit in range(8):
                if byte >> bit & 1:
                    pixels[x, page * 8 + bit] = 1
    return image
