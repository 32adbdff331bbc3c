"""The shell tells buttons that report a press at its first edge (the Pico's face) which
buttons' held press means something else on the screen now."""

from __future__ import annotations

import random
from pathlib import Path

from overseer.app.controller import held_buttons
from overseer.app.shell import Gadget
from overseer.app.sim import MemoryGlass, SimLeds
from overseer.core.procedure import EnterNumber
from overseer.ports.events import Button, Press
from overseer.ports.inbox import Inbox
from overseer.ports.ports import EarlyButtons


class EarlyRecorder(EarlyButtons):
    """An EarlyButtons source that keeps what it is told."""

    def __init__(self) -> None:
        self.told: list[frozenset[Button]] = []

    def start(self, inbox: Inbox) -> None:
        pass

    def close(self) -> None:
        pass

    def hold(self, buttons: frozenset[Button]) -> None:
        self.told.append(buttons)


def test_the_buttons_are_told_what_a_held_press_means_on_every_screen(tmp_path: Path) -> None:
    early = EarlyRecorder()
    rng = random.Random(4)
    with Gadget(tmp_path / "g.sqlite3", MemoryGlass(), SimLeds(), sources=[early],
                seed=3) as gadget:
        gadget.open()
        on_a_number = 0
        for _ in range(400):
            assert gadget.app is not None and early.told[-1] == held_buttons(gadget.app)
            question = gadget.app.view.question
            if isinstance(question, EnterNumber) and not gadget.app.reading \
                    and not gadget.app.notice and gadget.app.menu is None:
                on_a_number += 1
                assert Button.NEXT in early.told[-1]  # NEXT held: the number down by five
            button = rng.choice([Button.OK, Button.OK, Button.CHOICE, Button.NEXT, Button.BACK])
            gadget.feed(Press(button))
        assert on_a_number > 0
        assert Button.NEXT not in early.told[0]  # the first screen: NEXT at its first edge
        assert all(a != b for a, b in zip(early.told, early.told[1:], strict=False))
