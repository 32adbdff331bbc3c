"""Finding the Pico's USB serial port by its USB vendor and product id."""

from __future__ import annotations

from serial.tools import list_ports

RASPBERRY_PI_VID = 0x2E8A  # the USB vendor id of Raspberry Pi (the Pico's MicroPython port)


def find_pico_ports(vid: int = RASPBERRY_PI_VID, pid: int | None = None) -> list[str]:
    """Device paths of the serial ports with this USB VID (and PID, when given), sorted."""
    found = [
        port.device
        for port in list_ports.comports()
        if port.vid == vid and (pid is None or port.pid == pid)
    ]
    return sorted(found)
