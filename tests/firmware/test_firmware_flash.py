"""scripts/flash: what it would copy to the Pico (dry run: no Pico, no mpremote run)."""

import subprocess
import sys

import machine
import main
import maintenance
import pins

from tests.firmware.fwtools import FIRMWARE, ROOT


def dry_run(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "flash"), "--dry-run", *args],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_copies_every_firmware_module_and_no_stand_in() -> None:
    out = dry_run("--port", "/dev/ttyACM0")
    assert "connect /dev/ttyACM0" in out
    for path in FIRMWARE.glob("*.py"):
        assert f" {path} " in out
    assert "firmware/unix" not in out
    assert "mpy-cross" not in out


def test_mpy_compiles_all_but_boot_and_main() -> None:
    out = dry_run("--mpy")
    compiled = [ln for ln in out.splitlines() if "mpy-cross" in ln]
    names = {p.stem for p in FIRMWARE.glob("*.py")} - {"boot", "main"}
    assert len(compiled) == len(names)
    for name in names:
        assert f"{name}.mpy" in out
        assert f" -s {name}.py " in out  # its own name on the Pico's heap, not a host path
    for source in ("boot.py", "main.py"):  # MicroPython runs these two only as source
        assert f" {FIRMWARE / source} " in out


def test_back_undo_held_at_power_up_leaves_the_repl_free() -> None:
    back_undo = [gpio for _name, code, gpio in pins.BUTTONS if code == maintenance.BUTTON]
    pin = machine.Pin(back_undo[0], machine.Pin.IN, machine.Pin.PULL_UP)
    assert not maintenance.held()
    pin.value(0)  # held
    try:
        assert maintenance.held()
        assert main.run() is None  # returns at once: no board, no watchdog
    finally:
        pin.value(1)


def test_without_mpremote_it_says_how_to_install_it_and_runs_nothing(tmp_path) -> None:
    """A checkout whose .venv has no mpremote, nor PATH: the flash extra is named."""
    import shutil

    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "flash", tmp_path / "scripts" / "flash")
    shutil.copytree(FIRMWARE, tmp_path / "firmware")
    done = subprocess.run([sys.executable, str(tmp_path / "scripts" / "flash")],
                          capture_output=True, text=True, env={"PATH": str(tmp_path)})
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("scripts/flash: mpremote is not installed: OVERSEER_EXTRAS=flash "
                           "scripts/run --help (or pip install 'overseer[flash]')\n")
