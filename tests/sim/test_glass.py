"""The glass drawn from the OLED's RAM: every braille dot and half block is one pixel."""

import random

import pytest

from overseer.screens.render import Screen, frame_bytes, render
from overseer.sim import glass

BRAILLE_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [row][column]
HALVES = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}


def pixels_of_braille(lines: list[str]) -> list[list[int]]:
    rows = [[0] * 128 for _ in range(64)]
    for cy, line in enumerate(lines):
        for cx, cell in enumerate(line):
            bits = ord(cell) - 0x2800
            for dy in range(4):
                for dx in range(2):
                    rows[cy * 4 + dy][cx * 2 + dx] = int(bool(bits & BRAILLE_DOTS[dy][dx]))
    return rows


def pixels_of_halves(lines: list[str]) -> list[list[int]]:
    rows = [[0] * 128 for _ in range(64)]
    for cy, line in enumerate(lines):
        for x, cell in enumerate(line):
            rows[cy * 2][x], rows[cy * 2 + 1][x] = HALVES[cell]
    return rows


def image_pixels(image) -> list[list[int]]:
    return [[int(bool(image.getpixel((x, y)))) for x in range(128)] for y in range(64)]


@pytest.fixture(params=["screen", "random"])
def picture(request):
    if request.param == "screen":
        return render(Screen("Sewer Rat", ("targets Elf", "melee + poison"), "?", key="Elf"))
    rng = random.Random(7)
    image = render(Screen("x"))
    for y in range(64):
        for x in range(128):
            image.putpixel((x, y), rng.choice((0, 255)))
    return image


def test_braille_cells_are_the_pixels(picture):
    lines = glass.braille(frame_bytes(picture))
    assert (len(lines[0]), len(lines)) == glass.BRAILLE_SIZE == (64, 16)
    assert all(len(line) == 64 for line in lines)
    assert pixels_of_braille(lines) == image_pixels(picture)


def test_half_blocks_are_the_pixels(picture):
    lines = glass.half_blocks(frame_bytes(picture))
    assert (len(lines[0]), len(lines)) == glass.HALF_BLOCK_SIZE == (128, 32)
    assert pixels_of_halves(lines) == image_pixels(picture)


def test_a_frame_of_another_size_is_refused():
    with pytest.raises(ValueError, match="1024 bytes, not 1023"):
        glass.braille(bytes(1023))


def test_what_fits_in_80x24():
    assert glass.fits((66, 18), glass.BRAILLE_SIZE)
    assert not glass.fits((66, 18), glass.HALF_BLOCK_SIZE)
    assert glass.fits((130, 34), glass.HALF_BLOCK_SIZE)
