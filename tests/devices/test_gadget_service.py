"""``overseer gadget`` (the headless gadget the service runs) and its config file: the real
firmware on a virtual Pico, the PN532 emulator on a pty, the seat LEDs on gpiozero's mock pins,
all named by a config file."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from overseer.cli import config as cfg
from overseer.cli import service
from overseer.devices.nfc import Reader
from overseer.devices.pn532_emulator import LoopTTY, Ntag215, Pn532, PtyPn532
from overseer.devices.tags import CardRef
from overseer.devices.virtual_pico import VirtualPico, find_micropython
from overseer.screens.render import frame_bytes, render

ROOT = Path(__file__).resolve().parents[2]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def cli(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    paths = [str(ROOT / "host"), *sys.path[1:]]
    full = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), **env}
    return subprocess.run([sys.executable, "-m", "overseer.cli", *argv], capture_output=True,
                          text=True, env=full, timeout=60)


# --------------------------------------------------------------------------- the config file


def test_no_file_means_the_defaults(tmp_path, monkeypatch):
    monkeypatch.setattr(cfg, "SYSTEM_CONFIG", tmp_path / "etc" / "overseer.toml")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # platformdirs reads it
    found = cfg.load({})
    assert found.path is None
    assert (found.nfc, found.nfc_port, found.leds, found.pin_factory, found.oled) == (
        True, "/dev/serial0", True, "lgpio", "none")
    assert found.pico_port is None and found.seat_pins() == {1: 5, 2: 6, 3: 13, 4: 19}


def test_every_setting_from_a_file(tmp_path):
    path = write(tmp_path / "box.toml", """
[session]
database = "store/games.sqlite3"
[pico]
port = "/dev/ttyACM1"
[nfc]
port = "/dev/ttyAMA0"
[leds]
factory = "mock"
pins = { 1 = 17, 3 = 27 }
[oled]
driver = "sh1106"
bus = 3
address = 0x3D
rotate = 2
""")
    found = cfg.load({"OVERSEER_CONFIG": str(path)})
    assert found.path == path
    assert found.store() == tmp_path / "store" / "games.sqlite3"
    assert found.store("/elsewhere.db") == Path("/elsewhere.db")  # --db comes first
    assert (found.pico_port, found.nfc_port, found.pin_factory) == (
        "/dev/ttyACM1", "/dev/ttyAMA0", "mock")
    assert found.seat_pins() == {1: 17, 3: 27}
    assert (found.oled, found.oled_bus, found.oled_address, found.oled_rotate) == (
        "sh1106", 3, 0x3D, 2)


def test_the_environment_comes_before_the_file(tmp_path):
    path = write(tmp_path / "box.toml", '[nfc]\nport = "/dev/ttyAMA0"\n'
                 '[session]\ndatabase = "a.db"\n')
    found = cfg.load({"OVERSEER_CONFIG": str(path), "OVERSEER_NFC_PORT": "/dev/ttyUSB0",
                      "OVERSEER_DB": str(tmp_path / "b.db")})
    assert found.nfc_port == "/dev/ttyUSB0" and found.store() == tmp_path / "b.db"


def test_the_users_file_comes_before_the_systems(tmp_path, monkeypatch):
    system = write(tmp_path / "etc" / "overseer.toml", "[nfc]\nenabled = false\n")
    monkeypatch.setattr(cfg, "SYSTEM_CONFIG", system)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # platformdirs reads it
    env: dict[str, str] = {}
    assert cfg.load(env).path == system and not cfg.load(env).nfc
    user = write(tmp_path / "config" / "overseer" / "overseer.toml", "[leds]\nenabled = false\n")
    found = cfg.load(env)
    assert found.path == user and found.nfc and not found.leds


@pytest.mark.parametrize(("text", "message"), [
    ('[nfc]\nprot = "/dev/ttyS0"\n', "nfc.prot: unknown key; did you mean 'port'?"),
    ('[sesion]\ndatabase = "a.db"\n', "sesion: unknown key; did you mean 'session'?"),
    ('[oled]\ndriver = "ssd1036"\n',
     "oled.driver: \"ssd1036\" is not an OLED driver; did you mean 'ssd1306'?"),
    ('[leds]\nenabled = "no"\n', 'leds.enabled: wanted true or false, got "no"'),
    ('[leds]\npins = { 5 = 17 }\n', "leds.pins.5: a seat is 1, 2, 3 or 4"),
    ('[leds]\npins = { 1 = 17, 2 = 17 }\n', "leds.pins.2: BCM 17 is another seat's pin too"),
    ('[leds]\npins = { 1 = 40 }\n', "leds.pins.1: BCM 40 is not a GPIO of the Pi's header"),
    ('[oled]\nrotate = 5\n', "oled.rotate: wanted 0, 1, 2 or 3 (quarter turns), got 5"),
    ('[session]\ndatabase = ""\n', "session.database: wanted a file path"),
    ("[nfc\n", "Expected ']'"),
])
def test_a_bad_file_is_refused_naming_the_key(tmp_path, text, message):
    path = write(tmp_path / "box.toml", text)
    with pytest.raises(cfg.ConfigError) as err:
        cfg.load({"OVERSEER_CONFIG": str(path)})
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)


def test_overseer_config_prints_the_settings_in_force(tmp_path):
    path = write(tmp_path / "box.toml", '[oled]\ndriver = "ssd1306"\n[nfc]\nenabled = false\n')
    result = cli("config", env={"OVERSEER_CONFIG": str(path), "OVERSEER_DB": "",
                                "OVERSEER_NFC_PORT": ""})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"# in force: {path}"
    assert "[nfc]" in lines and "enabled = false" in lines and 'driver = "ssd1306"' in lines
    import tomllib

    assert tomllib.loads("\n".join(lines))["oled"]["driver"] == "ssd1306"  # it is TOML


def test_overseer_gadget_refuses_a_bad_config_file(tmp_path):
    path = write(tmp_path / "box.toml", "[pico]\nprot = 1\n")
    result = cli("gadget", env={"OVERSEER_CONFIG": str(path)})
    assert result.returncode == 2
    assert result.stderr == (f"overseer gadget: {path}: pico.prot: unknown key; did you mean "
                             "'port'?\n")


# --------------------------------------------------------------------------- the gadget


def written(ref: CardRef, uid: bytes) -> Ntag215:
    tag = Ntag215(uid)
    chip = Pn532()
    chip.place(tag)
    reader = Reader.on(LoopTTY(chip))
    try:
        reader.write(reader.sense(), ref)
    finally:
        reader.close()
    tag.active = False
    return tag


def wait_for(condition, timeout: float = 20) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return False


WHICH_GAME, FIRST = "Which game?", "Who joins the party?"


def choose_catacombs(running: Running, board: VirtualPico) -> None:
    """Catacombs on the board's buttons, when the gadget asks which game."""
    from overseer.devices.protocol import Button

    for _ in range(10):
        screen = running.gadget.screen if running.gadget is not None else None
        if screen is None or screen.title != WHICH_GAME:
            break
        before = screen
        # As at the table: the press comes once the board shows the question (a press while
        # the board still shows its own boot screen is the board's, not the gadget's).
        want = frame_bytes(render(screen))
        assert board.wait_oled(lambda frame, want=want: frame == want, 20) is not None
        board.press(Button.OK if screen.rows[screen.cursor] == "Catacombs" else Button.CHOICE)
        assert wait_for(lambda before=before: running.gadget.screen != before)
    assert wait_for(lambda: running.screen_title() == FIRST)


class Running:
    """``service.run`` in a thread, with what it said and the Gadget it started."""

    def __init__(self, config: cfg.Config, db: Path, **options) -> None:
        self.said: list[str] = []
        self.gadget = None
        self.stop = threading.Event()
        self.status: int | None = None
        self.boxes: list[service.Box] = []
        real_open = service.open_box

        def open_box(*args, **kwargs):
            box = real_open(*args, **kwargs)
            self.boxes.append(box)
            return box

        self._patch = (service, "open_box", real_open)
        service.open_box = open_box
        self.thread = threading.Thread(target=self._run, args=(config, db, options))
        self.thread.start()

    def _run(self, config, db, options) -> None:
        self.status = service.run(config, str(db), self.stop, self.said.append,
                                  on_start=self._started, **options)

    def _started(self, gadget) -> None:
        self.gadget = gadget

    def screen_title(self) -> str | None:
        screen = self.gadget.screen if self.gadget is not None else None
        return screen.title if screen is not None else None

    def close(self) -> int | None:
        self.stop.set()
        self.thread.join(timeout=20)
        module, name, real = self._patch
        setattr(module, name, real)
        return self.status


def test_the_gadget_plays_on_the_pico_the_reader_and_the_leds_of_its_config(tmp_path):
    with VirtualPico(interpreter=find_micropython() or sys.executable) as board, \
            PtyPn532() as emulator:
        path = write(tmp_path / "box.toml", f"""
[pico]
port = "{board.port}"
[nfc]
port = "{emulator.path}"
[leds]
factory = "mock"
""")
        running = Running(cfg.load({"OVERSEER_CONFIG": str(path)}), tmp_path / "games.db")
        try:
            assert wait_for(lambda: running.screen_title() in (WHICH_GAME, FIRST))
            choose_catacombs(running, board)
            box = running.boxes[0]
            from overseer.devices.frames import vlsb
            from overseer.screens.render import render

            frame = vlsb(render(running.gadget.screen))
            assert board.wait_oled(lambda shown: shown == frame, 20)  # on the Pico's OLED
            with emulator.lock:
                emulator.chip.place(written(CardRef("catacombs", "hero", "elf"),
                                            bytes.fromhex("04a1b2c3d4e5f6")))
            assert wait_for(lambda: running.screen_title() == "Seat for Elf?")
            factory = box.pin_factory
            assert wait_for(lambda: factory.pin(5).state > 0)  # seat 1, under the cursor
            assert [factory.pin(b).state for b in (6, 13, 19)] == [0, 0, 0]
            assert [s for s in running.said if not s.startswith("on the glass: ")] == []
        finally:
            status = running.close()
    assert status == 0
    assert box.pin_factory.pin(5).state == 0  # closed: every LED off


def test_a_missing_pico_and_leds_that_cannot_be_driven_are_said(tmp_path, monkeypatch):
    monkeypatch.setattr("overseer.devices.usb.find_pico_ports", lambda *a, **k: [])
    path = write(tmp_path / "box.toml", '[nfc]\nenabled = false\n[leds]\nfactory = "native"\n'
                 '[oled]\ndriver = "ssd1306"\nbus = 97\n')
    running = Running(cfg.load({"OVERSEER_CONFIG": str(path)}), tmp_path / "games.db",
                      pico_wait=0.2)
    try:
        assert wait_for(lambda: len(running.said) >= 4)
        assert running.screen_title() in (WHICH_GAME, FIRST)
    finally:
        status = running.close()
    assert status == 0
    said = running.said
    assert said[0].startswith("no Pico found on USB yet: plug it into the Pi with a data cable")
    assert said[1].startswith("the Pi-side OLED (ssd1306 at 0x3c on I2C bus 97) cannot be "
                              "opened: ")
    assert said[2].startswith("the seat LEDs cannot be driven (native: ")
    assert said[3] == "no Pico answers after 0.2 s: waiting for it (overseer doctor says more)"


def test_a_store_in_use_stops_the_gadget_with_a_message(tmp_path):
    from overseer.session import lock

    path = write(tmp_path / "box.toml", '[nfc]\nenabled = false\n[leds]\nenabled = false\n'
                 '[pico]\nport = "/dev/null-pico"\n')
    with lock.acquire(tmp_path / "games.db"):
        running = Running(cfg.load({"OVERSEER_CONFIG": str(path)}), tmp_path / "games.db")
        running.thread.join(timeout=20)
        status = running.close()
    assert status == 2
    assert len(running.said) == 1 and "in use by another overseer" in running.said[0]


def test_overseer_gadget_stops_on_sigterm_as_systemd_stops_it(tmp_path):
    import signal

    path = write(tmp_path / "box.toml", '[nfc]\nenabled = false\n[leds]\nfactory = "mock"\n'
                 '[pico]\nport = "/dev/no-such-pico"\n')
    paths = [str(ROOT / "host"), *sys.path[1:]]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "OVERSEER_CONFIG": str(path),
           "OVERSEER_DB": str(tmp_path / "games.db")}
    proc = subprocess.Popen([sys.executable, "-m", "overseer.cli", "gadget", "--pico-wait",
                             "0.2"], stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
        second = proc.stderr.readline()  # the Gadget is up and has waited for the Pico
        proc.send_signal(signal.SIGTERM)
        status = proc.wait(timeout=30)
    finally:
        proc.kill()
    assert first == f"overseer gadget: starting ({path})\n"
    assert second == ("overseer gadget: no Pico answers on /dev/no-such-pico after 0.2 s: "
                      "waiting for it (overseer doctor says more)\n")
    assert status == 0
    assert (tmp_path / "games.db").exists()


def test_a_damaged_store_is_recovered_and_the_table_told(tmp_path):
    import json

    from overseer.core.records import DATA_DIR
    from overseer.session.session import Session
    from overseer.session.store import Store, StoreDamaged

    db = tmp_path / "games.db"
    demo = json.loads((DATA_DIR / "demo" / "catacombs.json").read_text())
    with Store(db) as store:
        for seed in range(30):  # enough games for the store to have a page to lose
            Session.new(store, "catacombs", demo, seed=seed)
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db.read_bytes())
    data[-4096:-3996] = b"\xff" * 100  # scribble over the last page's b-tree header
    db.write_bytes(bytes(data))
    with pytest.raises(StoreDamaged):
        Store(db)
    damaged = bytes(data)
    path = write(tmp_path / "box.toml", '[nfc]\nenabled = false\n[leds]\nenabled = false\n'
                 '[pico]\nport = "/dev/null-pico"\n')
    running = Running(cfg.load({"OVERSEER_CONFIG": str(path)}), db, pico_wait=0.2)
    try:
        assert wait_for(lambda: running.gadget is not None)
        screen = running.gadget.screen
        assert screen.key == "Store repaired"
        text = " ".join(screen.lines)
        assert "The game store was damaged." in text and "games saved" in text
    finally:
        status = running.close()
    assert status == 0
    assert " is damaged (" in running.said[0]
    assert running.said[0].endswith("saving what can "
                                    "be read into a new store, as `overseer games recover` does")
    assert any(line.startswith("the damaged store (") for line in running.said)
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("games.db.damaged-")]
    assert len(aside) == 1 and aside[0].read_bytes() == damaged  # kept byte for byte
    with Store(db) as store:
        assert store.integrity() == ["ok"] and store.games()


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def box_with_web(tmp_path: Path, board: VirtualPico, web: str) -> cfg.Config:
    """A box of the Pico alone (no reader, no LEDs) with this ``[web]`` section."""
    return cfg.load({"OVERSEER_CONFIG": str(write(tmp_path / "box.toml", f"""
[pico]
port = "{board.port}"
[nfc]
enabled = false
[leds]
enabled = false
[web]
{web}
"""))})


def test_the_gadget_serves_the_web_page_where_its_config_says(tmp_path):
    import urllib.request

    port = free_port()
    with VirtualPico(interpreter=find_micropython() or sys.executable) as board:
        config = box_with_web(tmp_path, board,
                              f'enabled = true\nlisten = ["127.0.0.1"]\nport = {port}')
        running = Running(config, tmp_path / "games.db")
        try:
            url = f"http://127.0.0.1:{port}/"
            assert wait_for(lambda: f"phones follow the game at {url}" in running.said)
            with urllib.request.urlopen(url, timeout=10) as page:
                assert page.status == 200 and b"Overseer" in page.read()
        finally:
            status = running.close()
    assert status == 0


def test_a_public_address_for_the_page_is_said_and_the_gadget_plays_on(tmp_path):
    with VirtualPico(interpreter=find_micropython() or sys.executable) as board:
        config = box_with_web(tmp_path, board, 'listen = ["8.8.8.8"]')
        running = Running(config, tmp_path / "games.db", web=True)
        try:
            assert wait_for(lambda: running.screen_title() in (WHICH_GAME, FIRST))
            assert running.said[0] == (
                "the web page cannot listen: web.listen: 8.8.8.8 is not a LAN address; the "
                "page listens only on private or loopback addresses (say 192.168.1.20); going "
                "on without it")
        finally:
            status = running.close()
    assert status == 0
