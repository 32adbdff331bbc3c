"""A Glass on an OLED wired to the Pi itself, through luma.oled (SSD1306 or SH1106, 128x64).

``LumaGlass`` takes any luma device: ``open_oled`` builds one on the Pi's I2C bus; the tests give
the real driver classes a recording serial interface.
"""

from __future__ import annotations

from luma.core.device import device as LumaDevice
from PIL import Image

from overseer.ports.ports import GLASS_SIZE, check_glass_image

DRIVERS = ("ssd1306", "sh1106")


class LumaGlass:
    """A Glass over a luma.oled device (``device.display(image)``)."""

    def __init__(self, device: LumaDevice) -> None:
        if device.size != GLASS_SIZE or device.mode != "1":
            raise ValueError(
                f"the glass is a 128x64 1-bit display, not {device.size} in mode {device.mode!r}"
            )
        self.device = device
        self._last: bytes | None = None

    def show(self, image: Image.Image) -> None:
        """Draw ``image`` on the OLED; the same image again writes nothing."""
        image = check_glass_image(image)
        data = image.tobytes()
        if data != self._last:
            self.device.display(image)
            self._last = data

    def close(self) -> None:
        """Blank the OLED, switch it off and release the bus (luma's ``cleanup``)."""
        self.device.cleanup()


def open_oled(
    driver: str = "ssd1306", bus: int = 1, address: int = 0x3C, rotate: int = 0
) -> LumaGlass:
    """The OLED on I2C bus ``bus`` (/dev/i2c-N) at ``address``; luma raises
    ``DeviceNotFoundError`` or ``DevicePermissionError`` naming the bus when it cannot open it."""
    from luma.core.interface.serial import i2c
    from luma.oled.device import sh1106, ssd1306

    if driver not in DRIVERS:
        raise ValueError(f"unknown OLED driver {driver!r}: the drivers are {', '.join(DRIVERS)}")
    kind = ssd1306 if driver == "ssd1306" else sh1106
    serial = i2c(port=bus, address=address)
    return LumaGlass(kind(serial, width=GLASS_SIZE[0], height=GLASS_SIZE[1], rotate=rotate))
