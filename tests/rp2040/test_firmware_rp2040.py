"""The firmware's own checks (tests/firmware/mp_checks.py: the vectors decoded and encoded, the
dice's byte map, the buttons' edges and lockouts, go-back-N) run at the REPL of MicroPython's
rp2 port on the emulated RP2040, with the modules as .mpy as a board gets them: the same results
as off-board. And a smoke test of the dice with the board's own os.urandom."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from overseer.devices.rp2040_pico import build_image, missing, run_at_repl
from overseer.devices.virtual_pico import FIRMWARE
from tests.firmware.fwtools import firmware_path

TESTS = Path(__file__).resolve().parents[1]
CHECKS = TESTS / "firmware" / "mp_checks.py"
VECTORS = TESTS / "vectors" / "protocol.json"
ROLLS = 3000  # each die, on the board (a few ms of board time each hundred)
CRITICAL = {11: 48.87, 5: 35.89}  # chi-square at p = 1e-6 (as tests/firmware/test_firmware_dice)

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("rp2-checks")
    return build_image(folder / "checks.img", FIRMWARE, main=False, extra=(CHECKS, VECTORS))


def test_the_firmware_checks_give_the_same_results_on_the_rp2_port(image: Path) -> None:
    code = ('import sys\nsys.argv[:] = ["mp_checks.py", "/protocol.json"]\n'
            'exec(open("mp_checks.py").read())\n')
    on_board = json.loads(run_at_repl(code, image).strip().splitlines()[-1])
    assert on_board.pop("implementation") == "micropython"
    assert on_board.pop("partial_shows") is None  # the stand-in's recording panel: off-board only
    done = subprocess.run([sys.executable, str(CHECKS), str(VECTORS)], capture_output=True,
                          text=True, check=True, env=firmware_path())
    off_board = json.loads(done.stdout)
    del off_board["implementation"], off_board["partial_shows"]
    assert on_board == off_board


def test_the_dice_are_fair_with_the_boards_random_source(image: Path) -> None:
    code = (f"import dice, os, json\nout = []\nfor die in range(3):\n"
            f"    counts = [0] * (dice.FACES[die] + 1)\n"
            f"    for _ in range({ROLLS}):\n        counts[dice.roll(die, os.urandom)] += 1\n"
            f"    out.append(counts)\nprint(json.dumps(out))\n")
    rolled = json.loads(run_at_repl(code, image).strip().splitlines()[-1])
    for counts in rolled:
        n = len(counts) - 1
        assert counts[0] == 0 and sum(counts) == ROLLS
        expected = ROLLS / n
        chi = sum((c - expected) ** 2 / expected for c in counts[1:])
        assert chi < CRITICAL[n - 1], counts


def test_back_undo_held_at_power_up_leaves_the_usb_to_the_repl(tmp_path: Path) -> None:
    """The whole firmware, boot.py and main.py included, with BACK/UNDO held (the emulator
    applies no pull-ups: a button line nothing drives reads 0, held): boot.py leaves the USB
    to MicroPython's REPL (no link CDC of its own), main.py returns at once, mpremote can work."""
    image = build_image(tmp_path / "firmware.img", FIRMWARE)
    said = run_at_repl("import cdc, main\nprint(cdc.device, main.maintenance.held())\n", image)
    assert said.strip().splitlines()[-1] == "None True"
