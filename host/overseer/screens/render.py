"""Screens: what the 128x64 1-bit OLED shows, as plain values, and the one way to draw them.

A ``Screen`` is a title bar (title, page "1/3", mark) over a body stacked top to bottom: the key
word (big), a number being entered (big, boxed), a list of options with a cursor (and ticks when
several may be chosen), then detail lines (small) in whatever room is left (under a list, its
few lines keep their room and the list scrolls in the rest). ``render`` draws it
with Pillow, no device involved; ``draw`` shows it on a luma device (the SSD1306 on the Pi, or
luma's dummy device off the Pi). ``frame_bytes`` packs an image in the SSD1306's own page layout
(MONO_VLSB), the format the Pico link sends (docs/protocol.md).

The faces are Spleen (BSD-2, ``fonts/LICENSE``), converted by ``scripts/fonts``: 5x8 for the
title bar and the detail lines, 8x16 for options and a long key word, 12x24 for a short key
word and numbers. Builders ask ``detail_rows`` how many detail lines fit and page the rest.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from overseer.core.shipped import shipped

WIDTH, HEIGHT = 128, 64
FONTS = shipped("screens/fonts")  # the Spleen bitmap fonts (package data)
BAR = 9  # the title bar's rows (5x8 text on white)
TOP = BAR + 1  # the body's first row
COLUMNS = 25  # detail characters per line (5x8)
LINE = 9  # a detail line's rows (5x8 and one of leading)
KEY_COLUMNS = 16  # key word characters per line in 8x16; 12x24 takes 10
ROW = 16  # an option's row (8x16)

# Typography that the Latin-1 faces lack, in plain characters.
_PLAIN = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"',
                        "\u2013": "-", "\u2014": "-", "\u2026": "...", "\u00d7": "x"})


@cache
def face(size: str) -> ImageFont.ImageFont:
    """A Spleen face by cell size: ``5x8``, ``8x16`` or ``12x24``."""
    return ImageFont.load(str(FONTS / f"spleen-{size}.pil"))


@cache
def _glyphs(size: str) -> tuple[dict[str, bytes], tuple[int, int]]:
    """A face's printable ASCII glyphs, each its columns left to right as the canvas holds
    them (``Canvas``: 8 bytes a column, little-endian, bit ``r`` the cell's row ``r``), and
    the cell's size. The pixels are those ``ImageFont.getmask`` gives."""
    font = face(size).font
    cell = font.getmask("A", "1").size
    width, height = cell
    columns: dict[str, bytes] = {}
    for c in map(chr, range(32, 127)):
        glyph = Image.new("L", cell, 0)
        ImageDraw.Draw(glyph).draw.draw_bitmap((0, 0), font.getmask(c, "1"), 255)
        lit = glyph.transpose(Image.Transpose.TRANSPOSE).tobytes()  # a column, then the next
        columns[c] = b"".join(
            sum(1 << r for r in range(height) if lit[x * height + r]).to_bytes(8, "little")
            for x in range(width))
    return columns, cell


@lru_cache(maxsize=1024)
def _text_bits(size: str, text: str) -> int:
    """``text`` in a face as the canvas's bits with its top left pixel at (0, 0) (kept:
    titles, labels and names come back press after press). The faces are monospaced, every
    cell the same size: the glyphs' columns one after the other (one join)."""
    columns, _ = _glyphs(size)
    try:
        data = b"".join(map(columns.__getitem__, text))  # (no Python loop: 3x cheaper)
    except KeyError:  # a character the table has not (``plain`` text has them all)
        data = b"".join(columns.get(c, columns["?"]) for c in text)
    return int.from_bytes(data, "little")


@lru_cache(maxsize=64)
def _rows_above(rows: int, columns: int) -> int:
    """The canvas's bits of the top ``rows`` rows of ``columns`` columns: what of a text
    that reaches below the screen stays on it."""
    return int.from_bytes(((1 << rows) - 1).to_bytes(8, "little") * columns, "little")


@lru_cache(maxsize=256)
def _shape_bits(method: str, xy: tuple[Any, ...], rest: tuple[int, ...]) -> int:
    """A shape Pillow draws (``method`` of its core drawing: ``draw_rectangle``,
    ``draw_polygon``, ``draw_lines``, with the screen's x and y swapped as on the transposed
    image it draws on), lit on nothing, as the canvas's bits (kept: a screen's bars, boxes
    and arrows are the same few, press after press)."""
    pixels = Image.core.fill("1", (HEIGHT, WIDTH), 0)
    getattr(Image.core.draw(pixels, 0), method)(list(xy), 1, *rest)
    return int.from_bytes(_columns_of(pixels), "little")


class Canvas:
    """The screen being drawn, as one integer: bit ``64 * x + y`` is the pixel (x, y) (each
    column of the panel its 64 bits, top row lowest). In that order the SSD1306's page bytes
    are the integer's bytes regrouped (``frame``), and a drawing is a few operations on whole
    integers: a text is its glyphs' columns joined (``_text_bits``), shifted to its place; a
    shape is the one Pillow draws, kept (``_shape_bits``). Each is set (ink 1) or cleared
    (ink 0) where it is lit, over what was drawn before, as Pillow draws on an image (its
    drawing of a new screen and the packing of its pixels cost several times this)."""

    __slots__ = ("bits",)

    def __init__(self) -> None:
        self.bits = 0

    def _ink(self, lit: int, ink: int) -> None:
        self.bits = self.bits | lit if ink else self.bits & ~lit

    def text(self, xy: tuple[int, int], text: str, size: str, ink: int) -> None:
        """``ImageDraw.text(xy, text, font=face(size), fill=ink)`` for one line of a bitmap
        face (the same pixels)."""
        x, y = xy
        bits = _text_bits(size, text)
        width, height = _glyphs(size)[1]
        if y + height > HEIGHT:  # (its rows below the screen are not drawn)
            bits &= _rows_above(max(HEIGHT - y, 0), len(text) * width)
        self._ink(bits << (64 * x + y), ink)

    # Pillow's core drawing's own calls (``Image.core.draw``: x and y swapped, the ink, then
    # whether the shape is filled, 1, or outlined, 0, and an outline's width)
    def draw_rectangle(self, xy: tuple[int, int, int, int], ink: int, *rest: int) -> None:
        self._ink(_shape_bits("draw_rectangle", xy, rest), ink)

    def draw_polygon(self, xy: tuple[tuple[int, int], ...], ink: int, *rest: int) -> None:
        self._ink(_shape_bits("draw_polygon", xy, rest), ink)

    def draw_lines(self, xy: tuple[int, int, int, int], ink: int, *rest: int) -> None:
        self._ink(_shape_bits("draw_lines", xy, rest), ink)

    def columns(self) -> bytes:
        """The panel's columns, each its 8 page bytes (bit 0 a page's top row)."""
        return (self.bits & _ALL).to_bytes(FRAME, "little")


def plain(text: str) -> str:
    """The text in characters the faces draw (printable ASCII; anything else is "?")."""
    if text.isascii() and text.isprintable():  # the usual text: nothing to replace (and
        return text  # ``_PLAIN`` maps no ASCII: its per-character lookup is 600 a character)
    text = text.translate(_PLAIN)
    if text.isascii() and text.isprintable():
        return text
    return "".join(c if " " <= c <= "~" else "?" for c in text)


def fit(text: str, columns: int) -> str:
    """The text cut to ``columns`` characters, a cut marked with a final "~"."""
    return text if len(text) <= columns else text[: columns - 1] + "~"


def wrap(text: str, width: int = COLUMNS) -> list[str]:
    return list(_wrapped(text, width))


@lru_cache(maxsize=1024)
def _wrapped(text: str, width: int) -> tuple[str, ...]:
    """The lines of ``text`` (kept: the same prompts and status lines are wrapped again at
    every press, and a text's lines never change)."""
    return tuple(_wrap(plain(text), width) or [""])


def _wrap(text: str, width: int) -> list[str]:
    """``textwrap.wrap(text, width)`` of a plain text (``plain``: its only blank is the space).
    The usual text, words of at most ``width`` characters with one space between them, is cut
    at the last space that leaves a line of ``width`` or less, found by ``str.rfind`` (the
    same lines: textwrap takes words and spaces while they fit and drops the spaces at a
    cut; its Python loop over the words cost a new page's text some 100,000 instructions);
    any other text goes through textwrap, split at its spaces only when it has no hyphen."""
    if "-" in text or "  " in text or text[:1] == " " or text[-1:] == " " \
            or max(map(len, text.split(" "))) > width:
        return textwrap.wrap(text, width, break_on_hyphens="-" in text)
    lines, start = [], 0
    while len(text) - start > width:
        cut = text.rfind(" ", start, start + width + 1)
        lines.append(text[start:cut])
        start = cut + 1
    if start < len(text):
        lines.append(text[start:])
    return lines


@dataclass(unsafe_hash=True)
class Screen:
    """One screen. Empty fields take no room. ``mark``: "?" for a question, "!" for a step that
    rests on data the books do not print (and for nothing else). ``selected`` is ``None`` for a
    single choice, else the indices of the ticked options; ``done`` is a last row with no tick
    box (the cursor may stand on it: index ``len(options)``). ``page`` is (this page, of
    pages).

    A value: never changed once made, compared and hashed by its fields (the drawings are kept
    by screen). Not frozen: screens are made at every press, and a frozen dataclass sets each
    of its 11 fields through ``object.__setattr__``, twice the cost of the making (as the
    rules' questions, core/procedure.py)."""

    title: str
    lines: tuple[str, ...] = ()
    mark: str = ""
    key: str = ""
    options: tuple[str, ...] = ()
    cursor: int = 0
    selected: frozenset[int] | None = None
    done: str = ""
    number: int | None = None
    page: tuple[int, int] | None = None
    inverse_key: bool = False  # the key word on white: a notice, not a step

    def __post_init__(self) -> None:
        if self.mark not in ("", "?", "!"):
            raise ValueError(f"a screen's mark is '?', '!' or nothing (got {self.mark!r})")
        if self.rows and not 0 <= self.cursor < len(self.rows):
            raise ValueError(f"cursor {self.cursor} outside {len(self.rows)} rows")

    @property
    def rows(self) -> tuple[str, ...]:
        """The list's rows: the options, then the ``done`` row if there is one."""
        return (*self.options, self.done) if self.done else self.options


@dataclass
class Face:
    """How a trace step shows: its key word, its sentence under it, and the title from here on
    when the step changes it (the active character). Never changed once made (not frozen, as
    ``Screen``: a face is made for every step shown)."""

    key: str
    detail: str
    title: str | None = None


# --------------------------------------------------------------------------- layout


@lru_cache(maxsize=1024)
def key_lines(key: str) -> tuple[str, tuple[str, ...]]:
    """The face and the lines of a key word: 12x24 when it fits on one line, else 8x16 on one
    line, else 8x16 wrapped over two (kept: a screen's layout asks for them several times)."""
    key = plain(key)
    if len(key) <= WIDTH // 12:
        return "12x24", (key,)
    if len(key) <= KEY_COLUMNS:
        return "8x16", (key,)
    rows = _wrap(key, KEY_COLUMNS) or [""]
    return "8x16", (*rows[:1], fit(" ".join(rows[1:]), KEY_COLUMNS))


def _key_height(screen: Screen) -> int:
    if not screen.key:
        return 0
    size, rows = key_lines(screen.key)
    return (24 if size == "12x24" else 16) * len(rows) + 2


def _row_columns(screen: Screen, width: int) -> int:
    """Characters an option row holds in a face ``width`` pixels wide."""
    return (WIDTH - 6 - (11 if screen.selected is not None else 0)) // width


def option_face(screen: Screen) -> tuple[str, int]:
    """The face and row height of the options: two short ones alone on a screen (yes / no)
    are as big as a key word, a list is 8x16, and 5x8 when a label is too long for 8x16 (a
    label is never cut)."""
    alone = not screen.key and screen.number is None and not screen.lines
    longest = max((len(plain(r)) for r in screen.rows), default=0)
    if alone and len(screen.rows) <= 2 and longest <= _row_columns(screen, 12):
        return "12x24", 24
    if longest <= _row_columns(screen, 8):
        return "8x16", ROW
    return "5x8", LINE


def _option_rows(screen: Screen) -> int:
    """How many options show at once (the window scrolls with the cursor), at least one."""
    if not screen.rows:
        return 0
    room = HEIGHT - TOP - _key_height(screen) - (28 if screen.number is not None else 0)
    room -= LINE * len(screen.lines)  # a list's lines (a hint) keep their room: it scrolls
    return min(len(screen.rows), max(room // option_face(screen)[1], 1))


def detail_rows(screen: Screen) -> int:
    """How many detail lines fit under the rest of the screen's body."""
    used = TOP + _key_height(screen) + (28 if screen.number is not None else 0)
    used += _option_rows(screen) * option_face(screen)[1]
    return max((HEIGHT - used) // LINE, 0)


@lru_cache(maxsize=1024)
def rows_under(key: str) -> int:
    """``detail_rows`` of a page with a title and this key word only (no key word: ``""``),
    kept per key word: the pages of every step and prompt ask it."""
    return detail_rows(Screen("", key=key))


# --------------------------------------------------------------------------- drawing


def _bar(ink: Canvas, screen: Screen) -> None:
    ink.draw_rectangle((0, 0, BAR - 1, WIDTH - 1), 1, 1)
    right = WIDTH
    if screen.mark:  # white on a black tab at the bar's right end
        right -= 9
        ink.draw_rectangle((0, right, BAR - 1, WIDTH - 1), 0, 1)
        ink.text((right + 2, 1), screen.mark, "5x8", 1)
    if screen.page is not None and screen.page[1] > 1:
        label = f"{screen.page[0]}/{screen.page[1]}"
        right -= 5 * len(label) + 2
        ink.text((right, 1), label, "5x8", 0)
    ink.text((2, 1), fit(plain(screen.title), (right - 4) // 5), "5x8", 0)


def _key(ink: Canvas, screen: Screen, y: int) -> int:
    size, rows = key_lines(screen.key)
    height = 24 if size == "12x24" else 16
    if screen.inverse_key:
        ink.draw_rectangle((y, 0, y + height * len(rows), WIDTH - 1), 1, 1)
    for row in rows:
        ink.text((1, y), row, size, 0 if screen.inverse_key else 1)
        y += height
    return y + 2


def _number(ink: Canvas, screen: Screen, y: int) -> int:
    text = str(screen.number)
    width = 12 * len(text)
    x = (WIDTH - width) // 2
    ink.draw_rectangle((y, x - 8, y + 25, x + width + 7), 1, 0, 1)
    ink.text((x, y + 1), text, "12x24", 1)
    # arrows at the box's right: CHOICE steps the number up, NEXT down
    ax = x + width + 12
    ink.draw_polygon(((y + 11, ax), (y + 11, ax + 6), (y + 5, ax + 3)), 1, 1)
    ink.draw_polygon(((y + 15, ax), (y + 15, ax + 6), (y + 21, ax + 3)), 1, 1)
    return y + 28


def _options(ink: Canvas, screen: Screen, y: int) -> int:
    rows = screen.rows
    shown = _option_rows(screen)
    size, row = option_face(screen)
    first = min(max(screen.cursor - shown + 1, 0), len(rows) - shown)
    for n in range(first, first + shown):
        on = n == screen.cursor
        if on:
            ink.draw_rectangle((y, 0, y + row - 1, WIDTH - (5 if shown < len(rows) else 1)),
                               1, 1)
        x = 2
        if screen.selected is not None and n < len(screen.options):
            box = y + row // 2 - 4
            ink.draw_rectangle((box, x, box + 7, x + 7), 0 if on else 1, 0, 1)
            if screen.selected and n in screen.selected:
                ink.draw_rectangle((box + 2, x + 2, box + 5, x + 5), 0 if on else 1, 1)
            x += 11
        columns = _row_columns(screen, int(size.split("x")[0]))
        ink.text((x, y), fit(plain(rows[n]), columns), size, 0 if on else 1)
        y += row
    if shown < len(rows):  # a scroll bar: where the window is in the list
        top, bottom = TOP + _key_height(screen), y - 1
        span = bottom - top
        ink.draw_lines((top, WIDTH - 2, bottom, WIDTH - 2), 1, 1)
        start = top + span * first // len(rows)
        end = top + span * (first + shown) // len(rows)
        ink.draw_rectangle((start, WIDTH - 3, end, WIDTH - 1), 1, 1)
    return y


def render(screen: Screen) -> Image.Image:
    """The screen as a 128x64 image in mode "1" (1 = a lit pixel). The picture carries its
    frame (``image.mono_vlsb()``: the screen's kept ``frame``), which a glass sending frames
    takes rather than packing the picture: on such a glass (the Pico) its pixels are never
    made (``Picture``). A new image at every call: the caller may draw on it."""
    try:
        hash(screen)
    except TypeError:  # a field given as a list: drawn, not kept
        image = Image.new("1", (WIDTH, HEIGHT))
        image.im = _pixels(_canvas(screen))
        return image
    return Picture(screen)


class Picture(Image.Image):
    """A screen's picture whose pixels are made when first read (the screen's kept columns
    unpacked and turned upright), not when it is handed to a glass: the Pico's glass takes
    its frame (``mono_vlsb``), made of the columns without them. Everything that reads
    pixels (``load``, ``tobytes``, ``copy``, drawing, saving) goes through Pillow's ``_im``,
    which makes them."""

    def __init__(self, screen: Screen) -> None:
        self._screen, self._pixels = screen, None
        super().__init__()
        self._mode, self._size = "1", (WIDTH, HEIGHT)
        self.mono_vlsb = partial(frame, screen)

    @property
    def _im(self) -> Any:  # pyright: ignore[reportIncompatibleVariableOverride]
        pixels = self._pixels
        if pixels is None:
            pixels = self._pixels = _pixels(_canvases(self._screen))
        return pixels

    @_im.setter
    def _im(self, im: Any) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        if im is not None or getattr(self, "_pixels", None) is not None:
            self._pixels = im  # (``Image.__init__`` sets None: a new picture's, or unpickled)


def _canvas(screen: Screen) -> bytes:
    """The screen drawn (``Canvas``): the panel's columns, each its 8 page bytes."""
    ink = Canvas()
    _bar(ink, screen)
    y = TOP
    if screen.key:
        y = _key(ink, screen, y)
    if screen.number is not None:
        y = _number(ink, screen, y)
    if screen.rows:
        y = _options(ink, screen, y)
    for line in screen.lines[: max((HEIGHT - y) // LINE, 0)]:
        ink.text((1, y), fit(plain(line), COLUMNS), "5x8", 1)
        y += LINE
    return ink.columns()


_canvases = lru_cache(maxsize=64)(_canvas)  # kept: bytes, never changed


def _pixels(columns: bytes) -> Any:
    """The panel's columns (``Canvas.columns``) as Pillow's core image, upright."""
    return Image.frombytes("1", (HEIGHT, WIDTH), columns, "raw", "1;R").im.transpose(
        Image.Transpose.TRANSPOSE)


def draw(screen: Screen, device=None) -> Image.Image:
    """Show the screen on ``device`` (a luma device; luma's dummy device by default) and return
    the image shown."""
    if device is None:
        from luma.core.device import dummy

        device = dummy(width=WIDTH, height=HEIGHT, mode="1")
    image = render(screen)
    device.display(image)
    return image


# --------------------------------------------------------------------------- the Pico's frames

FRAME = WIDTH * HEIGHT // 8
PAGES = HEIGHT // 8
_ALL = (1 << 8 * FRAME) - 1  # the canvas's bits on the screen (``Canvas``)


def frame_bytes(image: Image.Image) -> bytes:
    """The image in MONO_VLSB: 8 pages of 128 bytes, bit 0 the page's top row."""
    if image.size != (WIDTH, HEIGHT):
        raise ValueError(f"a frame is {WIDTH}x{HEIGHT}, not {image.size[0]}x{image.size[1]}")
    if image.mode != "1":
        image = image.convert("1")
    image.load()
    return _pages(_columns_of(image.im.transpose(Image.Transpose.TRANSPOSE)))


def _columns_of(transposed: Any) -> bytes:
    """A transposed 1-bit core image (each row a column of the panel) as the panel's
    columns: packed least significant bit first ("1;R"), each row of 64 pixels is the
    column's 8 page bytes. Pillow's core image is packed directly (``tobytes`` wraps the
    same call in Python: an encoder loop)."""
    encoder = Image.core.raw_encoder("1", "1;R", 0, 1)
    encoder.setimage(transposed, (0, 0, HEIGHT, WIDTH))
    parts = []
    while True:
        _, done, data = encoder.encode(FRAME)
        parts.append(data)
        if done:
            break
    return b"".join(parts)


def _pages(columns: bytes) -> bytes:
    """The panel's columns regrouped by page (MONO_VLSB): one slice a page."""
    return b"".join([columns[page::PAGES] for page in range(PAGES)])


@lru_cache(maxsize=64)
def frame(screen: Screen) -> bytes:
    """``frame_bytes(render(screen))``, of the screen's kept columns (a CHOICE cycling a list
    sends the same frames again)."""
    return _pages(_canvases(screen))


def from_frame_bytes(frame: bytes) -> Image.Image:
    """The inverse of ``frame_bytes``: what a 1024-byte frame looks like."""
    if len(frame) != FRAME:
        raise ValueError(f"a frame is {FRAME} bytes, not {len(frame)}")
    columns = bytearray(FRAME)
    for page in range(PAGES):
        columns[page::PAGES] = frame[page * WIDTH:(page + 1) * WIDTH]
    image = Image.frombytes("1", (HEIGHT, WIDTH), bytes(columns), "raw", "1;R")
    return image.transpose(Image.Transpose.TRANSPOSE)
