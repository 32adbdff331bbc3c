"""The link through a faulty cable: 1% of bytes corrupted, 1% dropped, 50 unplugs and replugs,
and a stall longer than the link timeout. No wrong frame may reach the glass, no press may be
lost or doubled. Recovery times are measured and printed (not asserted: no timing asserts)."""

from __future__ import annotations

import queue
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from overseer.devices import protocol as p
from overseer.devices.link_events import PicoEvent, PressedButton
from overseer.devices.pico_link import PicoLink
from overseer.devices.virtual_pico import VirtualPico
from tests.drivers.virtual import bad_exits, board_failed, interpreter
from tests.e2e.fault_proxy import FaultProxy

# Every host image ends with this mark; the Pico's own screens (drawn on a blank glass) never
# hold it, so a glass image with the mark that the host never sent is a wrong frame.
MARK = random.Random(1234).randbytes(32)
BUTTONS = [p.Button.NEXT_AI_PIECE, p.Button.OK, p.Button.CHOICE, p.Button.BACK]


class GlassWatcher:
    """Samples the OLED every millisecond and checks each new image against what was sent."""

    def __init__(self, board: VirtualPico) -> None:
        self.board = board
        self.sent: set[bytes] = set()
        self.host_images_seen = 0
        self.own_screens_seen = 0
        self.wrong: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)

    def _run(self) -> None:
        last = None
        while not self._stop.wait(0.001):
            glass = self.board.oled()
            if glass is None or glass == last:
                continue
            last = glass
            if glass[-len(MARK) :] != MARK:
                self.own_screens_seen += 1
            elif glass in self.sent:
                self.host_images_seen += 1
            else:
                self.wrong.append(glass)


# How long anything may take before the run counts as stuck: generous, for a starved machine
# (four CPU hogs on two cores). Liveness bounds only: the times are printed, never asserted.
PATIENCE = 30.0


def until(test: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
    return True


def spread(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p90 = ms[round(0.9 * (len(ms) - 1))]
    return f"p50 {statistics.median(ms):.0f} / p90 {p90:.0f} / max {ms[-1]:.0f} ms"


@pytest.fixture
def cable(board: VirtualPico, tmp_path: Path) -> Iterator[FaultProxy]:
    proxy = FaultProxy(board.port, tmp_path / "ttyPICO", corrupt=0.01, drop=0.01, seed=7)
    yield proxy
    proxy.close()


def run_faults(
    board: VirtualPico, cable: FaultProxy, replugs: int, stalls: int, seed: int
) -> None:
    rng = random.Random(seed)
    watcher = GlassWatcher(board)
    got: queue.Queue[PicoEvent] = queue.Queue()
    link = PicoLink(str(cable.link_path), got.put)
    pressed: list[p.Button] = []
    recoveries: list[tuple[float, float]] = []
    stall_recoveries: list[tuple[float, float]] = []
    current = bytearray(rng.randbytes(p.FRAME_SIZE))

    def new_screen() -> int:
        if rng.random() < 0.5:
            current[:] = rng.randbytes(p.FRAME_SIZE)
        else:  # a small change: one or two chunks
            at = rng.randrange(p.FRAME_SIZE - 128)
            size = rng.randrange(1, 100)
            current[at : at + size] = rng.randbytes(size)
        current[-len(MARK) :] = MARK
        image = bytes(current)
        watcher.sent.add(image)
        return link.show(image)

    def recovery(session: int, screen: int, what: str) -> tuple[float, float]:
        """Seconds until a new handshake, and until the Pico acknowledged ``screen`` again."""
        start = time.monotonic()
        assert until(lambda: link.session > session, PATIENCE), f"no handshake {what}"
        linked = time.monotonic() - start
        assert until(lambda: link.session > session and link.shown >= screen, PATIENCE), what
        return linked, time.monotonic() - start

    try:
        link.start()
        link.wait_ready(timeout=PATIENCE)
        screen = new_screen()
        stall_at = {rng.randrange(replugs) for _ in range(stalls)}
        for i in range(replugs):
            button = BUTTONS[i % len(BUTTONS)]
            board.press(button)
            pressed.append(button)
            screen = new_screen()
            time.sleep(rng.uniform(0.0, 0.04))
            cable.unplug()
            if rng.random() < 0.5:
                screen = new_screen()  # asked for while unplugged
            time.sleep(rng.uniform(0.01, 0.06))
            session = link.session
            cable.replug()
            recoveries.append(recovery(session, screen, f"at replug {i}"))
            if i in stall_at:
                session = link.session
                cable.stall(True)
                time.sleep(1.3)
                cable.stall(False)
                stall_recoveries.append(recovery(session, screen, "after a stall"))
        events: list[PicoEvent] = []
        while len(events) < 2 * len(pressed):  # each press: DOWN, then SHORT
            try:
                events.append(got.get(timeout=PATIENCE))
            except queue.Empty:
                break
        try:
            extra: PicoEvent | None = got.get(timeout=0.3)
        except queue.Empty:
            extra = None
        final = board.wait_oled(lambda glass: glass == bytes(current), timeout=PATIENCE)
    finally:
        link.close()
        watcher.close()

    print(
        f"\nfault run: {cable.counts.bytes_in} bytes through the cable, "
        f"{cable.counts.corrupted} corrupted, {cable.counts.dropped} dropped, "
        f"{cable.counts.replugs} replugs, {len(stall_recoveries)} stalls; "
        f"host: {link.stats.sessions} handshakes, {link.stats.retransmits} retransmit rounds, "
        f"{link.stats.duplicates_dropped} repeated events dropped, "
        f"decoder dropped {link.stats.decoder.bad_crc} bad CRC / "
        f"{link.stats.decoder.bad_length} bad LEN; "
        f"glass: {len(watcher.sent)} screens sent, {watcher.host_images_seen} host images and "
        f"{watcher.own_screens_seen} own screens seen, {len(watcher.wrong)} wrong; "
        f"presses: {len(pressed)} made, {len(events)} reports received (DOWN and SHORT); "
        f"after a replug: handshake {spread([r[0] for r in recoveries])}, "
        f"screen shown again {spread([r[1] for r in recoveries])}"
        + (f"; after a stall: screen {spread([r[1] for r in stall_recoveries])}" if stalls else "")
    )
    assert watcher.wrong == []
    reports = [(e.button, e.press) for e in events if isinstance(e, PressedButton)]
    wanted = [(b, press) for b in pressed for press in (p.Press.DOWN, p.Press.SHORT)]
    assert reports == wanted, (f"the reports' last: {reports[-4:]}; wanted last: "
                               f"{wanted[-4:]}; {board_failed(board)}")
    assert len(events) == 2 * len(pressed) and extra is None
    assert len({(e.boot_id, e.event_id) for e in events}) == len(events)
    assert final == bytes(current)
    # the board never restarted
    assert board.exit_codes == [] and board.boots == 1, board_failed(board)


def test_fault_run(board: VirtualPico, cable: FaultProxy, capsys: pytest.CaptureFixture) -> None:
    with capsys.disabled():
        run_faults(board, cable, replugs=50, stalls=1, seed=11)


@pytest.mark.long
def test_long_fault_run(
    board: VirtualPico, cable: FaultProxy, capsys: pytest.CaptureFixture
) -> None:
    with capsys.disabled():
        run_faults(board, cable, replugs=500, stalls=5, seed=12)


HOGS = 4  # busy processes beside the run, on this 2-core machine: the Pico and host both starve
HOG_RUNS = 20


@pytest.mark.long
def test_fault_run_20_times_with_four_cpu_hogs(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(HOGS)]
    try:
        for run in range(HOG_RUNS):
            with VirtualPico(interpreter=interpreter()) as board:
                cable = FaultProxy(board.port, tmp_path / f"ttyPICO{run}", corrupt=0.01,
                                   drop=0.01, seed=100 + run)
                try:
                    with capsys.disabled():
                        print(f"\nrun {run + 1} of {HOG_RUNS} beside {HOGS} CPU hogs", end="")
                        run_faults(board, cable, replugs=50, stalls=1, seed=200 + run)
                finally:
                    cable.close()
                assert not bad_exits(board), board_failed(board)
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
