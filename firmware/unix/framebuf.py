# Off-board stand-in for MicroPython's `framebuf`, used under CPython only (MicroPython has the
# real module built in, and a built-in wins over this file). No CPython package provides it
# without Adafruit's Blinka hardware layer. MONO_VLSB only: the SSD1306 layout the firmware uses.
# text() draws Pillow's default font in 8x8 cells: the shape of letters differs from the Pico's.
from PIL import Image, ImageDraw, ImageFont

MONO_VLSB = 0
_glyphs = {}


def _glyph(ch):
    """The set pixels (x, y) of ch in an 8x8 cell."""
    if ch not in _glyphs:
        image = Image.new("1", (8, 8))
        draw = ImageDraw.Draw(image)
        draw.fontmode = "1"
        draw.text((0, 0), ch, fill=1, font=ImageFont.load_default(8))
        _glyphs[ch] = [(x, y) for y in range(8) for x in range(8) if image.getpixel((x, y))]
    return _glyphs[ch]


class FrameBuffer:
    def __init__(self, buffer, width, height, format):
        if format != MONO_VLSB:
            raise ValueError("only MONO_VLSB")
        self._buf = buffer
        self._w = width
        self._h = height

    def pixel(self, x, y, c=None):
        if not (0 <= x < self._w and 0 <= y < self._h):
            return None
        i = (y >> 3) * self._w + x
        bit = 1 << (y & 7)
        if c is None:
            return 1 if self._buf[i] & bit else 0
        if c:
            self._buf[i] |= bit
        else:
            self._buf[i] &= ~bit & 0xFF
        return None

    def fill(self, c):
        value = 0xFF if c else 0
        for i in range((self._h + 7) // 8 * self._w):
            self._buf[i] = value

    def fill_rect(self, x, y, w, h, c):
        for yy in range(max(y, 0), min(y + h, self._h)):
            for xx in range(max(x, 0), min(x + w, self._w)):
                self.pixel(xx, yy, c)

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
            return
        self.hline(x, y, w, c)
        self.hline(x, y + h - 1, w, c)
        self.vline(x, y, h, c)
        self.vline(x + w - 1, y, h, c)

    def text(self, s, x, y, c=1):
        for k, ch in enumerate(s):
            for gx, gy in _glyph(ch):
                self.pixel(x + 8 * k + gx, y + gy, c)
