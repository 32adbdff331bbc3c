# SSD1306 OLED driver over I2C. The driver is a framebuf.FrameBuffer in MONO_VLSB, which is the
# controller's own RAM layout (8 pages of `width` bytes, bit 0 the top row), so show() sends the
# buffer as it is, and show_chunks() only the half pages that changed, each run of them one I2C
# write with its window in front.
import framebuf

# Power-up sequence (SSD1306 datasheet, command table): display off, horizontal addressing,
# start line 0, column 127 mapped to SEG0, 64 rows, COM scan from the bottom, no offset,
# alternative COM pins, clock, pre-charge, VCOM level, contrast, show RAM, normal (not inverted),
# charge pump on, display on.
_INIT = (
    0xAE, 0x20, 0x00, 0x40, 0xA1, 0xA8, 0x3F, 0xC8, 0xD3, 0x00, 0xDA, 0x12,
    0xD5, 0x80, 0xD9, 0xF1, 0xDB, 0x30, 0x81, 0xCF, 0xA4, 0xA6, 0x8D, 0x14, 0xAF,
)  # fmt: skip
_COLUMN_ADDRESS = 0x21
_PAGE_ADDRESS = 0x22
CHUNK = 64  # a chunk is half a page: bit i of a chunk mask is page i // 2, columns 64 * (i % 2)
ALL = 0xFFFF  # every chunk of a 128 x 64 panel


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, width: int, height: int, i2c, address: int = 0x3C) -> None:
        self.width = width
        self.height = height
        self.i2c = i2c
        self.address = address
        self.failures = 0  # I2C writes that failed
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self._view = memoryview(self.buffer)
        self._command = bytearray((0x80, 0))  # control byte: one command follows
        # the column and page window, each command byte after a control byte 0x80 (Co = 1: a
        # command, then another control byte), then 0x40 (display data follows): a show is one
        # transaction, its window and its data
        self._window = bytearray(
            (0x80, _COLUMN_ADDRESS, 0x80, 0, 0x80, width - 1,
             0x80, _PAGE_ADDRESS, 0x80, 0, 0x80, 0, 0x40)
        )  # fmt: skip
        self._data = (self._window, self.buffer)
        for c in _INIT:
            self.command(c)
        self.fill(0)
        self.show()

    def command(self, c: int) -> None:
        self._command[1] = c
        self._write(self.i2c.writeto, self._command)

    def show(self) -> None:
        """Send the whole buffer."""
        self._set_window(0, self.width - 1, 0, self.height // 8 - 1)
        self._write(self.i2c.writevto, self._data)  # one transaction

    def show_chunks(self, mask: int) -> None:
        """Send only the chunks whose bit is set in ``mask`` (see CHUNK): pages next to each
        other that need the same columns (the left half, the right half or both) go in one
        window, so a run of whole pages is one write."""
        if mask & ALL == ALL:
            self.show()
            return
        pages = self.height // 8
        page = 0
        while page < pages:
            halves = (mask >> (2 * page)) & 3  # 1: the left half, 2: the right half, 3: both
            if not halves:
                page += 1
                continue
            last = page
            while last + 1 < pages and (mask >> (2 * last + 2)) & 3 == halves:
                last += 1
            self._send(page, last, halves)
            page = last + 1

    def _send(self, first: int, last: int, halves: int) -> None:
        width = self.width
        half = width // 2
        left = half if halves == 2 else 0
        right = half - 1 if halves == 1 else width - 1
        self._set_window(left, right, first, last)
        view = self._view
        if halves == 3:  # whole pages: one run of the buffer
            self._write(self.i2c.writevto, (self._window, view[first * width : (last + 1) * width]))
            return
        parts: list = [self._window]
        for page in range(first, last + 1):
            start = page * width + left
            parts.append(view[start : start + half])
        self._write(self.i2c.writevto, parts)

    def _set_window(self, left: int, right: int, first: int, last: int) -> None:
        """The window the next write's data fills (it is sent in front of that data)."""
        w = self._window
        w[3] = left
        w[5] = right
        w[9] = first
        w[11] = last

    def _write(self, write, data):
        # a loose or missing display must not stop the buttons and dice: count and go on
        try:
            write(self.address, data)
        except OSError:
            self.failures += 1
