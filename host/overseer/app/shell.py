"""The gadget's shell: the one place that joins the ports, the inbox, the pure controller and the
session. Everything the table does arrives in the inbox; ``step`` takes one input, runs the
controller on it and applies the effects in order, so the screen moves only after the session
call it shows is durable.

The API (for the terminal simulator, the Pi's main loop and the tests):

    gadget = Gadget(store_path, glass, leds, dice=None, inbox=None, sources=(), seed=None)
    gadget.open(game_id=None)    # resume that game, else the last unfinished one, else a new
                                 # game's questions (the wizard)
    gadget.inbox.put(Press(Button.OK))      # or a source puts it (Pico, card reader, keys)
    gadget.step(timeout)         # take one input (waiting up to timeout): True if one came
    gadget.feed(item)            # act on one input now, without the inbox
    gadget.run(stop_event)       # step until the event is set
    gadget.screen                # the Screen on the glass (gadget.glass has its image)
    gadget.session               # the Session being played (None in a new game's questions)
    gadget.close()               # release the store and its lock

- ``store_path``: the game store (SQLite file). Its lock (session/lock.py) is taken in the
  constructor and released by ``close``: a second gadget on the same store raises
  ``StoreInUse`` with the lock's message.
- ``glass``, ``leds``: ``app.ports.Glass`` and ``Leds``; ``dice``: ``app.ports.Dice`` or None
  (a box without the Pico's dice: ROLL says so, the table's own dice still work); ``sources``:
  more ``app.ports.Source`` (buttons, a card reader). ``dice`` and ``sources`` are started with
  the gadget's inbox; every port stays the caller's to close.
- ``seed``: the seed of the games this gadget starts (None: a random one).

How it runs the controller (app/controller.py): effects ``Show`` (rendered, then
``glass.show``), ``SetLeds`` (``leds.set``), ``RequestRoll`` (``dice.request``) and one call a
step: ``Begin``, ``Answer``, ``Undo``, ``Redo``, ``Cancel``. A ``Begin`` of a move with
parameters opens its form (app/catacombs.py, app/forms.py), a local procedure whose questions
go through the same controller; only the completed action reaches the session. After every
change the GameView is made again from the session and the game's spec: the menu (the legal
actions), NEXT AI PIECE (the spec's ``main_move`` when legal, else its refusal), names with
identical monsters lettered, the seats of the party.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from overseer import games
from overseer.app import calls, controller
from overseer.app import catacombs as flow
from overseer.app.controller import (
    Answer,
    App,
    Begin,
    Cancel,
    Effect,
    Refused,
    SessionCall,
    Show,
    Told,
    Undo,
)
from overseer.app.events import Button, Input, RequestRoll, RollRefused, SetLeds, Tap
from overseer.app.inbox import Inbox
from overseer.app.local import Local
from overseer.app.ports import Dice, EarlyButtons, Glass, Leds, Source
from overseer.app.view import GameView, StepView
from overseer.rules.catacombs.kinds import StepKind
from overseer.rules.procedure import AnswerError, RulesError, Step
from overseer.screens.render import Screen, render
from overseer.session import lock
from overseer.session.session import Session, SessionError, fold
from overseer.session.store import Store, StoreError

SEATS = (1, 2, 3, 4)  # the seat LEDs when the Leds do not say (hardware/pins.toml)


class Gadget:
    """The box: ports, inbox, controller and the game store. See the module's docstring."""

    def __init__(self, store: str | Path, glass: Glass, leds: Leds, dice: Dice | None = None,
                 inbox: Inbox | None = None, sources: Sequence[Source] = (),
                 seed: int | None = None) -> None:
        self.path = Path(store)
        self.lock = lock.acquire(self.path)
        try:
            self.store = Store(self.path)
        except BaseException:
            self.lock.release()
            raise
        self.glass, self.leds, self.dice = glass, leds, dice
        self.inbox = inbox if inbox is not None else Inbox()
        self.seed = seed
        self.spec = games.CATACOMBS
        self.seats_available: tuple[int, ...] = tuple(getattr(leds, "seats", SEATS))
        self.session: Session | None = None
        self.seats: dict[str, int] = {}
        self.local: Local | None = None  # a form or the new game's questions, under way
        self.queued: list[dict[str, Any]] = []  # a new game's first actions still to begin
        self.seen = 0  # the trace steps the controller has had
        self.app: App | None = None
        self.screen: Screen | None = None
        self.sources: tuple[Source, ...] = (*((dice,) if dice is not None else ()), *sources)
        self.held: frozenset[Button] | None = None  # what the EarlyButtons were told last
        for source in self.sources:
            source.start(self.inbox)

    # ------------------------------------------------------------------ opening, closing

    def open(self, game_id: int | None = None) -> None:
        """Resume game ``game_id``, else the last unfinished Catacombs game, else start a new
        game's questions. A resumed game shows the steps from where its current action began
        (every step after the table's last input is among them) and its question."""
        session = (Session.resume(self.store, game_id) if game_id is not None
                   else Session.resume_last(self.store, flow.GAME))
        if session is None:
            self.local = self._wizard()
            self.seen = 0
        else:
            self._play(session)
            first = self.store.gadget(session.id).get("first", 0)
            self.seen = action_start(session, first if isinstance(first, int) else 0)
        app, effects = controller.start(self._view())
        self.app = app
        self._apply(effects)

    def _play(self, session: Session) -> None:
        if session.game != flow.GAME:
            raise SessionError(f"game #{session.id} is {session.game}: the gadget plays "
                               f"{flow.GAME} only")
        self.session = session
        kept = self.store.gadget(session.id).get("seats")
        self.seats = dict(kept) if isinstance(kept, dict) else \
            flow.default_seats(session.state, self.seats_available)

    def close(self) -> None:
        """Release the store and its lock (the ports stay the caller's)."""
        self.store.close()
        self.lock.release()

    def __enter__(self) -> Gadget:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ the loop

    def step(self, timeout: float | None = None) -> bool:
        """Take one input from the inbox (waiting up to ``timeout`` seconds) and act on it;
        False when none came."""
        item = self.inbox.get(timeout)
        if item is None:
            return False
        self.feed(item)
        return True

    def run(self, stop: threading.Event, poll: float = 0.1) -> None:
        """Take inputs until ``stop`` is set."""
        while not stop.is_set():
            self.step(poll)

    def feed(self, item: Input) -> None:
        """Act on one input now (``step`` takes them from the inbox)."""
        if self.app is None:
            raise RuntimeError("open() the gadget first")
        if isinstance(item, Tap) and self._local_tap(item):
            return
        self.app, effects = controller.handle(self.app, item)
        self._apply(effects)

    def _local_tap(self, tap: Tap) -> bool:
        """A card that answers a form's field (even from the question that narrows its list
        down): answered here, the controller gets the next question."""
        app = self.app
        if self.local is None or app is None or app.reading or app.notice \
                or app.waiting is not None or tap.game != flow.GAME:
            return False
        if not self.local.tap(tap.kind, tap.card):
            return False
        refused = self._after_local()
        if refused is not None:
            self.app, effects = controller.say(app, "Not taken", controller.why(refused.reason))
        else:
            self.app, effects = controller.refresh(app, self._view())
        self._apply(effects)
        return True

    # ------------------------------------------------------------------ effects

    def _apply(self, effects: tuple[Effect, ...]) -> None:
        queue = list(effects)
        while queue:
            effect = queue.pop(0)
            assert self.app is not None
            if isinstance(effect, Show):
                self.screen = effect.screen
                self._hold()
                self.glass.show(render(effect.screen))
            elif isinstance(effect, SetLeds):
                self.leds.set(effect)
            elif isinstance(effect, RequestRoll):
                if self.dice is None:
                    self.app, more = controller.handle(self.app, RollRefused(
                        effect.request, "this box has no Pico dice"))
                    queue += more
                else:
                    self.dice.request(effect.die, effect.request)
            else:
                queue += self._call(effect)

    def _hold(self) -> None:
        """Tell the buttons that report a press at its first edge which ones must wait on
        the screen now (a held NEXT steps a number down by five, elsewhere it is NEXT)."""
        assert self.app is not None
        held = controller.held_buttons(self.app)
        if held != self.held:
            self.held = held
            for source in self.sources:
                if isinstance(source, EarlyButtons):
                    source.hold(held)

    def _call(self, call: SessionCall) -> tuple[Effect, ...]:
        """Apply one call; the controller gets the new view, or why nothing changed."""
        assert self.app is not None
        answer = self._local_call(call) if self.local is not None else self._game_call(call)
        if isinstance(answer, Refused | Told):
            self.app, effects = controller.handle(self.app, answer)
        else:
            self.app, effects = controller.refresh(self.app, self._view())
        return effects

    def _game_call(self, call: SessionCall) -> Refused | Told | None:
        if isinstance(call, Begin):
            answer = self._begin(dict(call.action))
        elif self.session is None or isinstance(call, Cancel):
            return Refused("there is no game here yet")
        else:
            answer = calls.apply(self.session, call)
        if answer is None:
            self._begin_queued()
        return answer

    def _begin(self, action: dict[str, Any]) -> Refused | Told | None:
        name = action.get("do")
        if name == flow.PARTY:
            if self.session is None:
                return Refused("there is no party yet")
            return Told(flow.party_pages(self.session.state, self._names(),
                                         "Summary" if self.session.finished else "Party"))
        if name == flow.NEW_GAME:
            self.local = self._wizard()
            return None
        if self.session is None:
            return Refused("there is no game here yet")
        move = self.spec.moves.moves.get(name) if isinstance(name, str) else None
        if move is not None and set(action) == {"do"}:
            local = Local(flow.form(move, self.session.state, self._names()),
                          flow.SHORT.get(move.name, move.label), leaves=True)
            if not local.done:
                self.local = local
                return None
            action = local.result
        return calls.apply(self.session, Begin(action))

    def _local_call(self, call: SessionCall) -> Refused | Told | None:
        local = self.local
        assert local is not None
        if isinstance(call, Answer):
            try:
                local.answer(call.value)
            except AnswerError as err:
                return Refused(str(err))
            return self._after_local()
        if isinstance(call, Undo) or (isinstance(call, Cancel) and not local.leaves):
            return None if local.back() else self._leave()
        if isinstance(call, Cancel):
            return self._leave()
        return Refused("finish or leave these questions first (BACK)")

    def _leave(self) -> Refused | None:
        if self.session is None:
            return Refused("the first question, and no game to go back to")
        self.local = None
        return None

    def _after_local(self) -> Refused | None:
        """A local procedure moved on; when it is done, its result goes to the session (a
        refusal leaves it at its last question, as it was)."""
        local = self.local
        assert local is not None
        if not local.done:
            return None
        if isinstance(local.result, flow.NewGame):
            refused = self._new_game(local.result)
        else:
            assert self.session is not None
            refused = calls.apply(self.session, Begin(local.result))
        if refused is not None:
            local.refuse_last()
        else:
            self.local = None
            self._begin_queued()
        return refused

    # ------------------------------------------------------------------ a new game

    def _wizard(self) -> Local:
        return Local(lambda: flow.wizard(self.seats_available, self.dice is not None),
                     "New game", leaves=False)

    def _new_game(self, new: flow.NewGame) -> Refused | None:
        """Store the new game, its seats, and begin its first actions (each durable)."""
        try:
            session = Session.new(self.store, flow.GAME, new.setup, seed=self.seed,
                                  dice=new.dice)
            self.store.set_gadget(session.id, {"seats": new.seats, "first": len(new.first)})
        except (SessionError, StoreError, ValueError) as err:
            return Refused(str(err))
        self.session, self.seats, self.seen = session, dict(new.seats), 0
        self.queued = list(new.first)
        return None

    def _begin_queued(self) -> None:
        """The new game's first actions, one after the other while nothing is asked."""
        session = self.session
        while self.queued and session is not None and session.pending is None:
            action = self.queued.pop(0)
            try:
                session.begin(action)
            except (RulesError, SessionError, StoreError):
                self.queued.clear()  # the menu still offers it; the table goes on from there

    # ------------------------------------------------------------------ the view

    def _names(self) -> dict[str, str]:
        return flow.labels(self.session.state) if self.session is not None else {}

    def _view(self) -> GameView:
        if self.local is not None:
            return self._local_view(self.local)
        assert self.session is not None
        return self._game_view(self.session)

    def _local_view(self, local: Local) -> GameView:
        ask = local.ask
        assert ask is not None
        names = {**self._names(), **ask.names}
        return GameView(flow.GAME, question=ask.question, trace_length=self.seen, names=names,
                        seats={**self.seats, **ask.seats},
                        can_undo=bool(local.answers) or self.session is not None,
                        title=local.title, number_start=ask.start, back_leaves=True,
                        next_refusal="answer these questions first, or BACK to leave them")

    def _game_view(self, session: Session) -> GameView:
        battle = session.state
        names = flow.labels(battle)
        trace = session.runner.trace
        since = min(self.seen, len(trace))
        steps = tuple(StepView(n, flow.relabel(step, battle, names),
                               step.data.get("verified") is not False)
                      for n, step in enumerate(trace[since:], since))
        self.seen = len(trace)
        legal = [] if session.finished else self.spec.legal_actions(battle)
        main = self.spec.main_move
        next_action = {"do": main} if main and any(m.name == main for m in legal) else None
        refusal = "" if next_action is not None or main is None else \
            flow.relabel_text(self.spec.moves.moves[main].refusal(battle), battle, names)
        result = self.spec.result(battle) if session.finished else None
        question = session.pending
        if question is not None:
            question = flow.relabel_question(question, battle, names, active_piece(trace))
        return GameView(
            flow.GAME, question=question, menu=flow.menu(battle, legal, session.finished),
            next_action=next_action, next_refusal=refusal, steps=steps,
            trace_length=len(trace), names=names, cards=flow.hero_cards(battle),
            seats=self.seats, can_undo=session.can_undo, can_redo=session.can_redo,
            over=session.finished, result=result or "", title=flow.title(battle),
            status=flow.status(battle, names),
            idle_key=flow.idle_key(battle, last_action(session)),
            tap_actions=flow.tap_actions(battle, legal) if session.pending is None else {})


def active_piece(trace: list[Step]) -> str | None:
    """The AI piece acting in the trace's last activation."""
    for step in reversed(trace):
        if step.kind == StepKind.ACTIVE_CHARACTER:
            return step.data.get("piece")
    return None


def last_action(session: Session) -> str | None:
    """The name of the last action the log holds (under the head)."""
    for event in reversed(session.events[:session.head]):
        if event.kind == "action":
            return event.data.get("do")
    return None


def action_start(session: Session, first: int = 0) -> int:
    """The trace's length when the current (last) action began: a resumed game shows its steps
    from there. The table gives an input only after reading every step before it, so every
    step it may not have seen comes after its last input, inside this action; but the
    ``first`` actions of a new game are the gadget's, begun one after the other: while the log
    holds no more than those, every step is shown again."""
    events = session.events[:session.head]
    actions = [n for n, e in enumerate(events) if e.kind == "action"]
    if not actions or (len(actions) <= first
                       and not any(e.kind == "answer" for e in events)):
        return 0
    last = actions[-1]
    return len(fold(session.spec, session.setup, session.dice_at_start,
                    events[:last]).runner.trace)
