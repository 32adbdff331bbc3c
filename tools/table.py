"""A table at the real Gadget: ``Table`` puts presses and taps into the Gadget's inbox, takes
them one at a time and keeps every screen the glass showed; ``Album`` collects the screens a
picture script saves. The tours (tools/tour.py, pack_tour.py, conquest_tour.py), the benches and
the tests drive the Gadget with it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from overseer.app.controller import App
from overseer.app.shell import Gadget
from overseer.app.sim import MemoryGlass, SimLeds
from overseer.ports.events import Button, Press, Tap
from overseer.ports.ports import Glass
from overseer.screens.render import Screen
from overseer.session.session import Session

OK, CHOICE, NEXT, BACK = Button.OK, Button.CHOICE, Button.NEXT, Button.BACK
SEED = 11


class TableMoves:
    """What any table at a Gadget does with its buttons, given ``press`` and ``tap`` (and
    ``gadget``): pick a row, choose the game, step a number, read the steps. ``Table`` below
    presses in memory; the end-to-end tests' ``PicoTable`` presses a virtual Pico's pins."""

    gadget: Gadget
    shown: list[Screen]  # every screen the glass showed, in order

    def press(self, button: Button, long: bool = False, times: int = 1) -> Screen:
        """Press ``button`` (held when ``long``) ``times`` times; the screen after."""
        raise NotImplementedError

    def tap(self, kind: str, card: str, game: str = "catacombs") -> Screen:
        """A card (``kind``, its id ``card``, of ``game``) on the reader; the screen after."""
        raise NotImplementedError

    @property
    def screen(self) -> Screen:
        assert self.gadget.screen is not None
        return self.gadget.screen

    @property
    def session(self) -> Session:
        """The game being played (there is one once the new game's questions are answered)."""
        session = self.gadget.session
        if session is None:
            raise AssertionError("no game yet: the new game's questions are on the glass")
        return session

    def _note(self) -> None:
        if not self.shown or self.shown[-1] != self.gadget.screen:
            self.shown.append(self.screen)

    def pick(self, label: str) -> Screen:
        """CHOICE until ``label`` is under the cursor, then OK."""
        rows = self.screen.rows
        if label not in rows:
            raise AssertionError(f"{label!r} not in {rows} ({self.screen.title})")
        for _ in range(len(rows)):
            if self.screen.rows[self.screen.cursor] == label:
                return self.press(OK)
            self.press(CHOICE)
        raise AssertionError(f"the cursor never reached {label!r}")

    def choose_game(self, label: str = "Catacombs") -> Screen:
        """A new game's first question when the gadget plays more than one game: ``label``."""
        if self.screen.title == "Which game?":
            return self.pick(label)
        return self.screen

    def number(self, value: int) -> Screen:
        """Step the number on the glass to ``value`` (CHOICE up, NEXT down), then OK."""
        if self.screen.number is None:
            raise AssertionError(f"no number on the glass: {self.screen}")
        while self.screen.number != value:
            self.press(CHOICE if self.screen.number < value else NEXT)
        return self.press(OK)

    def read(self) -> list[Screen]:
        """OK through the steps (and any message) until a question or the idle screen."""
        pages = []
        for _ in range(500):
            app = self.gadget.app
            assert app is not None
            if not (app.reading or app.notice):
                self.reached(app)
                return pages
            pages.append(self.screen)
            self.look(app)
            self.press(OK)
        raise AssertionError("the steps never ended")

    def look(self, app: App) -> None:
        """What a table does on a page before OK reads on: nothing (a test's table may look)."""

    def reached(self, app: App) -> None:
        """What a table does where the steps end: nothing (a test's table may look)."""


class Table(TableMoves):
    """The table at a Gadget on ``store`` (MemoryGlass, SimLeds, the given dice). ``glass``:
    the Gadget's glass instead of the memory one (a bench's Pico); ``self.glass`` then gets
    nothing, ``shown`` still keeps every screen."""

    def __init__(self, store: Path, seed: int = SEED, dice=None, game_id: int | None = None,
                 glass: Glass | None = None) -> None:
        self.glass, self.leds = MemoryGlass(), SimLeds()
        self.gadget = Gadget(store, self.glass if glass is None else glass, self.leds,
                             dice=dice, seed=seed)
        self.shown: list[Screen] = []
        self.gadget.open(game_id)
        self._note()

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

    def close(self) -> None:
        self.gadget.close()


@dataclass(frozen=True)
class Shot:
    name: str
    caption: str
    screen: Screen


class Album:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.shots: list[Shot] = []

    def add(self, name: str, caption: str, screen: Screen | None = None) -> None:
        self.shots.append(Shot(name, caption, screen or self.table.screen))

    def first(self, pages: list[Screen], key: str, name: str, caption: str) -> None:
        self.add(name, caption, next(p for p in pages if p.key == key))
