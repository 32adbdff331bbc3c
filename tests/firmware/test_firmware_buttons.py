"""Buttons: debounce, short and long presses on release, queued, with a fake clock."""

import buttons
from buttons import LONG, SHORT, Button, Buttons
from fwtools import Switch


def drive(bs: Buttons, switch: Switch, timeline: list[tuple[int, int]], until: int) -> list:
    """Set switch levels at the given ms and sample every ms up to `until`."""
    changes = dict(timeline)
    for t in range(until + 1):
        if t in changes:
            switch.level = changes[t]
        bs.update(t)
    out = []
    while (press := bs.get()) is not None:
        out.append(press)
    return out


def one(code: int = 1) -> tuple[Buttons, Switch]:
    sw = Switch()
    return Buttons([Button(code, sw.read, 0)]), sw


def test_a_press_is_reported_on_release_not_before() -> None:
    sw = Switch()
    bs = Buttons([Button(1, sw.read, 0)])
    for t in range(1000):
        sw.level = 0 if 10 <= t < 900 else 1
        bs.update(t)
        if t < 900 + buttons.DEBOUNCE_MS:
            assert bs.queue == []
    assert bs.queue == [(1, LONG)]


def test_short_and_long_presses() -> None:
    bs, sw = one(3)
    assert drive(bs, sw, [(10, 0), (110, 1)], 200) == [(3, SHORT)]
    bs, sw = one(3)
    assert drive(bs, sw, [(10, 0), (10 + buttons.LONG_MS, 1)], 1000) == [(3, LONG)]
    bs, sw = one(3)
    assert drive(bs, sw, [(10, 0), (10 + buttons.LONG_MS - 1, 1)], 1000) == [(3, SHORT)]


def test_bounces_shorter_than_the_debounce_are_ignored() -> None:
    bs, sw = one()
    # contact bounce on press and on release: one short press
    timeline = [(10, 0), (12, 1), (13, 0), (15, 1), (16, 0), (200, 1), (202, 0), (204, 1)]
    assert drive(bs, sw, timeline, 400) == [(1, SHORT)]


def test_a_glitch_shorter_than_the_debounce_is_no_press() -> None:
    bs, sw = one()
    assert drive(bs, sw, [(10, 0), (10 + buttons.DEBOUNCE_MS - 2, 1)], 200) == []


def test_press_just_long_enough_to_count() -> None:
    bs, sw = one()
    assert drive(bs, sw, [(10, 0), (11 + buttons.DEBOUNCE_MS, 1)], 200) == [(1, SHORT)]


def test_presses_queue_in_order_and_none_is_lost_or_doubled() -> None:
    a, b = Switch(), Switch()
    bs = Buttons([Button(0, a.read, 0), Button(4, b.read, 0)])
    for t in range(2000):
        a.level = 0 if 100 <= t < 150 or 300 <= t < 1000 else 1
        b.level = 0 if 120 <= t < 200 else 1
        bs.update(t)
    assert bs.queue == [(0, SHORT), (4, SHORT), (0, LONG)]
    assert bs.get() == (0, SHORT)
    assert bs.get() == (4, SHORT)
    assert bs.get() == (0, LONG)
    assert bs.get() is None


def test_a_switch_held_at_boot_reports_nothing_until_released() -> None:
    sw = Switch(0)
    bs = Buttons([Button(2, sw.read, 0)])
    for t in range(1000):
        sw.level = 0 if t < 500 or 700 <= t < 760 else 1
        bs.update(t)
    assert bs.queue == [(2, SHORT)]  # the release of the boot-time hold was not a press


def test_ticks_wraparound_does_not_break_long_press() -> None:
    period = 1 << 30
    start = period - 300  # the press straddles the wrap of ticks_ms
    sw = Switch()
    bs = Buttons([Button(1, sw.read, start)])
    for k in range(1200):
        t = (start + k) % period
        sw.level = 0 if 10 <= k < 800 else 1
        bs.update(t)
    assert bs.get() == (1, LONG)
