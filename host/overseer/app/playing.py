"""What the gadget has open, and the calls the controller asks of it: a game's session (or,
before one is stored, the new game's questions), its table (app/flow.py) and seats, the form
under way (app/form_host.py) and a new game's first actions still to begin.

``call`` applies one controller call (``Begin``, ``Answer``, ``Undo``, ``Redo``, ``Cancel``):
to the form host while a form is up; else a menu action of the gadget's own (the party pages,
a new game), a move's form opened, or the session's (``calls.apply``). It answers None (the
game changed: ``view`` builds the next view, app/view.py), ``Refused`` (nothing changed) or
``Told`` (pages to read). Each session call is durable when it returns, and the form under way
is kept beside the game before the next screen shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from overseer.app import calls, controller, flows, kept, view
from overseer.app.controller import App, Begin, Cancel, Refused, SessionCall, Told
from overseer.app.flow import DICE_MODE, NEW_GAME, PARTY, MakeForm, NewGame, Table
from overseer.app.form_host import FormHost, form_of
from overseer.app.view import GameView
from overseer.core.procedure import Step, named
from overseer.session.session import Ahead, Session, SessionError
from overseer.session.store import Store, StoreError

SEATS = (1, 2, 3, 4)  # the seat LEDs when the Leds do not say (hardware/pins.toml)


class Playing:
    """The game open on the gadget; see the module's docstring."""

    def __init__(self, store: Store, tables: Mapping[str, Table], seats: Sequence[int],
                 pico: bool, seed: int | None) -> None:
        self.store, self.tables, self.seats_available = store, tables, tuple(seats)
        self.pico, self.seed = pico, seed  # the box has the Pico's dice; new games' seed
        self.table: Table = next(iter(tables.values()))  # the game's table played (or set up)
        self.session: Session | None = None
        self.seats: dict[str, int] = {}
        self.forms = FormHost(store)  # a form or the new game's questions, under way
        self.queued: list[dict[str, Any]] = []  # a new game's first actions still to begin
        self.seen = 0  # the trace steps the controller has had
        self.asked = 0  # the number of the question in the view (GameView.asked)
        self._question: tuple[Any, ...] | None = None  # what that question was asked on
        self.kept_place: controller.Place | None = None  # where the table is, as kept
        self.hidden: frozenset[str] = frozenset()  # the moves this game's menu leaves out
        # the last ``ahead`` worked out, what it was worked out on (the session, its turn, the
        # steps seen, the move: the last page of the steps and then the idle screen arm the
        # same press) and its view; a Begin offers it to the session, which takes it only
        # while it holds (``Session.begin``)
        self._ahead: tuple[tuple[Any, ...], Ahead, GameView] | None = None
        # the ahead's view, the session and the head it was worked out for, once a Begin took
        # the ahead: the next ``view`` of that session at that head is that one, not built
        # again (a restart drops it)
        self._taken: tuple[GameView, Session, int] | None = None

    def open(self, game_id: int | None, new: bool, aside: list[str]) -> controller.Place | None:
        """Game ``game_id``, else (unless ``new``) the game played last (``kept.last_played``;
        ``aside`` gets what the glass says of a game set aside), else the new game's
        questions. A resumed game's view starts where its current action began, or where the
        reel on the glass began (``controller.Place``, kept beside the game: returned, for the
        glass to come back on its page), or at its form under way."""
        labels = {name: table.label for name, table in self.tables.items()}
        session = (Session.resume(self.store, game_id) if game_id is not None
                   else None if new else kept.last_played(self.store, labels, aside))
        if session is None:
            self._wizard()
            self.seen = 0
            return None
        if game_id is not None:
            kept.unset_aside(self.store, session.id)
        table = self.tables.get(session.game)
        if table is None:
            raise SessionError(f"game #{session.id} is {session.game}: the gadget plays "
                               f"{', '.join(self.tables)}")
        data = self.store.gadget(session.id)
        self.session, self.table = session, table
        seats = data.get("seats")
        self.seats = dict(seats) if isinstance(seats, dict) else \
            table.default_seats(session.state, self.seats_available)
        hidden = data.get("hidden", [])
        self.hidden = frozenset(h for h in hidden if isinstance(h, str)) \
            if isinstance(hidden, list) else frozenset()
        first = data.get("first", 0)
        self.seen = view.action_start(session, first if isinstance(first, int) else 0)
        place = controller.Place.from_json(data.get("place"))
        shown = data.get("shown")  # (a store from before places were kept: the step alone)
        if place is None and isinstance(shown, int):
            place = controller.Place(shown, reel_from=self.seen)  # (nothing known read)
        if place is not None and self.seen <= place.reel_from <= len(session.runner.trace):
            self.seen = place.reel_from
        elif place is not None:  # a reel begun before this action: from the action's start,
            place = replace(place, read_before=place.read)  # with every sentence read
        self.kept_place = None
        if self.forms.resume(session, self._form_of):
            self.seen = len(session.runner.trace)
            return None
        return place

    def restart(self, from_store: bool) -> None:
        """After a fault: the session again as the store holds it (its steps read; a store
        that fails raises), else (``from_store`` False, or no game) the new game's questions;
        no form, nothing queued."""
        session = self.session if from_store else None
        if session is not None:
            session = Session.resume(self.store, session.id)
        self.forms.drop()
        self.session, self.queued, self._taken = session, [], None
        self.seen = len(session.runner.trace) if session is not None else 0
        if session is None:
            self._wizard()

    def call(self, call: SessionCall) -> Refused | Told | None:
        """Apply one controller call; see the module's docstring."""
        session, kept = self.session, self._ahead
        ahead = kept[1] if kept is not None and kept[0][0] is session else None
        if self.forms.local is not None:
            answer = self.forms.call(call, self._perform, session is not None)
        elif isinstance(call, Begin):
            answer = self._begin(dict(call.action), call.answered, call.card, call.synced,
                                 ahead)
            if ahead is not None and kept is not None and answer is None \
                    and session is not None and session.fold is ahead.fold:
                self._taken = (kept[2], session, session.head)  # the game is the ahead's
        elif session is None:
            answer = Refused("there is no game here yet")
        elif isinstance(call, Cancel):
            answer = calls.leave(session, self.table.back_leaves(view.last_action(session)))
        else:
            answer = calls.apply(session, call)
        session = self.session
        if answer is None and session is not None:
            calls.begin_queued(session, self.queued)
        self.forms.keep(session.id if session is not None else None)  # before the screen moves
        if isinstance(answer, Refused) and answer.template is not None and \
                answer.facts is not None and session is not None:
            answer = Refused(named(answer.template, answer.facts, self.table.labels(session.state)))
        return answer

    def view(self) -> GameView:
        """The view now (``view.build``), its question numbered (a new one, a new number)."""
        local, session = self.forms.local, self.session
        on = (id(local), len(local.answers)) if local is not None else (
            (session.id, session.head) if session is not None else None)
        taken, self._taken = self._taken, None
        if taken is not None and local is None and session is taken[1] \
                and session is not None and session.head == taken[2]:
            made = taken[0]  # NEXT AI PIECE's view, built ahead on the game it is now
            asked = self.asked + (on != self._question)
            if made.question is None or asked == made.asked:  # numbered as it is numbered now
                self.seen = made.trace_length
                if made.question is None:
                    self._question = None
                else:
                    self._question, self.asked = on, asked
                return made
        made = view.build(self.table, session, self.seen, self.seats, local,
                          self.forms.remembered)
        self.seen = made.trace_length
        made, self._question, self.asked = self._numbered(made, on)
        return made

    def _numbered(self, made: GameView, on: tuple[Any, ...] | None
                  ) -> tuple[GameView, tuple[Any, ...] | None, int]:
        """The view just built, as the controller gets it (the menu without this game's
        hidden moves, a question numbered: a new one, a new number), what its question was
        asked on, and the question's number. Set on the view itself: no one has read it yet
        (a copy of its 31 fields cost an answer some 20,000 instructions)."""
        if made.question is None:
            if self.hidden:  # left out when the menu is first read (it is made then)
                menu, hidden = made.menu, self.hidden
                made.menu = view.Menu(lambda: tuple(
                    item for item in menu if item.action.get("do") not in hidden))
            return made, None, self.asked
        made.asked = asked = self.asked + (on != self._question)
        return made, on, asked

    def ahead(self, begin: Begin) -> GameView | None:
        """The view ``view`` will give once ``begin`` is applied, worked out on a copy of the
        game (``Session.ahead``) and kept: the Begin that follows takes it as it is while the
        game has not changed (``Session.begin``): the gadget draws NEXT AI PIECE's screen
        before the press. Nothing changes; None when it cannot be worked out apart (a form is
        up, the rules refuse it, an action runs)."""
        session = self.session
        if session is None or self.forms.local is not None or set(begin.action) != {"do"}:
            return None
        on = (session, session.turn, self.seen, begin.action["do"])
        kept = self._ahead
        if kept is not None and kept[0] == on:  # the same game, screen after screen
            return kept[2]
        ahead = session.ahead(dict(begin.action))
        if ahead is None:
            return None
        after = session.after(ahead)
        made = view.build(self.table, after, self.seen, self.seats, None, self.forms.remembered)
        made = self._numbered(made, (after.id, after.head))[0]
        self._ahead = (on, ahead, made)
        return made

    def keep_place(self, app: App) -> None:
        """Keep where the table is beside the game (``controller.Place``, when it changed),
        for a restart to lay out the same pages and show the one on the glass again. It is
        not a step of the game: it is written with the store's next write (the next step's
        one transaction) or at a clean stop, never in a transaction (and an fsync) of its
        own. A power cut or a kill loses only the pages turned since the last step was saved:
        the restart shows the page that was on the glass then, an earlier page of the same
        steps, never one not yet shown."""
        if self.session is None or self.forms.local is not None:
            return
        place = controller.place(app)
        if place != self.kept_place and kept.update(
                self.store, self.session.id, "the screen shown not kept", later=True,
                place=place.as_json(), shown=None):  # (``shown``: an older store's)
            self.kept_place = place

    def end_read(self, app: App) -> None:
        """A finished game whose last steps the table has now read: kept beside it, so the
        next start opens a new game (until then a restart shows its end again)."""
        session = self.session
        if session is None or not session.finished or app.reading \
                or self.forms.local is not None or self.store.gadget(session.id).get("end_read"):
            return
        kept.update(self.store, session.id, "its end could not be marked as read",
                    end_read=True)

    def as_read(self, steps: Sequence[Step]) -> list[Step]:
        """Trace steps as the table reads them on the glass (lettered pieces by their labels,
        ids by their names), for a log beside the glass."""
        if self.session is None:
            return list(steps)
        names = self.table.labels(self.session.state)
        return [step.at_table(names) for step in steps]

    def _begin(self, action: dict[str, Any], answered: Mapping[str, Any],
               card: tuple[str, str] | None, synced: bool, ahead: Ahead | None
               ) -> Refused | Told | None:
        name, session = action.get("do"), self.session
        if name == NEW_GAME:
            self._wizard()
            return None
        if session is None:
            return Refused("there is no party yet" if name == PARTY
                           else "there is no game here yet")
        if name == PARTY:
            return Told(self.table.party_pages(session.state, self.table.labels(session.state),
                                              "Summary" if session.finished else "Party"))
        made = self._form_of(name) if isinstance(name, str) else None
        if made is not None and isinstance(name, str) and set(action) == {"do"}:
            opened = self.forms.open(name, made, answered, card)
            if not isinstance(opened, Begin):
                return opened  # its question waits, or it cannot be asked now
            action = dict(opened.action)  # the card and the answers given complete it
        return calls.apply(session, Begin(action, synced=synced or made is not None),
                           None if made is not None else ahead)

    def _perform(self, result: Any) -> Refused | None:
        """A done form's result: a new game (stored with its seats, its first actions queued),
        the dice mode, or the action it begins."""
        if isinstance(result, NewGame):
            try:
                setup = self.tables[result.game].new_setup(result.setup, self.store)
                session = Session.new(self.store, result.game, setup, seed=self.seed,
                                      dice=result.dice)
                self.store.set_gadget(session.id, {"seats": result.seats,
                                                   "first": len(result.first),
                                                   "hidden": list(result.hidden)})
            except (SessionError, StoreError, ValueError) as err:
                return calls.refused(err)
            self.session, self.seats, self.seen = session, dict(result.seats), 0
            self.hidden = frozenset(result.hidden)
            self.table, self.queued = self.tables[result.game], list(result.first)
            return None
        assert self.session is not None
        if result.get("do") == DICE_MODE:
            return calls.set_dice(self.session, result["dice"])
        return calls.apply(self.session, Begin(result))

    def _wizard(self) -> None:
        self.forms.ask(lambda: flows.wizard(self.seats_available, self.pico, self.tables),
                       "New game")

    def _form_of(self, name: str) -> tuple[MakeForm, str] | None:
        assert self.session is not None
        return form_of(self.table, self.session, self.pico, name)
