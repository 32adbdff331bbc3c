# SSD1306 OLED driver over I2C. The driver is a framebuf.FrameBuffer in MONO_VLSB, which is the
# controller's own RAM layout (8 pages of `width` bytes, bit 0 the top row), so show() sends the
# buffer as it is.
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


class SSD1306_I2C(framebuf.FrameBuffer):
    def __init__(self, width: int, height: int, i2c, address: int = 0x3C) -> None:
        self.width = width
        self.height = height
        self.i2c = i2c
        self.address = address
        self.failures = 0  # I2C writes that failed
        self.buffer = bytearray(width * height // 8)
        super().__init__(self.buffer, width, height, framebuf.MONO_VLSB)
        self._command = bytearray((0x80, 0))  # control byte: one command follows
        self._data = (b"\x40", self.buffer)  # control byte: display data follows
        for c in _INIT:
            self.command(c)
        self.fill(0)
        self.show()

    def command(self, c: int) -> None:
        self._command[1] = c
        self._write(self.i2c.writeto, self._command)

    def show(self) -> None:
        for c in (_COLUMN_ADDRESS, 0, self.width - 1, _PAGE_ADDRESS, 0, self.height // 8 - 1):
            self.command(c)
        self._write(self.i2c.writevto, self._data)

    def _write(self, write, data):
        # a loose or missing display must not stop the buttons and dice: count and go on
        try:
            write(self.address, data)
        except OSError:
            self.failures += 1
