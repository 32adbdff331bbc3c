"""The link's events on their own: a repeat dropped by (boot id, event id), a message outside the
protocol refused."""

from __future__ import annotations

from overseer.devices import protocol as p
from overseer.devices.link_events import DieRolled, PressedButton, Repeats, event_of


def test_a_repeat_is_known_by_boot_and_event_id_for_a_while() -> None:
    repeats = Repeats(size=2)
    assert not repeats.repeat(1, 10) and repeats.repeat(1, 10)
    assert not repeats.repeat(2, 10)  # another boot's event 10
    assert not repeats.repeat(1, 11)  # the oldest, (1, 10), is forgotten
    assert not repeats.repeat(1, 10)


def test_events_inside_the_protocol_are_read() -> None:
    press = p.ButtonEvent(event_id=4, button=p.Button.BACK, press=p.Press.LONG)
    roll = p.RollResult(event_id=5, roll_id=3, die=p.Die.RUNE, face=6)
    assert event_of(press, 0xB007) == PressedButton(p.Button.BACK, p.Press.LONG, 0xB007, 4)
    assert event_of(roll, 0xB007) == DieRolled(p.Die.RUNE, 6, 3, 0xB007, 5)


def test_events_outside_the_protocol_are_refused() -> None:
    assert event_of(p.ButtonEvent(event_id=1, button=9, press=p.Press.DOWN), 1) is None
    assert event_of(p.ButtonEvent(event_id=1, button=p.Button.OK, press=3), 1) is None
    assert event_of(p.RollResult(event_id=1, roll_id=0, die=p.Die.RUNE, face=7), 1) is None
    assert event_of(p.RollResult(event_id=1, roll_id=0, die=9, face=1), 1) is None
    assert event_of(p.RollResult(event_id=1, roll_id=0, die=p.Die.D12, face=0), 1) is None
