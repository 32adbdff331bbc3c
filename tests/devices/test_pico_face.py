"""The Pico's device face (Glass, Buttons, Dice) over the link, against a scripted far end: what
reaches the app's inbox, and what goes over the wire."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator

import pytest
from PIL import Image

from overseer.app.controller import handle, held_buttons, screen
from overseer.devices import protocol as p
from overseer.devices.frames import vlsb
from overseer.devices.link_events import ProtocolMismatch
from overseer.devices.pico import BUTTONS, HELD_IS_ANOTHER_ACTION, Pico, Presses
from overseer.ports.events import Button, Die, Input, LinkChanged, Press, Rolled, RollRefused
from overseer.ports.inbox import Inbox
from overseer.screens.render import Screen, frame, render
from tests.devices.link_peer import ScriptedPico
from tools import gallery


def noise(seed: int) -> Image.Image:
    return Image.frombytes("1", (128, 64), random.Random(seed).randbytes(p.FRAME_SIZE))


def take(inbox: Inbox, timeout: float = 3.0) -> Input:
    item = inbox.get(timeout)
    assert item is not None, "nothing reached the inbox"
    return item


@pytest.fixture
def peer() -> Iterator[ScriptedPico]:
    scripted = ScriptedPico()
    yield scripted
    scripted.close()


@pytest.fixture
def inbox() -> Inbox:
    return Inbox()


@pytest.fixture
def pico(peer: ScriptedPico, inbox: Inbox) -> Iterator[Pico]:
    face = Pico(peer.port, roll_timeout=2.0)
    face.start(inbox)
    face.wait_ready(3)
    assert take(inbox) == LinkChanged(True)
    yield face
    face.close()


def test_presses_and_the_roll_button_reach_the_inbox(
    peer: ScriptedPico, inbox: Inbox, pico: Pico
) -> None:
    reports = [(p.Button.NEXT_AI_PIECE, p.Press.DOWN), (p.Button.NEXT_AI_PIECE, p.Press.SHORT),
               (p.Button.BACK, p.Press.DOWN), (p.Button.BACK, p.Press.LONG),
               (p.Button.OK, p.Press.DOWN), (p.Button.OK, p.Press.LONG),
               (p.Button.CHOICE, p.Press.DOWN), (p.Button.CHOICE, p.Press.SHORT)]
    for event_id, (button, press) in enumerate(reports, 1):
        peer.send_reliable(p.ButtonEvent(event_id, button, press))
    peer.send_reliable(p.RollResult(len(reports) + 1, 0, p.Die.RUNE, 4))  # the ROLL button, held
    assert [take(inbox) for _ in range(5)] == [
        Press(Button.NEXT, False),  # at DOWN: its held press means the same
        Press(Button.BACK, True),  # at LONG, and no short BACK before it
        Press(Button.OK, False),
        Press(Button.CHOICE, False),  # at SHORT
        Rolled(Die.RUNE, 4, 0),
    ]
    assert inbox.get(0.1) is None


def test_a_request_is_answered_under_its_number(
    peer: ScriptedPico, inbox: Inbox, pico: Pico
) -> None:
    pico.request(Die.LOCATION, 7)
    assert peer.wait(lambda: bool(peer.of_type(p.RollRequest)))
    request = peer.of_type(p.RollRequest)[0][1]
    assert isinstance(request, p.RollRequest) and request.die == p.Die.LOCATION
    peer.send_reliable(p.RollResult(9, request.roll_id, p.Die.LOCATION, 3))
    assert take(inbox) == Rolled(Die.LOCATION, 3, 7)


@pytest.mark.parametrize(
    ("code", "reason"), [(p.ErrorCode.BAD_ROLL, "bad_roll"), (p.ErrorCode.QUEUE_FULL, "busy")]
)
def test_a_roll_the_pico_refuses_comes_back_refused(
    peer: ScriptedPico, inbox: Inbox, pico: Pico, code: int, reason: str
) -> None:
    peer.refuse_rolls = code
    pico.request(Die.D12, 3)
    assert take(inbox) == RollRefused(3, reason)
    peer.refuse_rolls = None
    pico.request(Die.D12, 4)  # the next one is rolled as usual
    assert peer.wait(lambda: len(peer.of_type(p.RollRequest)) == 2)
    request = peer.of_type(p.RollRequest)[1][1]
    assert isinstance(request, p.RollRequest)
    peer.send_reliable(p.RollResult(1, request.roll_id, p.Die.D12, 12))
    assert take(inbox) == Rolled(Die.D12, 12, 4)
    assert pico.link.stats.rolls_failed == 1


def test_a_refusal_without_a_roll_request_settled_refuses_nothing(
    peer: ScriptedPico, inbox: Inbox, pico: Pico
) -> None:
    peer.send(p.Error(p.ErrorCode.QUEUE_FULL))  # the Pico dropped a press
    pico.show(noise(1))  # an ACK follows, settling frame blocks only
    assert pico.wait_shown(3)
    pico.request(Die.RUNE, 5)
    assert peer.wait(lambda: bool(peer.of_type(p.RollRequest)))
    assert inbox.get(0.2) is None


def test_an_unanswered_request_times_out(peer: ScriptedPico, inbox: Inbox, pico: Pico) -> None:
    started = time.monotonic()
    pico.request(Die.RUNE, 11)
    assert take(inbox, timeout=5) == RollRefused(11, "timeout")
    assert time.monotonic() - started >= 2.0
    # The answer coming after all is dropped: the app has moved on.
    request = peer.of_type(p.RollRequest)[0][1]
    assert isinstance(request, p.RollRequest)
    peer.send_reliable(p.RollResult(4, request.roll_id, p.Die.RUNE, 2))
    assert peer.wait(lambda: bool(peer.of_type(p.HostAck)))
    assert inbox.get(0.2) is None


def test_a_lost_link_refuses_the_waiting_rolls_and_says_so(
    peer: ScriptedPico, inbox: Inbox, pico: Pico
) -> None:
    pico.request(Die.D12, 2)
    assert peer.wait(lambda: bool(peer.of_type(p.RollRequest)))
    peer.heartbeats = False  # silence: the link is lost after 1 s
    assert take(inbox) == LinkChanged(False)
    assert take(inbox) == RollRefused(2, "link_lost")
    peer.heartbeats = True
    assert take(inbox) == LinkChanged(True)
    assert len(peer.of_type(p.RollRequest)) == 1  # not asked again after the handshake


def test_the_glass_gets_the_image_packed_and_then_only_what_changed(
    peer: ScriptedPico, pico: Pico
) -> None:
    first = noise(2)
    pico.show(first)
    assert pico.wait_shown(3)
    assert peer.shown == vlsb(first)
    second = first.copy()
    second.putpixel((10, 20), 0 if second.getpixel((10, 20)) else 1)  # page 2, column 10
    pico.show(second)
    assert pico.wait_shown(3)
    assert peer.shown == vlsb(second)
    # each chunk once by its sequence number: a late ACK on a loaded machine resends one
    sent = dict(peer.of_type(p.FrameChunk))
    chunks = [sent[seq] for seq in sorted(sent)][16:]
    assert [(c.offset, len(c.data)) for c in chunks] == [(2 * 128 + 10, 1)]


def test_a_rendered_screen_goes_as_its_kept_frame_and_a_copy_as_its_pixels(
    peer: ScriptedPico, pico: Pico
) -> None:
    listed = Screen("Who joins the party?", options=("Elf", "Ulom", "Yilleph"), cursor=1)
    drawn = render(listed)
    pico.show(drawn)
    assert pico.wait_shown(3)
    assert peer.shown == vlsb(drawn) == frame(listed)
    copy = drawn.copy()  # a copy carries no screen: drawn on, it is packed as it now is
    copy.putpixel((10, 20), 0 if copy.getpixel((10, 20)) else 1)
    pico.show(copy)
    assert pico.wait_shown(3)
    assert peer.shown == vlsb(copy) != frame(listed)


def test_bad_requests_and_images_are_refused(inbox: Inbox, pico: Pico) -> None:
    with pytest.raises(ValueError, match="numbered from 1"):
        pico.request(Die.D12, 0)
    with pytest.raises(ValueError, match="'d6' is not a valid Die"):
        pico.request("d6", 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="the glass is 128x64 pixels, not 128x32"):
        pico.show(Image.new("1", (128, 32)))
    with pytest.raises(ValueError, match="another inbox"):
        pico.start(Inbox())
    pico.start(inbox)  # Buttons and Dice both start the same Pico: fine
    assert pico.link.screen == 0


def test_a_request_to_a_refused_pico_is_refused_at_once() -> None:
    peer = ScriptedPico(protocol=1)  # a Pico with the firmware before version 2
    inbox = Inbox()
    pico = Pico(peer.port)
    try:
        pico.start(inbox)
        with pytest.raises(ProtocolMismatch, match="flash the firmware"):
            pico.wait_ready(3)
        pico.request(Die.D12, 8)
        assert take(inbox) == RollRefused(8, "link_lost")
    finally:
        pico.close()
        peer.close()


def app_states() -> list:
    """The controller on every kind of screen: idle, the menu, steps, each question, over."""
    idle, _ = gallery.start(gallery.view(can_undo=True))
    reading, _ = gallery.start(gallery.view(gallery.TEMPLATE, gallery.STEPS, can_undo=True))
    over, _ = gallery.start(gallery.view(over=True, result="The heroes won the room"))
    undone, _ = gallery.start(gallery.view(can_redo=True))
    questions = (gallery.TEMPLATE, gallery.CLOSEST, gallery.UNDER, gallery.POISON,
                 gallery.TOKEN, gallery.CLOCK)
    asked = [gallery.asked(q) for q in questions]
    return [idle, gallery.press(idle, Button.CHOICE), reading, over, undone, *asked,
            gallery.press(asked[2], Button.CHOICE), gallery.press(asked[4], Button.OK)]


def test_buttons_not_held_mean_the_same_held_or_not() -> None:
    # the face sends a button not in held_buttons at DOWN, before it can know whether it will
    # be held: on that screen its held press must do what its short one does
    for app in app_states():
        for button in set(Button) - held_buttons(app):
            assert handle(app, Press(button, True)) == handle(app, Press(button, False)), \
                (button, screen(app).title)


def test_every_held_button_differs_held_on_some_screen() -> None:
    # BACK held undoes, CHOICE held steps back, NEXT held steps a number down by five
    states = app_states()
    for button in {Button.BACK, Button.CHOICE, Button.NEXT}:
        assert any(button in held_buttons(app)
                   and handle(app, Press(button, True)) != handle(app, Press(button, False))
                   for app in states), button
    assert Button.NEXT not in held_buttons(states[0])  # idle: NEXT AI PIECE at the first edge


def test_each_press_is_one_press_whatever_it_waits_for() -> None:
    for button, press in [(b, k) for b in p.Button for k in p.Press]:
        app_button = BUTTONS[button]
        settled = Presses().report(app_button, p.Press.DOWN)
        if press is not p.Press.DOWN:
            later = Presses()
            later.report(app_button, p.Press.DOWN)
            settled = later.report(app_button, press)
            if app_button in HELD_IS_ANOTHER_ACTION:
                assert settled == Press(app_button, press is p.Press.LONG)
            else:
                assert settled is None  # its Press went in at DOWN
        elif app_button in HELD_IS_ANOTHER_ACTION:
            assert settled is None
        else:
            assert settled == Press(app_button)


def test_what_down_decided_holds_for_its_press_when_the_screen_changes() -> None:
    presses = Presses(frozenset())
    assert presses.report(Button.NEXT, p.Press.DOWN) == Press(Button.NEXT)
    presses.held = frozenset({Button.NEXT})  # a number's question came up before the release
    assert presses.report(Button.NEXT, p.Press.SHORT) is None  # not a second press
    assert presses.report(Button.NEXT, p.Press.DOWN) is None
    presses.held = frozenset()  # and the other way round
    assert presses.report(Button.NEXT, p.Press.LONG) == Press(Button.NEXT, True)
    assert presses.report(Button.NEXT, p.Press.SHORT) is None  # a stray report: nothing
