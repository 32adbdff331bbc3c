"""The instructions of one press, by thread, through the whole gadget (``budget.py
--instructions``), and the Pi Zero 2 W's press-to-glass estimate from them.

The gadget runs as the simulator runs it (the real firmware on MicroPython over a pty, the
link's thread, the shell's thread, the session on a real SQLite file) in a process under
callgrind (``bench/callgrind.py``). Each press measured is one interval: the counters zeroed,
the button pressed on the board (closed and opened, 100 ms apart in board time; a card's tap
put in the inbox as the card reader puts it), the gadget settled (every input acted on, the
board's OLED holding its last frame, the release heard), the counters dumped. The threads
counted: ``shell`` (the gadget's, ``sim.running``), ``link`` (``PicoLink``'s I/O thread: the
BUTTON blocks in, the frame's chunks out, the acknowledgements), ``all`` (every thread of the
process but the bench's own, which presses and polls the board's OLED file).

Presses, over the scripted game of ``bench/gadget.py`` (the new game's list, a single-room
battle): CHOICE moving the cursor of "Who joins the party?"; the Elf's card tapped on it (the
seat question) and BACK leaving that question; NEXT AI PIECE, each activation's first screen;
OK through each activation's steps and questions (the first option).

The Pi estimate (``pi_ms``), one model for every press: the host's instructions on a Cortex-A53
at 1.0 GHz retiring 0.6 to 0.8 a cycle under CPython (``PI_HZ``, ``PI_IPC``), plus each COMMIT's
fsync on the SD card (2 to 20 ms; not NEXT AI PIECE's, whose fsync follows the screen), USB
full speed (one 1 ms frame each way at most, and the BUTTON block's bytes up), the Pico's own
time as the rp2 port measured it (docs/benchmarks.md, "The firmware on the rp2 port", third
round: a button's edge to its BUTTON block 1.5 ms; a frame from its first byte received to the
panel's last byte, less the panel's bus: 2.1 ms for one slice and 11.2 ms for a whole frame,
5.7 and 15.4 ms at the most, i.e. ``PICO_FRAME_MS`` and ``PICO_US_PER_BYTE`` of the frame's
bytes on USB, the wire's own time inside them), and the panel's I2C at 400 kHz, 9 bits a byte.
The bytes are the ones this host and firmware send for the frame before and after the press
(``panel_wire.Wire``: the changed runs' FRAME_CHUNKs and the FRAME_SHOW on USB; the firmware's
own Display and SSD1306 driver counting its I2C writes, address bytes included: a whole new
screen is one window and 1,024 bytes, 1,038 on the bus). Each press is estimated on its own
(its instructions, COMMITs and bytes): "at best" is the least with the fast ends of every
range, the p99 that of the estimates with the slow ends. A NEXT whose screen the Pico had armed
(FRAME_ARM: the board's OLED held it when the press reached the host, or
``FIRED_LOOK`` later, before the host had acted on it) is the Pico's alone: the
button's edge seen, then the panel's bus (``pi_fired_ms``). Drawing NEXT ahead
(``Gadget._arm``) is shell work of the press before it, done once its screen has moved:
counted in that press's instructions, printed apart, and left out of its Pi estimate.
"""

from __future__ import annotations

import json
import statistics
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from callgrind import Requests, dumps
from gadget import Bench, bench_box
from panel_wire import Wire

from overseer.devices.link_core import LinkCore
from overseer.ports.events import Button, Press, Tap
from overseer.session import store as store_module
from overseer.sim.box import PINS
from overseer.sim.running import Running

SEED = 11
KINDS = ("next", "ok", "choice", "back", "tap")
AIMS = {"next": 3_500_000, "ok": 1_200_000, "choice": 1_200_000, "back": None,
        "tap": 3_000_000}
PI_P99_AIM_MS = 30.0
SETTLE = 0.15  # seconds after the new frame for the release's block to be heard
IDLE = 1.0  # seconds of an idle interval
# seconds before a second look at the board's OLED for a screen armed ahead: the stand-in writes
# its OLED file at the end of the firmware's loop pass, and the press's BUTTON block may reach
# the host before that (one look alone counted some fired screens as not fired)
FIRED_LOOK = 0.02

# The model (docs/benchmarks.md, "The Pi's share of a press").
PI_HZ = 1.0e9
PI_IPC = (0.8, 0.6)  # fast, slow
FSYNC_MS = (2.0, 20.0)
USB_FRAME_MS = (0.125, 1.0)  # a transfer waits for the bus's next (micro)frame: up, then down
USB_BYTES_PER_MS = 12e6 / 8 / 1000
PICO_BUTTON_MS = 1.5  # a button's edge to its BUTTON block on the rp2 port
PICO_FRAME_MS = (1.38, 4.93)  # a frame's fixed part on the rp2 port (the FRAME_SHOW's CRC...)
PICO_US_PER_BYTE = (8.0, 8.5)  # and per byte of its blocks received, decoded, copied
I2C_BITS_PER_MS = 400.0
BUTTON_WIRE_BYTES = 16  # a BUTTON block up and its HOST_ACK


def half_pages(old: bytes | None, new: bytes | None) -> int:
    """How many 64-byte half pages of the panel differ (all 16 when one is unknown)."""
    if old is None or new is None:
        return 16
    return sum(old[i : i + 64] != new[i : i + 64] for i in range(0, 1024, 64))


def pi_fired_ms(i2c_bytes: int) -> float:
    """A press whose screen the Pico had armed (FRAME_ARM): it puts it up itself on the
    button's edge, before the host hears of the press: the edge seen, then the panel's bus."""
    return PICO_BUTTON_MS + i2c_bytes * 9 / I2C_BITS_PER_MS


def pi_ms(instructions: int, commits: int, usb_bytes: int, i2c_bytes: int, slow: bool,
          button: bool = True) -> float:
    """Press to glass on the Pi by the model: ``usb_bytes`` of the frame down, its
    ``i2c_bytes`` to the panel; ``button``: the press came from the Pico (not a card)."""
    k = 1 if slow else 0
    cpu = instructions / (PI_HZ * PI_IPC[k]) * 1000
    usb = (2 if button else 1) * USB_FRAME_MS[k] + (BUTTON_WIRE_BYTES if button else 0) / \
        USB_BYTES_PER_MS
    pico = (PICO_BUTTON_MS if button else 0.0) + (
        PICO_FRAME_MS[k] + usb_bytes * PICO_US_PER_BYTE[k] / 1000 if usb_bytes else 0.0)
    return cpu + commits * FSYNC_MS[k] + usb + pico + i2c_bytes * 9 / I2C_BITS_PER_MS


# ---------------------------------------------------------------- the process under callgrind


class Threads:
    """Callgrind's requests made in the shell's and the link's threads, at the bench's asking:
    each thread runs what is asked of it at its next turn of its loop (the shell's when it next
    looks in the inbox, at most ``running.POLL`` later; the link's when woken)."""

    ROLES = ("shell", "link")

    def __init__(self, running: Running, requests: Requests) -> None:
        self.requests = requests
        self.asked: dict[str, str | None] = dict.fromkeys(self.ROLES)
        self.done = {role: threading.Event() for role in self.ROLES}
        inbox, real_get = running.inbox, running.inbox.get
        assert running.box.pico is not None
        self.link = running.box.pico.link
        real_turn = LinkCore.turn  # one pass of the link's I/O loop
        threads = self

        def get(timeout: float | None = None) -> Any:
            threads.serve("shell")
            return real_get(timeout)

        def turn(core: LinkCore, now: float) -> tuple[bytes, bool, float]:
            threads.serve("link")
            return real_turn(core, now)

        inbox.get = get  # type: ignore[method-assign]
        LinkCore.turn = turn  # type: ignore[method-assign]
        self.restore = lambda: (setattr(LinkCore, "turn", real_turn),
                                delattr(inbox, "get"))

    def serve(self, role: str) -> None:
        label = self.asked[role]
        if label is None:
            return
        self.asked[role] = None
        if label == "zero":
            self.requests.zero()
        else:
            self.requests.dump(f"{label} {role}")
        self.done[role].set()

    def ask(self, label: str) -> None:
        """Every thread zeroes its counters (``zero``) or dumps them under ``label``."""
        for role in self.ROLES:
            self.done[role].clear()
            self.asked[role] = label
        self.link._wake()
        for role in self.ROLES:
            if not self.done[role].wait(60.0):
                raise RuntimeError(f"the {role} thread did not answer {label!r}")


class Counted(Bench):
    def __init__(self, running: Running, threads: Threads, firmware: Path) -> None:
        super().__init__(running)
        self.threads = threads
        self.wire = Wire(firmware)
        self.commits = 0
        self.samples: list[dict[str, Any]] = []
        self.interval: str | None = None  # the label of the interval under way
        self.aheads: list[bool] = []  # each ``Gadget._arm`` in it: did it arm a screen
        self.fired = False  # the board had put the armed screen up when its NEXT came
        gadget = running.gadget
        self._count_commits()
        real_arm, requests = getattr(gadget, "_arm", None), threads.requests

        def arm() -> None:  # its own share, dumped apart (the shell's thread, in the interval)
            label = self.interval
            assert real_arm is not None
            if label is None:
                real_arm()
                return
            requests.dump(f"{label} shell {len(self.aheads)} before")
            real_arm()
            requests.dump(f"{label} ahead {len(self.aheads)}")
            self.aheads.append(gadget.ahead is not None)

        if real_arm is not None:  # (a revision before NEXT was drawn ahead has none)
            gadget._arm = arm  # type: ignore[method-assign]
        inbox, real_put = running.inbox, running.inbox.put

        def put(item: Any) -> None:  # the link's thread: the board's OLED as the press comes
            if item == Press(Button.NEXT):
                armed = getattr(gadget, "ahead", None)
                fired = armed is not None and self.box.oled() == armed
                if armed is not None and not fired:  # (only the Pico can have put it up yet)
                    time.sleep(FIRED_LOOK)
                    fired = self.box.oled() == armed
                self.fired = fired
            real_put(item)

        inbox.put = put  # type: ignore[method-assign]

    def _count_commits(self) -> None:
        """COMMITs whose fsync comes before the glass moves: not NEXT AI PIECE's, which the
        store makes with ``synchronous = NORMAL`` (its transaction not ``synced``) and puts
        on disk after the screen moved (``Store.sync``). Counted where the store ends a
        transaction, not with SQLite's trace callback: that one expands every statement's
        text (the gadget's object in it), some 40 k instructions a press counted as the
        gadget's own."""
        real_end, bench = store_module._Transaction._end, self

        def end(transaction: Any, kind: Any, value: Any) -> None:
            real_end(transaction, kind, value)
            if kind is None and transaction.synced:
                bench.commits += 1

        store_module._Transaction._end = end  # type: ignore[method-assign]

    def put(self, item: Any) -> None:
        """An input into the inbox, not counted (under callgrind a step takes 50 times as
        long as it does here: the bench's 10 s would not do on a busy machine)."""
        self.running.inbox.put(item)
        if self.until(self.settled, 120.0) is None:
            raise RuntimeError(f"the gadget did not settle after {item}")

    def _interval(self, kind: str, act: Callable[[], None]) -> None:
        frame = self.box.oled()
        self.threads.ask("zero")
        self.commits, self.aheads, self.fired = 0, [], False
        self.interval = f"{len(self.samples)} {kind}"
        start = time.perf_counter()
        act()
        seconds = time.perf_counter() - start
        self.threads.ask(self.interval)
        self.interval = None
        after = self.box.oled()  # counted no more: the dumps are made
        usb, i2c = self.wire.bytes(frame, after) if after is not None else (0, 0)
        self.samples.append({"kind": kind, "commits": self.commits, "seconds": seconds,
                             "halves": half_pages(frame, after), "usb": usb, "i2c": i2c,
                             "aheads": self.aheads, "fired": self.fired})

    def counted_idle(self) -> None:
        """An interval with no press: what the threads spend waiting (the shell's loop looking
        in the inbox every ``running.POLL``, the link's heartbeats), per second."""
        self._interval("idle", lambda: time.sleep(IDLE))

    def counted_press(self, button: Button, kind: str) -> None:
        inbox, board = self.running.inbox, self.box.board

        def act() -> None:
            before = inbox.presses
            board.press(PINS[button])
            if self.until(lambda: inbox.presses > before and self.settled(), 60.0) is None:
                raise RuntimeError(f"{kind}: no frame")
            time.sleep(SETTLE)
            self.until(self.settled, 60.0)

        self._interval(kind, act)

    def counted_tap(self, tap: Tap) -> None:
        def act() -> None:
            self.running.inbox.put(tap)
            if self.until(self.settled, 60.0) is None:
                raise RuntimeError("tap: no frame")

        self._interval("tap", act)

    def counted_steps(self, limit: int) -> int:
        """Through an activation's steps with counted OK presses (NEXT on a ChooseSome)."""
        from overseer.core.procedure import ChooseSome

        made = 0
        for _ in range(500):
            with self.running.reading() as gadget:
                app, session = gadget.app, gadget.session
                assert app is not None
                reading = app.reading or bool(app.notice)
                pending = None if session is None else session.pending
            if not reading and pending is None:
                return made
            button = Button.NEXT if isinstance(pending, ChooseSome) and not reading else \
                Button.OK
            if button is Button.OK and made < limit:
                self.counted_press(Button.OK, "ok")
                made += 1
            else:
                self.put(Press(button))  # not counted: straight into the inbox
        raise RuntimeError("the steps never ended")


def play(presses: int, firmware: Path, interpreter: str | None, store: Path,
         requests: Requests) -> list[dict[str, Any]]:
    """The scripted game with ``presses`` NEXT (as many OK and CHOICE, a third as
    many taps and BACKs)."""
    box = bench_box(interpreter, firmware)
    running = Running(store / "games.db", seed=SEED, box=box)
    try:
        running.start()
        bench = Counted(running, Threads(running, requests), firmware)
        bench.until(bench.settled, 60.0)
        bench.choose_catacombs()
        for _ in range(3):
            bench.counted_idle()
        for _ in range(presses):
            bench.counted_press(Button.CHOICE, "choice")
        for _ in range(max(1, presses // 3)):
            bench.counted_tap(Tap("catacombs", "hero", "elf"))
            bench.counted_press(Button.BACK, "back")
        bench.single_room()
        nexts = oks = 0
        while bench.next_possible() and nexts < presses:
            bench.counted_press(Button.NEXT, "next")
            nexts += 1
            oks += bench.counted_steps(max(0, presses - oks))
        return bench.samples
    finally:
        running.close()


# ---------------------------------------------------------------- the figures


def quantile(values: list[int], q: float) -> int:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))]


def figures(folder: Path, samples: list[dict[str, Any]]) -> dict[str, Any]:
    """Per kind: instructions by thread (median, p99), commits, half pages, the Pi estimate."""
    found = dumps(folder)
    rows: list[dict[str, int]] = []
    aheads: list[tuple[str, int]] = []  # (the press it came in, its instructions)
    for index, sample in enumerate(samples):
        label = f"{index} {sample['kind']}"
        row = {role: found.get(f"{label} {role}") for role in Threads.ROLES}
        if None in row.values():
            raise RuntimeError(f"press {index} ({sample['kind']}): no dump for every thread")
        spent = 0
        for k, armed in enumerate(sample.get("aheads", [])):  # the shell's, cut around each
            ahead = found[f"{label} ahead {k}"]
            row["shell"] = (row["shell"] or 0) + found[f"{label} shell {k} before"] + ahead
            spent += ahead
            if armed:
                aheads.append((sample["kind"], ahead))
        sample["ahead_instructions"] = spent
        rows.append({role: count or 0 for role, count in row.items()})
    idle = [(row, s["seconds"]) for row, s in zip(rows, samples, strict=True)
            if s["kind"] == "idle"]
    rate = {role: statistics.median(row[role] / seconds for row, seconds in idle)
            for role in Threads.ROLES}  # instructions a second with no press
    by_kind: dict[str, dict[str, list[Any]]] = {}  # counts, flags, milliseconds
    for row, sample in zip(rows, samples, strict=True):
        if sample["kind"] == "idle":
            continue
        kind = by_kind.setdefault(sample["kind"], {
            "shell": [], "link": [], "all": [], "raw": [], "commits": [], "halves": [],
            "usb": [], "i2c": [], "fired": [], "pi_fast": [], "pi_slow": [],
            "without_ahead": []})
        net = {role: max(0, round(row[role] - rate[role] * sample["seconds"]))
               for role in Threads.ROLES}
        for role, count in net.items():
            kind[role].append(count)
        kind["all"].append(sum(net.values()))
        kind["without_ahead"].append(sum(net.values()) - sample["ahead_instructions"])
        kind["raw"].append(sum(row.values()))
        kind["commits"].append(sample["commits"])
        for key in ("halves", "usb", "i2c"):
            kind[key].append(sample[key])
        fired = bool(sample.get("fired"))
        kind["fired"].append(fired)
        for key, slow in (("pi_fast", False), ("pi_slow", True)):
            kind[key].append(pi_fired_ms(sample["i2c"]) if fired else pi_ms(
                sum(net.values()) - sample["ahead_instructions"], sample["commits"],
                sample["usb"], sample["i2c"], slow, button=sample["kind"] != "tap"))
    out: dict[str, Any] = {}
    for name in KINDS:
        if name not in by_kind:
            continue
        k = by_kind[name]
        median = {key: round(statistics.median(k[key])) for key in ("shell", "link", "all")}
        p99 = {key: quantile(k[key], 0.99) for key in ("shell", "link", "all")}
        commits, halves = quantile(k["commits"], 0.99), quantile(k["halves"], 0.99)
        usb, i2c = quantile(k["usb"], 0.99), quantile(k["i2c"], 0.99)
        out[name] = {
            "instructions": median["all"], "instructions_p99": p99["all"],
            "instructions_with_idle": round(statistics.median(k["raw"])),
            "by_thread": median, "by_thread_p99": p99, "n": len(k["all"]),
            "commits_p99": commits, "half_pages_p99": halves, "i2c_bytes_p99": i2c,
            "usb_bytes_p99": usb, "fired": sum(k["fired"]),
            "instructions_without_ahead": round(statistics.median(k["without_ahead"])),
            "pi_low_ms": round(min(k["pi_fast"]), 1),
            "pi_p99_ms": round(quantile(k["pi_slow"], 0.99), 1),
            "pi_p99_host_cpu_ms": round(quantile(k["without_ahead"], 0.99)
                                        / (PI_HZ * PI_IPC[1]) * 1000, 1),
            "aim": AIMS[name],
        }
        if name == "ok":  # its two kinds apart: a page turned (no COMMIT), a question answered
            for part, answers in (("page_turns", False), ("answers", True)):
                of = [i for i, c in enumerate(k["commits"]) if (c > 0) is answers]
                out[name][part] = {"n": len(of), **{
                    key: round(statistics.median(k[field][i] for i in of)) if of else 0
                    for key, field in (("instructions", "all"),
                                       ("instructions_without_ahead", "without_ahead"))}}
    out["idle_per_second"] = {role: round(value) for role, value in rate.items()}
    counts = [count for _, count in aheads]
    out["ahead"] = {"n": len(counts), "in": sorted({kind for kind, _ in aheads}),
                    "instructions": round(statistics.median(counts)) if counts else 0,
                    "instructions_p99": quantile(counts, 0.99) if counts else 0}
    return out


def report(results: dict[str, Any]) -> None:
    print("instructions per press, all host threads (median; p99), by thread (shell / link), "
          "and the Pi Zero 2 W estimate (docs/benchmarks.md's model):")
    idle = results["idle_per_second"]
    print(f"  (each press less what the threads spend idle over its interval, under callgrind "
          f"{idle['shell'] / 1e3:.0f} k/s shell, {idle['link'] / 1e3:.0f} k/s link: the "
          f"heartbeats and the loop's polls, many times longer than on the Pi)")
    for name in KINDS:
        if name not in results:
            continue
        row = results[name]
        aim = row["aim"]
        verdict = "" if aim is None else (
            f"aim <= {aim / 1e6:.1f} M: {'met' if row['instructions'] <= aim else 'NOT met'}")
        t = row["by_thread"]
        m = {key: row[key] / 1e6 for key in ("instructions", "instructions_p99",
                                            "instructions_with_idle")}
        print(f"  {name:<7} {m['instructions']:6.2f} M ({m['instructions_p99']:6.2f} M p99; "
              f"{m['instructions_with_idle']:5.2f} M with idle)  shell {t['shell'] / 1e6:5.2f} M"
              f"  link {t['link'] / 1e6:5.2f} M  n={row['n']:<3} {verdict}")
        if row["instructions_without_ahead"] < 0.99 * row["instructions"]:
            print(f"          {row['instructions_without_ahead'] / 1e6:.2f} M without drawing "
                  f"NEXT ahead (below)")
        for part, what in (("page_turns", "a page turned (no COMMIT)"),
                           ("answers", "a question answered (a COMMIT)")):
            if part in row:
                half = row[part]
                print(f"          {what}: {half['instructions'] / 1e6:.2f} M, "
                      f"{half['instructions_without_ahead'] / 1e6:.2f} M without drawing NEXT "
                      f"ahead (median of {half['n']})")
        pi_aim = f"  (aim p99 <= {PI_P99_AIM_MS:.0f} ms)" if name == "next" else ""
        print(f"          Pi: {row['pi_low_ms']:.1f} ms at best, p99 {row['pi_p99_ms']:.1f} ms "
              f"(host CPU {row['pi_p99_host_cpu_ms']:.1f} ms, COMMITs {row['commits_p99']}, "
              f"half pages {row['half_pages_p99']}, I2C {row['i2c_bytes_p99']} bytes)"
              f"{pi_aim}")
        if row["fired"]:
            print(f"          of {row['n']}, {row['fired']} put up by the Pico from the screen "
                  f"armed ahead (its button's edge, then the panel's bus)")
    ahead = results["ahead"]
    if ahead["n"]:
        print(f"  NEXT drawn ahead {ahead['n']} times, in the {', '.join(ahead['in'])} presses "
              f"that ended on a screen where NEXT begins a piece (counted in them, after the "
              f"screen moved): "
              f"{ahead['instructions'] / 1e6:.2f} M ({ahead['instructions_p99'] / 1e6:.2f} M "
              f"p99) each, the shell's")


def summary(results: dict[str, Any]) -> dict[str, Any]:
    """The ``--json`` object: next, choice, ok, tap (and back), instructions and Pi p99."""
    return {name: {"instructions": results[name]["instructions"],
                   "pi_p99_ms": results[name]["pi_p99_ms"]} for name in KINDS if name in results}


def dump_json(results: dict[str, Any]) -> str:
    return json.dumps(summary(results))
