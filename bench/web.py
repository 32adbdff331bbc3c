"""Benchmark: what the web page costs the gadget, in host instructions (callgrind).

The same scripted Catacombs room (tests/drivers/catacombs_table.py: the Monstrosity campaign's first
room, through the Gadget's inbox) and the same presses (read on, answer, NEXT AI PIECE, an undo
every 25th), in a process of their own under valgrind's callgrind (Debian package valgrind),
three ways:

- ``off``: no page (the baseline, in the same run);
- ``on, 0 phones``: the page serving, nobody following;
- ``on, 8 phones``: eight phones following by server-sent events as the page's script does
  (the glass's picture comes inside its event while phones follow; a phone fetches
  ``/glass.png`` only for an event without it). The phones are another process, not counted:
  only the gadget's process is under callgrind, its server thread included.

Each count is the process's total for N presses less the same process for 0 presses (the
imports, the set-up, the room). The instruction model of the Pi budget: a Cortex-A53 at 1.0 GHz
at 0.6-0.8 instructions a cycle on CPython, so 0.6e9 instructions a second at worst: a press's
instructions with 8 phones, all of them, is an upper bound of the time a step takes to reach
the page (the press's own work comes first, then the server's).

    PYTHONPATH=host .venv/bin/python bench/web.py [--presses 40]

Aims (issue 25): a step on the page within 200 ms by the model; 8 phones add at most 10% to
a press's host instructions. Writes bench/results/web.json.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tools/ and tests/ (the scripted room the tests play)

IPS = 0.6e9  # instructions a second: Cortex-A53 at 1.0 GHz, 0.6 IPC (the worse end)
PHONES = 8
IDLE = 20.0  # seconds the idle runs last (under callgrind)


def presses(table, n: int) -> None:
    """n presses, as tests/web/test_load.py makes them."""
    from tests.drivers.catacombs_table import BACK, NEXT, OK

    for made in range(n):
        app = table.gadget.app
        if made % 25 == 24:
            table.press(BACK, long=True)
        elif app.reading or app.notice:
            table.press(OK)
        elif table.session.pending is not None:
            table.press(NEXT if table.screen.done else OK)
        else:
            table.press(NEXT)


def gadget_process(n: int, phones: int | None, idle: float = 0.0) -> None:
    """The measured process: the room, then ``n`` presses (their wall time said on stderr),
    then ``idle`` seconds of nothing; ``phones`` None: no page."""
    from tests.drivers import web_table
    from tests.drivers.web_table import into_the_battle
    from tools.table import Table

    with tempfile.TemporaryDirectory() as folder:
        if phones is None:
            table = Table(Path(folder) / "games.db")
            into_the_battle(table)
            presses(table, n)
            table.gadget.close()
            return
        followed = web_table.follow(Path(folder) / "games.db")
        phone = subprocess.Popen([sys.executable, __file__, "--phones", str(phones),
                                  str(followed.page.server.port)], stdout=subprocess.PIPE,
                                 text=True)
        assert phone.stdout is not None
        assert phone.stdout.readline().strip() == "following"
        into_the_battle(followed.table)
        start = time.monotonic()
        presses(followed.table, n)
        print(f"presses took {time.monotonic() - start:.3f} s", file=sys.stderr)
        time.sleep(idle)
        followed.page.feed.publish("done", {})
        phone.wait(600)
        followed.close()


def phones_process(count: int, port: int) -> None:
    """``count`` phones following the page on loopback until the ``done`` event."""
    from tests.drivers.web_table import LOOPBACK, sse_events

    host = f"{LOOPBACK}:{port}"
    ready = threading.Barrier(count + 1)

    def phone() -> None:
        events = http.client.HTTPConnection(LOOPBACK, port, timeout=600)
        pictures = http.client.HTTPConnection(LOOPBACK, port, timeout=600)
        events.request("GET", "/events", headers={"Host": host})
        response = events.getresponse()
        ready.wait()
        for _, kind, data in sse_events(iter(response.readline, b"")):
            if kind == "done":
                break
            if kind == "glass" and "bits" not in data:  # the picture not in the event
                pictures.request("GET", f"/glass.png?v={data['v']}", headers={"Host": host})
                pictures.getresponse().read()
        events.close()
        pictures.close()

    threads = [threading.Thread(target=phone) for _ in range(count)]
    for thread in threads:
        thread.start()
    ready.wait()
    print("following", flush=True)
    for thread in threads:
        thread.join()


def instructions(n: int, phones: int | None, idle: float = 0.0) -> tuple[int, float]:
    """The process's instructions (callgrind) and how long its presses took (under it)."""
    with tempfile.TemporaryDirectory() as folder:
        args = [str(n)] + ([] if phones is None else ["--web", str(phones)]) + [
            "--idle", str(idle)]
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out",
                              sys.executable, __file__, "--only", *args],
                             capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"the measured process failed:\n{run.stderr[-3000:]}")
    found = re.search(r"Collected : (\d+)", run.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no total:\n{run.stderr[-2000:]}")
    took = re.search(r"presses took ([0-9.]+) s", run.stderr)
    return int(found.group(1)), float(took.group(1)) if took else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--only", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--web", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--idle", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--phones", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phones:
        phones_process(*args.phones)
        return 0
    if args.only is not None:
        gadget_process(args.only, args.web, args.idle)
        return 0
    n = args.presses
    rows, raw = {}, {}
    for name, phones in (("off", None), ("on, 0 phones", 0), (f"on, {PHONES} phones", PHONES)):
        pressed, took = instructions(n, phones)
        still, _ = instructions(0, phones)
        per_press = raw[name] = (pressed - still) / n
        if phones is not None:
            # Under callgrind the clock runs ~50 times slower than the work: the server's own
            # timers (its clock once a second, the keepalive) fire more often a press than on
            # the Pi. Their rate, measured idle, times the presses' time, is taken off.
            idle, _ = instructions(0, phones, IDLE)
            rate = (idle - still) / IDLE
            per_press = (pressed - still - rate * took) / n
            print(f"{name:>14}: the server idle: {rate / 1e3:,.0f} k instructions a second "
                  f"under callgrind; the presses took {took:.1f} s", flush=True)
        rows[name] = per_press
        print(f"{name:>14}: {per_press / 1e6:7.2f} M instructions a press "
              f"({per_press / IPS * 1000:5.1f} ms at 0.6e9 instructions/s; "
              f"{raw[name] / 1e6:.2f} M with the timers)", flush=True)
    base, page, full = rows["off"], rows["on, 0 phones"], rows[f"on, {PHONES} phones"]
    print(f"the page adds {100 * (page - base) / base:+.1f}% to a press; {PHONES} phones add "
          f"{100 * (full - page) / page:+.1f}% more ({100 * (full - base) / base:+.1f}% in all; "
          f"aim: <= 10%); a step reaches the page within {full / IPS * 1000:.0f} ms by the "
          "model (aim: <= 200 ms)")
    Path(ROOT / "bench" / "results").mkdir(exist_ok=True)
    (ROOT / "bench" / "results" / "web.json").write_text(json.dumps(
        {"presses": n, "instructions_per_press": rows, "with_timers": raw, "model_ips": IPS},
        indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
