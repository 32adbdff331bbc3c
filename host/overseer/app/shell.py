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
    gadget.watchers.append(fn)   # fn(gadget, item) after every input acted on (item None:
                                 # the gadget opened a game); the web page follows with it
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
go through the same controller; only the completed action reaches the session. The form under
way (its menu action and answers) is kept in the store's gadget table before its next question
shows, and ``open`` resumes it. The menu's Dice form changes who rolls (``Session.set_dice``).
After every change the GameView is made again from the session and the game's spec: the menu
(the legal actions), NEXT AI PIECE (the spec's ``main_move`` when legal, else its refusal),
names with identical monsters lettered, the seats of the party.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from PIL import Image

from overseer.app import calls, controller, flows, registry
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
from overseer.app.flow import (
    DICE_MODE,
    NEW_GAME,
    PARTY,
    MakeForm,
    NewGame,
    Table,
    dice_form,
    tables,
)
from overseer.app.local import Local, LocalProcedure
from overseer.app.view import GameView, StepView
from overseer.core import procedure
from overseer.core.procedure import AnswerError, ChooseOne, Pick, Question, RulesError, Step, named
from overseer.ports.events import Button, Input, RequestRoll, RollRefused, SetLeds, Tap
from overseer.ports.inbox import Inbox
from overseer.ports.ports import Dice, EarlyButtons, Glass, Leds, Source
from overseer.screens import pages
from overseer.screens.render import Screen, render
from overseer.session import lock
from overseer.session.session import LogError, Session, SessionError
from overseer.session.store import GameInfo, SaveError, Store, StoreError

SEATS = (1, 2, 3, 4)  # the seat LEDs when the Leds do not say (hardware/pins.toml)
log = logging.getLogger("overseer.gadget")
faults: list[BaseException] = []  # every fault the loop's guard caught (tests look at it)


def fault_text(err: BaseException) -> str:
    """What the glass says of a fault the loop caught: what happened, in words the table can
    act on (the store's path and the traceback are the journal's)."""
    if isinstance(err, SaveError):
        return err.short
    if isinstance(err, StoreError | OSError):
        return ("The game store could not be used for that. Nothing was changed: the game is "
                "at its last saved step. Check the SD card; the journal says more.")
    return (f"That did not work: a fault inside Overseer ({type(err).__name__}). Nothing was "
            "changed: the game is at its last saved step. The journal has the details.")


class Gadget:
    """The box: ports, inbox, controller and the game store. See the module's docstring."""

    def __init__(self, store: str | Path, glass: Glass, leds: Leds, dice: Dice | None = None,
                 inbox: Inbox | None = None, sources: Sequence[Source] = (),
                 seed: int | None = None) -> None:
        self.path = Path(store)
        self.lock = lock.acquire(self.path)
        try:
            self.store = Store(self.path, made=self.lock.made)
        except BaseException:
            self.lock.release()
            raise
        self.glass, self.leds, self.dice = glass, leds, dice
        self.inbox = inbox if inbox is not None else Inbox()
        self.seed = seed
        registry.install()  # the games the house plays, in games.GAMES (if not yet)
        self.tables = tables()  # every registered game's, by name
        self.table: Table = next(iter(self.tables.values()))  # the game played (or set up)
        self.seats_available: tuple[int, ...] = tuple(getattr(leds, "seats", SEATS))
        self.session: Session | None = None
        self.seats: dict[str, int] = {}
        self.local: Local | None = None  # a form or the new game's questions, under way
        self.form_name: str | None = None  # the form's menu action (kept across a restart)
        self.kept_form: dict[str, Any] | None = None  # the form as the store holds it
        self.queued: list[dict[str, Any]] = []  # a new game's first actions still to begin
        self.seen = 0  # the trace steps the controller has had
        self.remembered: dict[str, int] = {}  # the last value of a form's number, by key
        self.kept_shown: int | None = None  # the step on the glass as the store keeps it
        self.app: App | None = None
        self.screen: Screen | None = None
        self.image: Image.Image | None = None  # the screen's picture, as the glass got it
        self.sources: tuple[Source, ...] = (*((dice,) if dice is not None else ()), *sources)
        self.held: frozenset[Button] | None = None  # what the EarlyButtons were told last
        self.watchers: list[Callable[[Gadget, Input | None], None]] = []
        self.asked = 0  # the number of the question in the view (GameView.asked)
        self._question: tuple[Any, ...] | None = None  # what that question was asked on
        for source in self.sources:
            source.start(self.inbox)

    # ------------------------------------------------------------------ opening, closing

    def open(self, game_id: int | None = None, new: bool = False) -> None:
        """Resume game ``game_id``, else (unless ``new``) the game played last (a finished one
        only while the table has not read its end), else start a new game's questions. A
        resumed game shows the steps from where its current action began (every step after
        the table's last input is among them) and its question. A game whose log no longer
        replays (the rules or the card data changed under it, an edited log) is set aside,
        kept and exportable, and the glass says so over what opens instead."""
        aside: list[str] = []
        session = (Session.resume(self.store, game_id) if game_id is not None
                   else None if new else self._last_played(aside))
        if game_id is not None and session is not None:
            self._unset_aside(session.id)
        if session is None:
            self.local = self._wizard()
            self.seen = 0
        else:
            self._play(session)
            first = self.store.gadget(session.id).get("first", 0)
            self.seen = action_start(session, first if isinstance(first, int) else 0)
            self._resume_form(session)
        app, effects = controller.start(self._view())
        shown = self.store.gadget(session.id).get("shown") if session is not None else None
        if isinstance(shown, int) and self.local is None:
            # the glass on the page the table saw last (the store keeps its step): the steps
            # before it were read; BACK still pages back to them
            app, more = controller.resume_at(app, shown)
            effects = (*effects, *more)
        self.app = app
        self._apply(effects)
        if aside:
            self.tell("Set aside", " ".join(aside))
        self._tell_watchers(None)

    def _keep_shown(self) -> None:
        """Keep which step's page is on the glass beside the game (when it changed)."""
        if self.session is None or self.app is None or self.local is not None:
            return
        shown = controller.shown_step(self.app)
        if shown == self.kept_shown:
            return
        try:
            data = self.store.gadget(self.session.id)
            data["shown"] = shown
            self.store.set_gadget(self.session.id, data)
        except StoreError as err:  # a read-only store: the glass goes on, a restart re-reads
            log.warning("game #%d: the screen shown not kept: %s", self.session.id, err)
            return
        self.kept_shown = shown

    def _last_played(self, aside: list[str]) -> Session | None:
        """The game to open at start: the one of a game the gadget plays that was played last,
        if it is unfinished or its end is unread; else the last unfinished one. A game that does
        not replay is set aside (``aside`` gets what the glass says of it)."""
        infos = [i for i in self.store.games() if i.game in self.tables]
        for n, info in enumerate(infos):
            kept = self.store.gadget(info.id)
            if kept.get("aside") or (info.finished and (n > 0 or kept.get("end_read"))):
                continue
            try:
                return Session.resume(self.store, info.id)
            except (LogError, SessionError, StoreError) as err:
                aside.append(self._set_aside(info, kept, err))
        return None

    def _unset_aside(self, game_id: int) -> None:
        """A game set aside that was asked for by its id and replays: back in the start's
        choice."""
        kept = self.store.gadget(game_id)
        if kept.pop("aside", None) is not None:
            try:
                self.store.set_gadget(game_id, kept)
            except StoreError as err:
                log.warning("game #%d: could not be put back: %s", game_id, err)

    def _set_aside(self, info: GameInfo, kept: dict[str, Any], err: Exception) -> str:
        """Keep a game that does not replay out of the way of the start (its log stays as it
        is): what the glass says of it."""
        log.warning("game #%d set aside: %s", info.id, err)
        try:
            self.store.set_gadget(info.id, {**kept, "aside": str(err)[:500]})
        except StoreError as failed:  # read-only: it is set aside again at the next start
            log.warning("game #%d: could not be marked as set aside: %s", info.id, failed)
        return (f"Game #{info.id} ({self.tables[info.game].label}) no longer replays under "
                f"these rules, so it was set aside. It is kept: `overseer games export "
                f"{info.id} FILE` saves it.")

    def _play(self, session: Session) -> None:
        table = self.tables.get(session.game)
        if table is None:
            raise SessionError(f"game #{session.id} is {session.game}: the gadget plays "
                               f"{', '.join(self.tables)}")
        self.session, self.table = session, table
        kept = self.store.gadget(session.id).get("seats")
        self.seats = dict(kept) if isinstance(kept, dict) else \
            table.default_seats(session.state, self.seats_available)

    def _resume_form(self, session: Session) -> None:
        """The form under way when the gadget stopped (the store's gadget table keeps its
        name and answers), at the question it was on; the table had read every step before
        it. A form that no longer fits the game is dropped."""
        kept = self.store.gadget(session.id).get("form")
        self.kept_form = kept if isinstance(kept, dict) else None
        if self.kept_form is None or session.pending is not None:
            self._keep_form()
            return
        name, answers = self.kept_form.get("do"), self.kept_form.get("answers")
        made = self._form_of(name) if isinstance(name, str) else None
        local = replayed(made, answers) if made is not None else None
        if local is not None:
            self.local, self.form_name = local, name
            self.seen = len(session.runner.trace)
        self._keep_form()

    def _form_of(self, name: str) -> tuple[MakeForm, str] | None:
        """The form a menu item opens (the dice mode, or the game's), and its title."""
        session = self.session
        assert session is not None
        if name == DICE_MODE:
            dice, pico = session.dice, self.dice is not None
            return (lambda: dice_form(dice, pico)), "Dice"
        return self.table.form_of(name, session.state, self._names())

    def _keep_form(self) -> None:
        """Keep the form under way (its name, its answers so far) beside the game, or drop
        it when there is none: written only when it changed."""
        if self.session is None:
            return
        form = None
        if self.local is not None and self.form_name is not None:
            form = {"do": self.form_name, "answers": list(self.local.answers)}
        if form == self.kept_form:
            return
        data = self.store.gadget(self.session.id)
        if form is None:
            data.pop("form", None)
        else:
            data["form"] = form
        try:
            self.store.set_gadget(self.session.id, data)
        except StoreError as err:  # the form goes on; only a restart would not bring it back
            log.warning("game #%d: the form under way could not be kept: %s", self.session.id,
                        err)
            return
        self.kept_form = form

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
        """Act on one input now (``step`` takes them from the inbox). Every input is handled
        inside one guard: a fault (a bug, a store that fails) is written to the journal with
        its traceback, the game is taken again from the store as it stands (nothing that was
        not saved is kept), and the glass says what happened; the box goes on."""
        if self.app is None:
            raise RuntimeError("open() the gadget first")
        try:
            if not (isinstance(item, Tap) and self._local_tap(item)):
                self.app, effects = controller.handle(self.app, item)
                self._apply(effects)
                self._end_read()
        except Exception as err:  # noqa: BLE001 - the guard: the box never dies on an input
            self.fault(err)
        self._tell_watchers(item)

    def _tell_watchers(self, item: Input | None) -> None:
        """The watchers (the web page) after an input; one that fails is journalled and
        dropped: the box goes on without it."""
        for watcher in list(self.watchers):
            try:
                watcher(self, item)
            except Exception as err:  # noqa: BLE001 - a page's fault never stops the table
                log.error("a watcher failed and is dropped", exc_info=err)
                self.watchers.remove(watcher)

    def fault(self, err: BaseException) -> None:
        """A fault the box survives: journal it, take the game again from the store, and say
        so on the glass."""
        faults.append(err)
        log.error("a fault while handling an input (the game goes on from its last saved "
                  "step)", exc_info=err)
        text = fault_text(err)
        try:
            self._reload()
        except Exception as again:  # noqa: BLE001 - the store itself fails: a new game's questions
            log.error("the game could not be taken again from the store", exc_info=again)
            self.session, self.local, self.form_name, self.queued = None, self._wizard(), None, []
            self.seen = 0
            text = f"{text} The game could not be opened again: {fault_text(again)}"
            self.app, effects = controller.start(self._view())
            self._apply(effects)
        self.tell("Not done", text)

    def _reload(self) -> None:
        """The game as the store holds it, on the glass again (its steps already read)."""
        session = self.session
        self.local, self.form_name, self.queued = None, None, []
        if session is None:
            self.local, self.seen = self._wizard(), 0
        else:
            self.session = Session.resume(self.store, session.id)
            self.seen = len(self.session.runner.trace)
        self.app, effects = controller.start(self._view())
        self._apply(effects)

    def _end_read(self) -> None:
        """A finished game whose last steps the table has now read: kept beside it, so the
        next start opens a new game (until then a restart shows its end again)."""
        session, app = self.session, self.app
        if session is None or not session.finished or app is None or app.reading \
                or self.local is not None:
            return
        data = self.store.gadget(session.id)
        if data.get("end_read"):
            return
        data["end_read"] = True
        try:
            self.store.set_gadget(session.id, data)
        except StoreError as err:  # cannot be written: the end shows again, that is all
            log.warning("game #%d: its end could not be marked as read: %s", session.id, err)

    def _local_tap(self, tap: Tap) -> bool:
        """A card that answers a form's field (even from the question that narrows its list
        down): answered here, the controller gets the next question. A message on the glass
        (a card that was no answer) is put away: the question under it takes the card."""
        app = self.app
        if self.local is None or app is None or app.reading \
                or app.waiting is not None or tap.game != self.table.game:
            return False
        if not self.local.tap(tap.kind, tap.card):
            return False
        app = controller.dismiss(app)
        refused = self._after_local()
        self._keep_form()
        if refused is not None:
            self.app, effects = controller.say(app, "Not taken", controller.why(refused.reason))
        else:
            self.app, effects = controller.refresh(app, self._view())
        self._apply(effects)
        return True

    def tell(self, key: str, text: str) -> None:
        """A message over the current screen, from outside the table's inputs (nothing
        changes; OK puts it away)."""
        if self.app is None:
            raise RuntimeError("open the gadget first")
        self.app, effects = controller.say(self.app, key, text)
        self._apply(effects)

    # ------------------------------------------------------------------ effects

    def _apply(self, effects: tuple[Effect, ...]) -> None:
        queue = list(effects)
        while queue:
            effect = queue.pop(0)
            assert self.app is not None
            if isinstance(effect, Show):
                self.screen = effect.screen
                self._keep_shown()  # before the glass shows it
                self._hold()
                self.image = render(effect.screen)
                self.glass.show(self.image)
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
        self._keep_form()  # before the screen moves on
        if isinstance(answer, Refused) and self.session is not None:
            names = self._names()
            reason = answer.reason if answer.template is None or answer.facts is None else \
                named(answer.template, answer.facts, names)
            answer = Refused(self.table.relabel_text(reason, self.session.state, names))
        if isinstance(answer, Refused | Told):
            self.app, effects = controller.handle(self.app, answer)
        else:
            self.app, effects = controller.refresh(self.app, self._view())
        return effects

    def _game_call(self, call: SessionCall) -> Refused | Told | None:
        if isinstance(call, Begin):
            answer = self._begin(dict(call.action), call.answered, call.card)
        elif self.session is None:
            return Refused("there is no game here yet")
        elif isinstance(call, Cancel):
            answer = self._leave_action(self.session)
        else:
            answer = calls.apply(self.session, call)
        if answer is None:
            self._begin_queued()
        return answer

    def _begin(self, action: dict[str, Any], answered: Mapping[str, Any],
               card: tuple[str, str] | None = None) -> Refused | Told | None:
        name = action.get("do")
        if name == PARTY:
            if self.session is None:
                return Refused("there is no party yet")
            return Told(self.table.party_pages(self.session.state, self._names(),
                                              "Summary" if self.session.finished else "Party"))
        if name == NEW_GAME:
            self.local, self.form_name = self._wizard(), None
            return None
        if self.session is None:
            return Refused("there is no game here yet")
        made = self._form_of(name) if isinstance(name, str) else None
        if made is not None and set(action) == {"do"}:
            local = Local(made[0], made[1], leaves=True)
            _answer_ahead(local, answered)
            empty = _empty_choice(local)
            if empty is not None:
                return Refused(f"{made[1]}: nothing to choose from now ({empty})")
            if card is not None and not local.done:
                local.tap(*card)
            if not local.done:
                self.local, self.form_name = local, name
                return None
            action = local.result
        return calls.apply(self.session, Begin(action))

    def _local_call(self, call: SessionCall) -> Refused | Told | None:
        local = self.local
        assert local is not None
        if isinstance(call, Answer):
            ask = local.ask
            try:
                local.answer(call.value)
            except AnswerError as err:
                return Refused(str(err))
            if ask is not None and ask.remember and isinstance(call.value, int):
                self.remembered[ask.question.key] = call.value
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
        if local.result is None:  # the table said no (a confirmation): nothing is begun
            self.local = None
            return None
        if isinstance(local.result, NewGame):
            refused = self._new_game(local.result)
        elif local.result.get("do") == DICE_MODE:
            assert self.session is not None
            refused = self._set_dice(self.session, local.result["dice"])
        else:
            assert self.session is not None
            refused = calls.apply(self.session, Begin(local.result))
        if refused is not None:
            local.refuse_last()
        else:
            self.local = None
            self._begin_queued()
        return refused

    def _leave_action(self, session: Session) -> Refused | None:
        """BACK on a question of an action the table lets BACK leave (``Table.back_leaves``):
        the action is taken back, its answers and the action itself (each undo durable), as
        if it had never begun."""
        if session.pending is None or not self.table.back_leaves(last_action(session)):
            return Refused("there is no form to leave")
        try:
            while session.pending is not None:
                session.undo()
        except (SessionError, StoreError) as err:
            return Refused(str(err))
        return None

    def _set_dice(self, session: Session, dice: str) -> Refused | None:
        """Who rolls from now on: a setting event of the log (durable, undone like a press)."""
        try:
            session.set_dice(dice)
        except (SessionError, StoreError) as err:
            return calls.refused(err)
        return None

    # ------------------------------------------------------------------ a new game

    def _wizard(self) -> Local:
        return Local(lambda: flows.wizard(self.seats_available, self.dice is not None,
                                          self.tables), "New game", leaves=False)

    def _new_game(self, new: NewGame) -> Refused | None:
        """Store the new game, its seats, and begin its first actions (each durable)."""
        try:
            setup = self.tables[new.game].new_setup(new.setup, self.store)
            session = Session.new(self.store, new.game, setup, seed=self.seed,
                                  dice=new.dice)
            self.store.set_gadget(session.id, {"seats": new.seats, "first": len(new.first)})
        except (SessionError, StoreError, ValueError) as err:
            return calls.refused(err)
        self.session, self.seats, self.seen = session, dict(new.seats), 0
        self.table = self.tables[new.game]
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
        return self.table.labels(self.session.state) if self.session is not None else {}

    def as_read(self, steps: Sequence[Step]) -> list[Step]:
        """Trace steps as the table reads them on the glass (lettered pieces by their labels,
        ids by their names), for a log beside the glass."""
        if self.session is None:
            return list(steps)
        battle, names = self.session.state, self._names()
        return [self.table.relabel(step.at_table(names), battle, names) for step in steps]

    def _view(self) -> GameView:
        if self.local is not None:
            view = self._local_view(self.local)
        else:
            assert self.session is not None
            view = self._game_view(self.session)
        if view.question is None:
            self._question = None
            return view
        local = self.local
        asked_on = (id(local), len(local.answers)) if local is not None else (
            self.session.id if self.session is not None else None, self.session.head
            if self.session is not None else 0)
        if asked_on != self._question:
            self._question = asked_on
            self.asked += 1
        return replace(view, asked=self.asked)

    def _local_view(self, local: Local) -> GameView:
        ask = local.ask
        assert ask is not None
        names = {**self._names(), **ask.names}
        return GameView(self.table.game, question=ask.question, trace_length=self.seen,
                        names=names,
                        seats={**self.seats, **ask.seats},
                        can_undo=bool(local.answers) or self.session is not None,
                        undo_refusal="nothing has been entered yet",  # no game, no answer
                        title=local.title, back_leaves=True,
                        number_start=self.remembered.get(ask.question.key, ask.start)
                        if ask.remember else ask.start,
                        next_refusal="answer these questions first, or BACK to leave them",
                        lights={} if self.session is None else self.table.lights(
                            self.session.state, self.seats, None))

    def _game_view(self, session: Session) -> GameView:
        table = self.table
        battle = session.state
        names = table.labels(battle)
        trace = session.runner.trace
        since = min(self.seen, len(trace))
        steps = tuple(StepView(n, table.relabel(step.at_table(names), battle, names),
                               step.data.get("verified") is not False)
                      for n, step in enumerate(trace[since:], since) if table.on_glass(step))
        self.seen = len(trace)
        title = table.title(battle)
        step_title = pages.title_before(table.game, trace, since, names, title) if steps else None
        question = session.pending
        idle = self._idle_view(session, names) if question is None else {}
        hidden: frozenset[str] = frozenset()
        if question is not None:
            names = {**names, **table.option_names(battle, question)}
            shown = table.relabel_question(procedure.shown(question, names), battle, names, trace)
            hidden = frozenset(_options(question)) - frozenset(_options(shown))
            question = shown
        return GameView(
            table.game, question=question, steps=steps, trace_length=len(trace), names=names,
            cards=table.cards(battle), seats=self.seats, can_undo=session.can_undo,
            can_redo=session.can_redo, over=session.finished,
            result=(table.spec.result(battle) or "") if session.finished else "",
            step_title=step_title, title=title,
            lights=table.lights(battle, self.seats, session.pending),
            card_options=table.card_options(battle), own_dice=session.dice == "table",
            tap_answers=hidden, taps_skip_reading=table.taps_skip_reading,
            back_leaves=question is not None and table.back_leaves(last_action(session)),
            cursor_start=0 if session.pending is None else table.likely(battle, session.pending),
            **idle)

    def _idle_view(self, session: Session, names: dict[str, str]) -> dict[str, Any]:
        """The view's fields the controller reads only when no question waits (the menu,
        NEXT AI PIECE, the idle screen, what a tapped card begins): not worked out while one
        does."""
        table = self.table
        battle = session.state
        legal = [] if session.finished else table.spec.legal_actions(battle)
        main = table.spec.main_move
        next_action = {"do": main} if main and any(m.name == main for m in legal) else None
        if main is None:
            refusal = f"{table.label} has no AI piece: OK opens the menu"
        elif next_action is None:
            refusal = table.relabel_text(table.spec.moves.moves[main].refusal(battle), battle,
                                        names)
        else:
            refusal = ""
        return {"menu": table.menu(battle, legal, session.finished), "next_action": next_action,
                "next_refusal": refusal, "status": table.status(battle, names),
                "idle_key": table.idle_key(battle, last_action(session)),
                "tap_actions": table.tap_actions(battle, legal)}


def _options(question: Question) -> tuple[str, ...]:
    options = getattr(question, "options", ())
    return tuple(o for o in options if isinstance(o, str))


def replayed(made: tuple[Callable[[], LocalProcedure], str], answers: Any) -> Local | None:
    """A kept form given its answers again, at its next question; None when they no longer
    fit (or finish it: the form is asked again from the menu)."""
    if not isinstance(answers, list):
        return None
    local = Local(made[0], made[1], leaves=True)
    try:
        for value in answers:
            local.answer(value)
    except (AnswerError, ValueError):
        return None
    return None if local.done else local


def _empty_choice(local: Local) -> str | None:
    """The prompt of a form's question that has no option to choose (a fight where the player
    stands in no lair), else None."""
    ask = local.ask
    if local.done or ask is None:
        return None
    question = ask.question
    if isinstance(question, ChooseOne) and not question.options:
        return question.prompt
    if isinstance(question, Pick) and not question.options:
        return question.purpose
    return None


def _answer_ahead(local: Local, answered: Mapping[str, Any]) -> None:
    """Answer the form's questions whose answers the table gave with the action (a tapped
    card's), while they come first; an answer the question refuses is left to the table."""
    while not local.done and local.ask is not None and local.ask.question.key in answered:
        try:
            local.answer(answered[local.ask.question.key])
        except AnswerError:
            return


def last_action(session: Session) -> str | None:
    """The name of the last action the log holds (under the head), read back from the head
    (not the whole log copied at every press)."""
    for seq in range(session.head - 1, -1, -1):
        event = session.log[seq]
        if event.kind == "action":
            return event.data.get("do")
    return None


def action_start(session: Session, first: int = 0) -> int:
    """The trace's length when the current (last) action began: a resumed game shows its steps
    from there. The table gives an input only after reading every step before it, so every
    step it may not have seen comes after its last input, inside this action; but the
    ``first`` actions of a new game are the gadget's, begun one after the other: while the log
    holds no more than those, every step is shown again. Bounded whatever the game's length:
    the log read back from the head to its last action, and forward only while it could still
    be one of those first ones; the trace's length there from the last snapshot before it."""
    log = session.log
    last = next((seq for seq in range(session.head - 1, -1, -1)
                 if log[seq].kind == "action"), None)
    if last is None or _only_first_actions(session, first):
        return 0
    return session.trace_length_at(last)


def _only_first_actions(session: Session, first: int) -> bool:
    """The log (to the head) holds at most ``first`` actions and no answer."""
    actions = 0
    for seq in range(session.head):
        kind = session.log[seq].kind
        if kind == "answer":
            return False
        actions += kind == "action"
        if actions > first:
            return False
    return True
