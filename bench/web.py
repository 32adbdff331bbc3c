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
  only the gadget's process is under callgrind, its server thread included. The presses
  begin once every phone's stream has joined the fan-out (a phone's joining is not a press's).

The gadget's glass is the box's own (``--glass pico``, the default): the real firmware on a
virtual Pico over a pty (``sim.box.VirtualBox``, MicroPython's Unix port when found), so a press
costs what it costs on the box (its frame packed once for the Pico, NEXT drawn and armed ahead)
and the page's picture is that same frame, packed once a screen for both; ``--glass memory``:
the tests' in-memory glass, which packs nothing, so the page packs every picture itself. The
Pico link's own thread is not counted (the phones do not touch it): a press's share here is
the gadget's thread and the server's.

Each count is the gadget's and the server's threads over the N counted presses (callgrind's
counters zeroed before them, dumped after them). The instruction model of the Pi budget: a
Cortex-A53 at 1.0 GHz at 0.6-0.8 instructions a cycle on CPython, so 0.6e9 instructions a
second at worst: a press's instructions with 8 phones, all of them, is an upper bound of the
time a step takes to reach the page (the press's own work comes first, then the server's).

    PYTHONPATH=host .venv/bin/python bench/web.py [--presses 40] [--glass pico|memory]

Aims (issue 25): a step on the page within 200 ms by the model; 8 phones add at most 10% to
a press's host instructions. Writes bench/results/web.json.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # tools/ and tests/ (the scripted room the tests play)

import callgrind  # noqa: E402  (bench/callgrind.py)

IPS = 0.6e9  # instructions a second: Cortex-A53 at 1.0 GHz, 0.6 IPC (the worse end)
PHONES = 8
WARM = 10  # presses before the counted ones (the first of each kind of page)


def presses(table, n: int, first: int = 0) -> None:
    """n presses, as tests/web/test_load.py makes them (``first``: how many came before)."""
    from tests.drivers.catacombs_table import BACK, NEXT, OK

    for made in range(first, first + n):
        app = table.gadget.app
        if made % 25 == 24:
            table.press(BACK, long=True)
        elif app.reading or app.notice:
            table.press(OK)
        elif table.session.pending is not None:
            table.press(NEXT if table.screen.done else OK)
        else:
            table.press(NEXT)


def gadget_process(n: int, phones: int | None, folder: Path, glass: str) -> None:
    """The measured process: the room, a few presses to warm up, then ``n`` presses counted
    (callgrind's counters zeroed before them and dumped after them, in the gadget's thread
    and in the server's); ``phones`` None: no page; ``glass`` "pico": the virtual box's."""
    from overseer.devices.virtual_pico import find_micropython
    from overseer.sim.box import VirtualBox
    from tests.drivers import web_table
    from tests.drivers.web_table import into_the_battle
    from tools.table import Table

    requests = callgrind.Requests(folder)
    box = pico = None
    if glass == "pico":
        box = VirtualBox(find_micropython())
        pico = box.power_on()
        box.wait_ready()
    with tempfile.TemporaryDirectory() as store:
        followed = phone = None
        if phones is None:
            table = Table(Path(store) / "games.db", glass=pico)
        else:
            followed = web_table.follow(Path(store) / "games.db", glass=pico)
            table = followed.table
            phone = subprocess.Popen([sys.executable, __file__, "--phones", str(phones),
                                      str(followed.page.server.port)], stdout=subprocess.PIPE,
                                     text=True)
            assert phone.stdout is not None
            assert phone.stdout.readline().strip() == "following"
            streams = followed.page.web.streams  # each phone's stream handed to the fan-out:
            for _ in range(3000):  # its joining is not a press's (under callgrind, seconds)
                if len(streams.sinks) == phones:
                    break
                time.sleep(0.01)
        into_the_battle(table)
        presses(table, WARM)
        in_server = followed.page.server.call if followed is not None else None
        requests.zero()
        if in_server is not None:
            in_server(requests.zero)
        start = time.monotonic()
        presses(table, n, WARM)
        requests.dump("gadget")
        if in_server is not None:
            in_server(lambda: requests.dump("server"))
        print(f"presses took {time.monotonic() - start:.3f} s", file=sys.stderr)
        if followed is not None and phone is not None:
            followed.page.feed.publish("done", {})
            phone.wait(600)
            followed.close()
        else:
            table.gadget.close()
    if box is not None:
        box.close()


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


def instructions(n: int, phones: int | None, glass: str) -> dict[str, int]:
    """The instructions of ``n`` presses, by thread (``gadget``, ``server``), under callgrind."""
    with callgrind.scratch() as name:
        folder = Path(name)
        args = ["--only", str(n), "--glass", glass]
        args += [] if phones is None else ["--web", str(phones)]
        run = callgrind.run([__file__, *args, "--folder", str(folder)], folder)
        if run.returncode != 0:
            raise SystemExit(f"the measured process failed:\n{run.stderr[-3000:]}")
        found = callgrind.dumps(folder)
    return {"gadget": found.get("gadget", 0), "server": found.get("server", 0)}


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").partition("\n")[0])
    parser.add_argument("--presses", type=int, default=200)
    parser.add_argument("--glass", choices=("pico", "memory"), default="pico",
                        help="the gadget's glass: the virtual box's Pico (default) or the "
                             "tests' in-memory one")
    parser.add_argument("--only", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--web", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--phones", nargs=2, type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phones:
        phones_process(*args.phones)
        return 0
    if args.only is not None:
        gadget_process(args.only, args.web, args.folder, args.glass)
        return 0
    why = callgrind.missing()
    if why is not None:
        raise SystemExit(f"bench/web.py: {why}")
    os.environ["PYTHONHASHSEED"] = "0"  # the same dicts' order in every run
    n = args.presses
    print(f"the glass: {args.glass}", flush=True)
    rows: dict[str, dict[str, float]] = {}
    for name, phones in (("off", None), ("on, 0 phones", 0), (f"on, {PHONES} phones", PHONES)):
        counts = instructions(n, phones, args.glass)
        row = rows[name] = {part: count / n for part, count in counts.items()}
        row["all"] = row["gadget"] + row["server"]
        print(f"{name:>14}: {row['all'] / 1e6:6.3f} M instructions a press (the gadget's "
              f"thread {row['gadget'] / 1e6:.3f} M, the server's {row['server'] / 1e6:.3f} M; "
              f"{row['all'] / IPS * 1000:4.1f} ms at 0.6e9 instructions/s)", flush=True)
    base, page, full = (rows[k]["all"] for k in ("off", "on, 0 phones", f"on, {PHONES} phones"))
    print(f"the page adds {100 * (page - base) / base:+.1f}% to a press; {PHONES} phones add "
          f"{100 * (full - page) / base:+.1f}% of a press more ({100 * (full - base) / base:+.1f}%"
          f" in all; aim: <= 10%); a step reaches the page within {full / IPS * 1000:.1f} ms by "
          "the model (aim: <= 200 ms)")
    Path(ROOT / "bench" / "results").mkdir(exist_ok=True)
    (ROOT / "bench" / "results" / "web.json").write_text(json.dumps(
        {"presses": n, "glass": args.glass, "instructions_per_press": rows, "model_ips": IPS},
        indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
