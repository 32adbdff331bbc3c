"""systemd's notifications (cli/notify.py) on a real unix datagram socket, as systemd listens:
READY=1 once the headless gadget is up, the watchdog's heartbeat from each turn of the loop
that serves the inputs (and none once that loop hangs), STOPPING=1 at the end."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from overseer.cli import config as cfg
from overseer.cli import service
from overseer.cli.notify import Notifier


@pytest.fixture
def listening(tmp_path: Path) -> Iterator[tuple[socket.socket, str]]:
    """systemd's end: a datagram socket bound at a path, and that path."""
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        sock.settimeout(30)
        yield sock, path


def waiting(sock: socket.socket) -> list[bytes]:
    """Every datagram already in the socket, in order."""
    got = []
    sock.setblocking(False)
    try:
        while True:
            got.append(sock.recv(256))
    except BlockingIOError:
        return got
    finally:
        sock.settimeout(30)


def test_ready_and_stopping_reach_the_socket(listening):
    sock, path = listening
    notifier = Notifier({"NOTIFY_SOCKET": path})
    notifier.ready()
    notifier.stopping()
    assert waiting(sock) == [b"READY=1", b"STOPPING=1"]


def test_an_abstract_socket_is_reached_by_its_name():
    name = f"overseer-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        sock.settimeout(30)
        Notifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert sock.recv(256) == b"READY=1"


def test_the_heartbeat_goes_every_quarter_of_the_watchdogs_period(listening):
    sock, path = listening
    now = [100.0]
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"},
                        clock=lambda: now[0])
    assert notifier.every == 1.0
    sent = []
    for t in (100.0, 100.5, 100.99, 101.0, 101.2, 102.5):
        now[0] = t
        notifier.alive()
        sent.append(len(waiting(sock)))
    assert sent == [1, 0, 0, 1, 0, 1]


def test_no_watchdog_no_heartbeat_and_another_pids_watchdog_is_not_ours(listening):
    sock, path = listening
    Notifier({"NOTIFY_SOCKET": path}).alive()
    Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000",
              "WATCHDOG_PID": str(os.getpid() + 1)}).alive()
    assert waiting(sock) == []
    Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000",
              "WATCHDOG_PID": str(os.getpid())}).alive()
    assert waiting(sock) == [b"WATCHDOG=1"]


def test_outside_systemd_nothing_is_sent_and_a_gone_socket_is_said_once(tmp_path, caplog):
    assert Notifier({}).send("READY=1") is False
    gone = Notifier({"NOTIFY_SOCKET": str(tmp_path / "nobody")})
    with caplog.at_level("WARNING", logger="overseer.gadget"):
        assert gone.send("READY=1") is False
        assert gone.send("WATCHDOG=1") is False
    assert [r.getMessage().split(": ")[0] for r in caplog.records] == [
        f"systemd's notify socket {tmp_path / 'nobody'}"]


def test_the_gadgets_loop_beats_each_turn_and_stops_beating_when_it_hangs(listening, tmp_path):
    """The heartbeat comes from the loop that serves the inputs: once a turn hangs, none more."""
    sock, path = listening
    config_file = tmp_path / "box.toml"
    config_file.write_text('[nfc]\nenabled = false\n[leds]\nenabled = false\n'
                           '[pico]\nport = "/dev/no-such-pico"\n')
    config = cfg.load({"OVERSEER_CONFIG": str(config_file)})
    # a period of 4 us: a heartbeat at every turn
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4"})
    stop, hung, release = threading.Event(), threading.Event(), threading.Event()
    turns = []

    def started(gadget) -> None:
        step = gadget.step

        def counted(timeout: float) -> bool:
            turns.append(timeout)
            if len(turns) == 3:  # the third turn hangs until released
                hung.set()
                release.wait(30)
            return step(timeout)

        gadget.step = counted

    status: list[int] = []
    said: list[str] = []
    thread = threading.Thread(target=lambda: status.append(service.run(
        config, str(tmp_path / "games.db"), stop, said.append, pico_wait=0.1,
        on_start=started, notifier=notifier)))
    thread.start()
    try:
        assert sock.recv(256) == b"READY=1"
        assert hung.wait(30)
        assert waiting(sock) == [b"WATCHDOG=1", b"WATCHDOG=1"]  # two turns served, then none
    finally:
        stop.set()
        release.set()
        thread.join(30)
    assert status == [0]
    assert waiting(sock) == [b"WATCHDOG=1", b"STOPPING=1"]  # the released turn, and the end
