"""Buttons: DOWN on the first edge, then LONG or SHORT; bounce locked out; edges caught by
interrupt into a ring, so a stalled loop loses no press. A fake clock; the switches call the
handler on every change, as the Pico's pin IRQ does."""

import buttons
from buttons import DOWN, LONG, SHORT, Buttons
from fwtools import Switch, wired


class Board:
    """Switches, their Buttons and a clock; ``at(t, code, level)`` changes a line at time t
    (the interrupt fires then), ``loop(t)`` is one pass of the firmware's loop at t."""

    def __init__(self, n: int = 1, level: int = 1) -> None:
        self.now = 0
        self.switches = [Switch(level) for _ in range(n)]
        self.buttons: Buttons = wired(self.switches, lambda: self.now)

    def at(self, t: int, code: int, level: int) -> None:
        self.now = t
        self.switches[code].set(level)

    def loop(self, t: int) -> list:
        self.now = t
        self.buttons.update(t)
        out = []
        while (report := self.buttons.get()) is not None:
            out.append(report)
        return out

    def play(self, timeline: list[tuple[int, int, int]], until: int, every: int = 1) -> list:
        """Line changes (t, code, level) and a loop pass every ``every`` ms up to ``until``."""
        changes = sorted(timeline)
        out = []
        for t in range(0, until + 1, every):
            while changes and changes[0][0] <= t:
                ct, code, level = changes.pop(0)
                self.at(ct, code, level)
            out += [(t, *r) for r in self.loop(t)]
        return out


def test_a_press_is_reported_on_its_first_edge() -> None:
    board = Board()
    out = board.play([(10, 0, 0), (110, 0, 1)], 300)
    assert out == [(10, 0, DOWN), (110 + buttons.RELEASE_MS, 0, SHORT)]


def test_long_is_reported_while_still_held_and_no_short_after_it() -> None:
    board = Board()
    out = board.play([(10, 0, 0), (2000, 0, 1)], 2500)
    assert out == [(10, 0, DOWN), (10 + buttons.LONG_MS, 0, LONG)]


def test_short_or_long_by_how_long_it_was_held() -> None:
    board = Board()
    assert [r[2] for r in board.play([(10, 0, 0), (10 + buttons.LONG_MS - 1, 0, 1)], 1000)] == [
        DOWN, SHORT]
    board = Board()
    assert [r[2] for r in board.play([(10, 0, 0), (10 + buttons.LONG_MS, 0, 1)], 1000)] == [
        DOWN, LONG]


def test_bounce_on_press_and_release_is_one_press() -> None:
    board = Board()
    bounce = [(10, 0, 0), (11, 0, 1), (12, 0, 0), (14, 0, 1), (15, 0, 0),
              (200, 0, 1), (202, 0, 0), (203, 0, 1), (209, 0, 0), (215, 0, 1)]
    out = board.play(bounce, 400)
    assert out == [(10, 0, DOWN), (215 + buttons.RELEASE_MS, 0, SHORT)]


def test_a_bounce_in_the_middle_of_a_long_hold_does_not_end_it() -> None:
    board = Board()
    out = board.play([(10, 0, 0), (300, 0, 1), (305, 0, 0), (1000, 0, 1)], 1200)
    assert out == [(10, 0, DOWN), (10 + buttons.LONG_MS, 0, LONG)]


def test_nothing_is_a_new_press_until_the_line_stayed_high_long_enough() -> None:
    board = Board()
    gap = buttons.RELEASE_MS - 1  # released, and pressed again before the release counts
    out = board.play([(10, 0, 0), (100, 0, 1), (100 + gap, 0, 0), (200, 0, 1),
                      (200 + buttons.RELEASE_MS, 0, 0), (300, 0, 1)], 500)
    assert [r[1:] for r in out] == [(0, DOWN), (0, SHORT), (0, DOWN), (0, SHORT)]
    assert out[2][0] == 200 + buttons.RELEASE_MS  # the second press, on its own first edge


def test_a_very_short_press_still_counts_once() -> None:
    board = Board()
    assert [r[1:] for r in board.play([(10, 0, 0), (12, 0, 1)], 200)] == [(0, DOWN), (0, SHORT)]


def test_a_switch_held_at_boot_reports_nothing_until_released() -> None:
    board = Board(level=0)
    out = board.play([(500, 0, 1), (700, 0, 0), (760, 0, 1)], 1000)
    assert out == [(700, 0, DOWN), (760 + buttons.RELEASE_MS, 0, SHORT)]


def test_a_loop_stalled_500_ms_through_a_press_gets_it_exactly_once() -> None:
    board = Board(2)
    board.loop(0)
    board.at(100, 0, 0)  # a 100 ms tap of button 0, then button 1 pressed and held,
    board.at(200, 0, 1)  # all while the loop is stalled from 50 ms to 550 ms
    board.at(300, 1, 0)
    out = board.loop(550) + board.loop(551) + board.loop(2000)
    assert out == [(0, DOWN), (0, SHORT), (1, DOWN), (1, LONG)]  # in the order they happened


def test_reports_of_several_buttons_keep_the_order_things_happened_in() -> None:
    board = Board(2)
    board.at(10, 0, 0)
    board.at(700, 1, 0)  # button 0's long hold came at 610, before button 1 went down
    board.at(710, 1, 1)
    board.at(800, 0, 1)
    assert board.loop(1000) == [(0, DOWN), (0, LONG), (1, DOWN), (1, SHORT)]


def test_a_full_ring_loses_edges_but_the_lines_are_read_again() -> None:
    board = Board()
    for k in range(buttons.EDGES * 2 + 1):  # more edges than the ring holds, the loop stalled
        board.at(10 + k, 0, k % 2)  # ends pressed
    assert board.buttons.edges.lost > 0
    out = board.loop(500) + board.loop(1000)
    assert out == [(0, DOWN), (0, LONG)]  # one press; the level is right again
    board.at(1100, 0, 1)
    assert board.loop(1200) == []  # its release: nothing more to say after LONG


def test_presses_queue_in_order_and_none_is_lost_or_doubled() -> None:
    board = Board(2)
    timeline = [(100, 0, 0), (150, 0, 1), (120, 1, 0), (200, 1, 1), (300, 0, 0), (1000, 0, 1)]
    out = board.play(timeline, 2000, every=7)
    assert [r[1:] for r in out] == [(0, DOWN), (1, DOWN), (0, SHORT), (1, SHORT), (0, DOWN),
                                    (0, LONG)]


def test_ticks_wraparound_does_not_break_long_press() -> None:
    period = 1 << 30
    board = Board()
    start = period - 300  # the press straddles the wrap of ticks_ms
    board.now = start
    board.buttons = wired(board.switches, lambda: board.now)
    out = []
    for k in range(1200):
        t = (start + k) % period
        if k in (10, 800):
            board.at(t, 0, 0 if k == 10 else 1)
        out += board.loop(t)
    assert out == [(0, DOWN), (0, LONG)]


def test_lost_edges_that_hid_a_release_are_found_by_reading_the_line() -> None:
    board = Board()
    for k in range(buttons.EDGES * 2):  # the last edge, lost, released the switch
        board.at(10 + k, 0, k % 2)
    assert board.switches[0].level == 1
    assert board.loop(500) + board.loop(600) == [(0, DOWN), (0, SHORT)]
