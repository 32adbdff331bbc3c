"""The gadget's shell: the inbox loop. Everything the table does arrives in the inbox; ``step``
takes one input, runs the pure controller (app/controller.py) on it and applies the effects in
order, so the screen moves only after the session call it shows is durable. The one exception
is NEXT AI PIECE (``Begin.synced``): the table adds nothing to it but the press, so its commit
reaches the disk (``Store.sync``) just after the screen moved and before the next input; a
power cut in between loses that press, the restart shows the screen before it, and NEXT there
shows the same steps again (tests/app/test_power_cut.py cuts it many times). What is open (a
session, a form, the new game's questions) and the calls on it are app/playing.py's.

    gadget = Gadget(store_path, glass, leds, dice=None, inbox=None, sources=(), seed=None)
    gadget.open(game_id=None)  # that game, else the last one played, else a new one's questions
    gadget.inbox.put(Press(Button.OK))  # or a source puts it (Pico, card reader, keys)
    gadget.step(timeout)       # one input from the inbox (waiting up to timeout): True if one came
    gadget.feed(item)          # act on one input now, without the inbox
    gadget.run(stop_event)     # step until the event is set
    gadget.screen              # the Screen on the glass (gadget.image: its picture)
    gadget.watchers.append(fn) # fn(gadget, item) after every input (None: a game opened)
    gadget.takers.append(fn)   # fn(gadget, item) first: True takes it (web/hands.py's claim)
    gadget.session             # the Session being played (None in a new game's questions)
    gadget.close()             # release the store and its lock (a second gadget: StoreInUse)
                               # (the ports start with the inbox and stay the caller's)
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from PIL import Image

from overseer.app import controller, registry
from overseer.app.calls import SESSION_CALLS
from overseer.app.controller import (
    App,
    Begin,
    Effect,
    Hold,
    Refused,
    SessionCall,
    Show,
    Told,
)
from overseer.app.faults import fault_text, faults
from overseer.app.flow import tables
from overseer.app.playing import SEATS, Playing
from overseer.app.view import GameView
from overseer.ports.events import Button, Input, Press, RequestRoll, RollRefused, SetLeds
from overseer.ports.inbox import Inbox
from overseer.ports.ports import Dice, EarlyButtons, Glass, GlassAhead, Leds, Source
from overseer.screens.render import Screen, frame, render
from overseer.session import lock
from overseer.session.session import Session
from overseer.session.store import Store, StoreError

log = logging.getLogger("overseer.gadget")


NEXT = Press(Button.NEXT)


class _Armed(NamedTuple):
    """NEXT AI PIECE worked out ahead (``Gadget._arm``) on the controller's state ``app``: its
    press's state and one effect (``controller.handle``), the view after it
    (``Playing.ahead``), and the controller's answer to that view (``controller.refresh``)
    for a pressed state equal to ``state`` (``pressed``'s fields, the screen shown left out):
    the press takes them as they are while ``app`` is the state on the glass."""

    app: App
    pressed: App
    begin: Begin
    made: GameView
    state: dict[str, object]
    refreshed: tuple[App, tuple[Effect, ...]]


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
        registry.install()  # the games the house plays, in games.GAMES (if not yet)
        self.playing = Playing(self.store, tables(), getattr(leds, "seats", SEATS),
                               dice is not None, seed)
        self.app: App | None = None
        self.screen: Screen | None = None
        self.image: Image.Image | None = None  # the screen's picture, as the glass got it
        self.sources: tuple[Source, ...] = (*((dice,) if dice is not None else ()), *sources)
        self.ahead: bytes | None = None  # the frame armed for NEXT AI PIECE (``_arm``)
        self.ahead_missed = 0  # NEXT showed another frame than the one armed for it
        self._expect: bytes | None = None  # the frame this NEXT's first screen must be
        self._armed: _Armed | None = None  # NEXT AI PIECE worked out ahead (``_arm``)
        self.watchers: list[Callable[[Gadget, Input | None], None]] = []
        self.takers: list[Callable[[Gadget, Input], bool]] = []
        for source in self.sources:
            source.start(self.inbox)

    @property
    def session(self) -> Session | None:
        """The Session being played (None in a new game's questions)."""
        return self.playing.session

    def open(self, game_id: int | None = None, new: bool = False) -> None:
        """Open a game (``Playing.open``) on the page the table saw last; say what was set aside."""
        aside: list[str] = []
        place = self.playing.open(game_id, new, aside)
        app, effects = controller.start(self.playing.view(), place)
        self.app = app
        self._apply(effects)
        self.playing.keep_place(self.app)
        if aside:
            self.tell("Set aside", " ".join(aside))
        self._tell_watchers(None)
        self._arm()

    def close(self) -> None:
        """Release the store and its lock (the ports stay the caller's)."""
        self.store.close()
        self.lock.release()

    def __enter__(self) -> Gadget:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def step(self, timeout: float | None = None) -> bool:
        """Act on one input from the inbox (waiting up to ``timeout`` s); False: none came."""
        item = self.inbox.get(timeout)
        if item is not None:
            self.feed(item)
        return item is not None

    def run(self, stop: threading.Event, poll: float = 0.1,
            each_turn: Callable[[], None] | None = None) -> None:
        """Take inputs until ``stop`` is set; ``each_turn`` after every turn (a heartbeat)."""
        while not stop.is_set():
            self.step(poll)
            if each_turn is not None:
                each_turn()

    def feed(self, item: Input) -> None:
        """Act on one input now, inside the guard: a fault (a bug, a failing store) is journalled
        with its traceback, the game taken again from the store as it stands, the glass says so."""
        if self.app is None:
            raise RuntimeError("open() the gadget first")
        self._expect = self.ahead if item == NEXT else None
        self.ahead = None
        try:
            if not any(taker(self, item) for taker in self.takers):
                armed = self._armed
                if armed is not None and armed.app is self.app and item == NEXT:
                    self.app, effects = armed.pressed, (armed.begin,)  # worked out ahead
                else:
                    self.app, effects = controller.handle(self.app, item)
                self._apply(effects)
                self.playing.keep_place(self.app)  # where the table is now, for a restart
                self.playing.end_read(self.app)
        except Exception as err:  # noqa: BLE001 - the guard: the box never dies on an input
            self.fault(err)
        self._tell_watchers(item)
        self._sync()
        self._expect = None
        if not len(self.inbox):  # another input would take the glass elsewhere first
            self._arm()

    def _arm(self) -> None:
        """Draw ahead the screen NEXT AI PIECE would show now, for a glass that puts it up
        itself the moment NEXT goes down (``GlassAhead``: the Pico): its screen is on the glass
        before the host has heard of the press, and the press then takes the game, the view
        and the controller's state worked out for it (``Playing.ahead``, ``_Armed``) instead
        of working them out again. Only where NEXT begins the game's main move at its first
        edge, and the one screen is all it does before the next press (no roll asked of the
        Pico first). A fault here costs only the arm."""
        glass, app = self.glass, self.app
        if not isinstance(glass, GlassAhead) or app is None or app.view.next_action is None \
                or not controller.next_may_begin(app) \
                or Button.NEXT in controller.held_buttons(app):
            self._armed = None
            return
        pressed, effects = controller.handle(app, NEXT)
        begin = effects[0] if len(effects) == 1 else None
        if not isinstance(begin, Begin) or begin.synced:
            self._armed = None
            return
        try:
            made = self.playing.ahead(begin)
            if made is None:
                self._armed = None
                return
            # The controller after NEXT, but for the screen it has shown, which only decides
            # whether a Show is due: the last page of the steps and then the idle screen give
            # the same, and the view is kept (``Playing.ahead``): NEXT's screen is the same.
            state = {**vars(pressed), "shown": None}
            armed = self._armed
            if armed is not None and armed.made is made and armed.state == state:
                refreshed = armed.refreshed
            else:
                refreshed = controller.refresh(pressed, made)
                effects = refreshed[1]
                shows = [e for e in effects if isinstance(e, Show)]
                if len(shows) != 1 or any(isinstance(e, (RequestRoll, *SESSION_CALLS))
                                          for e in effects):
                    self._armed = None
                    return
            screen = refreshed[0].shown
            assert screen is not None
            self._armed = _Armed(app, pressed, begin, made, state, refreshed)
            if screen == pressed.shown:
                self._armed = None
                return  # (no Show: NEXT would not move the glass)
            glass.arm(render(screen), Button.NEXT)
        except Exception as err:  # noqa: BLE001 - drawing ahead never stops the table
            self._armed = None
            log.error("NEXT AI PIECE could not be drawn ahead", exc_info=err)
            return
        self.ahead = frame(screen)

    def _sync(self) -> None:
        """The screen has moved: a step whose commit did not wait for the disk (NEXT AI PIECE,
        ``Begin.synced``) is put there now, before the next input is taken."""
        try:
            self.store.sync()
        except StoreError as err:
            self.fault(err)

    def _tell_watchers(self, item: Input | None) -> None:
        """The watchers (the web page) after an input; one that fails is journalled, dropped."""
        for watcher in list(self.watchers):
            try:
                watcher(self, item)
            except Exception as err:  # noqa: BLE001 - a page's fault never stops the table
                log.error("a watcher failed and is dropped", exc_info=err)
                self.watchers.remove(watcher)

    def fault(self, err: BaseException) -> None:
        """A fault the box survives: journalled, the game taken again from the store, said."""
        faults.append(err)
        log.error("a fault while handling an input (the game goes on from its last saved "
                  "step)", exc_info=err)
        text = fault_text(err)
        try:
            self._restart(from_store=True)
        except Exception as again:  # noqa: BLE001 - the store itself fails: a new game's questions
            log.error("the game could not be taken again from the store", exc_info=again)
            text = f"{text} The game could not be opened again: {fault_text(again)}"
            self._restart(from_store=False)
        self.tell("Not done", text)

    def _restart(self, from_store: bool) -> None:
        self.playing.restart(from_store)
        self.app, effects = controller.start(self.playing.view())
        self._apply(effects)

    def tell(self, key: str, text: str) -> None:
        """A message over the current screen (nothing changes; OK puts it away)."""
        if self.app is None:
            raise RuntimeError("open the gadget first")
        self.app, effects = controller.say(self.app, key, text)
        self._apply(effects)

    def _apply(self, effects: tuple[Effect, ...]) -> None:
        queue = list(effects)
        while queue:
            effect = queue.pop(0)
            assert self.app is not None
            if isinstance(effect, Show):
                self.screen = effect.screen
                self.image = render(effect.screen)
                if self._expect is not None:  # NEXT's first screen: the one armed for it
                    if frame(effect.screen) != self._expect:
                        self.ahead_missed += 1
                        log.error("NEXT AI PIECE showed another screen than the one drawn "
                                  "ahead for it (on the glass a moment)")
                    self._expect = None
                self.glass.show(self.image)
            elif isinstance(effect, Hold):
                for source in self.sources:
                    if isinstance(source, EarlyButtons):
                        source.hold(effect.buttons)
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

    def _call(self, call: SessionCall) -> tuple[Effect, ...]:
        """Apply one call; the controller gets the new view, or why nothing changed."""
        assert self.app is not None
        answer = self.playing.call(call)
        if isinstance(answer, Refused | Told):
            self.app, effects = controller.handle(self.app, answer)
            return effects
        view, armed = self.playing.view(), self._armed
        if armed is not None and armed.made is view and armed.pressed is self.app \
                and call is armed.begin:
            # NEXT AI PIECE took the game worked out ahead (``Playing.view`` gives the view
            # built then): the controller's answer to it is the one worked out then (a pure
            # function of the same state and view; the state it was worked out for differs
            # at most in the screen shown, and both show the new one)
            self.app, effects = armed.refreshed
        else:
            self.app, effects = controller.refresh(self.app, view)
        return effects
