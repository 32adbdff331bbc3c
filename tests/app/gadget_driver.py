"""A table at the gadget, for the tests: puts presses and taps into the Gadget's inbox, takes
them one at a time, and keeps every screen the glass showed."""

from __future__ import annotations

from pathlib import Path

from overseer.app.events import Button, Press, Tap
from overseer.app.shell import Gadget
from overseer.app.sim import MemoryGlass, SimLeds
from overseer.screens.render import Screen


class Driver:
    def __init__(self, store: Path, seed: int = 7, dice=None, game_id: int | None = None):
        self.glass, self.leds = MemoryGlass(), SimLeds()
        self.gadget = Gadget(store, self.glass, self.leds, dice=dice, seed=seed)
        self.shown: list[Screen] = []
        self.gadget.open(game_id)
        self._note()

    @property
    def screen(self) -> Screen:
        assert self.gadget.screen is not None
        return self.gadget.screen

    @property
    def session(self):
        return self.gadget.session

    def _note(self) -> None:
        if not self.shown or self.shown[-1] != self.gadget.screen:
            self.shown.append(self.screen)

    def _take(self) -> None:
        while self.gadget.step(0):
            self._note()

    def press(self, button: Button, long: bool = False, times: int = 1) -> Screen:
        for _ in range(times):
            self.gadget.inbox.put(Press(button, long))
            self._take()
        return self.screen

    def tap(self, kind: str, card: str, game: str = "catacombs") -> Screen:
        self.gadget.inbox.put(Tap(game, kind, card))
        self._take()
        return self.screen

    def pick(self, label: str) -> Screen:
        """CHOICE until ``label`` is under the cursor, then OK."""
        rows = self.screen.rows
        assert label in rows, f"{label!r} not in {rows} ({self.screen.title})"
        for _ in range(len(rows)):
            if self.screen.rows[self.screen.cursor] == label:
                return self.press(Button.OK)
            self.press(Button.CHOICE)
        raise AssertionError(f"the cursor never reached {label!r}")

    def number(self, value: int) -> Screen:
        """Step the number on the glass to ``value`` (CHOICE up, NEXT down), then OK."""
        assert self.screen.number is not None, self.screen
        while self.screen.number != value:
            self.press(Button.CHOICE if self.screen.number < value else Button.NEXT)
        return self.press(Button.OK)

    def read(self) -> list[Screen]:
        """OK through the steps (and any message) until a question or the idle screen."""
        pages = []
        for _ in range(500):
            app = self.gadget.app
            if not (app.reading or app.notice):
                return pages
            pages.append(self.screen)
            self.press(Button.OK)
        raise AssertionError("the steps never ended")

    def close(self) -> None:
        self.gadget.close()
