"""The gadget running on the virtual box: the shell (``app.shell.Gadget``) with the virtual
Pico's Glass, Buttons and Dice, the simulated seat LEDs and card reader, stepped by a thread.

The simulator reads what the box shows (the board's OLED RAM, the LEDs) and what the game is
(the session, under the same lock as each step) from here, and presses the board's buttons.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from PIL import Image

from overseer.app.shell import Gadget
from overseer.devices.pico import Pico
from overseer.ports.events import Button
from overseer.ports.ports import GlassAhead
from overseer.sim.box import VirtualBox

POLL = 0.05  # seconds the loop waits for an input before it looks at ``stop`` again


class SentGlass(GlassAhead):
    """The Pico's Glass, keeping the last image the gadget sent (tests compare the board's
    OLED with it)."""

    def __init__(self, pico: Pico) -> None:
        self.pico = pico
        self.sent: Image.Image | None = None

    def show(self, image: Image.Image) -> None:
        self.sent = image  # (``render`` hands out a new picture at every show: nothing draws on it)
        self.pico.show(image)

    def arm(self, image: Image.Image, button: Button) -> None:
        self.pico.arm(image, button)

    def close(self) -> None:
        pass  # the Pico is the box's to close


class Running:
    """The virtual box powered on and the gadget stepping on it, until ``close``."""

    def __init__(self, store: str | Path, game_id: int | None = None, seed: int | None = None,
                 box: VirtualBox | None = None, new: bool = False) -> None:
        """``box``: a box already powered on (its firmware boots while the simulator loads);
        None: a new one."""
        self.box = box or VirtualBox()
        self.inbox = self.box.inbox
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None
        self.fed = 0  # inputs the gadget has acted on
        try:
            pico = self.box.power_on()
            self.glass = SentGlass(pico)
            self.gadget = Gadget(store, self.glass, self.box.leds, dice=pico, inbox=self.inbox,
                                 sources=(self.box.tags,), seed=seed)
        except BaseException:
            self.box.close()
            raise
        try:
            self.box.wait_ready()
            self.gadget.open(game_id, new=new)
        except BaseException:
            self.gadget.close()
            self.box.close()
            raise

    def start(self) -> None:
        """Step the gadget in a thread from now on."""
        self._thread = threading.Thread(target=self._loop, name="gadget", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        try:
            while not self._stop.is_set():
                item = self.inbox.get(POLL)
                if item is not None:
                    with self.lock:
                        self.gadget.feed(item)
                        self.fed += 1
        except BaseException as err:  # the simulator shows it and stops; nothing is lost
            self.error = err

    @contextmanager
    def reading(self) -> Iterator[Gadget]:
        """The gadget between two steps."""
        with self.lock:
            yield self.gadget

    @property
    def idle(self) -> bool:
        """Every input put so far has been acted on."""
        return self.fed == self.inbox.puts

    @property
    def game_id(self) -> int | None:
        session = self.gadget.session
        return None if session is None else session.id

    def close(self) -> None:
        """Stop the loop, release the store and power the board off."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        try:
            self.gadget.close()
        finally:
            self.box.close()
