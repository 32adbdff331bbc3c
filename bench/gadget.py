"""Benchmark: a press on the virtual Pico to the new frame in its OLED RAM, through the whole
gadget: the real firmware (MicroPython over a pty, else CPython with its shims), the link, the
Pico's device face, the shell stepping in its own thread (``sim.running.Running``, as the
simulator runs it), the controller, the render, and the frame back over the link.

A press is timed from the edge its ``Press`` waits for: the switch closing for a button whose
held press means nothing else on the screen shown (NEXT AI PIECE in a battle: the Pico face puts
it in at DOWN), the switch opening for one whose held press is another action (CHOICE: it waits
for SHORT or LONG). Figures (p50, p99), each a few hundred presses:

- ``CHOICE, release to frame``: the button held 100 ms (as ``VirtualPico.press`` holds a tap),
  timed from its release to the board's OLED RAM holding the gadget's next frame; CHOICE cycles
  the new game's long list of heroes, so every press moves the cursor and changes the frame.
- ``CHOICE, VirtualPico.press to frame``: the same from the call of ``VirtualPico.press`` (its
  100 ms of held pin included).
- ``NEXT AI PIECE, switch closing to frame``: a single-room battle (the gadget's seeded dice),
  each activation's first screen; the rest of each activation is read and answered through the
  inbox.
- ``CHOICE, release to Press in the inbox``: the host event alone (no screen).

The card reader is the in-memory one (the bench puts its taps into the inbox): the emulated
PN532's polling is ``bench/nfc_reader.py``'s to measure, and on a loaded machine its notices
("Reader lost") would land on the screens the bench steps through.

Baseline in the same run: the link's own round trip of the same frames (``Pico.show`` to the
board's acknowledgement and its OLED RAM holding it), with no button and no gadget. With
``--against DIR`` the whole run is made twice, on that firmware folder first (e.g. main's,
``git archive main firmware | tar -x -C /tmp/main``, then ``--against /tmp/main/firmware``), then
on ``--firmware`` (the repository's by default), and both are printed.

    PYTHONPATH=host .venv/bin/python bench/gadget.py [--presses 300] [--cpython] [--against DIR]

Writes bench/results/gadget.json. Aim (issue 14): press to new frame p99 < 30 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from overseer.app import controller, registry
from overseer.app.sim import SimTags
from overseer.core.procedure import ChooseSome
from overseer.devices.virtual_pico import FIRMWARE, find_micropython
from overseer.ports.events import Button, Input, Press, Tap
from overseer.screens.render import frame_bytes, from_frame_bytes
from overseer.sim.box import PINS, VirtualBox
from overseer.sim.running import Running

HOLD = 0.1  # seconds the button is held (VirtualPico.press holds a tap this long)
TIMEOUT = 5.0  # seconds for a frame before the press counts as lost
SEED = 11


def figures(seconds: list[float]) -> dict[str, float | int] | None:
    """p50, p99 and max in ms; None when no press of that kind got its frame in time."""
    if not seconds:
        return None
    ms = sorted(s * 1000 for s in seconds)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return {"p50_ms": round(statistics.median(ms), 2), "p99_ms": round(p99, 2),
            "max_ms": round(ms[-1], 2), "n": len(ms)}


def line(name: str, fig: dict[str, float | int] | None) -> str:
    if fig is None:
        return f"{name:<40} none timed (every such press was lost or late)"
    return (f"{name:<40} p50 {fig['p50_ms']:7.2f} ms   p99 {fig['p99_ms']:7.2f} ms   "
            f"max {fig['max_ms']:7.2f} ms   (n={fig['n']})")


class Bench:
    def __init__(self, running: Running) -> None:
        self.running = running
        self.box = running.box
        self.lost = 0

    def until(self, test: Callable[[], bool], timeout: float = TIMEOUT) -> float | None:
        """Poll until ``test()``: when it held (perf_counter), None at the timeout."""
        deadline = time.perf_counter() + timeout
        while True:
            if test():
                return time.perf_counter()
            if time.perf_counter() > deadline:
                return None
            time.sleep(0.0002)

    def settled(self) -> bool:
        """The gadget acted on every input, the board holds its last frame, and the Pico has
        everything the host sent it (NEXT's screen armed ahead included: a table reads the
        screen far longer than the Pi takes to work that out and send it)."""
        with self.running.reading():
            sent = self.running.glass.sent
            idle = self.running.idle
        link = self.running.glass.pico.link
        return idle and sent is not None and self.box.oled() == frame_bytes(sent) and \
            getattr(link, "wait_sent", lambda _: True)(0.0)

    def put(self, item: Input) -> None:
        """An input straight into the inbox (setting the game up, not timed)."""
        self.running.inbox.put(item)
        if self.until(self.settled, 10.0) is None:
            raise RuntimeError(f"the gadget did not settle after {item}")

    def timed_press(self, button: Button, tap: bool = False) -> tuple[float, float] | None:
        """Press ``button`` on the board; (the edge its Press waits for to Press in the inbox,
        to the new frame), or from the ``VirtualPico.press`` call when ``tap``. None: lost."""
        inbox, board = self.running.inbox, self.box.board
        before, frame = inbox.presses, self.box.oled()

        def new_frame() -> bool:
            return inbox.presses > before and self.box.oled() != frame and self.settled()

        pin = PINS[button]
        at_edge = button not in controller.held_buttons(self.app())
        if tap:
            start = time.perf_counter()
            board.press(pin)
        elif at_edge:
            start = time.perf_counter()
            board.button_down(pin)
        else:
            board.button_down(pin)
            time.sleep(HOLD)
            start = time.perf_counter()
            board.button_up(pin)
        came = self.until(lambda: inbox.presses > before)
        shown = self.until(new_frame) if came is not None else None
        if at_edge and not tap:
            time.sleep(max(0.0, start + HOLD - time.perf_counter()))
            board.button_up(pin)
        if came is None or shown is None:
            self.lost += 1
            self.until(self.settled, 10.0)
            return None
        return came - start, shown - start

    def app(self) -> controller.App:
        with self.running.reading() as gadget:
            assert gadget.app is not None
            return gadget.app

    # ------------------------------------------------------------------ the game's inputs

    @property
    def screen(self):
        with self.running.reading() as gadget:
            assert gadget.screen is not None
            return gadget.screen

    def pick(self, label: str) -> None:
        for _ in range(len(self.screen.rows)):
            if self.screen.rows[self.screen.cursor] == label:
                self.put(Press(Button.OK))
                return
            self.put(Press(Button.CHOICE))
        raise RuntimeError(f"no {label!r} in {self.screen}")

    def number(self, value: int) -> None:
        while self.screen.number != value:
            number = self.screen.number
            assert number is not None, self.screen
            self.put(Press(Button.CHOICE if number < value else Button.NEXT))
        self.put(Press(Button.OK))

    def read_and_answer(self) -> None:
        """Through the steps, answering each question with its first option, until idle."""
        for _ in range(500):
            with self.running.reading() as gadget:
                app, session = gadget.app, gadget.session
                assert app is not None
                reading = app.reading or bool(app.notice)
                pending = None if session is None else session.pending
            if reading:
                self.put(Press(Button.OK))
            elif pending is not None:
                self.put(Press(Button.NEXT if isinstance(pending, ChooseSome) else Button.OK))
            else:
                return
        raise RuntimeError("the steps never ended")

    def choose_catacombs(self) -> None:
        """Catacombs, when the gadget first asks which game (it plays more than one)."""
        if self.screen.title == "Which game?":
            self.pick("Catacombs")

    def single_room(self) -> None:
        """The Elf (health 30) and Hero 1 (30), the gadget's dice, Bholoth Cemetery tapped."""
        self.choose_catacombs()
        self.put(Tap("catacombs", "hero", "elf"))
        self.pick("Seat 1")
        self.number(30)
        self.pick("Hero 1")
        self.pick("Seat 3")
        self.number(30)
        self.pick("Done")
        for _ in range(4):
            self.put(Press(Button.OK))
        self.pick("The gadget's")
        self.put(Press(Button.NEXT))
        self.pick("Off")
        self.pick("A single room")
        self.read_and_answer()
        self.put(Tap("catacombs", "room", "bholoth-cemetery"))
        self.read_and_answer()

    def next_possible(self) -> bool:
        with self.running.reading() as gadget:
            return gadget.app is not None and gadget.app.view.next_action is not None


def link_round_trips(bench: Bench, frames: list[bytes], rounds: int) -> list[float]:
    """The link alone: show a frame, wait for the board's acknowledgement and its OLED."""
    pico = bench.box.pico
    assert pico is not None
    times = []
    for n in range(rounds):
        frame = frames[n % len(frames)]
        if frame == bench.box.oled():
            continue
        start = time.perf_counter()
        pico.show(from_frame_bytes(frame))
        if not pico.wait_shown(TIMEOUT):
            raise RuntimeError("the board did not acknowledge a frame")
        done = bench.until(lambda f=frame: bench.box.oled() == f)
        assert done is not None
        times.append(done - start)
    return times


def bench_box(interpreter: str | None, firmware: Path) -> VirtualBox:
    """The virtual box on ``firmware``, its card reader the in-memory one."""
    box = VirtualBox(interpreter, firmware)
    box.tags.close()
    box.tags, box.reader_note = SimTags(), None
    return box


def measure(firmware: Path, interpreter: str | None, presses: int) -> dict[str, Any]:
    """One whole run on the board running ``firmware``: the figures by name."""
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-gadget-") as folder:
        box = bench_box(interpreter, firmware)
        running = Running(Path(folder) / "games.db", seed=SEED, box=box)
        try:
            running.start()
            bench = Bench(running)
            bench.until(bench.settled, 10.0)
            bench.choose_catacombs()
            release, tapped, host = [], [], []
            frames: list[bytes] = []
            for n in range(presses):  # "Who joins the party?": every CHOICE moves
                got = bench.timed_press(Button.CHOICE, tap=n % 4 == 3)
                if got is None:
                    continue
                if n % 4 == 3:
                    tapped.append(got[1])
                else:
                    host.append(got[0])
                    release.append(got[1])
                frames.append(bench.box.oled() or b"")
            baseline = link_round_trips(bench, frames, len(frames))
            bench.single_room()
            activations: list[float] = []
            while bench.next_possible() and len(activations) < presses:
                got = bench.timed_press(Button.NEXT)
                if got is not None:
                    activations.append(got[1])
                bench.read_and_answer()
            interp = bench.box.interpreter
            lost = bench.lost
        finally:
            running.close()
    return {
        "firmware": str(firmware),
        "choice_release_to_frame": figures(release),
        "choice_press_call_to_frame": figures(tapped),
        "next_down_to_frame": figures(activations),
        "choice_release_to_inbox": figures(host),
        "baseline_link_show_to_oled": figures(baseline),
        "lost_presses": lost,
        "firmware_on": interp,
        "load_average": [round(x, 2) for x in load],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
    }


def report(results: dict[str, Any]) -> None:
    load, after = results["load_average"], results["load_average_after"]
    print(f"firmware {results['firmware']} on {results['firmware_on']}; load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (after: {after[0]:.2f})")
    print(line("CHOICE, release to frame", results["choice_release_to_frame"]))
    print(line("CHOICE, VirtualPico.press to frame", results["choice_press_call_to_frame"]))
    if results["next_down_to_frame"]:
        print(line("NEXT AI PIECE, switch closing to frame", results["next_down_to_frame"]))
    print(line("CHOICE, release to Press in the inbox", results["choice_release_to_inbox"]))
    print(line("baseline: link show to OLED", results["baseline_link_show_to_oled"]))
    print(f"lost presses (pressed again never): {results['lost_presses']}")


def firmware_options(parser: argparse.ArgumentParser) -> None:
    """The options of a bench that runs the firmware on a virtual Pico (this one, budget.py)."""
    parser.add_argument("--cpython", action="store_true", help="the firmware on CPython's shims")
    parser.add_argument("--firmware", type=Path, default=FIRMWARE, help="the firmware folder")
    parser.add_argument("--against", type=Path,
                        help="another firmware folder, measured first in the same run")


def firmware_args(parser: argparse.ArgumentParser, argv: list[str]
                  ) -> tuple[argparse.Namespace, str | None]:
    """The parsed options, the firmware folders made absolute (the board runs in a folder of
    its own), and the interpreter to run the firmware on (None: MicroPython's Unix port)."""
    args = parser.parse_args(argv)
    args.firmware = args.firmware.resolve()
    args.against = args.against and args.against.resolve()
    interpreter = sys.executable if args.cpython or find_micropython() is None else None
    return args, interpreter


def main(argv: list[str]) -> int:
    registry.install()  # every game in games.GAMES (overseer/app/registry/)
    parser = argparse.ArgumentParser(description="press to new frame through the virtual Pico")
    parser.add_argument("--presses", type=int, default=300)
    firmware_options(parser)
    args, interpreter = firmware_args(parser, argv)
    runs = {}
    if args.against is not None:
        runs["against"] = measure(args.against, interpreter, args.presses)
        report(runs["against"])
        print()
    runs["firmware"] = measure(args.firmware, interpreter, args.presses)
    report(runs["firmware"])
    Path("bench/results").mkdir(parents=True, exist_ok=True)
    Path("bench/results/gadget.json").write_text(json.dumps(runs, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
