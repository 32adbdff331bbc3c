"""The simulator's panels: the OLED glass, the seat LEDs, the dice, the log of steps, and the
card picker. Each only draws what it is given; the app (``sim.app``) feeds them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.markup import escape
from textual.message import Message
from textual.suggester import Suggester
from textual.widget import Widget
from textual.widgets import Input, OptionList, RichLog, Static

from overseer.core.procedure import Step
from overseer.sim import glass
from overseer.sim.cards import Card, UnknownCard, find

INK = "#e8f4ff"  # an SSD1306's white on its black
LIGHTS = {"on": ("\u25cf", "bold #ffd84a"), "dim": ("\u25cf", "#8a7420"),
          "pulse": ("\u25c9", "bold #ffd84a"), "off": ("\u25cb", "#555555")}
PULSE_LOW = ("\u25c9", "#8a7420")  # a pulsing light between its bright moments
NAME_ROOM = 10  # a seat's number and hero beside its light, in the side panel


class Glass(Widget):
    """The 128x64 OLED, pixel for pixel: braille cells (2x4 pixels) in a small terminal,
    half blocks (1x2) when the panel is large enough."""

    DEFAULT_CSS = """
    Glass { background: #000000; color: #e8f4ff; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.frame: bytes | None = None

    def show(self, frame: bytes | None) -> None:
        """Draw the OLED's RAM (None: the board has drawn nothing yet)."""
        if frame != self.frame:
            self.frame = frame
            self.refresh()

    @property
    def large(self) -> bool:
        return glass.fits((self.size.width + 2, self.size.height + 2), glass.HALF_BLOCK_SIZE)

    def lines(self) -> list[str]:
        if self.frame is None:
            return ["(the virtual Pico is booting)"]
        return glass.half_blocks(self.frame) if self.large else glass.braille(self.frame)

    def render(self) -> Text:
        return Text("\n".join(self.lines()), style=f"{INK} on #000000", no_wrap=True,
                    overflow="crop")


class SeatLights(Static):
    """The four seat LEDs: on, dim, pulse (blinking here) or off, with the hero at each seat."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.modes: dict[int, str] = {}
        self.heroes: dict[int, str] = {}
        self.bright = True

    def show(self, modes: Mapping[int, str], heroes: Mapping[int, str], bright: bool) -> None:
        if (dict(modes), dict(heroes), bright) == (self.modes, self.heroes, self.bright):
            return
        self.modes, self.heroes, self.bright = dict(modes), dict(heroes), bright
        text = Text()
        for seat, mode in sorted(self.modes.items()):
            mark, style = LIGHTS[mode]
            if mode == "pulse" and not bright:
                mark, style = PULSE_LOW
            text.append(f"{mark} ", style=style)
            text.append(f"{seat} {self.heroes.get(seat, '')}"[:NAME_ROOM] + "\n")
        self.update(text)


class Dice(Static):
    """The die a question waits for, and the last rolls the Pico made since the box started
    (a restarted box has the game's earlier rolls in its log, not here)."""

    shown: tuple[str, tuple[str, ...]] | None = None

    def show(self, asked: str, rolls: Sequence[str]) -> None:
        if (asked, tuple(rolls)) == self.shown:
            return
        self.shown = (asked, tuple(rolls))
        text = Text()
        if asked:
            text.append(asked + "\n", style="bold")
        for line in rolls:
            text.append(line + "\n")
        self.update(text or Text("no roll on the Pico since the box started", style="dim"))


def step_line(step: Step) -> Text:
    """A trace step as the log shows it: its whole sentence, then its rulebook section."""
    text = Text(step.text)
    text.append(f"  [{step.rule}]", style="dim cyan")
    if step.data.get("verified") is False and "unverified" not in step.text:
        text.append("  (unverified data)", style="yellow")
    return text


class StepLog(RichLog):
    """Every step of the game, in order, with its rulebook section."""

    def step(self, step: Step) -> None:
        self.write(step_line(step))

    def note(self, text: str) -> None:
        self.write(Text(text, style="italic dim"))


class CardSuggester(Suggester):
    """Completes what is typed into a card's label, or into a card's name or id."""

    def __init__(self, cards: Sequence[Card]) -> None:
        super().__init__(use_cache=True, case_sensitive=False)
        self.cards = cards

    async def get_suggestion(self, value: str) -> str | None:
        return complete(value, self.cards)


def complete(value: str, cards: Sequence[Card]) -> str | None:
    """The first label, name or id that starts with ``value`` (case aside), as typed so far
    plus the rest of it."""
    wanted = value.lower()
    for card in cards:
        for text in (card.name, card.label, card.id):
            if text.lower().startswith(wanted):
                return value + text[len(value):]
    return None


def matches(value: str, cards: Sequence[Card], limit: int = 50) -> list[Card]:
    """The cards whose label holds every word typed (case aside), at most ``limit``."""
    words = value.lower().split()
    return [c for c in cards if all(w in c.label.lower() for w in words)][:limit]


class TapPicker(Vertical):
    """Hold a card to the reader: type (Tab or Right completes), choose with the arrows,
    Enter taps, Escape puts the card back. It takes the log's place while it is open."""

    BINDINGS = [Binding("escape", "cancel", "put it back", priority=True),
                Binding("tab", "complete", "complete", priority=True),
                Binding("down", "down", show=False, priority=True),
                Binding("up", "up", show=False, priority=True)]
    DEFAULT_CSS = """
    TapPicker { display: none; height: 1fr; min-height: 5; border-top: round $accent;
                background: $surface; }
    TapPicker.-open { display: block; }
    TapPicker Input { height: 1; }
    TapPicker OptionList { border: none; height: 1fr; padding: 0; }
    """
    TITLE = "Tap a card: type, Tab completes, Enter taps, Esc puts it back"

    class Chosen(Message):
        """The card held to the reader (None: put back)."""

        def __init__(self, card: Card | None) -> None:
            super().__init__()
            self.card = card

    def __init__(self, cards: Sequence[Card], **kwargs) -> None:
        super().__init__(**kwargs)
        self.cards = list(cards)
        self.shown: list[Card] = []
        self.moved = False  # the arrows chose a card in the list

    def compose(self) -> ComposeResult:
        yield Input(placeholder="a card's name: Orc, The Outer Bailey, ...",
                    suggester=CardSuggester(self.cards), compact=True)
        yield OptionList()

    @property
    def is_open(self) -> bool:
        return self.has_class("-open")

    def open(self) -> None:
        self.border_title = self.TITLE
        self.moved = False
        self.add_class("-open")
        field = self.query_one(Input)
        field.value = ""
        self._list("")
        field.focus()

    def close(self, card: Card | None) -> None:
        self.remove_class("-open")
        self.post_message(self.Chosen(card))

    def _list(self, value: str) -> None:
        self.shown = matches(value, self.cards)
        options = self.query_one(OptionList)
        options.set_options([c.label for c in self.shown])
        if self.shown:
            options.highlighted = 0

    def on_input_changed(self, event: Input.Changed) -> None:
        self.border_title = self.TITLE
        self._list(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.tap(event.value)

    def tap(self, value: str) -> None:
        """Tap the card ``value`` names, else the one chosen in the list; else say why."""
        highlighted = self.query_one(OptionList).highlighted
        try:
            card = find(value, self.cards)
        except UnknownCard as err:
            if highlighted is None or not self.shown or not (value.strip() or self.moved):
                self.border_title = escape(str(err))
                return
            card = self.shown[highlighted]
        self.close(card)

    def action_cancel(self) -> None:
        self.close(None)

    def action_complete(self) -> None:
        field = self.query_one(Input)
        suggestion = complete(field.value, self.cards) if field.value else None
        if suggestion:
            field.value = suggestion
            field.cursor_position = len(suggestion)

    def action_down(self) -> None:
        self.moved = True
        self.query_one(OptionList).action_cursor_down()

    def action_up(self) -> None:
        self.moved = True
        self.query_one(OptionList).action_cursor_up()
