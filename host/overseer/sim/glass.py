"""The OLED's pixels as terminal text, read from the board's own display RAM.

The SSD1306 RAM is MONO_VLSB (``devices.frames``): 8 pages of 128 bytes, byte ``x`` of page
``n`` holding column ``x`` of rows ``8n .. 8n+7``, bit 0 the top row. Two ways to draw it, each
cell exactly a block of pixels, nothing scaled or guessed:

- ``braille``: a cell is 2x4 pixels (one braille pattern, its dots the lit pixels), so the
  128x64 glass takes 64x16 cells and fits an 80x24 terminal;
- ``half_blocks``: a cell is 1x2 pixels (upper, lower, both or neither half), 128x32 cells, for
  a terminal large enough.
"""

from __future__ import annotations

from overseer.devices.frames import HEIGHT, PAGES, WIDTH

FRAME = WIDTH * PAGES
BRAILLE_SIZE = (WIDTH // 2, HEIGHT // 4)  # columns, rows
HALF_BLOCK_SIZE = (WIDTH, HEIGHT // 2)
# Dot bits of a braille pattern (U+2800 + bits) by the pixel's place in its 2x4 cell.
_DOTS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))  # [row][column]
_HALVES = (" ", "\u2580", "\u2584", "\u2588")  # none, upper, lower, both


def _check(frame: bytes) -> None:
    if len(frame) != FRAME:
        raise ValueError(f"the OLED's RAM is {FRAME} bytes, not {len(frame)}")


def lit(frame: bytes, x: int, y: int) -> bool:
    """Whether pixel (x, y) is on (x 0..127 from the left, y 0..63 from the top)."""
    return bool(frame[(y // 8) * WIDTH + x] >> (y % 8) & 1)


def braille(frame: bytes) -> list[str]:
    """16 lines of 64 braille cells; a cell's dots are its 2x4 lit pixels."""
    _check(frame)
    lines = []
    for row in range(BRAILLE_SIZE[1]):
        page = frame[(row // 2) * WIDTH:(row // 2 + 1) * WIDTH]
        shift = (row % 2) * 4  # the upper or the lower half of the page byte
        cells = []
        for column in range(BRAILLE_SIZE[0]):
            bits = 0
            for dx in (0, 1):
                byte = page[column * 2 + dx] >> shift
                for dy in range(4):
                    if byte >> dy & 1:
                        bits |= _DOTS[dy][dx]
            cells.append(chr(0x2800 + bits))
        lines.append("".join(cells))
    return lines


def half_blocks(frame: bytes) -> list[str]:
    """32 lines of 128 cells; a cell is the upper and the lower of two pixels."""
    _check(frame)
    lines = []
    for row in range(HALF_BLOCK_SIZE[1]):
        page = frame[(row // 4) * WIDTH:(row // 4 + 1) * WIDTH]
        shift = (row % 4) * 2
        lines.append("".join(_HALVES[byte >> shift & 3] for byte in page))
    return lines


def fits(size: tuple[int, int], cells: tuple[int, int]) -> bool:
    """Whether a region of ``size`` (columns, rows) holds ``cells`` plus a one-cell frame."""
    return size[0] >= cells[0] + 2 and size[1] >= cells[1] + 2
