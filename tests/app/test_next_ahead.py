"""NEXT AI PIECE drawn ahead (``Gadget._arm``): on a glass that takes a screen before it is due
(``GlassAhead``, the Pico's face), every screen where NEXT begins the next AI piece arms the
screen that press will show, and the press then shows exactly that one, from the game worked
out for it (no rules run again at the press)."""

from __future__ import annotations

from overseer.app import controller, view
from overseer.ports.events import Button, Press, SetLeds
from overseer.screens.render import frame_bytes
from overseer.session import session as session_module
from tests.drivers import catacombs_table as play
from tests.drivers.ahead_glass import AheadGlass
from tools.table import BACK, NEXT, OK, Table


def test_each_next_shows_the_screen_armed_for_it_from_the_game_worked_out_ahead(
        tmp_path, monkeypatch):
    table = Table(tmp_path / "games.db")
    glass = table.gadget.glass = AheadGlass()
    play.new_campaign(table)
    play.first_stage(table)
    table.read()
    applied = []
    real = session_module.apply_event
    monkeypatch.setattr(session_module, "apply_event",
                        lambda fold, event: (applied.append(event), real(fold, event))[1])
    nexts = 0
    for _ in range(4):
        assert table.screen.lines[:1] == ("NEXT: next AI piece",)
        armed = glass.armed[-1]
        assert armed[1] is Button.NEXT
        shown, applied[:] = len(glass.shown), []
        table.press(NEXT)
        nexts += 1
        assert frame_bytes(glass.shown[shown]) == armed[0]  # the very screen armed
        assert applied == []  # the press took the game worked out ahead
        table.read()
        while table.session.pending is not None:
            play.answer(table)
            table.read()
    assert table.gadget.ahead_missed == 0 and nexts == 4


def test_nothing_is_armed_where_next_does_not_begin_the_next_piece(tmp_path):
    table = Table(tmp_path / "games.db")
    glass = table.gadget.glass = AheadGlass()
    play.new_campaign(table)  # the new game's questions and forms: NEXT begins nothing
    assert glass.armed == []
    play.first_stage(table)
    table.read()  # the setup's last page, then the idle screen: NEXT begins a piece on both
    armed = len(glass.armed)
    assert armed == 2 and glass.armed[0] == glass.armed[1]
    table.press(NEXT)
    assert table.session.pending is not None  # a question on the glass: nothing to arm
    assert len(glass.armed) == armed


def test_the_idle_screen_arms_the_screen_worked_out_on_the_last_page_as_it_would_anew(
        tmp_path, monkeypatch):
    """The last page of the steps and then the idle screen arm the same screen: the second
    is the first's (the controller is not run again on the same view), and it is the one
    worked out anew."""
    table = Table(tmp_path / "games.db")
    glass = table.gadget.glass = AheadGlass()
    refreshes = []
    real = controller.refresh
    monkeypatch.setattr(controller, "refresh",
                        lambda app, view: (refreshes.append(view), real(app, view))[1])
    play.new_campaign(table)
    play.first_stage(table)
    for _ in range(4):
        while table.gadget.app.at < len(table.gadget.app.reel) - 1:
            table.press(OK)
        armed, refreshes[:] = len(glass.armed), []
        table.press(OK)  # the idle screen
        assert table.gadget.app.view.question is None and not table.gadget.app.reading
        assert len(glass.armed) == armed + 1 and glass.armed[-1] == glass.armed[-2]
        assert refreshes == []  # the last page's screen armed again
        kept = glass.armed[-1]
        table.gadget._armed = None  # worked out anew
        table.gadget._arm()
        assert glass.armed[-1] == kept
        table.press(NEXT)
        table.read()
        while table.session.pending is not None:
            play.answer(table)
            table.read()
    assert table.gadget.ahead_missed == 0


def test_next_takes_the_view_and_the_controllers_state_worked_out_ahead(tmp_path, monkeypatch):
    """At NEXT AI PIECE's press the view and the controller's answer to it are the ones
    worked out ahead (no view built, no refresh run), and the game shows every screen and
    light as a gadget on a glass that takes nothing ahead shows them."""
    plain = Table(tmp_path / "plain.db")
    table = Table(tmp_path / "ahead.db")
    table.gadget.glass = AheadGlass()
    lights: dict[Table, list[SetLeds]] = {plain: [], table: []}
    for each in (plain, table):
        real_set = each.leds.set
        each.gadget.leds.set = lambda lit, real_set=real_set, log=lights[each]: (  # type: ignore[method-assign]
            log.append(lit), real_set(lit))[1]
        play.new_campaign(each)
        play.first_stage(each)
        each.read()
    built, refreshed = [], []
    real_build, real_refresh = view.build, controller.refresh
    monkeypatch.setattr(view, "build", lambda *a, **k: (built.append(a), real_build(*a, **k))[1])
    monkeypatch.setattr(controller, "refresh",
                        lambda app, made: (refreshed.append(made), real_refresh(app, made))[1])
    for _ in range(4):
        for each in (plain, table):
            built[:], refreshed[:] = [], []
            each.press(NEXT)
            if each is table:
                assert built == [] and refreshed == []
            each.read()
            while each.session.pending is not None:
                play.answer(each)
                each.read()
        assert table.shown == plain.shown and lights[table] == lights[plain]
        assert vars(table.gadget.app) == vars(plain.gadget.app)


def test_next_begins_nothing_where_the_controller_says_it_may_not(tmp_path):
    """``controller.next_may_begin``, which spares the ahead the controller's whole press
    where NEXT reads on: in every state of a game (pages, questions, the menu, notices) where
    it is false, NEXT gives no Begin; where NEXT gives one, it is true."""
    table = Table(tmp_path / "games.db")
    table.gadget.glass = AheadGlass()
    states = []
    table.gadget.watchers.append(lambda gadget, item: states.append(gadget.app))
    play.new_campaign(table)
    play.first_stage(table)
    table.read()
    table.press(OK)  # the menu
    table.press(BACK)
    table.press(BACK, long=True)  # a notice (undone)
    table.press(OK)
    for _ in range(2):
        play.ai_turn(table)
    begins = 0
    for app in states:
        effects = controller.handle(app, Press(Button.NEXT))[1]
        begun = any(isinstance(e, controller.Begin) for e in effects)
        begins += begun
        assert controller.next_may_begin(app) or not begun
    assert begins > 2 and not all(controller.next_may_begin(app) for app in states)
