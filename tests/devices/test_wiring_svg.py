"""scripts/wiring_svg: the wiring picture in docs/img/wiring.svg is drawn from the one pin map,
names every pin in it, and is up to date."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "wiring_svg"


def script():
    loader = importlib.machinery.SourceFileLoader("wiring_svg", str(SCRIPT))
    spec = importlib.util.spec_from_loader("wiring_svg", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return [el.text or "" for el in root.iter("{http://www.w3.org/2000/svg}text")]


def pin_map() -> dict:
    return tomllib.loads((ROOT / "hardware" / "pins.toml").read_text())


def test_the_picture_names_every_pin_of_the_map():
    pins = pin_map()
    shown = texts(script().render(pins))
    wanted = [f"GP{b['gpio']} (pin " for b in pins["pico"]["button"]]
    wanted += [f"button {b['label']} " for b in pins["pico"]["button"]]
    wanted += [f"GP{pins['pico']['oled'][line]} (pin " for line in ("sda", "scl")]
    wanted += [f"BCM {led['bcm']} (pin " for led in pins["pi"]["seat_led"]]
    wanted += [f"seat {led['seat']} LED" for led in pins["pi"]["seat_led"]]
    wanted += [f"BCM {pins['pi']['nfc']['txd']} TXD", f"BCM {pins['pi']['nfc']['rxd']} RXD"]
    wanted += [f"BCM {pins['pi']['oled'][line]} (pin " for line in ("sda", "scl")]
    for label in wanted:
        assert any(text.startswith(label) for text in shown), label


def test_the_physical_pins_are_the_headers():
    module = script()
    assert [module.pico_pin(gp) for gp in (0, 2, 3, 6, 8, 9, 15)] == [1, 4, 5, 9, 11, 12, 20]
    assert [module.pi_pin(bcm) for bcm in (2, 3, 5, 6, 13, 14, 15, 19)] == [
        3, 5, 29, 31, 33, 8, 10, 35]


def test_a_changed_pin_map_changes_the_picture():
    pins = pin_map()
    pins["pi"]["seat_led"][0]["bcm"] = 17
    assert "BCM 17 (pin 11)" in texts(script().render(pins))


def test_docs_img_wiring_svg_is_up_to_date():
    result = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
