"""``overseer doctor``: plain findings, the exit status, a fast import, never a traceback."""

from __future__ import annotations

import argparse
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from overseer.cli import doctor
from overseer.devices import protocol as p
from overseer.devices.pn532_emulator import PtyPn532
from overseer.session import lock

ROOT = Path(__file__).resolve().parents[2]


def doctor_run(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``overseer doctor`` in a fresh interpreter (the import check needs one)."""
    paths = [str(ROOT / "host"), *sys.path[1:]]
    full = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), **(env or {})}
    return subprocess.run([sys.executable, "-X", "importtime", "-m", "overseer.cli", "doctor",
                           *argv], capture_output=True, text=True, env=full, timeout=60)


def args(tmp_path: Path, **more) -> argparse.Namespace:
    values = {"port": str(tmp_path / "no-tty"), "db": str(tmp_path / "games.sqlite3"),
              "i2c_bus": 97, "oled_address": 0x3C, "without": [], "pico_port": None,
              "pico_wait": 10.0, "leds": True, "pins": {1: 5, 2: 6, 3: 13, 4: 19},
              "factory": "mock", "pin_factory": None, "sleep": lambda s: None}
    return argparse.Namespace(**{**values, **more})


def test_the_reader_on_the_emulator_is_found_and_a_missing_pico_is_a_problem(tmp_path):
    with PtyPn532() as emulator:
        result = doctor_run("--port", emulator.path, "--db", str(tmp_path / "games.sqlite3"),
                            "--i2c-bus", "97")
    lines = [line for line in result.stdout.splitlines() if not line.startswith(
        ("ok    config", "FAIL  leds", "             -> add the user to the gpio",
          "             -> install it in the venv"))]
    assert result.returncode == 1
    assert lines[0].startswith("ok    python Python 3.")
    assert lines[1] == "FAIL  pico   no Pico found on USB"
    assert lines[2].startswith("             -> plug the Pico into the Pi with a data")
    assert lines[3] == f"ok    nfc    the NFC reader answers on {emulator.path}: PN532v1.6 at " \
                       f"{emulator.path}"
    assert lines[4] == "--    oled   no I2C bus /dev/i2c-97, so no Pi-side OLED (optional)"
    assert lines[6].startswith("ok    data   the card data loads (121 catacombs, 56 conquest")
    assert lines[-1] in ("1 problem: pico", "2 problems: pico, leds")
    assert "Traceback" not in result.stdout + result.stderr


def test_doctor_imports_no_rules_no_screens_no_images(tmp_path):
    result = doctor_run("--without", "pico", "--without", "nfc", "--without", "leds",
                        "--without", "data", "--db",
                        str(tmp_path / "games.sqlite3"), "--i2c-bus", "97")
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[-1] == "everything the gadget needs is there"
    imported = {line.split("|")[-1].strip() for line in result.stderr.splitlines()
                if line.startswith("import time:")}
    light = {"overseer.session", "overseer.session.lock", "overseer.session.migrations"}
    heavy = {name for name in imported - light  # those three import the standard library only
             if name.startswith(("overseer.rules", "overseer.games", "overseer.screens",
                                 "overseer.session", "PIL", "luma", "gpiozero"))}
    assert heavy == set()
    assert "overseer.cli.doctor" in imported


def test_a_missing_reader_port_says_what_to_do(tmp_path):
    found = doctor.check_nfc(args(tmp_path))
    assert not found.ok and found.needed
    assert found.text == (f"the NFC reader does not answer: cannot open the NFC reader's port "
                          f"{tmp_path / 'no-tty'}: No such file or directory")
    assert (found.fix or "").startswith(f"{tmp_path / 'no-tty'} does not exist: turn the serial port on")


def test_a_silent_reader_is_not_answering(tmp_path):
    with PtyPn532() as emulator:
        emulator.chip.silent = True
        found = doctor.check_nfc(args(tmp_path, port=emulator.path))
    assert not found.ok
    assert "the NFC reader on" in found.text and "failed to start" in found.text
    assert "HSU" in (found.fix or "")


def test_an_old_python_is_refused():
    found = doctor.check_python(argparse.Namespace(), running=(3, 9, 2))
    assert not found.ok and found.text == "Python 3.9.2 is too old: Overseer needs 3.11 or newer"


def test_a_store_folder_that_cannot_be_written_is_a_problem(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as root: every folder is writable")
        found = doctor.check_store(args(tmp_path, db=str(folder / "games.sqlite3")))
    finally:
        folder.chmod(0o700)
    assert not found.ok and "is not writable" in found.text


def test_a_damaged_store_is_named_and_left_as_it_is(tmp_path):
    store = tmp_path / "games.sqlite3"
    with sqlite3.connect(store) as db:
        db.execute("create table t (x)")
        db.executemany("insert into t values (?)", [("x" * 500,)] * 200)
    db.close()
    data = bytearray(store.read_bytes())
    data[4096:8192] = b"\xff" * 4096
    store.write_bytes(bytes(data))
    found = doctor.check_store(args(tmp_path))
    assert not found.ok and found.text.startswith(f"the game store {store} is damaged")
    assert store.read_bytes() == bytes(data)  # the doctor only looks


def test_a_sound_store_is_found_sound(tmp_path):
    from overseer.session.store import Store

    with Store(tmp_path / "games.sqlite3"):
        pass
    found = doctor.check_store(args(tmp_path))
    assert found.ok and found.text.endswith("is writable and sound")


def test_a_held_lock_names_its_holder(tmp_path):
    with lock.acquire(tmp_path / "games.sqlite3"):
        found = doctor.check_lock(args(tmp_path))
    assert not found.ok
    assert f"(pid {os.getpid()})" in found.text
    assert "systemctl stop overseer" in (found.fix or "")
    assert doctor.check_lock(args(tmp_path)).ok


def test_a_broken_tag_map_is_a_warning(tmp_path):
    (tmp_path / "tags.toml").write_text("[tags\n")
    found = doctor.check_tag_map(args(tmp_path))
    assert not found.ok and not found.needed and "tags.toml" in found.text


def test_a_broken_check_is_reported_not_raised(tmp_path, monkeypatch, capsys):
    def broken(_args):
        raise RuntimeError("boom")

    monkeypatch.setitem(doctor.CHECKS, "pico", broken)
    status = doctor.main(["--without", "nfc", "--without", "leds", "--db", str(tmp_path / "games.sqlite3"),
                          "--i2c-bus", "97"])
    out = capsys.readouterr().out
    assert status == 1
    assert "FAIL  pico   the pico check itself failed: RuntimeError: boom" in out
    assert "Traceback" not in out


# --------------------------------------------------------------------------- the Pico, LEDs, data


def test_the_picos_firmware_version_comes_from_its_ident(tmp_path):
    from overseer.devices.virtual_pico import VirtualPico, find_micropython

    with VirtualPico(interpreter=find_micropython() or sys.executable) as board:
        found = doctor.check_pico(args(tmp_path, pico_port=board.port))
    wanted = doctor.expected_firmware()
    assert wanted is not None and wanted.startswith("overseer-fw ")
    assert found.ok, found
    assert found.text == f"the Pico on {board.port} runs {wanted} (protocol {p.PROTOCOL_VERSION})"


def test_another_firmware_version_says_to_flash(tmp_path, monkeypatch):
    from overseer.devices.virtual_pico import VirtualPico, find_micropython

    monkeypatch.setattr(doctor, "expected_firmware", lambda: "overseer-fw 9.9.9")
    with VirtualPico(interpreter=find_micropython() or sys.executable) as board:
        found = doctor.check_pico(args(tmp_path, pico_port=board.port))
    assert not found.ok
    assert found.text.endswith("; this checkout's firmware is overseer-fw 9.9.9")
    assert (found.fix or "").startswith("flash this checkout's firmware: scripts/flash")


def test_a_pico_that_does_not_answer_says_what_to_do(tmp_path):
    import pty

    master, slave = pty.openpty()  # a port where nothing answers
    try:
        found = doctor.check_pico(args(tmp_path, pico_port=os.ttyname(slave), pico_wait=0.3))
    finally:
        os.close(master)
        os.close(slave)
    assert not found.ok and found.text.endswith("does not answer within 0.3 s")
    assert "systemctl stop overseer" in (found.fix or "")


def test_each_seat_led_is_lit_in_turn(tmp_path):
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    factory = MockFactory(pin_class=MockPWMPin)
    lit: list[list[float]] = []
    pins = {1: 5, 2: 6, 3: 13, 4: 19}

    def sleep(_seconds: float) -> None:
        lit.append([float(factory.pin(bcm).state) for bcm in pins.values()])

    found = doctor.check_leds(args(tmp_path, pin_factory=factory, sleep=sleep))
    assert found.ok and found.text.startswith("each seat LED was lit in turn (seat 1 BCM 5, "
                                              "seat 2 BCM 6, seat 3 BCM 13, seat 4 BCM 19)")
    assert lit == [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
    assert [float(factory.pin(bcm).state) for bcm in pins.values()] == [0, 0, 0, 0]


def test_leds_that_cannot_be_driven_say_what_to_do(tmp_path):
    found = doctor.check_leds(args(tmp_path, factory="native", pins={1: 5}))
    assert not found.ok and found.text.startswith("the seat LEDs (seat 1 BCM 5) cannot be "
                                                  "driven with native: ")
    assert "gpio group" in (found.fix or "")


def test_the_card_data_loads_and_the_tag_map_names_real_cards(tmp_path):
    from overseer.devices.tags import CardRef, TagMap

    tag_map = TagMap(tmp_path / "tags.toml")
    tag_map.assign("04A1B2C3D4E5F6", CardRef("catacombs", "room", "bholoth-cemetery"))
    tag_map.assign("04A1B2C3D4E5F7", CardRef("catacombs", "hero", "yilleph"))
    found = doctor.check_data(args(tmp_path))
    assert found.ok
    assert found.text == ("the card data loads (121 catacombs, 56 conquest cards with tags); "
                          "the tag map's 2 tags name real cards")


def test_a_tag_map_naming_no_card_is_a_problem(tmp_path):
    from overseer.devices.tags import CardRef, TagMap

    TagMap(tmp_path / "tags.toml").assign("04A1B2C3D4E5F6", CardRef("catacombs", "room",
                                                                   "bholoth-cemetry"))
    found = doctor.check_data(args(tmp_path))
    assert not found.ok
    assert found.text.startswith("the tag map's tag 04A1B2C3D4E5F6 names no card: ")
    assert "did you mean 'bholoth-cemetery'?" in found.text


def test_a_bad_config_file_is_a_problem(tmp_path, monkeypatch):
    (tmp_path / "box.toml").write_text("[nfc]\nprot = 1\n")
    monkeypatch.setenv("OVERSEER_CONFIG", str(tmp_path / "box.toml"))
    found = doctor.check_config(args(tmp_path))
    assert not found.ok and "nfc.prot: unknown key; did you mean 'port'?" in found.text


def test_the_config_file_gives_the_doctors_ports_and_pins(tmp_path, monkeypatch):
    (tmp_path / "box.toml").write_text('[nfc]\nport = "/dev/ttyAMA0"\n[leds]\npins = '
                                       '{ 2 = 17 }\n[pico]\nport = "/dev/ttyACM3"\n')
    monkeypatch.setenv("OVERSEER_CONFIG", str(tmp_path / "box.toml"))
    monkeypatch.delenv("OVERSEER_NFC_PORT", raising=False)
    parsed = doctor.parser().parse_args([])
    assert (parsed.port, parsed.pico_port, parsed.pins) == ("/dev/ttyAMA0", "/dev/ttyACM3",
                                                            {2: 17})


def test_the_doctor_makes_no_store_folder_and_no_lock_file(tmp_path):
    args_ = args(tmp_path, db=str(tmp_path / "new" / "place" / "games.sqlite3"))
    assert doctor.check_store(args_).ok
    assert doctor.check_lock(args_).ok
    assert list(tmp_path.iterdir()) == []


def test_a_store_with_a_damaged_header_is_damaged_not_foreign(tmp_path):
    from overseer.session.store import Store

    store = tmp_path / "games.sqlite3"
    with Store(store):
        pass
    data = store.read_bytes()
    store.write_bytes(b"\x00" * 100 + data[100:])
    found = doctor.check_store(args(tmp_path))
    assert not found.ok and "is damaged (its SQLite header is damaged)" in found.text
    assert "overseer games recover" in (found.fix or "")


@pytest.mark.parametrize(("argv", "said"), [
    (["--pico-wait", "-1"], "a number of seconds from 0 up, not '-1'"),
    (["--pico-wait", "nan"], "a number of seconds from 0 up, not 'nan'"),
    (["--pico-wait", "soon"], "a number of seconds, not 'soon'"),
    (["--oled-address", "zz"], "an I2C address such as 0x3c, not 'zz'"),
    (["--oled-address", "0x99"], "an I2C address is 0x03 to 0x77, not '0x99'"),
])
def test_bad_options_say_what_they_want(argv, said, capsys):
    with pytest.raises(SystemExit) as stopped:
        doctor.parser().parse_args(argv)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "<lambda>" not in err
