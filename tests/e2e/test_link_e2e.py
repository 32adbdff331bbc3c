"""The host's PicoLink against the real firmware (on MicroPython's Unix port) over a pty."""

from __future__ import annotations

import queue
import random

import pytest

from overseer.devices import protocol as p
from overseer.devices.link_events import DieRolled, PressedButton, ProtocolMismatch
from overseer.devices.pico_link import PicoLink
from overseer.devices.virtual_pico import VirtualPico
from tests.drivers.virtual import Events


def image(seed: int) -> bytes:
    return random.Random(seed).randbytes(p.FRAME_SIZE)


def test_handshake_names_the_firmware(board: VirtualPico, link: PicoLink) -> None:
    ident = link.ident
    assert ident is not None
    assert ident.protocol == p.PROTOCOL_VERSION
    assert ident.firmware.isprintable() and ident.firmware


def test_the_glass_shows_exactly_the_frame_sent(board: VirtualPico, link: PicoLink) -> None:
    first = image(1)
    screen = link.show(first)
    assert link.wait_shown(screen, timeout=5)
    assert board.wait_oled(lambda shown: shown == first, timeout=5) == first
    second = bytearray(first)
    second[1000:1010] = bytes(10)  # only the last chunk changes
    screen = link.show(bytes(second))
    assert link.wait_shown(screen, timeout=5)
    assert board.wait_oled(lambda shown: shown == second, timeout=5) == second


def test_a_press_arrives_exactly_once(board: VirtualPico, link: PicoLink, events: Events
                                      ) -> None:
    board.press(p.Button.OK)
    board.press(p.Button.BACK, long=True)
    got = [events.get(timeout=5) for _ in range(4)]
    assert all(isinstance(e, PressedButton) for e in got)
    assert [(e.button, e.press) for e in got if isinstance(e, PressedButton)] == [
        (p.Button.OK, p.Press.DOWN), (p.Button.OK, p.Press.SHORT),
        (p.Button.BACK, p.Press.DOWN), (p.Button.BACK, p.Press.LONG)]
    assert len({e.event_id for e in got if isinstance(e, PressedButton)}) == 4
    with pytest.raises(queue.Empty):
        events.get(timeout=0.3)


def test_a_roll_request_is_answered(board: VirtualPico, link: PicoLink, events: Events) -> None:
    roll_id = link.request_roll(p.Die.D12)
    event = events.get(timeout=5)
    assert isinstance(event, DieRolled)
    assert (event.roll_id, event.die) == (roll_id, p.Die.D12)
    assert 1 <= event.face <= 12


@pytest.mark.parametrize(("long", "die"), [(False, p.Die.D12), (True, p.Die.RUNE)])
def test_the_roll_button_rolls(board: VirtualPico, link: PicoLink, events: Events, long: bool,
                               die: p.Die) -> None:
    board.press(p.Button.ROLL, long=long)
    event = events.get(timeout=5)
    assert isinstance(event, DieRolled)
    assert (event.roll_id, event.die) == (0, die)
    assert 1 <= event.face <= p.FACES[die]


def test_a_firmware_restart_is_noticed_and_the_screen_restored(
    board: VirtualPico, link: PicoLink
) -> None:
    shown = image(2)
    assert link.wait_shown(link.show(shown), timeout=5)
    assert board.wait_oled(lambda glass: glass == shown, timeout=5)
    old_boot = link.ident.boot_id if link.ident else None
    board.restart()
    assert board.wait_oled(lambda glass: glass != shown, timeout=10)  # the boot screen
    assert board.wait_oled(lambda glass: glass == shown, timeout=10) == shown
    assert link.session == 2
    assert link.ident is not None and link.ident.boot_id != old_boot


def test_a_host_of_another_protocol_version_is_refused(board: VirtualPico) -> None:
    with PicoLink(board.port, lambda event: None, protocol=5, clock=board.clock) as link:
        with pytest.raises(ProtocolMismatch, match="the Pico runs protocol 4; this host speaks 5"):
            link.wait_ready(timeout=10)
