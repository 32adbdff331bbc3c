"""Real captures of the simulator for README.md and docs/simulator.md: the app itself, run
headless in an 80x24 terminal on the virtual Pico, keys pressed by Textual's pilot, each
picture taken once the board's OLED shows the frame the gadget sent.

    python -m tools.sim_pictures [OUTDIR]      (scripts/sim_pictures: docs/img)
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from overseer.app.shell import Gadget
from overseer.devices.frames import vlsb
from overseer.session.store import Store
from overseer.sim.app import Simulator
from overseer.sim.opening import NewGame, load_setup
from overseer.sim.running import Running

DEMO = Path(__file__).resolve().parents[1] / "data" / "demo" / "catacombs.json"
SIZE = (80, 24)
TIMEOUT = 15.0


async def settled(pilot: Pilot, running: Running, test: Callable[[Gadget], bool]) -> None:
    """Wait until the gadget has acted on every input, ``test`` holds and the board's OLED
    holds the frame sent last (and the simulator has drawn it)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        with running.reading() as gadget:
            sent = running.glass.sent
            if running.idle and test(gadget) and sent is not None \
                    and running.box.oled() == vlsb(sent):
                break
        if time.monotonic() > deadline:
            raise TimeoutError("the simulator did not settle")
        await pilot.pause(0.05)
    await pilot.pause(0.2)


async def keys(pilot: Pilot, running: Running, *pressed: str) -> None:
    for key in pressed:
        before = running.inbox.presses
        await pilot.press(key)
        await settled(pilot, running, lambda g, b=before: running.inbox.presses > b)


async def first_screen(store: Path, out: Path) -> None:
    """No game yet: the gadget asks who joins the party."""
    running = Running(store)
    app = Simulator(running)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settled(pilot, running, lambda g: g.screen is not None)
            app.save_screenshot("sim-start.svg", str(out))
            await pilot.press("q")
    finally:
        running.close()


async def demo_battle(store: Path, out: Path) -> None:
    """The demo battle: NEXT AI PIECE, its target on the glass; then a card at the reader."""
    with Store(store) as opened:
        game_id = NewGame(opened, seed=3, dice="pico").start(load_setup(str(DEMO))).id
    running = Running(store, game_id)
    app = Simulator(running)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await settled(pilot, running, lambda g: g.screen is not None)
            await keys(pilot, running, "n", "o")
            app.save_screenshot("sim-activation.svg", str(out))
            await pilot.press("t", *"skel")
            await pilot.pause(0.3)
            app.save_screenshot("sim-tap.svg", str(out))
            await pilot.press("escape", "q")
    finally:
        running.close()


async def capture(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="overseer-pictures-") as folder:
        await first_screen(Path(folder) / "start.sqlite3", out)
        await demo_battle(Path(folder) / "demo.sqlite3", out)


def main(argv: list[str]) -> int:
    from overseer.app import registry

    registry.install()
    out = Path(argv[0]) if argv else Path(__file__).resolve().parents[1] / "docs" / "img"
    asyncio.run(capture(out))
    for name in ("sim-start.svg", "sim-activation.svg", "sim-tap.svg"):
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
