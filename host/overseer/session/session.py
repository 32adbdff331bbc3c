"""A game session: the log, its fold through the rules, and undo/redo.

The state of a game is never saved: it is the fold of its log. ``fold`` builds the game from
its setup and feeds every event to a ``Runner`` with no chance source of its own, so each chance
question waits and is answered by the next event. Live play goes down the same path: an input
is applied, then every chance question the gadget answers itself (seeded dice, tracked bags,
blind picks) is answered by ``SeededChance(seed, count)``, where ``count`` is the number of
``chance`` events before it, and the value is put in the log before the rules go on. The input
and the chance events it caused are one transaction; the call returns after the commit.

Undo moves the head back over the last input and refolds; redo moves it forward again over
the same events. The undone tail stays in the store (across restarts) until a new input
replaces it. As chance depends only on the seed and the count, re-asking after an undo gives the
same roll. A result the table saw (the Pico's dice, the players' dice or tokens) can be undone,
but stays marked: ``retracted`` in the store once a new input replaces it.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from overseer import games
from overseer import scenario as scenarios
from overseer.chance import SeededChance
from overseer.games import GameSpec
from overseer.rules.procedure import (
    AnswerError,
    DrawToken,
    Pick,
    Question,
    Roll,
    RulesError,
    Runner,
    describe,
)
from overseer.session.events import DICE_MODES, Event, canonical, decode_answer, encode_answer
from overseer.session.store import GameInfo, Store

SOURCES = ("table", "pico")


class SessionError(ValueError):
    """An input or command the session refuses; nothing was changed."""


class LogError(ValueError):
    """A log that does not replay through the rules (edited, damaged, or from other rules)."""


def game_spec(game: str) -> GameSpec:
    try:
        return games.get(game)
    except games.UnknownGame as err:
        raise SessionError(str(err)) from None


def auto_answered(question: Question, dice: str) -> bool:
    """Whether the gadget answers this chance question itself (from the seed) or waits for
    the table: dice are rolled by the seed only in ``seeded`` mode; a token bag the engine
    does not track (physical tokens) and a physical pick (real cards) are drawn by the
    players."""
    if not question.chance:
        return False
    if isinstance(question, Roll):
        return dice == "seeded"
    if isinstance(question, DrawToken):
        return bool(question.remaining)
    if isinstance(question, Pick):
        return not question.physical
    return True


@dataclass(slots=True)
class Fold:
    """The result of folding a log: the runner (state, trace, pending question), the dice
    mode in force and how many chance events were folded."""

    runner: Runner
    dice: str
    chance_count: int
    retired: frozenset[str] = frozenset()  # the spec's retired question keys


def apply_event(fold: Fold, event: Event) -> None:
    """Feed one event to the runner. Raises ``RulesError``/``AnswerError`` from the rules or
    ``LogError`` when the event does not fit where it stands."""
    runner = fold.runner
    if event.kind == "action":
        runner.begin(event.data)
    elif event.kind == "setting":
        fold.dice = event.data["dice"]
    else:
        question = runner.pending
        if question is None:
            raise LogError(f"an {event.kind} event with no question waiting")
        key = event.data.get("key")
        if key != question.key and key in fold.retired:
            return  # an older log's answer to a question the rules no longer ask
        if key != question.key:
            raise LogError(f"an {event.kind} for [{event.data.get('key')}] but the rules "
                           f"asked [{question.key}]: {describe(question)}")
        if (event.kind == "chance") != auto_answered(question, fold.dice):
            raise LogError(f"{describe(question)}: answered by "
                           f"{'the seed' if event.kind == 'chance' else 'the table'}, which "
                           f"the dice mode {fold.dice!r} does not allow")
        runner.answer(decode_answer(question, event.data["value"]))
        if event.kind == "chance":
            fold.chance_count += 1


def fold(spec: GameSpec, setup: dict[str, Any], dice: str,
         events: list[Event]) -> Fold:
    """The game after ``events``: build from the setup, replay every event in order. A stored
    setup is a scenario-shaped document: format 2 (``"setup"`` inside) or, without
    ``"format": 2``, format 1 shaped (games stored before format 2)."""
    try:
        state = spec.build(scenarios.setup_of(setup, spec))
    except (KeyError, TypeError, ValueError) as err:
        raise LogError(f"the setup does not build: {err}") from err
    result = Fold(Runner(spec, state), dice, 0, spec.retired_keys)
    for n, event in enumerate(events):
        try:
            apply_event(result, event)
        except (LogError, RulesError, AnswerError) as err:
            raise LogError(f"event #{n} ({event.kind}): {err}") from err
    return result


@dataclass(frozen=True, slots=True)
class Undone:
    """What an undo dropped: the events, and whether the table had seen a result among them."""

    events: tuple[Event, ...]

    @property
    def marked(self) -> bool:
        return any(e.seen for e in self.events)


class Session:
    """One saved game being played. Every method that changes the game returns only after
    the change is durable in the store."""

    def __init__(self, store: Store, info: GameInfo, events: list[Event]) -> None:
        self.store = store
        self.id = info.id
        self.game = info.game
        self.setup = info.setup
        self.seed = info.seed
        self.dice_at_start = info.dice
        self.spec = game_spec(info.game)
        self.events = events  # all of them, the undone tail included
        self.head = info.head
        self.finished = info.finished
        self._refold()

    # ------------------------------------------------------------------ opening

    @classmethod
    def new(cls, store: Store, game: str, setup: dict[str, Any], seed: int | None = None,
            dice: str = "seeded") -> Session:
        """Start a game: the setup (a scenario-shaped document of either format, see
        docs/scenarios.md) is checked, keys and types, and built before anything is stored."""
        game_spec(game)  # an unknown game is refused first
        if dice not in DICE_MODES:
            raise SessionError(f"dice mode must be one of {', '.join(DICE_MODES)} (got {dice!r})")
        try:
            scenarios.upgrade(setup, game)
        except (KeyError, TypeError, ValueError) as err:
            raise SessionError(f"the {game} setup does not build: {err}") from err
        seed = secrets.randbits(63) if seed is None else seed
        game_id = store.create_game(game, setup, seed, dice)
        return cls(store, store.game(game_id), [])

    @classmethod
    def resume(cls, store: Store, game_id: int) -> Session:
        return cls(store, store.game(game_id), store.events(game_id))

    @classmethod
    def resume_last(cls, store: Store, game: str) -> Session | None:
        """The last unfinished game of this type, restored, or ``None``."""
        info = store.last_unfinished(game)
        return None if info is None else cls(store, info, store.events(info.id))

    def _refold(self) -> None:
        self.fold = fold(self.spec, self.setup, self.dice_at_start, self.events[:self.head])

    # ------------------------------------------------------------------ what the table sees

    @property
    def runner(self) -> Runner:
        return self.fold.runner

    @property
    def state(self) -> Any:
        return self.fold.runner.state

    @property
    def pending(self) -> Question | None:
        return self.fold.runner.pending

    @property
    def dice(self) -> str:
        return self.fold.dice

    def state_dict(self) -> dict[str, Any]:
        return self.spec.state_dict(self.state)

    def trace(self) -> list[dict[str, Any]]:
        return [step.as_dict() for step in self.runner.trace]

    @property
    def can_undo(self) -> bool:
        return self.head > 0

    @property
    def can_redo(self) -> bool:
        return self.head < len(self.events)

    # ------------------------------------------------------------------ inputs

    def begin(self, action: dict[str, Any]) -> Question | None:
        """Start an action (``{"do": ...}``). Raises ``RulesError`` if the rules refuse it."""
        if not isinstance(action, dict) or "do" not in action:
            raise SessionError(f"an action is an object with 'do' (got {action!r})")
        try:
            action = json.loads(canonical(action))  # exactly what the store will hold
        except (TypeError, ValueError) as err:
            raise SessionError(f"an action must be plain JSON data ({err})") from err
        return self._input(Event("action", action))

    def answer(self, value: Any, source: str = "table") -> Question | None:
        """Answer the pending question: the players' choice, or a die face from the players'
        dice (``table``) or the Pico (``pico``). Raises ``AnswerError`` on a bad answer."""
        question = self.pending
        if question is None:
            raise SessionError("no question is waiting for an answer")
        if source not in SOURCES:
            raise SessionError(f"an answer's source is one of {', '.join(SOURCES)}")
        if auto_answered(question, self.dice):
            raise SessionError(f"{describe(question)}: the gadget answers this one itself")
        data = {"key": question.key, "value": encode_answer(question.check(value))}
        if question.chance:
            data["source"] = source
        return self._input(Event("answer", data, seen=question.chance))

    def set_dice(self, dice: str) -> None:
        """Change who rolls the dice from now on (``seeded``, ``pico``, ``table``): an input
        of the log like any other, so it can be undone."""
        if dice not in DICE_MODES:
            raise SessionError(f"dice mode must be one of {', '.join(DICE_MODES)} (got {dice!r})")
        if dice != self.dice:
            self._input(Event("setting", {"dice": dice}))

    def _input(self, event: Event) -> Question | None:
        if self.finished:
            raise SessionError(f"game #{self.id} is over; undo to play on")
        new = [event]
        try:
            apply_event(self.fold, event)
            self._settle(new)
        except BaseException:
            self._refold()  # the rules may have moved before refusing: back to the log
            raise
        finished = self.spec.is_over(self.state)
        try:
            self.store.append(self.id, self.head, new, finished)
        except BaseException:
            self._refold()
            raise
        self.events[self.head:] = new
        self.head += len(new)
        self.finished = finished
        return self.pending

    def _settle(self, new: list[Event]) -> None:
        """Answer the chance questions the gadget answers itself, logging each first."""
        question = self.pending
        while isinstance(question, Roll | DrawToken | Pick) and auto_answered(question, self.dice):
            value = SeededChance(self.seed, self.fold.chance_count)(question)
            event = Event("chance", {"key": question.key, "value": encode_answer(value)})
            new.append(event)
            apply_event(self.fold, event)
            question = self.pending

    # ------------------------------------------------------------------ undo, redo

    def _last_input(self) -> int:
        for seq in range(self.head - 1, -1, -1):
            if self.events[seq].is_input:
                return seq
        raise SessionError("nothing to undo")

    def undo(self) -> Undone:
        """Drop the last input and the chance events it caused. Durable on return."""
        if self.head == 0:
            raise SessionError("nothing to undo")
        start = self._last_input()
        dropped = tuple(self.events[start:self.head])
        self.store.set_head(self.id, start, finished=False)
        self.head = start
        self.finished = False
        self._refold()
        return Undone(dropped)

    def redo(self) -> tuple[Event, ...]:
        """Put back the input undone last (with its chance events). Durable on return."""
        if not self.can_redo:
            raise SessionError("nothing to redo")
        end = self.head + 1
        while end < len(self.events) and not self.events[end].is_input:
            end += 1
        group = self.events[self.head:end]
        try:
            for event in group:
                apply_event(self.fold, event)
        except BaseException:
            self._refold()
            raise
        finished = self.spec.is_over(self.state)
        try:
            self.store.set_head(self.id, end, finished)
        except BaseException:
            self._refold()
            raise
        self.head = end
        self.finished = finished
        return tuple(group)

    def finish(self) -> None:
        """The table ends the game (a game type that does not know its own end)."""
        self.store.set_head(self.id, self.head, finished=True)
        self.finished = True
