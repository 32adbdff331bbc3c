"""The Pi's NFC reader and OLED in the one pin map agree with the code's defaults and the
wiring document."""

from __future__ import annotations

import tomllib
from pathlib import Path

from overseer.cli import doctor
from overseer.devices.nfc import DEFAULT_PORT

ROOT = Path(__file__).resolve().parents[2]
PI = tomllib.loads((ROOT / "hardware" / "pins.toml").read_text())["pi"]
WIRING = (ROOT / "hardware" / "wiring.md").read_text()


def test_the_reader_is_on_the_uart_the_code_opens():
    assert PI["nfc"]["bus"] == "uart"
    assert PI["nfc"]["port"] == DEFAULT_PORT
    assert (PI["nfc"]["txd"], PI["nfc"]["rxd"]) == (14, 15)
    assert "| RXD | TXD, BCM 14, pin 8 |" in WIRING
    assert "| TXD | RXD, BCM 15, pin 10 |" in WIRING


def test_the_doctor_looks_for_the_oled_where_the_map_puts_it():
    args = doctor.parser().parse_args([])
    assert (args.i2c_bus, args.oled_address) == (PI["oled"]["i2c"], PI["oled"]["address"])
    assert "| SDA | SDA, BCM 2, pin 3 |" in WIRING
