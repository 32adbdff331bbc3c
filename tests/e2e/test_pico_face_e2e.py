"""The Pico's device face against the real firmware on a virtual Pico: presses, rolls and
images through the app's inbox and Glass."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from overseer.devices import protocol as p
from overseer.devices.frames import vlsb
from overseer.devices.pico import Pico
from overseer.devices.virtual_pico import VirtualPico
from overseer.ports.events import Button, Die, Input, LinkChanged, Press, Rolled
from overseer.ports.inbox import Inbox
from overseer.screens.render import Screen, draw, frame_bytes


def take(inbox: Inbox, timeout: float = 10.0) -> Input:
    item = inbox.get(timeout)
    assert item is not None, "nothing reached the inbox"
    return item


@pytest.fixture
def inbox() -> Inbox:
    return Inbox()


@pytest.fixture
def pico(board: VirtualPico, inbox: Inbox) -> Iterator[Pico]:
    face = Pico(board.port)
    face.start(inbox)
    try:
        face.wait_ready(10)
    except TimeoutError:
        face.close()
        pytest.fail(f"no handshake; the board's stderr:\n{board.stderr()[-3000:]}")
    assert take(inbox) == LinkChanged(True)
    yield face
    face.close()


def test_presses_arrive_as_the_apps_buttons(board: VirtualPico, inbox: Inbox, pico: Pico) -> None:
    board.press(p.Button.NEXT_AI_PIECE)
    board.press(p.Button.BACK, long=True)
    board.press(p.Button.OK, long=True)
    board.press(p.Button.BACK)
    # one Press each: a held BACK is only the undo, a held OK only an OK
    assert [take(inbox) for _ in range(4)] == [
        Press(Button.NEXT), Press(Button.BACK, long=True), Press(Button.OK), Press(Button.BACK)]
    assert inbox.get(0.3) is None


def test_rolls_asked_for_and_rolls_by_the_button(board: VirtualPico, inbox: Inbox, pico: Pico) -> None:
    pico.request(Die.LOCATION, 3)
    asked = take(inbox)
    assert isinstance(asked, Rolled) and (asked.die, asked.request) == (Die.LOCATION, 3)
    assert 1 <= asked.face <= 6
    board.press(p.Button.ROLL)  # short: the D12
    button = take(inbox)
    assert isinstance(button, Rolled) and (button.die, button.request) == (Die.D12, 0)
    assert 1 <= button.face <= 12


def test_the_glass_shows_the_screen_and_a_restart_restores_it(
    board: VirtualPico, inbox: Inbox, pico: Pico
) -> None:
    image = draw(Screen("Sewer Rat", ("targets Elf", "melee + poison"), "?"))
    pico.show(image)
    assert pico.wait_shown(10)
    assert board.wait_oled(lambda glass: glass == vlsb(image), timeout=10) == frame_bytes(image)
    board.restart()
    assert take(inbox) == LinkChanged(False)
    assert take(inbox) == LinkChanged(True)
    assert board.wait_oled(lambda glass: glass == vlsb(image), timeout=10)
