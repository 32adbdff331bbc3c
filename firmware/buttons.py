# Buttons: debounced, reported on release as short or long presses, queued until taken.
from ticks import ticks_diff

DEBOUNCE_MS = 20  # a level must hold this long to count
LONG_MS = 600  # held at least this long: a long press (docs/protocol.md, Buttons)
SHORT = 0
LONG = 1


class Button:
    """One switch to GND with a pull-up: read() gives 0 while pressed."""

    def __init__(self, code: int, read, now: int) -> None:
        self.code = code
        self.read = read
        self.raw = read()
        self.raw_since = now  # when the raw level last changed
        self.down = self.raw == 0  # debounced state
        self.down_since = now
        self.armed = not self.down  # a switch held at boot reports nothing until released

    def update(self, now: int) -> "int | None":
        """The press (SHORT or LONG) completed by this sample, or None."""
        raw = self.read()
        if raw != self.raw:
            self.raw = raw
            self.raw_since = now
            return None
        down = raw == 0
        if down == self.down or ticks_diff(now, self.raw_since) < DEBOUNCE_MS:
            return None
        self.down = down
        if down:
            self.down_since = self.raw_since
            return None
        if not self.armed:
            self.armed = True
            return None
        held = ticks_diff(self.raw_since, self.down_since)
        return LONG if held >= LONG_MS else SHORT


class Buttons:
    """All the buttons; completed presses wait in a queue as (code, SHORT or LONG)."""

    def __init__(self, buttons: list) -> None:
        self.buttons = buttons
        self.queue = []

    def update(self, now: int) -> None:
        for b in self.buttons:
            press = b.update(now)
            if press is not None:
                self.queue.append((b.code, press))

    def get(self) -> "tuple | None":
        """The oldest press not yet taken, or None."""
        if self.queue:
            return self.queue.pop(0)
        return None
