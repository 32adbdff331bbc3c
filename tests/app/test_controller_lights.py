"""The game's own seat lights (``GameView.lights``) under the controller's: a target's light and
the pulse of the seat under the cursor go over them; "off" is no light."""

from __future__ import annotations

from overseer.app import controller
from overseer.app.view import GameView
from overseer.core.procedure import ChooseOne
from overseer.ports.events import SeatLight, SetLeds


def lights(effects: tuple) -> tuple[SeatLight, ...]:
    (found,) = [e for e in effects if isinstance(e, SetLeds)]
    return found.lights


def test_the_games_lights_are_set_between_actions() -> None:
    _, effects = controller.start(GameView("conquest", lights={1: "on", 2: "dim", 3: "off"}))
    assert lights(effects) == (SeatLight(1, "on"), SeatLight(2, "dim"))


def test_the_seat_under_the_cursor_pulses_over_them() -> None:
    question = ChooseOne("Which discs were hit?", ("skull1", "skull2"), "hits")  # no intro page
    view = GameView("conquest", question=question, seats={"skull1": 2, "skull2": 4},
                    lights={1: "on", 2: "dim"})
    app, effects = controller.start(view)
    assert lights(effects) == (SeatLight(1, "on"), SeatLight(2, "pulse"))
    app, effects = controller.handle(app, controller.Press(controller.Button.CHOICE))
    assert lights(effects) == (SeatLight(1, "on"), SeatLight(2, "dim"), SeatLight(4, "pulse"))


def test_no_lights_of_its_own_is_all_off() -> None:
    _, effects = controller.start(GameView("catacombs"))
    assert lights(effects) == ()
