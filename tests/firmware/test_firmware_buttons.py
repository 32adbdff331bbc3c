"""Buttons: DOWN on the first edge, then LONG, or SHORT on the release's first edge; bounce
locked out; edges caught by interrupt into a ring, so a stalled loop loses no press. A fake
clock; the switches call the handler on every change, as the Pico's pin IRQ does."""

import buttons
from buttons import DOWN, LONG, SHORT, Buttons

from tests.firmware.fwtools import Switch, wired


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


LOCKOUT = buttons.LOCKOUT_MS


def test_a_press_and_its_release_are_each_reported_on_their_first_edge() -> None:
    board = Board()
    out = board.play([(10, 0, 0), (110, 0, 1)], 300)
    assert out == [(10, 0, DOWN), (110, 0, SHORT)]


def test_long_is_reported_while_still_held_and_no_short_after_it() -> None:
    board = Board()
    out = board.play([(10, 0, 0), (2000, 0, 1)], 2500)
    assert out == [(10, 0, DOWN), (10 + buttons.LONG_MS, 0, LONG)]


def test_short_or_long_by_how_long_it_was_held() -> None:
    board = Board()
    assert board.play([(10, 0, 0), (10 + buttons.LONG_MS - 1, 0, 1)], 1000) == [
        (10, 0, DOWN), (10 + buttons.LONG_MS - 1, 0, SHORT)]
    board = Board()
    assert board.play([(10, 0, 0), (10 + buttons.LONG_MS, 0, 1)], 1000) == [
        (10, 0, DOWN), (10 + buttons.LONG_MS, 0, LONG)]


def test_bounce_on_press_and_release_is_one_press() -> None:
    board = Board()
    bounce = [(10, 0, 0), (11, 0, 1), (12, 0, 0), (14, 0, 1), (15, 0, 0),
              (200, 0, 1), (202, 0, 0), (203, 0, 1), (209, 0, 0), (215, 0, 1)]
    out = board.play(bounce, 400)
    assert out == [(10, 0, DOWN), (200, 0, SHORT)]  # the release on its first edge too


def test_chatter_at_release_longer_than_the_lockout_is_one_short_and_no_new_down() -> None:
    board = Board()
    # each edge of the chatter comes less than a lockout after the one before, for 44 ms
    chatter = [(200 + 4 * k, 0, (k + 1) % 2) for k in range(12)]  # opens at 200, ends open
    out = board.play([(10, 0, 0), *chatter], 600)
    assert out == [(10, 0, DOWN), (200, 0, SHORT)]


def test_chatter_that_leaves_the_line_closed_is_no_press_until_it_opens() -> None:
    board = Board()
    timeline = [(10, 0, 0), (100, 0, 1), (103, 0, 0),  # released, then closed 3 ms later
                (1000, 0, 1),  # held past the long-press time: nothing, it was no press
                (1100, 0, 0), (1150, 0, 1)]  # the next press counts
    out = board.play(timeline, 1500)
    assert out == [(10, 0, DOWN), (100, 0, SHORT), (1100, 0, DOWN), (1150, 0, SHORT)]


def test_a_press_starting_a_lockout_after_the_release_is_a_new_press() -> None:
    board = Board()
    out = board.play([(10, 0, 0), (100, 0, 1), (100 + LOCKOUT, 0, 0), (200, 0, 1)], 400)
    assert out == [(10, 0, DOWN), (100, 0, SHORT), (100 + LOCKOUT, 0, DOWN), (200, 0, SHORT)]


def test_a_press_starting_inside_the_lockout_after_the_release_is_none() -> None:
    board = Board()
    gap = LOCKOUT - 1  # closed again before the release's lockout ended: bounce, not a press
    out = board.play([(10, 0, 0), (100, 0, 1), (100 + gap, 0, 0), (200, 0, 1),
                      (200 + LOCKOUT, 0, 0), (300, 0, 1)], 500)
    assert out == [(10, 0, DOWN), (100, 0, SHORT), (200 + LOCKOUT, 0, DOWN), (300, 0, SHORT)]


def test_a_quick_second_press_after_a_bounced_release_counts_from_the_last_bounce() -> None:
    board = Board()
    timeline = [(10, 0, 0), (100, 0, 1), (103, 0, 0), (105, 0, 1),  # the release bounces
                (105 + LOCKOUT, 0, 0), (160, 0, 1)]  # pressed again a lockout after the bounce
    out = board.play(timeline, 400)
    assert out == [(10, 0, DOWN), (100, 0, SHORT), (105 + LOCKOUT, 0, DOWN), (160, 0, SHORT)]


def test_a_press_shorter_than_the_lockout_is_released_when_the_lockout_ends() -> None:
    board = Board()
    out = board.play([(10, 0, 0), (12, 0, 1), (13, 0, 0), (14, 0, 1)], 200)
    assert out == [(10, 0, DOWN), (10 + LOCKOUT, 0, SHORT)]


def test_an_opening_in_the_middle_of_a_hold_is_its_release_and_the_rest_no_press() -> None:
    board = Board()
    out = board.play([(10, 0, 0), (300, 0, 1), (305, 0, 0), (1000, 0, 1)], 1200)
    assert out == [(10, 0, DOWN), (300, 0, SHORT)]  # no LONG, no second press


def test_the_same_reports_at_the_same_times_however_late_the_loop_takes_the_edges() -> None:
    timeline = [(10, 0, 0), (11, 0, 1), (12, 0, 0), (200, 0, 1), (203, 0, 0), (205, 0, 1),
                (230, 0, 0), (231, 0, 1), (300, 1, 0), (1000, 1, 1)]
    every_ms = Board(2).play(timeline, 1500)
    stalled = Board(2)
    for t, code, level in timeline:
        stalled.at(t, code, level)
    assert every_ms == [(10, 0, DOWN), (200, 0, SHORT), (230, 0, DOWN), (230 + LOCKOUT, 0, SHORT),
                        (300, 1, DOWN), (300 + buttons.LONG_MS, 1, LONG)]
    assert stalled.loop(1500) == [r[1:] for r in every_ms]


def test_a_switch_held_at_boot_reports_nothing_until_released() -> None:
    board = Board(level=0)
    out = board.play([(500, 0, 1), (700, 0, 0), (760, 0, 1)], 1000)
    assert out == [(700, 0, DOWN), (760, 0, SHORT)]


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
    assert out == [(0, DOWN), (0, SHORT)]  # a storm of edges is one press, not one per lockout
    board.at(1100, 0, 1)
    assert board.loop(1200) == []  # its release: the storm's press was already over
    board.at(1300, 0, 0)
    assert board.loop(1400) == [(0, DOWN)]  # the line is known right again


def test_presses_queue_in_order_and_none_is_lost_or_doubled() -> None:
    board = Board(2)
    timeline = [(100, 0, 0), (150, 0, 1), (120, 1, 0), (200, 1, 1), (300, 0, 0), (1000, 0, 1)]
    out = board.play(timeline, 2000, every=7)
    assert [r[1:] for r in out] == [(0, DOWN), (1, DOWN), (0, SHORT), (1, SHORT), (0, DOWN),
                                    (0, LONG)]


def test_ticks_wraparound_does_not_break_long_press_nor_the_lockouts() -> None:
    period = 1 << 30
    board = Board()
    start = period - 300  # the long press straddles the wrap of ticks_ms
    board.now = start
    board.buttons = wired(board.switches, lambda: board.now)
    out = []
    changes = {10: 0, 800: 1, 803: 0, 805: 1,  # a long press, its release bouncing
               805 + LOCKOUT: 0, 805 + LOCKOUT + 5: 1,  # a tap shorter than a lockout
               1000: 0, 1003: 1, 1050: 1}  # another short tap, then a stray edge of the open line
    for k in range(1200):
        t = (start + k) % period
        if k in changes:
            board.at(t, 0, changes[k])
        out += [(k, *r) for r in board.loop(t)]
    assert out == [(10, 0, DOWN), (10 + buttons.LONG_MS, 0, LONG),
                   (805 + LOCKOUT, 0, DOWN), (805 + 2 * LOCKOUT, 0, SHORT),
                   (1000, 0, DOWN), (1000 + LOCKOUT, 0, SHORT)]


def test_lost_edges_that_hid_a_release_are_found_by_reading_the_line() -> None:
    board = Board()
    for k in range(buttons.EDGES * 2):  # the last edge, lost, released the switch
        board.at(10 + k, 0, k % 2)
    assert board.switches[0].level == 1
    assert board.loop(500) + board.loop(600) == [(0, DOWN), (0, SHORT)]
