"""Benchmark: a card put on the reader to its Tap in the app's inbox, and to the gadget's new
frame on the glass (p50, p99), through the real nfcpy and the PN532 emulator behind a pty, with
the reader polled as the gadget polls it.

- tap to inbox: ``NfcTags`` alone, alternating two cards.
- tap to the new frame: a Gadget (MemoryGlass, its store in a temporary folder) running in its
  thread as the service runs it, on a new game's first question; the Elf's card is tapped (the
  seat question comes up), then BACK is pressed (the first question again). Timed from the
  card placed on the emulated reader to the Gadget's ``glass.show`` of the new image.

Baselines, in the same run: one poll with no tag on the reader (sense only), and the BACK
press put into the same Gadget's inbox to its new frame (the app's part of a tap, without the
reader). The floor under tap to frame is about half the poll interval plus the read plus that
press. The emulator answers at once; a real PN532 at 115200 baud adds the wire time of each
frame.
Usage: python bench/nfc_reader.py [taps]
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

from PIL import Image

from overseer.app import registry
from overseer.app.shell import Gadget
from overseer.app.sim import SimLeds
from overseer.devices.nfc import NfcTags, Reader
from overseer.devices.pn532_emulator import Ntag215, PtyPn532
from overseer.devices.tags import CardRef
from overseer.ports.events import Button, Press
from overseer.ports.inbox import Inbox

INTERVAL = 0.1  # as NfcTags polls at the table


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def written(uid: bytes, ref: CardRef, emulator: PtyPn532) -> Ntag215:
    """A tag with ``ref`` on it, written through the emulator's own reader before the run."""
    tag = Ntag215(uid)
    emulator.chip.place(tag)
    reader = Reader.open(emulator.path)
    try:
        reader.write(reader.sense(), ref)
    finally:
        reader.close()
    emulator.chip.remove()
    return tag


class TimedGlass:
    """A Glass that notes when each image came (perf_counter) with the Gadget's screen title
    then (the shell sets ``gadget.screen`` just before it shows the image)."""

    def __init__(self) -> None:
        self.shown: list[tuple[float, str]] = []
        self.cond = threading.Condition()
        self.gadget: Gadget | None = None

    def show(self, image: Image.Image) -> None:
        screen = self.gadget.screen if self.gadget is not None else None
        with self.cond:
            self.shown.append((time.perf_counter(), screen.title if screen else ""))
            self.cond.notify_all()

    def wait_for(self, title: str, since: int, timeout: float = 5) -> float | None:
        """When the first image with ``title`` came after the first ``since``; None if none
        came in time (a notice instead: the tag not read on a loaded machine)."""
        def found() -> float | None:
            return next((t for t, shown in self.shown[since:] if shown == title), None)

        with self.cond:
            self.cond.wait_for(lambda: found() is not None, timeout)
            return found()

    def close(self) -> None:
        pass


def ms(values: list[float]) -> dict[str, float]:
    shown = [v * 1000 for v in values]
    return {"p50": round(statistics.median(shown), 1),
            "p99": round(percentile(shown, 0.99), 1), "max": round(max(shown), 1)}


FIRST, SEAT = "Who joins the party?", "Seat for Elf?"


def choose_catacombs(gadget: Gadget) -> None:
    """Catacombs, when the gadget asks which game a new game is."""
    for _ in range(10):
        screen = gadget.screen
        if screen is None or screen.title != "Which game?":
            return
        on_it = screen.rows[screen.cursor] == "Catacombs"
        gadget.feed(Press(Button.OK if on_it else Button.CHOICE))


def tap_to_frame(emulator: PtyPn532, elf: Ntag215, taps: int
                 ) -> tuple[list[float], list[float], list[str]]:
    """The Elf's card to the seat question's frame, BACK to the first question's frame, and
    what the glass said for each tap that missed (no seat question within 5 s)."""
    glass = TimedGlass()
    tags = NfcTags(emulator.path, interval=INTERVAL, repeat_window=0)
    taps_s: list[float] = []
    presses_s: list[float] = []
    missed: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        gadget = Gadget(Path(folder) / "games.db", glass, SimLeds(), sources=(tags,))
        glass.gadget = gadget
        stop = threading.Event()
        try:
            gadget.open()
            choose_catacombs(gadget)
            runner = threading.Thread(target=gadget.run, args=(stop, 0.05), daemon=True)
            runner.start()
            for _ in range(taps):
                time.sleep(INTERVAL * 1.5)  # the last card left; the reader has seen it go
                since = len(glass.shown)
                with emulator.lock:
                    started = time.perf_counter()
                    emulator.chip.place(elf)
                came = glass.wait_for(SEAT, since)
                with emulator.lock:
                    emulator.chip.remove()
                if came is None:
                    screen = gadget.screen
                    missed.append(f"{screen.key}: {' '.join(screen.lines)}" if screen else "")
                    gadget.inbox.put(Press(Button.OK))  # the notice away
                    time.sleep(0.2)
                    if gadget.screen is None or gadget.screen.title != SEAT:
                        continue
                else:
                    taps_s.append(came - started)
                since = len(glass.shown)
                started = time.perf_counter()
                gadget.inbox.put(Press(Button.BACK))
                back = glass.wait_for(FIRST, since)
                assert back is not None, "BACK did not bring the first question back"
                presses_s.append(back - started)
        finally:
            stop.set()
            tags.close()
            gadget.close()
    return taps_s, presses_s, missed


def main(taps: int = 100) -> None:
    registry.install()  # every game in games.GAMES (overseer/app/registry/)
    refs = [CardRef("catacombs", "room", "zothas-gatehouse"),
            CardRef("catacombs", "lord", "phoshar-the-dragon")]
    with PtyPn532() as emulator:
        tags = [written(bytes([4, 1, 2, 3, 4, 5, n]), ref, emulator)
                for n, ref in enumerate(refs)]
        reader = Reader.open(emulator.path)
        polls = []
        for _ in range(200):
            started = time.perf_counter()
            reader.sense()
            polls.append(time.perf_counter() - started)
        reader.close()

        inbox = Inbox()
        port = NfcTags(emulator.path, interval=INTERVAL, repeat_window=0)
        port.start(inbox)
        times = []
        try:
            for i in range(taps):
                time.sleep(INTERVAL * 1.5)  # the last card left; the reader has seen it go
                with emulator.lock:
                    started = time.perf_counter()
                    emulator.chip.place(tags[i % 2])
                tap = inbox.get(timeout=5)
                times.append(time.perf_counter() - started)
                assert tap is not None, "no tap came"
                with emulator.lock:
                    emulator.chip.remove()
        finally:
            port.close()
        elf = written(bytes([4, 1, 2, 3, 4, 5, 9]), CardRef("catacombs", "hero", "elf"),
                      emulator)
        frames, presses, missed = tap_to_frame(emulator, elf, taps)
    print(json.dumps({
        "taps": taps, "poll_interval_ms": INTERVAL * 1000,
        "tap_to_inbox_ms": ms(times),
        "tap_to_new_frame_ms": ms(frames), "taps_missed": len(missed), "missed": missed,
        "baseline_press_to_new_frame_ms": ms(presses),
        "empty_poll_ms": {"p50": round(statistics.median(polls) * 1000, 2),
                          "p99": round(percentile(polls, 0.99) * 1000, 2)},
    }))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
