"""The one pin map: firmware/pins.py is generated from it and up to date; the map is sound."""

import subprocess
import sys
import tomllib

import pins

from tests.firmware.fwtools import ROOT

PIN_MAP = tomllib.loads((ROOT / "hardware" / "pins.toml").read_text())


def test_generated_module_is_up_to_date() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "gen_pins"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def test_button_codes_are_the_protocol_ones() -> None:
    # docs/protocol.md, Buttons: 0 NEXT AI PIECE, 1 OK, 2 CHOICE, 3 BACK/UNDO, 4 ROLL
    assert [(name, code) for name, code, _gpio in pins.BUTTONS] == [
        ("next_ai_piece", 0),
        ("ok", 1),
        ("choice", 2),
        ("back_undo", 3),
        ("roll", 4),
    ]


def test_no_pico_gpio_is_used_twice_and_all_exist() -> None:
    used = [gpio for _n, _c, gpio in pins.BUTTONS] + [pins.OLED_SDA, pins.OLED_SCL]
    assert len(set(used)) == len(used)
    assert all(0 <= g <= 22 or 26 <= g <= 28 for g in used)  # the Pico's header GPIOs


def test_oled_pins_belong_to_the_i2c_block() -> None:
    # RP2040: I2C0 SDA on GP0, 4, 8, ... (GP = 4k), SCL on 4k + 1; I2C1 SDA 4k + 2, SCL 4k + 3
    base = 2 * pins.OLED_I2C
    assert pins.OLED_SDA % 4 == base and pins.OLED_SCL % 4 == base + 1


def test_seat_leds_are_four_distinct_general_purpose_bcm_pins() -> None:
    leds = PIN_MAP["pi"]["seat_led"]
    assert [led["seat"] for led in leds] == [1, 2, 3, 4]
    bcm = [led["bcm"] for led in leds]
    assert len(set(bcm)) == 4
    assert not set(bcm) & {2, 3}  # the Pi's I2C (NFC reader, optional OLED)
