"""The controller over a real session and the gadget's one view builder (``view.build``): the
demo battle played with the five buttons only (the table's own dice and damage tokens, or the
Pico's dice), undo and redo, a refusal."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from overseer.app import controller as c
from overseer.app import registry, view
from overseer.app.calls import SESSION_CALLS, apply
from overseer.app.flow import table
from overseer.app.view import MenuItem
from overseer.core.procedure import ChooseOne, ChooseSome, DrawToken, EnterNumber, Pick, Roll
from overseer.core.records import DATA_DIR
from overseer.ports.events import Button, Press, RequestRoll, Rolled
from overseer.screens import pages
from overseer.session.session import Session
from overseer.session.store import Store

NEXT = {"do": "next_ai_piece"}
PICO_FACE = 5


class Shell:
    """A shell as small as can be: applies the controller's effects to the session, rolls the
    Pico's dice at once (always PICO_FACE), and remembers every page of steps shown."""

    def __init__(self, session: Session, **fields) -> None:
        self.session, self.fields = session, fields
        self.seen = 0  # trace steps already handed to the controller
        self.shown_steps: set[int] = set()
        self.app, effects = c.start(self.view())
        self.apply(effects)

    def view(self):
        registry.install()
        made = view.build(table("catacombs"), self.session, self.seen, {})
        self.seen = made.trace_length
        return replace(made, **self.fields)

    def apply(self, effects) -> None:
        queue = list(effects)
        while queue:
            effect = queue.pop(0)
            if isinstance(effect, SESSION_CALLS):
                refused = apply(self.session, effect)
                self.app, more = (c.handle(self.app, refused) if refused
                                  else c.refresh(self.app, self.view()))
                queue += more
            elif isinstance(effect, RequestRoll):
                self.app, more = c.handle(self.app, Rolled(effect.die, PICO_FACE,
                                                           effect.request))
                queue += more
            self.note()

    def note(self) -> None:
        if self.app.reading and self.app.reel[self.app.at].index >= 0:
            self.shown_steps.update(self.app.reel[self.app.at].steps)
        elif not self.app.reading and self.session.pending is not None:
            self.shown_steps.update(self.app.said)  # the question's title names them
            if self.app.carried:  # the question's screen carries the last page's lines
                self.shown_steps.update(self.app.reel[-1].steps)

    def press(self, *buttons: Button, long: bool = False) -> None:
        for button in buttons:
            self.app, effects = c.handle(self.app, Press(button, long))
            self.note()
            self.apply(effects)

    def answer_by_buttons(self, pico: bool) -> None:
        """The table's presses for the question on the glass."""
        question = self.session.pending
        if isinstance(question, ChooseSome):
            self.press(Button.OK, Button.NEXT)  # the first option
        elif isinstance(question, DrawToken):
            self.press(Button.CHOICE, Button.CHOICE, Button.OK, Button.OK)  # 2, no reset icon
        elif isinstance(question, Roll) and pico:
            self.press(Button.ROLL)
        elif isinstance(question, Roll):
            self.press(*(Button.CHOICE,) * 3, Button.OK)  # from its middle face, 6: 9
        else:  # ChooseOne, Pick, YesNo (yes), EnterNumber (its lowest)
            assert isinstance(question, ChooseOne | Pick | EnterNumber) or question is not None
            self.press(Button.OK)

    def play_one(self, pico: bool = False) -> None:
        """NEXT AI PIECE, then every page and every question until the glass is idle."""
        self.press(Button.NEXT)
        for _ in range(200):
            if self.app.notice:
                raise AssertionError(f"a notice: {c.screen(self.app)}")
            if self.app.reading:
                self.press(Button.OK)
            elif self.session.pending is not None:
                self.answer_by_buttons(pico)
            else:
                return
        raise AssertionError("the activation did not end")


def demo(tmp_path: Path, dice: str = "table") -> Session:
    setup = json.loads((DATA_DIR / "demo" / "catacombs.json").read_text())
    setup["options"] = {**setup.get("options", {}), "physical_tokens": True,
                        "physical_poison": True}
    return Session.new(Store(tmp_path / "games.db"), "catacombs", setup, seed=7, dice=dice)


@pytest.mark.parametrize("dice", ["table", "pico"])
def test_activations_played_on_the_buttons_show_every_step(tmp_path, dice):
    session = demo(tmp_path, dice)
    shell = Shell(session)
    for _ in range(3):
        shell.play_one(pico=dice == "pico")
    trace = session.runner.trace
    assert len(trace) > 10 and shell.shown_steps == set(range(len(trace)))
    answers = [e.data for e in session.events[:session.head] if e.kind == "answer"]
    rolls = [a for a in answers if "source" in a and a["key"] != "token"]
    assert rolls, "the demo asks for a roll"
    assert {a["source"] for a in rolls} == {"pico" if dice == "pico" else "table"}
    assert {a["value"] for a in rolls} == {PICO_FACE if dice == "pico" else 9}
    tokens = [a["value"] for a in answers if a["key"] == "token"]
    assert tokens and all(t == {"value": 2, "reset": False} for t in tokens)


def test_undo_and_redo_on_the_buttons(tmp_path):
    session = demo(tmp_path)
    shell = Shell(session)
    shell.play_one()
    head, length = session.head, len(session.runner.trace)
    shell.press(Button.BACK, long=True)
    assert session.head < head and c.screen(shell.app).key == "Undone"
    shell.press(Button.CHOICE)  # redo
    assert session.head == head and len(session.runner.trace) == length


def test_back_held_at_the_start_undoes_nothing(tmp_path):
    session = demo(tmp_path)
    shell = Shell(session)
    shell.press(Button.BACK, long=True)
    assert session.head == 0 and c.screen(shell.app).key == "No undo"


def test_an_action_the_rules_refuse_is_said_and_changes_nothing(tmp_path):
    session = demo(tmp_path)
    shell = Shell(session, menu=(MenuItem("Dance", {"do": "dance"}),))
    shell.press(Button.CHOICE, Button.OK)
    assert session.head == 0 and c.screen(shell.app).key == "Not taken"
    assert "unknown action 'dance'" in " ".join(c.screen(shell.app).lines)


def test_a_resumed_game_shows_its_waiting_question(tmp_path):
    session = demo(tmp_path)
    session.begin(NEXT)
    assert session.pending is not None
    again = Session.resume(session.store, session.id)
    shell = Shell(again)
    assert shell.app.reading  # the steps so far come first
    while shell.app.reading:
        shell.press(Button.OK)
    assert c.screen(shell.app).mark == "?"


def test_the_idle_views_menu_and_taps_are_made_when_first_read(tmp_path, monkeypatch):
    """Each legal move's form asked, each card's tap: made for the menu opened or a card
    tapped, not at every view; the same items as the table makes at once."""
    registry.install()
    session, flow = demo(tmp_path), table("catacombs")
    made: list[str] = []

    def counted(name):
        make = getattr(flow, name)
        return lambda *args: made.append(name) or make(*args)

    for name in ("menu", "tap_actions"):
        monkeypatch.setattr(flow, name, counted(name))
    built = view.build(flow, session, 0, {})
    assert built.question is None and built.next_action == NEXT and made == []
    legal = flow.spec.legal_actions(session.state)
    assert built.menu == flow.menu(session.state, legal, False) and made == ["menu"] * 2
    assert built.tap_actions == flow.tap_actions(session.state, legal)
    assert tuple(built.menu) == built.menu[:] and built.menu[0] in built.menu
    assert built.tap_actions[("room", "bholoth-cemetery")] is not None
    assert made == ["menu", "menu", "tap_actions", "tap_actions"]  # each made once
    cards, options = flow.cards(session.state), flow.card_options(session.state)
    for name in ("cards", "card_options"):  # what a tapped card names: made when read
        monkeypatch.setattr(flow, name, counted(name))
    built, made[:] = view.build(flow, session, 0, {}), []
    assert made == [] and built.cards == cards and built.card_options == options
    assert dict(built.card_options) == options and built.cards.get(("hero", "none")) is None
    assert made == ["cards", "card_options"]  # each made once


def test_a_views_steps_and_details_read_as_at_table_and_detail_text_give_them(tmp_path):
    """``view.AtTable`` draws a step with the table's names when first read; it reads as
    ``Step.at_table`` gives it (the step itself where that changes nothing: its template and
    facts; else a copy without them), over every step of three activations. A page's
    ``pages.Details`` are its steps' ``detail_text``, written when first read."""
    registry.install()
    session, flow = demo(tmp_path), table("catacombs")
    shell = Shell(session)
    for _ in range(3):
        shell.play_one(pico=False)
    names = flow.labels(session.state)
    other = {ident: f"{name}!" for ident, name in names.items()}
    steps = session.runner.trace
    assert any(s.at_table(names) is not s for s in steps)  # some are drawn with new names
    assert any(s.facts is not None and s.at_table(names) is s for s in steps)  # some not
    for step in steps:
        made, lazy = step.at_table(names), view.AtTable(step, names)
        assert lazy == made and repr(lazy) == repr(made) and lazy.as_dict() == made.as_dict()
        assert (lazy.kind, lazy.rule, lazy.text, lazy.template, lazy.facts, lazy.data) == (
            made.kind, made.rule, made.text, made.template, made.facts, made.data)
        assert lazy.drawn(other) == made.drawn(other)
        assert lazy.at_table(other) == made.at_table(other)
    details = pages.Details(steps)
    assert len(details) == len(steps) and bool(details)
    assert details == tuple(pages.detail_text(s) for s in steps) == tuple(details)
    assert details[1:3] == tuple(pages.detail_text(s) for s in steps[1:3])
    assert pages.Details([]) == () and not pages.Details([])
