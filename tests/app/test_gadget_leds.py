"""The seat LEDs of a Catacombs game, on the Pi's GPIO (GpioLeds over gpiozero's MockFactory with
MockPWMPin, the factory passed in): the Gadget lights the seat of the hero the AI targets, and
on a question the seat of the hero under the cursor pulses. Checked on the pins' state
histories. (Conquest's LEDs are another part's.)"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from overseer.ports.events import Button
from tests.app.lit_table import PINS, LitTable
from tests.drivers.catacombs_table import SEED, enter_room, heroes_side, new_campaign

OK, CHOICE, NEXT = Button.OK, Button.CHOICE, Button.NEXT
ELF, HERO_1 = PINS[1], PINS[3]  # the Elf sits at seat 1, Hero 1 at seat 3


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    made = MockFactory(pin_class=MockPWMPin)
    yield made
    made.reset()


def history(factory: MockFactory, bcm: int) -> list[float]:
    """The pin's levels since its history was last cleared (the first is where it stood)."""
    return [float(s.state) for s in factory.pin(bcm).states]


def clear(factory: MockFactory) -> None:
    for bcm in PINS.values():
        factory.pin(bcm).clear_states()


def pulsing(factory: MockFactory, bcm: int) -> bool:
    """Fading: several levels between dark and full within 0.4 s (a steady seat has one)."""
    time.sleep(0.4)
    ramp = [v for v in history(factory, bcm)[1:] if 0.0 < v < 1.0]
    return len(set(ramp)) >= 3


def levels(factory: MockFactory) -> dict[int, float]:
    return {seat: float(factory.pin(bcm).state) for seat, bcm in PINS.items()}


def test_the_targeted_heros_seat_lights_and_the_cursor_heros_seat_pulses(tmp_path, factory):
    table = LitTable(tmp_path / "games.db", factory, SEED)
    try:
        new_campaign(table)
        heroes_side(table, "Next stage")
        enter_room(table, "Glaaoth", [("Infernal .. Phantom", "Orc", 2),
                                      ("Infernal .. Phantom", "Minotaur", 1)], "No", 2)
        table.read()
        table.number(2)
        table.read()
        assert set(levels(factory).values()) == {0.0}  # no target yet: every seat dark

        table.press(NEXT)  # the Minotaur activates
        clear(factory)
        table.read()
        assert table.screen.title == "Closest to Minotaur?"  # the question names the piece
        assert table.screen.rows[table.screen.cursor] == "Elf"
        assert pulsing(factory, ELF)  # the Elf's seat answers: it pulses
        assert history(factory, HERO_1) == [0.0]

        clear(factory)
        table.press(CHOICE)  # the cursor on Hero 1: its seat pulses, the Elf's goes dark
        assert pulsing(factory, HERO_1)
        assert history(factory, ELF)[-1] == 0.0

        clear(factory)
        table.press(OK)  # Hero 1 is closest: the Minotaur targets it
        assert table.screen.key == "Hero 1"
        assert history(factory, HERO_1)[-1] == 1.0  # lit, steady, for the steps that follow
        time.sleep(0.2)
        assert float(factory.pin(HERO_1).state) == 1.0
        assert levels(factory) == {1: 0.0, 2: 0.0, 3: 1.0, 4: 0.0}

        table.read()
        assert table.screen.title == "Template on Hero 1?"  # about the target: its seat pulses
        clear(factory)
        time.sleep(0.1)
        assert pulsing(factory, HERO_1)
        table.press(OK)
        table.read()
        assert table.screen.key == "Heroes' turn"
        time.sleep(0.1)
        assert levels(factory) == {1: 0.0, 2: 0.0, 3: 1.0, 4: 0.0}  # the target stays lit
        assert all(v == 0.0 for bcm in (PINS[2], PINS[4]) for v in history(factory, bcm))
    finally:
        table.close()
    assert set(levels(factory).values()) == {0.0}
