"""A table at the gadget through the virtual Pico: the real firmware (``VirtualPico``) at the far
end of a pty, the Pico's device face (``devices.pico.Pico``: Glass, Buttons, Dice over the real
protocol) and the shell (``app.shell.Gadget``), wired as the simulator wires them
(``sim.box``, ``sim.running``). A press is a press of the board's pin; the gadget acts on what
reaches its inbox; each press is over when the board's OLED RAM holds the frame the gadget
rendered last.

``PicoTable`` has the interface of ``tools.table.Table`` (press, tap, pick, number, read, screen,
session, shown), so a game scripted for the in-memory gadget plays the same here. The host can
be closed and opened again on the same board (``close`` leaves the board running).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from PIL import Image

from overseer.app.shell import Gadget
from overseer.app.sim import SimLeds, SimTags
from overseer.devices.pico import Pico
from overseer.devices.virtual_pico import VirtualPico
from overseer.ports.events import Button, Press
from overseer.screens.render import Screen, frame_bytes, from_frame_bytes
from overseer.sim.box import PINS, READY_TIMEOUT, WatchedInbox
from overseer.sim.running import SentGlass
from tools.table import TableMoves

OK, CHOICE, NEXT, BACK = Button.OK, Button.CHOICE, Button.NEXT, Button.BACK
SETTLE = 10.0  # seconds for the board's OLED to hold the gadget's frame
# A short press is the pin down, then up: the board holds each line at least 20 ms in real time
# (firmware/unix/machine.py, its shortest step, the firmware's lockouts against bounce), a fifth
# of its 100 ms tap, so a game of 300 presses spends 24 s less holding pins. A board process starved of CPU
# that long never samples it low and the press is lost, as a real switch pressed too briefly
# would be (tests/sim/test_app.py says the same). With no press in the inbox after this long,
# once more.
LOST = 3.0


class PicoTable(TableMoves):
    """The table at a Gadget on ``store``, its Pico the virtual ``board`` (already running)."""

    def __init__(self, board: VirtualPico, store: Path, seed: int, leds: Any = None,
                 tags: Any = None) -> None:
        """``leds`` (default ``SimLeds``) and ``tags`` (a card reader with ``tap(game, kind,
        card)`` returning once the tap is in the inbox; default ``SimTags``)."""
        self.board = board
        # the Unix port's board process, starved of CPU, can miss a short press; the emulated
        # RP2040 applies its pins in board time and never does: a late press is waited for
        self.retry = type(board) is VirtualPico
        self.inbox = WatchedInbox()
        self.pico = Pico(board.port, clock=board.clock)  # the board's time for the link
        self.glass = SentGlass(self.pico)
        self.leds = leds if leds is not None else SimLeds()
        self.tags = tags if tags is not None else SimTags()
        self.shown: list[Screen] = []
        self.latencies: list[float] = []  # seconds from a press reaching the inbox to its frame
        self.retries = 0  # presses the board never saw, pressed again
        self.gadget = Gadget(store, self.glass, self.leds, dice=self.pico, inbox=self.inbox,
                             sources=(self.tags,), seed=seed)
        try:
            self.pico.wait_ready(READY_TIMEOUT)
            self.gadget.open()
            self._take()
            self.settle()
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ what the table sees

    def oled(self) -> Image.Image:
        """What the board's OLED shows now."""
        frame = self.board.oled()
        assert frame is not None, "the board has shown nothing yet"
        return from_frame_bytes(frame)

    def settle(self) -> bytes:
        """Wait until the board's OLED RAM holds the frame the gadget rendered last; its
        bytes. The pixels are checked against the gadget's screen drawn again."""
        sent = self.glass.sent
        assert sent is not None, "the gadget has rendered nothing"
        want = frame_bytes(sent)
        got = self.board.wait_oled(lambda frame: frame == want, SETTLE)
        assert got is not None, (f"the board's OLED never showed {self.screen} "
                                 f"(stderr: {self.board.stderr()[-1500:]})")
        assert from_frame_bytes(got).tobytes() == sent.convert("1").tobytes()
        return got

    # ------------------------------------------------------------------ inputs

    def _take(self) -> None:
        """Act on every input already in the inbox (the link's, the reader's)."""
        while self.gadget.step(0):
            self._note()

    def _await_press(self, timeout: float) -> float | None:
        """Act on inputs until a press comes; when it came (monotonic), None at the timeout."""
        clock = self.board.clock  # board time: an emulated board may run slower than the wall
        deadline = clock() + timeout
        while (left := deadline - clock()) > 0:
            item = self.inbox.get(left)
            if item is None:
                break
            came = time.monotonic()
            self.gadget.feed(item)
            self._note()
            if isinstance(item, Press):
                return came
        return None

    def press(self, button: Button, long: bool = False, times: int = 1) -> Screen:
        """Press the board's button, act on the press, wait for its frame on the OLED."""
        for _ in range(times):
            self._take()
            self._push(button, long)
            came = self._await_press((LOST if self.retry else SETTLE) + (1.0 if long else 0.0))
            if came is None and self.retry:  # a tap the starved board never saw: once more
                self.retries += 1
                self._push(button, long)
                came = self._await_press(SETTLE)
                assert came is not None, f"the board never reported {button} (long={long})"
            self._take()
            self.settle()
            self.latencies.append(time.monotonic() - came)
        return self.screen

    def press_taken(self) -> None:
        """Act on a press already made on the board (``_push``), as ``press`` does."""
        came = self._await_press(LOST if self.retry else SETTLE)
        assert came is not None, "the board never reported the press"
        self._take()

    def _push(self, button: Button, long: bool) -> None:
        pin = PINS[Button(button)]
        if long:
            self.board.press(pin, long=True)
        else:  # down, then up: the board holds the line 20 ms (its shortest step)
            self.board.button_down(pin)
            self.board.button_up(pin)

    def tap(self, kind: str, card: str, game: str = "catacombs") -> Screen:
        """A card on the (simulated) reader."""
        self.tags.tap(game, kind, card)
        self._take()
        self.settle()
        return self.screen

    def close(self) -> None:
        """The host goes: the store and its lock released, the link closed; the board runs on."""
        try:
            self.gadget.close()
        finally:
            self.pico.close()
