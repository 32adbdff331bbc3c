"""The virtual board's stand-ins (firmware/unix): watchdog, reset, I2C bus, button commands."""

import os

import machine
import pins
import pytest


def test_watchdog_fed_in_time_does_nothing(monkeypatch) -> None:
    clock = [1000]
    monkeypatch.setattr(machine, "ticks_ms", lambda: clock[0])
    wdt = machine.WDT(timeout=2000)
    for _ in range(5):
        clock[0] += 2000
        wdt.feed()


def test_watchdog_missed_resets_the_board(monkeypatch, capsys) -> None:
    clock = [1000]
    monkeypatch.setattr(machine, "ticks_ms", lambda: clock[0])
    wdt = machine.WDT(timeout=2000)
    clock[0] += 2001
    with pytest.raises(SystemExit) as exit_:
        wdt.feed()
    assert exit_.value.code == machine.RESET_STATUS == 75
    assert "watchdog" in capsys.readouterr().err


def test_only_the_oled_answers_on_the_bus() -> None:
    i2c = machine.I2C(0)
    assert i2c.scan() == [0x3C]
    with pytest.raises(OSError):
        i2c.writeto(0x3D, b"\x80\xaf")


def test_oled_file_holds_the_display_ram(tmp_path, monkeypatch) -> None:
    path = tmp_path / "oled.bin"
    monkeypatch.setenv("OVERSEER_BOARD_OLED", str(path))
    i2c = machine.I2C(0)
    for c in (0x21, 0, 127, 0x22, 0, 7):
        i2c.writeto(0x3C, bytes((0x80, c)))
    image = bytes(range(256)) * 4
    i2c.writevto(0x3C, (b"\x40", image))
    assert path.read_bytes() == image
    for c in (0x21, 10, 11, 0x22, 2, 2):  # a 2-column window on page 2
        i2c.writeto(0x3C, bytes((0x80, c)))
    i2c.writeto(0x3C, b"\x40\xaa\xbb\xcc")  # the third byte wraps to column 10 again
    ram = path.read_bytes()
    assert ram[2 * 128 + 10 : 2 * 128 + 12] == b"\xcc\xbb"


def test_button_commands_drive_the_pins(monkeypatch, capsys) -> None:
    r, w = os.pipe()
    monkeypatch.setenv("OVERSEER_BOARD_BUTTONS_FD", str(r))
    clock = [5000]
    monkeypatch.setattr(machine, "ticks_ms", lambda: clock[0])
    presses = machine._Presses()
    gpio = dict((name, g) for name, _code, g in pins.BUTTONS)
    for g in gpio.values():
        presses.levels[g] = 1
    os.write(w, b"jump ok\ntap ok\npress roll\n")
    levels = []
    for _ in range(400):
        clock[0] += 1
        presses.pump()
        levels.append((presses.levels[gpio["ok"]], presses.levels[gpio["roll"]]))
    assert "unknown button command 'jump ok'" in capsys.readouterr().err
    assert levels[0] == levels[99] == (0, 1)  # tap: low at once, for 100 ms
    assert levels[100] == levels[149] == (1, 1)  # then high
    assert levels[150] == (1, 0)  # the next line 50 ms after the release
    assert levels[-1] == (1, 0)  # pressed stays pressed
    os.close(w)
