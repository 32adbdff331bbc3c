"""The headless box under the service's own restart policy never restarts in a loop (issue 23):
``overseer gadget`` is started on each faulty store, as systemd starts it (the unit's
``Restart=`` and ``RestartSec=`` read from hardware/overseer.service.in, a start again after a
failure), with the real firmware on a virtual Pico as its glass. Each time the Pico's OLED shows
the fault's screen (the frame the journal names), the box stays up past the restart delay with
one start only, and SIGTERM stops it cleanly."""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from overseer.core.records import DATA_DIR
from overseer.devices.virtual_pico import VirtualPico, find_micropython
from overseer.session.session import Session
from overseer.session.store import Store

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "hardware" / "overseer.service.in"


def policy() -> tuple[str, float]:
    text = UNIT.read_text()
    restart = re.search(r"^Restart=(\S+)", text, re.M)
    delay = re.search(r"^RestartSec=(\d+)", text, re.M)
    assert restart and delay
    return restart.group(1), float(delay.group(1))


class Service:
    """``overseer gadget`` run as the unit runs it: started again ``RestartSec`` after it
    exits, by the unit's ``Restart=`` rule. ``starts`` counts the starts; ``lines`` is what it
    said (its journal)."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.rule, self.delay = policy()
        self.argv, self.env = argv, env
        self.starts = 0
        self.lines: list[str] = []
        self.proc: subprocess.Popen[str] | None = None
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._supervise, daemon=True)
        self.thread.start()

    def _restart_wanted(self, status: int) -> bool:
        return self.rule == "always" or (self.rule == "on-failure" and status != 0)

    def _supervise(self) -> None:
        while not self.stopping.is_set():
            self.starts += 1
            self.proc = subprocess.Popen(self.argv, env=self.env, text=True,
                                         stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
            assert self.proc.stderr is not None
            for line in self.proc.stderr:
                self.lines.append(line.rstrip("\n"))
            status = self.proc.wait()
            if self.stopping.is_set() or not self._restart_wanted(status):
                return
            self.stopping.wait(self.delay)

    def glass(self, timeout: float) -> str | None:
        """The frame digest of the first screen the journal says is on the glass."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in self.lines:
                found = re.search(r"^overseer gadget: on the glass: .* \(frame ([0-9a-f]+)\)$",
                                  line)
                if found:
                    return found.group(1)
            time.sleep(0.05)
        return None

    def stop(self) -> int | None:
        self.stopping.set()
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.thread.join(timeout=30)
        return None if self.proc is None else self.proc.returncode


def _games(path: Path, count: int = 3) -> None:
    demo = json.loads((DATA_DIR / "demo" / "catacombs.json").read_text())
    with Store(path) as store:
        for seed in range(count):
            Session.new(store, "catacombs", demo, seed=seed)


def not_a_store(path: Path) -> None:
    path.write_text("a shopping list, not a game store\n")


def newer(path: Path) -> None:
    _games(path, 1)
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.commit()
    db.close()


def emptied(path: Path) -> None:
    path.write_bytes(b"")


def header_scribbled(path: Path) -> None:
    _games(path, 30)
    data = path.read_bytes()
    path.write_bytes(random.Random(1).randbytes(100) + data[100:])


def page_scribbled(path: Path) -> None:
    _games(path, 30)
    data = bytearray(path.read_bytes())
    data[-4096:-3996] = b"\xff" * 100
    path.write_bytes(bytes(data))


def no_longer_replays(path: Path) -> None:
    _games(path, 1)
    db = sqlite3.connect(path)
    setup = json.loads(db.execute("SELECT setup FROM games").fetchone()[0])
    (setup["setup"] if "setup" in setup else setup)["heroes"] = "not a list"
    db.execute("UPDATE games SET setup = ?", (json.dumps(setup),))
    db.commit()
    db.close()


def lost_wal(path: Path) -> None:
    """A kill after a game was stored, then a backup that copied only the ``.sqlite3``."""
    _games(path, 2)


FAULTS = {
    "not a store": (not_a_store, "No store", "is not an Overseer game store"),
    "from a newer Overseer": (newer, "No store", "newer Overseer"),
    "a 0-byte file": (emptied, "Store", "was an empty file (0 bytes)"),
    "a scribbled header": (header_scribbled, "Store repaired", "games saved"),
    "a scribbled page": (page_scribbled, "Store repaired", "games saved"),
    "a game that no longer replays": (no_longer_replays, "Set aside", "no longer replays"),
    "a lost -wal": (lost_wal, "", ""),
}
QUICK = ("not a store", "a scribbled header")


def _board():
    return VirtualPico(interpreter=find_micropython() or sys.executable)


def run_box(tmp_path: Path, store: Path, key: str, wrap: list[str] | None = None):
    _, delay = policy()
    config = tmp_path / "box.toml"
    with _board() as board:
        config.write_text(f'[pico]\nport = "{board.port}"\n[nfc]\nenabled = false\n'
                          '[leds]\nenabled = false\n')
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "host"), *sys.path[1:]]),
               "OVERSEER_CONFIG": str(config), "OVERSEER_DB": str(store)}
        argv = [*(wrap or []), sys.executable, "-m", "overseer.cli", "gadget"]
        started = time.monotonic()
        service = Service(argv, env)
        try:
            frame = service.glass(60)
            assert frame is not None, service.lines
            shown = board.wait_oled(
                lambda f: hashlib.sha256(f).hexdigest()[:12] == frame, 60)
            assert shown is not None, service.lines  # the Pico's OLED shows that screen
            took = time.monotonic() - started
            time.sleep(delay + 1)  # past the restart delay: still the first start
            assert service.starts == 1, service.lines
            assert service.proc is not None and service.proc.poll() is None
        finally:
            status = service.stop()
        assert status == 0, service.lines  # SIGTERM: a clean stop
        said = [line for line in service.lines if "on the glass:" in line]
        if key:
            assert f"on the glass: {key}: " in said[0], said
        print(f"{store.name}: the screen on the Pico's OLED {took:.1f} s after the start")
        return service.lines


@pytest.mark.parametrize("fault", [pytest.param(name, marks=() if name in QUICK else
                                                pytest.mark.long) for name in FAULTS])
def test_the_box_on_a_faulty_store_shows_it_and_never_restarts(tmp_path, fault):
    make, key, words = FAULTS[fault]
    store = tmp_path / "games.sqlite3"
    make(store)
    if fault == "a lost -wal":  # the copy the backup made: the file alone, no -wal beside it
        copy = tmp_path / "copy" / "games.sqlite3"
        copy.parent.mkdir()
        shutil.copy(store, copy)
        store = copy
    lines = run_box(tmp_path, store, key)
    if words:
        assert any(words in line for line in lines), lines
    if fault == "a lost -wal":
        with Store(store) as opened:
            assert len(opened.games()) == 2  # nothing was in the -wal alone


@pytest.mark.long
def test_the_box_on_a_read_only_remount_opens_and_says_not_saved(tmp_path):
    store = tmp_path / "disk" / "games.sqlite3"
    store.parent.mkdir()
    _games(store, 1)
    disk = store.parent
    wrap = ["unshare", "-m", "sh", "-c", f"mount --bind {disk} {disk} && mount -o "
            f"remount,ro,bind {disk} && exec \"$@\"", "sh"]
    probe = subprocess.run([*wrap, "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"no mount namespace here: {probe.stderr.decode().strip()[:200]}")
    lines = run_box(tmp_path, store, "Store", wrap)
    assert any("cannot be written" in line for line in lines), lines


@pytest.mark.long
def test_the_box_given_a_file_of_the_system_shows_it_is_no_store(tmp_path):
    lines = run_box(tmp_path, Path("/proc/version"), "No store")
    assert any("is not an Overseer game store" in line for line in lines), lines


@pytest.mark.long
def test_the_box_on_a_full_disk_opens_and_says_not_saved(tmp_path):
    source = tmp_path / "games.sqlite3"
    _games(source, 1)
    disk = tmp_path / "disk"
    disk.mkdir()
    store = disk / "games.sqlite3"
    wrap = ["unshare", "-m", "sh", "-c", f"mount -t tmpfs -o size=1m tmpfs {disk} && cp "
            f"{source} {store} && (dd if=/dev/zero of={disk}/filler bs=4k 2>/dev/null; true) "
            "&& exec \"$@\"", "sh"]
    probe = subprocess.run(["unshare", "-m", "sh", "-c", f"mount -t tmpfs tmpfs {disk}"],
                           capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"no mount namespace here: {probe.stderr.decode().strip()[:200]}")
    lines = run_box(tmp_path, store, "Store", wrap)
    assert any("cannot be written" in line for line in lines), lines
