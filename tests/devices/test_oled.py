"""LumaGlass on the real luma.oled SSD1306 and SH1106 drivers, over a serial interface that
records the commands and data bytes they write (as luma.core's own tests check drivers)."""

from __future__ import annotations

import pytest
from luma.core.error import DeviceNotFoundError
from luma.oled.device import sh1106, ssd1306
from PIL import Image

from overseer.devices.oled import LumaGlass, open_oled
from overseer.screens.render import Screen, draw, frame_bytes

# luma.oled 3.16 reads pixels with Image.getdata, which Pillow 13 marks deprecated.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")


class RecordingSerial:
    """A luma serial interface that keeps every call."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[int, ...]]] = []
        self.cleaned = False

    def command(self, *cmd: int) -> None:
        self.calls.append(("command", tuple(cmd)))

    def data(self, data: list[int] | bytes) -> None:
        self.calls.append(("data", tuple(data)))

    def cleanup(self) -> None:
        self.cleaned = True

    def take(self) -> list[tuple[str, tuple[int, ...]]]:
        calls, self.calls = self.calls, []
        return calls


def known_image() -> Image.Image:
    image = draw(Screen("NEXT AI PIECE", ("Sewer Rat", "melee + poison")))
    image.putpixel((0, 63), 1)  # page 7, column 0, bit 7
    return image


def test_ssd1306_gets_the_page_layout_in_one_write() -> None:
    serial = RecordingSerial()
    glass = LumaGlass(ssd1306(serial, width=128, height=64))
    serial.take()  # the driver's own start-up: init sequence, a blank screen, display on
    image = known_image()
    glass.show(image)
    frame = frame_bytes(image)
    assert serial.take() == [
        ("command", (0x21, 0, 127, 0x22, 0, 7)),  # COLUMNADDR 0..127, PAGEADDR 0..7
        ("data", tuple(frame)),
    ]
    assert frame[0] == 0xFF and frame[7 * 128] & 0x80  # the title bar's corner, the lit pixel


def test_sh1106_gets_each_page_at_its_column_offset() -> None:
    serial = RecordingSerial()
    glass = LumaGlass(sh1106(serial, width=128, height=64))
    serial.take()
    image = known_image()
    glass.show(image)
    calls = serial.take()
    frame = frame_bytes(image)
    expected = []
    for page in range(8):
        # The page, then column 2: the SH1106 has 132 columns and the panel shows 2..129.
        expected.append(("command", (0xB0 + page, 0x02, 0x10)))
        expected.append(("data", tuple(frame[page * 128 : (page + 1) * 128])))
    assert calls == expected


def test_the_same_image_again_writes_nothing_and_close_blanks_and_releases() -> None:
    serial = RecordingSerial()
    glass = LumaGlass(ssd1306(serial))
    glass.show(known_image())
    serial.take()
    glass.show(known_image())
    assert serial.take() == []
    glass.show(known_image().convert("L"))  # another mode, the same pixels
    assert serial.take() == []
    glass.close()
    calls = serial.take()
    assert ("command", (0xAE,)) in calls  # DISPLAYOFF
    assert ("data", tuple(bytes(1024))) in calls and serial.cleaned


def test_a_glass_is_128x64_one_bit() -> None:
    with pytest.raises(ValueError, match=r"not \(128, 32\)"):
        LumaGlass(ssd1306(RecordingSerial(), width=128, height=32))
    glass = LumaGlass(ssd1306(RecordingSerial()))
    with pytest.raises(ValueError, match="the glass is 128x64 pixels, not 64x64"):
        glass.show(Image.new("1", (64, 64)))


def test_open_oled_names_a_missing_bus_and_refuses_an_unknown_driver() -> None:
    with pytest.raises(ValueError, match="unknown OLED driver 'ssd1309': the drivers are ssd1306, sh1106"):
        open_oled("ssd1309")
    with pytest.raises(DeviceNotFoundError, match="/dev/i2c-99"):
        open_oled("sh1106", bus=99)
