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


@lru_cache(maxsize=1024)
def _mask(size: str, text: str) -> Any:
    """The mask of ``text`` in a face, in the canvas's column order (``_canvas``: the pixels
    ``ImageFont.getmask`` gives, transposed; Pillow's core image, never changed once made, so
    kept: titles, labels and names come back press after press). The faces are monospaced,
    every cell the same size: the mask is the glyphs' columns one after the other (one join),
    where ``getmask`` crops and pastes each glyph in Pillow (some 3,000 instructions a
    character, half of a new page's drawing)."""
    columns, (width, height) = _glyphs(size)
    try:
        data = b"".join(map(columns.__getitem__, text))  # (no Python loop: 3x cheaper)
    except KeyError:  # a character the table has not (plain text has them all)
        data = b""
    if not data:
        return face(size).font.getmask(text, "1").transpose(Image.Transpose.TRANSPOSE)
    return Image.core.map_buffer(data, (height, width * len(text)), "raw", 0, ("L", 0, 1))


@cache
def _glyphs(size: str) -> tuple[dict[str, bytes], tuple[int, int]]:
    """A face's printable ASCII glyphs, each its columns left to right (a byte a pixel, 255
    lit, each column top to bottom), and the cell's size."""
    font = face(size).font
    cell = font.getmask("A", "1").size
    columns: dict[str, bytes] = {}
    for c in map(chr, range(32, 127)):
        glyph = Image.new("L", cell, 0)
        ImageDraw.Draw(glyph).draw.draw_bitmap((0, 0), font.getmask(c, "1"), 255)
        columns[c] = glyph.transpose(Image.Transpose.TRANSPOSE).tobytes()
    return columns, cell


# Pillow's core drawing of an image (``Image.core.draw(image.im, 0)``), what ``ImageDraw``'s
# methods call: for a mode "1" image the ink is the pixel's value, 0 or 1, and a shape's last
# argument says whether it is filled (1) or outlined (0). ``ImageDraw.Draw`` and its Python
# layer (the inks looked up at each shape) cost some 40,000 instructions a new screen.
# The screen is drawn on its canvas transposed (``_canvas``): every shape's x and y swapped.
Ink = Any


def _text(ink: Ink, xy: tuple[int, int], text: str, size: str, fill: int) -> None:
    """``ImageDraw.text(xy, text, font=face(size), fill=fill)`` for one line of a bitmap face
    on the screen's canvas (``xy`` the screen's, swapped here), the same pixels without its
    general path (anchors, lines, strokes, colour fonts), which costs several times the
    drawing itself."""
    ink.draw_bitmap((xy[1], xy[0]), _mask(size, text), fill)


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


def _bar(ink: Ink, screen: Screen) -> None:
    ink.draw_rectangle((0, 0, BAR - 1, WIDTH - 1), 1, 1)
    right = WIDTH
    if screen.mark:  # white on a black tab at the bar's right end
        right -= 9
        ink.draw_rectangle((0, right, BAR - 1, WIDTH - 1), 0, 1)
        _text(ink, (right + 2, 1), screen.mark, "5x8", 1)
    if screen.page is not None and screen.page[1] > 1:
        label = f"{screen.page[0]}/{screen.page[1]}"
        right -= 5 * len(label) + 2
        _text(ink, (right, 1), label, "5x8", 0)
    _text(ink, (2, 1), fit(plain(screen.title), (right - 4) // 5), "5x8", 0)


def _key(ink: Ink, screen: Screen, y: int) -> int:
    size, rows = key_lines(screen.key)
    height = 24 if size == "12x24" else 16
    if screen.inverse_key:
        ink.draw_rectangle((y, 0, y + height * len(rows), WIDTH - 1), 1, 1)
    for row in rows:
        _text(ink, (1, y), row, size, 0 if screen.inverse_key else 1)
        y += height
    return y + 2


def _number(ink: Ink, screen: Screen, y: int) -> int:
    text = str(screen.number)
    width = 12 * len(text)
    x = (WIDTH - width) // 2
    ink.draw_rectangle((y, x - 8, y + 25, x + width + 7), 1, 0, 1)
    _text(ink, (x, y + 1), text, "12x24", 1)
    # arrows at the box's right: CHOICE steps the number up, NEXT down
    ax = x + width + 12
    ink.draw_polygon([(y + 11, ax), (y + 11, ax + 6), (y + 5, ax + 3)], 1, 1)
    ink.draw_polygon([(y + 15, ax), (y + 15, ax + 6), (y + 21, ax + 3)], 1, 1)
    return y + 28


def _options(ink: Ink, screen: Screen, y: int) -> int:
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
        _text(ink, (x, y), fit(plain(rows[n]), columns), size, 0 if on else 1)
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
        image.im = _canvas(screen).transpose(Image.Transpose.TRANSPOSE)
        return image
    return Picture(screen)


class Picture(Image.Image):
    """A screen's picture whose pixels are made when first read (the screen's kept canvas
    turned upright: some 90,000 instructions), not when it is handed to a glass: the Pico's
    glass takes its frame (``mono_vlsb``), packed from the canvas without them. Everything
    that reads pixels (``load``, ``tobytes``, ``copy``, drawing, saving) goes through
    Pillow's ``_im``, which makes them."""

    def __init__(self, screen: Screen) -> None:
        self._screen, self._pixels = screen, None
        super().__init__()
        self._mode, self._size = "1", (WIDTH, HEIGHT)
        self.mono_vlsb = partial(frame, screen)

    @property
    def _im(self) -> Any:  # pyright: ignore[reportIncompatibleVariableOverride]
        pixels = self._pixels
        if pixels is None:
            pixels = self._pixels = _canvases(self._screen).transpose(
                Image.Transpose.TRANSPOSE)
        return pixels

    @_im.setter
    def _im(self, im: Any) -> None:  # pyright: ignore[reportIncompatibleVariableOverride]
        if im is not None or getattr(self, "_pixels", None) is not None:
            self._pixels = im  # (``Image.__init__`` sets None: a new picture's, or unpickled)


def _canvas(screen: Screen) -> Any:
    """The screen drawn transposed, 64 pixels wide and 128 tall (the screen's pixel (x, y) at
    (y, x)): each of its rows is a column of the panel, which the SSD1306's pages pack (a
    frame is packed from it without turning it: ``frame``), and a text's mask is drawn as its
    glyphs' columns are kept (``_mask``). Pillow's core image, not an ``Image``: only the
    picture (``Picture``) and the frame read it (``Image.new``'s Python layer costs some
    20,000 instructions)."""
    canvas = Image.core.fill("1", (HEIGHT, WIDTH), 0)
    ink = Image.core.draw(canvas, 0)
    _bar(ink, screen)
    y = TOP
    if screen.key:
        y = _key(ink, screen, y)
    if screen.number is not None:
        y = _number(ink, screen, y)
    if screen.rows:
        y = _options(ink, screen, y)
    for line in screen.lines[: max((HEIGHT - y) // LINE, 0)]:
        _text(ink, (1, y), fit(plain(line), COLUMNS), "5x8", 1)
        y += LINE
    return canvas


_canvases = lru_cache(maxsize=64)(_canvas)  # kept: never changed once made (nothing draws on it)


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


def frame_bytes(image: Image.Image) -> bytes:
    """The image in MONO_VLSB: 8 pages of 128 bytes, bit 0 the page's top row."""
    if image.size != (WIDTH, HEIGHT):
        raise ValueError(f"a frame is {WIDTH}x{HEIGHT}, not {image.size[0]}x{image.size[1]}")
    if image.mode != "1":
        image = image.convert("1")
    image.load()
    return _packed(image.im.transpose(Image.Transpose.TRANSPOSE))


def _packed(columns_image: Any) -> bytes:
    """A transposed 1-bit core image (each row a column of the panel, ``_canvas``) in
    MONO_VLSB. Packed least significant bit first ("1;R"), each row of 64 pixels is the
    column's 8 page bytes; regrouping by page is one slice per page. Pillow's core image is
    packed directly (``tobytes`` wraps the same call in Python: an encoder loop)."""
    encoder = Image.core.raw_encoder("1", "1;R", 0, 1)
    encoder.setimage(columns_image, (0, 0, HEIGHT, WIDTH))
    parts = []
    while True:
        _, done, data = encoder.encode(FRAME)
        parts.append(data)
        if done:
            break
    columns = b"".join(parts)
    return b"".join([columns[page::PAGES] for page in range(PAGES)])


@lru_cache(maxsize=64)
def frame(screen: Screen) -> bytes:
    """``frame_bytes(render(screen))``, packed from the screen's canvas and kept as the
    canvases are (a CHOICE cycling a list sends the same frames again: packing one costs
    more than the controller's whole step)."""
    return _packed(_canvases(screen))


def from_frame_bytes(frame: bytes) -> Image.Image:
    """The inverse of ``frame_bytes``: what a 1024-byte frame looks like."""
    if len(frame) != FRAME:
        raise ValueError(f"a frame is {FRAME} bytes, not {len(frame)}")
    columns = bytearray(FRAME)
    for page in range(PAGES):
        columns[page::PAGES] = frame[page * WIDTH:(page + 1) * WIDTH]
    image = Image.frombytes("1", (HEIGHT, WIDTH), bytes(columns), "raw", "1;R")
    return image.transpose(Image.Transpose.TRANSPOSE)
