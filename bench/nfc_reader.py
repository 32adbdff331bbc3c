"""Benchmark: a card put on the reader to its Tap in the app's inbox (p50, p99), through the real
nfcpy and the PN532 emulator behind a pty, with the reader polled as the gadget polls it.

The baseline, in the same run, is one poll with no tag on the reader (sense only): the floor
under the figure is the poll interval plus that. The emulator answers at once; a real PN532 at
115200 baud adds the wire time of each frame.
Usage: python bench/nfc_reader.py [taps]
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "devices"))

from pn532_emulator import Ntag215, PtyPn532  # noqa: E402

from overseer.app.inbox import Inbox  # noqa: E402
from overseer.devices.nfc import NfcTags, Reader  # noqa: E402
from overseer.devices.tags import CardRef  # noqa: E402

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


def main(taps: int = 100) -> None:
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
    ms = [t * 1000 for t in times]
    print(json.dumps({
        "taps": taps, "poll_interval_ms": INTERVAL * 1000,
        "tap_to_inbox_ms": {"p50": round(statistics.median(ms), 1),
                            "p99": round(percentile(ms, 0.99), 1), "max": round(max(ms), 1)},
        "empty_poll_ms": {"p50": round(statistics.median(polls) * 1000, 2),
                          "p99": round(percentile(polls, 0.99) * 1000, 2)},
    }))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
