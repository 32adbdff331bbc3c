# Buttons: a press is reported on its first edge, and so is its release; edges are caught by pin
# interrupt into a ring, so a main loop that stalls longer than a press lasts still sees it
# (docs/protocol.md, Buttons).
#
# Each button reports, in order, DOWN on the falling edge that starts a press, then exactly one
# of LONG (still held LONG_MS after DOWN) or SHORT (on the first rising edge that releases it).
# Contact bounce is locked out on both sides, without waiting for it to end:
# - after DOWN, rising edges within LOCKOUT_MS are bounce; a press whose line is open when that
#   lockout ends was released inside it, and its SHORT comes then;
# - after the release, a falling edge starts a new press only once the line has been open
#   LOCKOUT_MS since its last edge. A falling edge sooner than that is the contacts chattering on
#   (or a glitch): no press, and the button waits for the line to open again, as for a switch
#   held at boot.
from array import array

from ticks import ticks_add, ticks_diff

LOCKOUT_MS = 20  # after DOWN and after the release: edges this close to them are bounce
LONG_MS = 600  # held at least this long after DOWN: a long press
EDGES = 64  # edges the ring holds (a bounce makes a few; the loop takes them every ms or so)

# What a button reports (the BUTTON message's `press` field)
DOWN = 0
LONG = 1
SHORT = 2


class Edges:
    """A ring of (button code, level, time) written by pin interrupt handlers and read by the
    main loop. Preallocated: a hard interrupt handler must not allocate."""

    def __init__(self, clock) -> None:
        self.clock = clock
        self.codes = bytearray(EDGES)
        self.levels = bytearray(EDGES)
        self.times = array("i", [0] * EDGES)  # ticks_ms is below 2**30: fits
        self.head = 0  # the next slot the handlers write (only they move it)
        self.tail = 0  # the next slot the loop reads (only it moves it)
        self.lost = 0  # edges dropped because the ring was full

    def catch(self, code: int, read):
        """The interrupt handler of one button's pin: ``pin.irq(edges.catch(code, pin.value),
        Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)``."""

        def edge(_pin) -> None:
            head = self.head
            after = head + 1 if head + 1 < EDGES else 0
            if after == self.tail:
                self.lost += 1
                return
            self.codes[head] = code
            self.levels[head] = read()
            self.times[head] = self.clock()
            self.head = after

        return edge

    def get(self) -> "tuple | None":
        """The oldest edge not yet taken, as (code, level, time), or None."""
        tail = self.tail
        if tail == self.head:
            return None
        edge = (self.codes[tail], self.levels[tail], self.times[tail])
        self.tail = tail + 1 if tail + 1 < EDGES else 0
        return edge


class Button:
    """One switch to GND with a pull-up (0 while pressed), known from its edges."""

    def __init__(self, code: int, read, now: int) -> None:
        self.code = code
        self.read = read
        self.level = read()
        self.down = self.level == 0  # in a press: from its first edge to its release
        # when the line last changed (open at boot: open long enough for a press)
        self.level_at = now if self.down else ticks_add(now, -LOCKOUT_MS)
        self.down_at = now
        self.long = False  # LONG reported for this press
        self.armed = not self.down  # the press is reported (not chatter, nor one held at boot)

    def edge(self, level: int, t: int, out: list) -> None:
        """The line changed to ``level`` at ``t`` (edges come in time order)."""
        if ticks_diff(t, self.level_at) < 0:
            t = self.level_at  # a resync after lost edges may have gone ahead of the ring
        self.advance(t, out)
        quiet = ticks_diff(t, self.level_at) >= LOCKOUT_MS  # no edge for a lockout before this
        self.level = level
        self.level_at = t
        if not self.down:
            if level == 0:  # a press if the line was quiet, else chatter: wait for it to open
                self.down = True
                self.down_at = t
                self.long = False
                self.armed = quiet
                if quiet:
                    out.append((self.code, DOWN))
        elif level == 1 and not (self.armed and ticks_diff(t, self.down_at) < LOCKOUT_MS):
            self.release(out)

    def advance(self, t: int, out: list) -> None:
        """Time has reached ``t`` with the line unchanged since its last edge."""
        if not self.down:
            return
        if self.level == 1:  # opened inside the lockout after DOWN: released when it ends
            if ticks_diff(t, self.down_at) >= LOCKOUT_MS:
                self.release(out)
        elif not self.long and ticks_diff(t, self.down_at) >= LONG_MS:
            self.long = True
            if self.armed:
                out.append((self.code, LONG))

    def release(self, out: list) -> None:
        """The press is over: SHORT, unless it was LONG or not reported."""
        self.down = False
        if self.armed and not self.long:
            out.append((self.code, SHORT))
        self.armed = True


class Buttons:
    """All the buttons; their reports wait in a queue as (code, DOWN, LONG or SHORT)."""

    def __init__(self, buttons: list, edges: Edges) -> None:
        self.buttons = {}
        for b in buttons:
            self.buttons[b.code] = b
        self.edges = edges
        self.lost = 0
        self.queue = []

    def update(self, now: int) -> None:
        """Take the edges caught since the last call, then let time run to ``now``."""
        while True:
            edge = self.edges.get()
            if edge is None:
                break
            button = self.buttons.get(edge[0])
            if button is not None:
                self._advance(edge[2])  # the others' releases and long holds before this edge
                button.edge(edge[1], edge[2], self.queue)
        if self.edges.lost != self.lost:  # the ring overflowed: read the lines again
            self.lost = self.edges.lost
            for b in self.buttons.values():
                level = b.read()
                if level != b.level:
                    b.edge(level, now, self.queue)
        self._advance(now)

    def _advance(self, t: int) -> None:
        for b in self.buttons.values():
            if b.down and ticks_diff(t, b.level_at) >= 0:  # advance() acts only in a press
                b.advance(t, self.queue)

    def get(self) -> "tuple | None":
        """The oldest report not yet taken, or None."""
        if self.queue:
            return self.queue.pop(0)
        return None
