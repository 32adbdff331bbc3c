"""Benchmark: the press-to-glass budget, split into its parts, through the whole gadget (the real
firmware on MicroPython over a pty, the link, the Pico's device face, the shell in its thread as
the simulator runs it, the session on a real SQLite file, the render, the frame back).

Each press is timed at these points (``time.perf_counter``, one clock for every thread):

- ``press``: the switch closes (``button_down``; for CHOICE, which waits for the release to know
  short from held, the switch opening);
- ``inbox``: the Pico face puts the ``Press`` in the inbox (the firmware saw the edge, sent its
  BUTTON block, the link read and acknowledged it);
- ``taken``: the shell's thread takes it;
- then, inside the shell's step: ``session`` (the session calls: rules, the one SQLite
  transaction, fsync), ``render`` (the Screen drawn into a 128x64 image), ``encode`` (the image
  in the SSD1306's page layout, ``frames.vlsb``), ``show`` (``PicoLink.show``: the changed
  chunks found and queued for the link's writer);
- ``glass``: the board's OLED RAM holds the new frame (sent, received, CRC-checked, written).

Parts: firmware and link up (press to inbox), queue (inbox to taken), session, render, encode,
show, glass (show returned to the OLED holding it), and the whole. Host CPU per press: the shell
thread's CPU time for the step (``time.thread_time``: session, controller, render, encode, show),
and the whole process's (the link's threads too). The session's COMMITs per press are counted.

Baselines in the same run: a pty echo of one BUTTON-sized block (a thread at the other end), a
bare INSERT + COMMIT with fsync on the same disk, drawing one line of text into a blank 128x64
image with ``ImageDraw.text`` (in the gadget's 5x8 face; and in Pillow's default font, which a
new Draw loads again each time), ``Image.tobytes`` of the frame, and the link alone showing the
same frames to the OLED.

With ``--against DIR`` the presses are made twice, on that firmware folder first (e.g. main's,
from ``git archive``), then on ``--firmware`` (the repository's by default); the baselines once.

    PYTHONPATH=host .venv/bin/python bench/budget.py [--presses 200] [--cpython] [--against DIR]
    PYTHONPATH=host .venv/bin/python bench/budget.py --instructions [--presses 12] [--json]

``--instructions``: the instructions of each press by thread under callgrind, and the Pi Zero 2
W estimate from them (``bench/press_instructions.py``); ``--json`` prints its one object.

Writes bench/results/budget.json. Aim (issue 9): press to glass p99 < 30 ms here, host CPU per
press under 1 ms here.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parent))

import callgrind  # noqa: E402  (bench/callgrind.py)
import press_instructions  # noqa: E402
from gadget import (  # noqa: E402  (bench/gadget.py, beside this file)
    Bench,
    bench_box,
    firmware_args,
    firmware_options,
    link_round_trips,
)
from link import thread_echo  # noqa: E402

from overseer.app import (
    registry,
    shell,  # noqa: E402
)
from overseer.devices import pico as pico_face  # noqa: E402
from overseer.devices import protocol as p  # noqa: E402
from overseer.devices.pico_link import PicoLink  # noqa: E402
from overseer.ports.events import Button, Press  # noqa: E402
from overseer.ports.inbox import Inbox  # noqa: E402
from overseer.screens.render import face  # noqa: E402
from overseer.sim.box import PINS  # noqa: E402
from overseer.sim.running import Running  # noqa: E402

SEED = 11
TIMEOUT = 5.0
# seconds a button is held (a short press), as bench/gadget.py and ``VirtualPico.press`` hold a
# tap: at 50 ms, the virtual board's shortest step (firmware/unix/machine.py holds a line that
# long after the command took effect), its release came some 18 ms late, a delay of the stand-in
HOLD = 0.1
PARTS: tuple[str, ...] = ("firmware_and_link", "queue", "session", "render", "encode", "show",
                          "glass", "total")


def figures(ms: list[float]) -> dict[str, float | int] | None:
    """p50, p99 and max; None when nothing of that kind was timed (every such press late)."""
    if not ms:
        return None
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return {"p50_ms": round(statistics.median(ms), 3), "p99_ms": round(p99, 3),
            "max_ms": round(ms[-1], 3), "n": len(ms)}


def line(name: str, fig: dict[str, Any] | None) -> str:
    if fig is None:
        return f"{name:<36} none timed (every such press was lost or late)"
    return (f"{name:<36} p50 {fig['p50_ms']:8.3f} ms   p99 {fig['p99_ms']:8.3f} ms   "
            f"max {fig['max_ms']:8.3f} ms   (n={fig['n']})")


class Probe:
    """Times the parts of the press being measured, from wrappers around the shell's and the
    Pico face's functions (nothing in the gadget is changed for it)."""

    def __init__(self) -> None:
        self.on = False
        self.marks: dict[str, float] = {}
        self.spent: dict[str, float] = {}
        self.commits = 0
        self.restore: list[Callable[[], None]] = []
        self.profile: cProfile.Profile | None = None  # --profile: the timed steps profiled

    def start(self) -> None:
        self.marks, self.spent, self.commits = {}, dict.fromkeys(PARTS, 0.0), 0
        self.on = True

    def mark(self, name: str) -> None:
        if self.on and name not in self.marks:
            self.marks[name] = time.perf_counter()

    def wrap(self, owner: Any, name: str, part: str) -> None:
        real = getattr(owner, name)

        def timed(*args: Any, **kwargs: Any) -> Any:
            start, cpu = time.perf_counter(), time.thread_time()
            try:
                return real(*args, **kwargs)
            finally:
                if self.on:
                    self.spent[part] += time.perf_counter() - start
                    self.spent[f"cpu_{part}"] = self.spent.get(f"cpu_{part}", 0.0) + \
                        time.thread_time() - cpu
                    if part == "show":
                        self.marks["shown"] = time.perf_counter()

        setattr(owner, name, timed)
        self.restore.append(lambda: setattr(owner, name, real))

    def install(self) -> None:
        self.wrap(shell.Gadget, "_call", "session")
        self.wrap(shell, "render", "render")
        self.wrap(pico_face, "vlsb", "encode")
        self.wrap(PicoLink, "show", "show")
        real_put, real_feed = Inbox.put, shell.Gadget.feed
        probe = self

        def put(inbox: Inbox, item: Any) -> None:
            if isinstance(item, Press):
                probe.mark("inbox")
            real_put(inbox, item)

        def feed(gadget: shell.Gadget, item: Any) -> None:
            probe.mark("taken")
            cpu = time.thread_time()
            try:
                if probe.on and probe.profile is not None:
                    probe.profile.runcall(real_feed, gadget, item)
                else:
                    real_feed(gadget, item)
            finally:
                if probe.on:
                    probe.spent["cpu"] = probe.spent.get("cpu", 0.0) + time.thread_time() - cpu

        Inbox.put, shell.Gadget.feed = put, feed  # type: ignore[method-assign]
        self.restore += [lambda: setattr(Inbox, "put", real_put),
                         lambda: setattr(shell.Gadget, "feed", real_feed)]

    def uninstall(self) -> None:
        for undo in reversed(self.restore):
            undo()


class Budget(Bench):
    def __init__(self, running: Running, probe: Probe) -> None:
        super().__init__(running)
        self.probe = probe
        db = running.gadget.store.db
        db.set_trace_callback(lambda sql: self._commit() if sql == "COMMIT" else None)

    def _commit(self) -> None:
        if self.probe.on:
            self.probe.commits += 1

    def budget_press(self, button: Button) -> dict[str, float] | None:
        """One press timed part by part (ms), or None when its frame never came."""
        board, inbox = self.box.board, self.running.inbox
        before, frame = inbox.presses, self.box.oled()
        pin = PINS[button]
        at_edge = button not in shell.controller.held_buttons(self.app())
        cpu = time.process_time()
        if at_edge:
            self.probe.start()
            start = time.perf_counter()
            board.button_down(pin)
        else:
            board.button_down(pin)
            time.sleep(HOLD)
            self.probe.start()
            start = time.perf_counter()
            board.button_up(pin)

        def new_frame() -> bool:  # light: one read of the OLED file, no encoding
            return inbox.presses > before and self.box.oled() != frame

        glass = self.until(new_frame)
        if glass is not None and not self.settled():  # a frame on the way to the last one
            glass = self.until(lambda: self.settled() and self.box.oled() != frame)
        self.probe.on = False
        process_cpu = time.process_time() - cpu
        if at_edge:
            time.sleep(HOLD)
            board.button_up(pin)
        if glass is None:
            self.lost += 1
            self.until(self.settled, 10.0)
            return None
        self.until(self.settled, 10.0)
        marks, spent = self.probe.marks, self.probe.spent
        ms = {
            "firmware_and_link": marks["inbox"] - start,
            "queue": marks["taken"] - marks["inbox"],
            "session": spent["session"],
            "render": spent["render"],
            "encode": spent["encode"],
            "show": spent["show"],
            "glass": glass - marks["shown"],
            "total": glass - start,
            "host_cpu_shell_thread": spent.get("cpu", 0.0),
            **{f"host_cpu_{part}": spent.get(f"cpu_{part}", 0.0)
               for part in ("session", "render", "encode", "show")},
            "host_cpu_process": process_cpu,
        }
        out = {k: v * 1000 for k, v in ms.items()}
        out["commits"] = self.probe.commits
        return out


# ---------------------------------------------------------------------- baselines


def commit_baseline(folder: Path, rounds: int) -> tuple[list[float], list[float]]:
    """A bare INSERT + COMMIT with fsync: (wall ms, this thread's CPU ms, the kernel's included)."""
    db = sqlite3.connect(folder / "bare.sqlite3", isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE t (n INTEGER, data TEXT)")
    times, cpus = [], []
    for n in range(rounds):
        start, cpu = time.perf_counter(), time.thread_time()
        db.execute("BEGIN")
        db.execute("INSERT INTO t VALUES (?, ?)", (n, '{"do": "next_ai_piece"}'))
        db.execute("COMMIT")
        times.append((time.perf_counter() - start) * 1000)
        cpus.append((time.thread_time() - cpu) * 1000)
    db.close()
    return times, cpus


def draw_baseline(rounds: int, font: ImageFont.ImageFont | None = None) -> list[float]:
    """One line of text into a blank image through ``ImageDraw.text``: in the gadget's 5x8
    face, or (``font`` None) Pillow's default font, which ImageDraw loads again for every new
    Draw (a FreeType font decoded and opened: most of that figure)."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        image = Image.new("1", (128, 64))
        ImageDraw.Draw(image).text((0, 0), "Next AI piece", font=font, fill=1)
        times.append((time.perf_counter() - start) * 1000)
    return times


def tobytes_baseline(rounds: int) -> list[float]:
    image = Image.new("1", (128, 64))
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        image.tobytes()
        times.append((time.perf_counter() - start) * 1000)
    return times


# ---------------------------------------------------------------------- the run


def measure(firmware: Path, interpreter: str | None, count: int, probe: Probe,
            folder: Path) -> dict[str, Any]:
    """The timed presses on the board running ``firmware``, and the link alone on its frames."""
    load = os.getloadavg()
    presses: dict[str, list[dict[str, float]]] = {"choice": [], "next": []}
    box = bench_box(interpreter, firmware)  # the card reader in memory, as in bench/gadget.py
    with tempfile.TemporaryDirectory(prefix="games-", dir=folder) as store:
        running = Running(Path(store) / "games.db", seed=SEED, box=box)
        try:
            running.start()
            bench = Budget(running, probe)
            bench.until(bench.settled, 10.0)
            bench.choose_catacombs()
            frames: list[bytes] = []
            for _ in range(count // 2):  # the new game's list of heroes: CHOICE moves
                got = bench.budget_press(Button.CHOICE)
                if got is not None:
                    presses["choice"].append(got)
                    frames.append(bench.box.oled() or b"")
            link_alone = [t * 1000 for t in link_round_trips(bench, frames, len(frames))]
            bench.single_room()
            while bench.next_possible() and len(presses["next"]) < count:
                got = bench.budget_press(Button.NEXT)  # each activation's first screen
                if got is not None:
                    presses["next"].append(got)
                bench.read_and_answer()
            interp, lost = bench.box.interpreter, bench.lost
        finally:
            with suppress(Exception):
                running.close()
    results: dict[str, Any] = {
        "firmware": str(firmware), "firmware_on": interp, "lost_presses": lost,
        "load_average": [round(x, 2) for x in load],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "link_alone_show_to_oled": figures(link_alone)}
    for kind, runs in presses.items():
        if runs:
            results[kind] = {k: figures([r[k] for r in runs]) for k in KEYS}
            results[kind]["commits_per_press"] = sorted({int(r["commits"]) for r in runs})
    return results


KEYS = (*PARTS, "host_cpu_shell_thread", "host_cpu_session", "host_cpu_render",
        "host_cpu_encode", "host_cpu_show", "host_cpu_process")


def report(results: dict[str, Any]) -> None:
    load, after = results["load_average"], results["load_average_after"]
    print(f"firmware {results['firmware']} on {results['firmware_on']}; load average "
          f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (after: {after[0]:.2f}); "
          f"lost presses: {results['lost_presses']}")
    for kind, title in (("next", "NEXT AI PIECE from the switch closing (first edge)"),
                        ("choice", "CHOICE from its release (short press)")):
        if kind in results:
            print(f"\n{title}:")
            for key in KEYS:
                print("  " + line(key, results[kind][key]))
            print(f"  session COMMITs per press: {results[kind]['commits_per_press']}")
    print("  " + line("baseline: link alone, show to OLED", results["link_alone_show_to_oled"]))


def instructions(args: argparse.Namespace, argv: list[str]) -> int:
    """This script again under callgrind (``--counting``), its dumps read into figures."""
    why = callgrind.missing()
    if why is not None:
        raise SystemExit(f"--instructions: {why}")
    presses = args.presses if "--presses" in argv else 12
    passed = ["--presses", str(presses), "--firmware", str(args.firmware)]
    if args.cpython:
        passed.append("--cpython")
    with callgrind.scratch() as name:
        folder = args.keep if args.keep is not None else Path(name)
        folder.mkdir(parents=True, exist_ok=True)
        run = callgrind.run([__file__, "--counting", str(folder), *passed], folder,
                            detail=args.keep is not None)
        if run.returncode != 0:
            raise SystemExit(f"the counted run failed:\n{run.stdout[-3000:]}{run.stderr[-3000:]}")
        samples = json.loads((folder / "samples.json").read_text())
        results = press_instructions.figures(folder, samples)
    if args.json:
        print(press_instructions.dump_json(results))
    else:
        press_instructions.report(results)
    Path("bench/results").mkdir(parents=True, exist_ok=True)
    Path("bench/results/budget_instructions.json").write_text(json.dumps(results, indent=2) + "\n")
    return 0


def counting(args: argparse.Namespace, interpreter: str | None) -> int:
    """The process callgrind counts: the scripted game's presses, each an interval."""
    folder: Path = args.counting
    requests = callgrind.Requests(folder)
    with tempfile.TemporaryDirectory(prefix="games-", dir=folder) as store:
        samples = press_instructions.play(args.presses, args.firmware, interpreter, Path(store),
                                          requests)
    (folder / "samples.json").write_text(json.dumps(samples))
    return 0


def main(argv: list[str]) -> int:
    registry.install()  # every game in games.GAMES (overseer/app/registry/)
    parser = argparse.ArgumentParser(description="the press-to-glass budget, part by part")
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--profile", action="store_true",
                        help="profile the timed steps (the figures then include its cost)")
    parser.add_argument("--instructions", action="store_true",
                        help="count each press's instructions under callgrind (by thread)")
    parser.add_argument("--json", action="store_true", help="with --instructions: one object")
    parser.add_argument("--keep", type=Path,
                        help="with --instructions: keep callgrind's dumps in this folder "
                             "(for callgrind_annotate; one file a press and thread)")
    parser.add_argument("--counting", type=Path, help=argparse.SUPPRESS)  # the counted process
    firmware_options(parser)
    args, interpreter = firmware_args(parser, argv)
    if args.counting is not None:
        return counting(args, interpreter)
    if args.instructions:
        return instructions(args, argv)
    probe = Probe()
    if args.profile:
        probe.profile = cProfile.Profile()
    probe.install()
    runs: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="bench-budget-") as name:
        folder = Path(name)
        try:
            if args.against is not None:
                runs["against"] = measure(args.against, interpreter, args.presses, probe, folder)
            runs["firmware"] = measure(args.firmware, interpreter, args.presses, probe, folder)
        finally:
            probe.uninstall()
        commit_wall, commit_cpu = commit_baseline(folder, 300)
        block = p.encode(p.ButtonEvent(1, p.Button.NEXT_AI_PIECE, p.Press.DOWN), 1)
        baselines = {
            "pty_echo_one_button_block": figures([t * 1000 for t in thread_echo(300, block)]),
            "bare_insert_commit_fsync": figures(commit_wall),
            "bare_insert_commit_fsync_cpu": figures(commit_cpu),
            "draw_one_line_of_text": figures(draw_baseline(300, face("5x8"))),
            "draw_one_line_default_font": figures(draw_baseline(300)),
            "image_tobytes": figures(tobytes_baseline(300)),
        }
    for results in runs.values():
        report(results)
        print()
    print("baselines, same run:")
    for key, fig in baselines.items():
        print("  " + line(key, fig))
    if probe.profile is not None:
        pstats.Stats(probe.profile).sort_stats("cumulative").print_stats(40)
    runs["baselines"] = baselines
    Path("bench/results").mkdir(parents=True, exist_ok=True)
    Path("bench/results/budget.json").write_text(json.dumps(runs, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    threading.current_thread().name = "bench"
    sys.exit(main(sys.argv[1:]))
