"""The line mode (``overseer --plain``): the same gadget, controller and glass, in words, for
scripts and screen readers.

Each line is read as the box's buttons: ``next``, ``ok`` (or an empty line), ``choice``,
``back``, ``roll``, ``undo`` (BACK held), ``hold BUTTON`` (a long press); ``tap CARD`` holds a
card to the reader. A number answers what the glass shows, by the same presses a player would
make: a list's row (from 1), or a number in its range (a token's value: 0 to the highest the
buttons reach, ``2r`` with the reset icon; a roll's face, your own die's); typed on the step or
prompt pages before a question, it reads on to the question first; ``yes`` and ``no`` a yes/no
question. Anything
else is refused with a suggestion and presses nothing. After each line the new steps are
printed in full with their rulebook section, then the glass as text.
"""

from __future__ import annotations

import difflib
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from overseer.app.controller import TOKEN_HIGH
from overseer.app.shell import Gadget
from overseer.app.sim import MemoryGlass, SeededDice, SimLeds, SimTags
from overseer.core.procedure import DrawToken, EnterNumber, Roll, Step
from overseer.ports.events import Button, Input, Press
from overseer.ports.inbox import Inbox
from overseer.screens.render import Screen
from overseer.sim.cards import UnknownCard, catalogue, find

BUTTON_WORDS = {"next": Button.NEXT, "ok": Button.OK, "choice": Button.CHOICE,
                "back": Button.BACK, "roll": Button.ROLL}
WORDS = (*BUTTON_WORDS, "undo", "hold", "tap", "yes", "no", "help", "quit")
HELP = ("Words: next (NEXT AI PIECE), ok (or Enter), choice, back, roll, undo (BACK held), "
        "hold BUTTON (a long press), tap CARD (a card on the reader), a number (a row of "
        "the list on the glass, or the number to set), yes / no, help, quit.")


def _numeric(word: str) -> bool:
    """A number as typed: ``3``, ``-1``, or a token with its reset icon, ``2r``."""
    return word.lstrip("-").isdigit() or (word.endswith("r") and word[:-1].isdigit())


class Refusal(ValueError):
    """A line that presses nothing; the message says why and what would do."""


def step_line(step: Step) -> str:
    unverified = step.data.get("verified") is False and "unverified" not in step.text
    return f"  - {step.text}  [{step.rule}]" + ("  (unverified data)" if unverified else "")


def glass_text(screen: Screen) -> list[str]:
    """The glass in words: its title bar, key word, number, rows (numbered, the cursor marked,
    ticks shown) and detail lines."""
    page = f" {screen.page[0]}/{screen.page[1]}" if screen.page else ""
    mark = {"?": " (question)", "!": " (unprinted data)"}.get(screen.mark, "")
    lines = [f"[{screen.title}{page}]{mark}"]
    if screen.key:
        lines.append(f"  {screen.key}")
    if screen.number is not None:
        lines.append(f"  number: {screen.number}")
    for n, row in enumerate(screen.rows, 1):
        cursor = ">" if n - 1 == screen.cursor else " "
        tick = ""
        if screen.selected is not None and n <= len(screen.options):
            tick = "[x] " if n - 1 in screen.selected else "[ ] "
        lines.append(f" {cursor}{n}. {tick}{row}")
    lines += [f"  {line}" for line in screen.lines]
    return lines


class Plain:
    """The gadget driven by typed words; ``line`` takes one line."""

    def __init__(self, gadget: Gadget, tags: SimTags, write: Callable[[str], None]) -> None:
        self.gadget, self.tags, self.write = gadget, tags, write
        self.cards = catalogue()
        self.logged: list[Step] = []  # the trace steps written, as read
        self.logged_game: int | None = None

    # ------------------------------------------------------------------ output

    def show(self) -> None:
        """New steps in full, then the glass."""
        session = self.gadget.session
        if session is not None:
            trace = session.runner.trace
            if session.id != self.logged_game:
                self.logged_game, self.logged = session.id, []
                self.write(f"Game #{session.id}")
            for step in self.logged[len(trace):]:  # undone: said as they were written
                self.write(f"  (taken back) {step.text}")
            del self.logged[len(trace):]
            for step in self.gadget.playing.as_read(trace[len(self.logged):]):
                self.write(step_line(step))
                self.logged.append(step)
        if self.gadget.screen is not None:
            self.write("\n".join(glass_text(self.gadget.screen)))

    # ------------------------------------------------------------------ input

    def _put(self, item: Input) -> None:
        self.gadget.inbox.put(item)
        self.settle()

    def settle(self) -> None:
        """Act on every input waiting (a press, and the dice it asked for)."""
        while self.gadget.step(0):
            pass

    def press(self, button: Button, long: bool = False) -> None:
        self._put(Press(button, long))

    def line(self, text: str) -> bool:
        """Act on one typed line; False when it says quit. A refused line prints why."""
        words = text.strip().lower().split()
        if words and words[0] in ("quit", "q"):
            return False
        try:
            self._act(words, text.strip())
        except Refusal as err:
            self.write(f"! {err}")
            return True
        self.show()
        return True

    def _act(self, words: list[str], text: str) -> None:
        if not words:
            return self.press(Button.OK)
        word, rest = words[0], words[1:]
        if word == "help":
            raise Refusal(HELP)
        if word == "tap":
            return self._tap(text.split(None, 1)[1] if rest else "")
        if word not in WORDS and not _numeric(word):
            close = difflib.get_close_matches(word, WORDS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise Refusal(f"unknown word {word!r}{hint} (help lists the words)")
        if rest and word not in ("hold",):
            raise Refusal(f"{word!r} takes nothing after it ({' '.join(rest)!r}); "
                          "one word a line")
        if word in BUTTON_WORDS:
            return self.press(BUTTON_WORDS[word])
        if word == "undo":
            return self.press(Button.BACK, long=True)
        if word == "hold":
            if len(rest) != 1 or rest[0] not in BUTTON_WORDS:
                raise Refusal(f"hold which button? {', '.join(BUTTON_WORDS)}")
            return self.press(BUTTON_WORDS[rest[0]], long=True)
        if word in ("yes", "no"):
            return self._yes_no(word == "yes")
        return self._number(word)

    def _tap(self, name: str) -> None:
        try:
            card = find(name, self.cards)
        except UnknownCard as err:
            raise Refusal(str(err)) from None
        self.tags.tap(card.game, card.kind, card.id)
        self.settle()

    def _screen(self) -> Screen:
        screen = self.gadget.screen
        if screen is None:
            raise Refusal("the glass shows nothing yet")
        return screen

    def _yes_no(self, yes: bool) -> None:
        rows = self._screen().rows
        if rows[:2] != ("Yes", "No"):
            raise Refusal("the glass asks no yes/no question now")
        self._row(1 if yes else 2)

    def _number(self, word: str) -> None:
        self._screen()
        self._to_question()
        screen, app = self._screen(), self.gadget.app
        if app is not None and (app.reading or app.notice):
            raise Refusal("the glass shows steps or a message: Enter (ok) reads on")
        if screen.rows and not word.endswith("r"):
            return self._row(int(word))
        question = app.view.question if app is not None else None
        if screen.number is None and not isinstance(question, Roll):
            raise Refusal("nothing on the glass takes a number now")
        self._set_number(word)  # a roll's page: CHOICE sets the face of the table's own die

    def _to_question(self) -> None:
        """A question waits behind step or prompt pages (printed in full above): OK reads on
        to it, so a number answers it at once. A message stays (it is read first)."""
        app = self.gadget.app
        while app is not None and app.reading and not app.notice \
                and app.view.question is not None:
            self.press(Button.OK)
            app = self.gadget.app

    def _row(self, n: int) -> None:
        """Row ``n`` (from 1) of the list on the glass: CHOICE to it, then OK."""
        rows = self._screen().rows
        if not 1 <= n <= len(rows):
            raise Refusal(f"the rows are numbered 1 to {len(rows)}, not {n}")
        for _ in range(len(rows)):
            if self._screen().cursor == n - 1:
                break
            self.press(Button.CHOICE)
        if self._screen().rows != rows:
            raise Refusal("the glass changed on the way; nothing was chosen")
        self.press(Button.OK)

    def _range(self) -> tuple[int, int, bool]:
        """The number on the glass: its lowest, its highest, and whether it is a token's."""
        app = self.gadget.app
        question = app.view.question if app is not None else None
        if isinstance(question, EnterNumber):
            return question.low, question.high, False
        if isinstance(question, Roll):
            return 1, question.faces, False
        if isinstance(question, DrawToken):
            return 0, TOKEN_HIGH, True
        raise Refusal("nothing on the glass takes a number now")

    def _set_number(self, word: str) -> None:
        low, high, token = self._range()
        reset = word.endswith("r")
        if reset and not token:
            raise Refusal(f"{word!r}: only a damage token has a reset icon (r)")
        value = int(word.rstrip("r"))
        if not low <= value <= high:
            what = "a token's value" if token else "the number"
            raise Refusal(f"{what} is {low} to {high} here, not {value}")
        for _ in range(high - low + 2):  # a roll's page has no face until the first CHOICE
            if self._screen().number == value:
                break
            self.press(Button.CHOICE)
        self.press(Button.OK)
        if token:  # then the reset icon: yes or no
            self._yes_no(reset)


def run_plain(store: str | Path, game_id: int | None, seed: int | None, read: TextIO,
              write: TextIO, new: bool = False, again: str = "") -> int:
    """Play game ``game_id`` (None: the last unfinished one unless ``new``, else a new game's
    questions)
    line by line until quit or the end of the input; every step is saved as it is taken."""
    tags = SimTags()
    dice = SeededDice(secrets.randbits(63) if seed is None else seed)
    gadget = Gadget(store, MemoryGlass(), SimLeds(), dice=dice, inbox=Inbox(),
                    sources=(tags,), seed=seed)

    def say(text: str) -> None:
        write.write(text + "\n")
        write.flush()

    try:
        gadget.open(game_id, new=new)
        plain = Plain(gadget, tags, say)
        plain.settle()
        say(HELP)
        plain.show()
        while True:
            write.write("> ")
            write.flush()
            text = read.readline()
            if not text or not plain.line(text):
                break
        session = gadget.session
        if session is not None:
            say(f"Game #{session.id} is saved; `overseer --plain{again}` goes on with it.")
    finally:
        gadget.close()
    return 0
