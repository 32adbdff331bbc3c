"""The virtual gadget in a terminal (Textual): the OLED glass, the five buttons as keys, the seat
LEDs, a card reader, the dice, and the log of every step with its rulebook section.

What it shows is the box's own: the glass is the virtual Pico's OLED RAM, read back from the
board; the LEDs are what the gadget set. Keys press the board's buttons (``sim.keys``); a
tapped card is a written NTAG215 held on the emulated PN532 reader, read by nfcpy as on the Pi
(``sim.reader``; without nfcpy it goes straight into the gadget's inbox, and the log says so).
Every step is saved before the glass shows it, so q, Ctrl-C or a closed terminal loses nothing.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Key, Resize
from textual.markup import escape
from textual.widgets import Footer

from overseer.app.shell import Gadget
from overseer.core.procedure import Question, Roll, Step
from overseer.ports.events import Button, Rolled
from overseer.screens.pages import DIE_NAMES, full_prompt
from overseer.screens.render import Screen
from overseer.sim import glass
from overseer.sim.cards import Card, catalogue
from overseer.sim.running import Running
from overseer.sim.widgets import Dice, Glass, SeatLights, StepLog, TapPicker

TICK = 1 / 30  # how often the glass and the panels are read again
PULSE = 0.5  # seconds of a pulsing LED's bright (and dim) half
SIDE = 14  # the side panel's width
LONG_HINT = "\u21e7: held"

PRESSES = (("n", Button.NEXT, "NEXT AI PIECE"), ("o", Button.OK, "OK"),
           ("c", Button.CHOICE, "CHOICE"), ("b", Button.BACK, "BACK"),
           ("r", Button.ROLL, "ROLL"))


def bindings() -> list[BindingType]:
    """The keys: a letter presses a button, the same letter with Shift holds it (a long
    press); u is BACK held (undo)."""
    keys: list[BindingType] = []
    for key, button, label in PRESSES:
        keys.append(Binding(key, f"press('{button.value}')", label))
        keys.append(Binding(key.upper(), f"press('{button.value}', True)", f"{label} held",
                            show=False))
    keys += [
        Binding("space", f"press('{Button.NEXT.value}')", show=False),
        Binding("enter", f"press('{Button.OK.value}')", show=False),
        Binding("backspace", f"press('{Button.BACK.value}')", show=False),
        Binding("u", f"press('{Button.BACK.value}', True)", "UNDO"),
        Binding("t", "tap", "tap card"),
        Binding("q", "leave", "quit"),
        Binding("ctrl+c", "leave", "quit", show=False, priority=True),
    ]
    return keys


BOUND = frozenset(key for b in bindings() if isinstance(b, Binding) for key in b.key.split(","))
KEYS_SAID = (", ".join(f"{key} {label}" for key, _, label in PRESSES)
             + ", u undo, t tap a card, q quit (Shift + letter: held)")


class Simulator(App[int]):
    """The box on screen; ``run()`` returns the exit status."""

    TITLE = "Overseer"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = bindings()
    CSS = f"""
    Screen {{ layout: vertical; background: #101418; }}
    #top {{ height: {glass.BRAILLE_SIZE[1] + 2}; }}
    Glass {{ width: {glass.BRAILLE_SIZE[0] + 2}; height: 100%; border: round #4a5a6a;
             border-subtitle-color: #8899aa; }}
    #side {{ width: {SIDE}; }}
    SeatLights {{ height: 6; border: round #4a5a6a; }}
    Dice {{ height: 1fr; border: round #4a5a6a; }}
    StepLog {{ height: 1fr; background: #101418; scrollbar-size-vertical: 1; }}
    Screen.-large #top {{ height: {glass.HALF_BLOCK_SIZE[1] + 2}; }}
    Screen.-large Glass {{ width: {glass.HALF_BLOCK_SIZE[0] + 2}; }}
    Screen.-large #side {{ width: 1fr; }}
    """

    def __init__(self, running: Running, cards: Sequence[Card] | None = None) -> None:
        super().__init__()
        self.running = running
        self.cards = None if cards is None else list(cards)  # None: data/'s, at the first tap
        self.logged: list[Step] = []  # the trace steps written to the log, as read
        self.logged_game: int | None = None
        self.saved: int | None = None  # the game left, for the goodbye line
        self.failure: BaseException | None = None
        self.noticed: Screen | None = None  # the message on the glass, written to the log
        self.asked: Question | None = None  # the question waiting, written to the log

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield Glass(id="glass")
            with Vertical(id="side"):
                yield SeatLights(id="seats")
                yield Dice(id="dice")
        yield StepLog(id="log", wrap=True, markup=False, max_lines=2000)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(Glass).border_title = f"OLED 128x64 ({self.running.box.interpreter})"
        self.query_one(SeatLights).border_title = "Seats"
        self.query_one(Dice).border_title = "Dice"
        self.query_one(Dice).border_subtitle = LONG_HINT
        self.query_one(StepLog).note("Keys below press the box's buttons; t holds a card to "
                                     "the reader; q quits (every step is saved).")
        if self.running.box.reader_note is not None:
            self.query_one(StepLog).note(self.running.box.reader_note)
        self.running.start()
        self.set_interval(TICK, self.tick)
        self.tick()

    def on_resize(self, event: Resize) -> None:
        width, height = event.size
        large = width >= glass.HALF_BLOCK_SIZE[0] + 2 + SIDE and \
            height >= glass.HALF_BLOCK_SIZE[1] + 2 + 6
        self.screen.set_class(large, "-large")

    # ------------------------------------------------------------------ what the box shows

    def tick(self) -> None:
        """Read the board's OLED, the LEDs, the dice and new steps again; a failure ends
        the simulator with its message (the game stays saved)."""
        failure = self.running.error
        if failure is None:
            try:
                self._read()
                return
            except Exception as err:  # shown as a message, not a traceback
                failure = err
        self.failure = failure
        self.exit(self._goodbye(1), message=f"overseer: the simulator stopped: {failure!r}")

    def _read(self) -> None:
        running = self.running
        self.query_one(Glass).show(running.box.oled())
        with running.reading() as gadget:
            session = gadget.session
            seats = {seat: hero_name(gadget, hero) for hero, seat in gadget.playing.seats.items()}
            bright = time.monotonic() % (2 * PULSE) < PULSE
            self.query_one(SeatLights).show(running.box.leds.modes, seats, bright)
            words = caption(gadget.screen)
            if self.query_one(Glass).border_subtitle != words:
                self.query_one(Glass).border_subtitle = words
            if session is not None:  # the steps first: a question or a notice comes after them
                self._log(gadget, session.id, session.runner.trace)
            self._notice(gadget.screen)
            self._question(gadget.app.view.question if gadget.app is not None else None)
            self._dice(session.pending if session is not None else None)

    def _notice(self, screen: Screen | None) -> None:
        """A message on the glass (a refusal, an undo) goes to the log too, in full."""
        if screen is None or not screen.inverse_key or screen == self.noticed:
            self.noticed = screen if screen is not None and screen.inverse_key else None
            return
        self.noticed = screen
        self.query_one(StepLog).note(f"{screen.key}: {' '.join(screen.lines)}")

    def _question(self, question: Question | None) -> None:
        """A new question goes to the log in full (the glass may have room for a short form
        of it only)."""
        if question is None or question is self.asked:
            self.asked = question
            return
        self.asked = question
        self.query_one(StepLog).note(f"? {full_prompt(question)}")

    def _dice(self, pending: object) -> None:
        asked = ""
        if isinstance(pending, Roll):
            asked = f"ROLL: {DIE_NAMES.get(pending.die, pending.die)}"
        rolls = [f"{DIE_NAMES.get(r.die, r.die)} {r.face}"
                 if isinstance(r, Rolled) else f"no roll ({r.reason})"
                 for r in reversed(self.running.inbox.rolls)]
        self.query_one(Dice).show(asked, rolls)

    def _log(self, gadget: Gadget, game_id: int, trace: Sequence) -> None:
        log = self.query_one(StepLog)
        if game_id != self.logged_game:
            self.logged_game, self.logged = game_id, []
            log.note(f"Game #{game_id}")
        for step in self.logged[len(trace):]:  # undone: said as the log read them
            log.note(f"Taken back: {step.text}")
        del self.logged[len(trace):]
        for step in gadget.playing.as_read(trace[len(self.logged):]):
            log.step(step)
            self.logged.append(step)

    # ------------------------------------------------------------------ keys

    def action_press(self, button: str, long: bool = False) -> None:
        if not self.picking:
            self.running.box.press(Button(button), long)

    async def action_tap(self) -> None:
        if self.picking:
            return
        pickers = self.query(TapPicker)
        if pickers:
            picker = pickers.first()
        else:  # made at the first tap: the cards are read from data/ then
            if self.cards is None:
                self.cards = catalogue()
            picker = TapPicker(self.cards, id="picker")
            await self.mount(picker, before=self.query_one(Footer))
        self.query_one(StepLog).display = False
        picker.open()

    @property
    def picking(self) -> bool:
        pickers = self.query(TapPicker)
        return bool(pickers) and pickers.first().is_open

    def on_tap_picker_chosen(self, event: TapPicker.Chosen) -> None:
        log = self.query_one(StepLog)
        log.display = True
        self.set_focus(None)
        if event.card is not None:
            card = event.card
            try:
                self.running.box.tags.tap(card.game, card.kind, card.id)
            except ValueError as err:  # a record no tag could hold: said, nothing tapped
                log.note(f"Not tapped: {card.label}: {err}.")
                return
            log.note(f"Tapped {card.label}.")

    def on_key(self, event: Key) -> None:
        """A letter that is no key of the box says which keys are (it presses nothing)."""
        if self.picking or not event.is_printable or event.key in BOUND or event.key == "space":
            return
        self.query_one(StepLog).note(f"{event.character!r} presses nothing: {KEYS_SAID}.")

    def action_leave(self) -> None:
        self.exit(self._goodbye(0))

    def _goodbye(self, code: int) -> int:
        self.saved = self.running.game_id
        return code


def hero_name(gadget: Gadget, hero: str) -> str:
    session = gadget.session
    heroes = getattr(session.state, "heroes", {}) if session is not None else {}
    return getattr(heroes.get(hero), "name", hero)


def caption(screen: Screen | None) -> str:
    """The words on the glass, in one short line under it (the pixels are above)."""
    if screen is None:
        return ""
    parts = [screen.title, screen.key]
    if screen.number is not None:
        parts.append(str(screen.number))
    if screen.rows:
        row = screen.rows[screen.cursor]
        if screen.selected is not None and screen.cursor < len(screen.options):
            row = ("[x] " if screen.cursor in screen.selected else "[ ] ") + row
        parts.append(f"> {row}")
    return escape(" \u00b7 ".join(p for p in parts if p)[:glass.BRAILLE_SIZE[0] - 4])


def run(running: Running, again: str = "") -> int:
    """Play in this terminal until q or Ctrl-C; the exit status. The box is closed after.
    ``again``: what the command that goes on with the game adds (`` --db FILE``)."""
    app = Simulator(running)
    try:
        code = app.run()
    finally:
        running.close()
    if app.saved is not None:
        print(f"Game #{app.saved} is saved; `scripts/run{again}` goes on with it.")
    return 1 if code is None else code
