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

Resume and undo take bounded time, whatever the game's length: every ``SNAPSHOT_EVERY`` events
(at the first input that leaves no action running) the folded state is pickled into the store,
in the input's own transaction, and a fold starts from the last snapshot at or before the head.
A snapshot counts only under the build it was taken with (``build_id``: the rules version and
the code and data files); a resume rebuilds them. Only the events a fold or an undo needs are
read (``Log``), and the trace steps before the snapshot are folded again only if someone reads
them (``Trace``).
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import io
import json
import logging
import os
import pickle
import secrets
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, cast, overload

import overseer
from overseer import RULES_VERSION, documents, games
from overseer.core.chance import SeededChance
from overseer.core.procedure import (
    AnswerError,
    DrawToken,
    Pick,
    Question,
    Roll,
    RulesError,
    Runner,
    Step,
    describe,
)
from overseer.core.records import DATA_DIR
from overseer.core.shapes import BadInput, check_plain
from overseer.games import GameSpec
from overseer.session.events import DICE_MODES, Event, canonical, decode_answer, encode_answer
from overseer.session.store import GameInfo, Store, StoreError

log = logging.getLogger(__name__)

SOURCES = ("table", "pico")
SNAPSHOT_EVERY = 100  # events between two snapshots of the folded state


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
    mode in force and how many chance events were folded. Given the ``seed``, every seeded
    chance event is checked against it."""

    runner: Runner
    dice: str
    chance_count: int
    seed: int | None = None
    retired: frozenset[str] = frozenset()  # the spec's retired question keys


def _check_chance(fold: Fold, question: Roll | DrawToken | Pick, value: Any) -> None:
    """A seeded answer must be what the seed gives at this count (an edited log, another
    seed, or rules that ask another question here: the log does not replay)."""
    if fold.seed is None:
        return
    try:
        expected = encode_answer(SeededChance(fold.seed, fold.chance_count)(question))
    except ValueError as err:
        raise LogError(f"{describe(question)}: the seed cannot answer it ({err})") from None
    if value != expected:
        raise LogError(f"{describe(question)}: the log holds {json.dumps(value)}, but seeded "
                       f"chance #{fold.chance_count} of this game gives {json.dumps(expected)}")


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
        if event.kind == "chance":
            _check_chance(fold, cast(Roll | DrawToken | Pick, question), event.data["value"])
        runner.answer(decode_answer(question, event.data["value"]))
        if event.kind == "chance":
            fold.chance_count += 1


def built(spec: GameSpec, setup: dict[str, Any], dice: str, seed: int | None = None) -> Fold:
    """The game before any event: built from its setup. A stored setup is a scenario-shaped
    document: format 2 (``"setup"`` inside) or, without ``"format": 2``, format 1 shaped
    (games stored before format 2)."""
    try:
        state = spec.build(documents.setup_of(setup, spec))
    except (KeyError, TypeError, ValueError) as err:
        raise LogError(f"the setup does not build: {err}") from err
    return Fold(Runner(spec, state), dice, 0, seed, spec.retired_keys)


def replay(result: Fold, events: Sequence[Event], first: int = 0,
           after: Callable[[int, Fold], None] | None = None) -> Fold:
    """Feed ``events`` (numbered from ``first`` in messages) to a fold; ``after(seq, fold)``
    is called after each, ``seq`` being how many events are folded then."""
    for n, event in enumerate(events, first):
        try:
            apply_event(result, event)
        except (LogError, RulesError, AnswerError) as err:
            raise LogError(f"event #{n} ({event.kind}): {err}") from err
        if after is not None:
            after(n + 1, result)
    return result


def fold(spec: GameSpec, setup: dict[str, Any], dice: str, events: Sequence[Event],
         seed: int | None = None) -> Fold:
    """The game after ``events``: built from the setup, every event replayed in order. Given
    the game's ``seed``, a seeded roll or draw that is not what the seed gives is a
    ``LogError``."""
    return replay(built(spec, setup, dice, seed), events)


# ---------------------------------------------------------------------- snapshots


@functools.cache
def build_id() -> str:
    """What a snapshot was taken under: the rules version, and a fingerprint (name, size,
    modification time) of every file of the package and the data folder. Pickled state is only
    good for the code and data that made it: any change there, version raised or not, makes
    the snapshots stale, and a resume rebuilds them. About a millisecond, once a process."""
    digest = hashlib.sha256()
    for root in (os.path.dirname(overseer.__file__), str(DATA_DIR)):
        for line in sorted(_files(root)):
            digest.update(line.encode())
    return f"rules {RULES_VERSION}, files {digest.hexdigest()[:16]}"


def _files(root: str) -> list[str]:
    """``path\0size\0mtime`` of every file under ``root`` (``__pycache__`` left out)."""
    out: list[str] = []
    folders = [root] if os.path.isdir(root) else []
    while folders:
        with os.scandir(folders.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        folders.append(entry.path)
                elif entry.is_file():
                    stat = entry.stat()
                    out.append(f"{entry.path[len(root):]}\0{stat.st_size}\0{stat.st_mtime_ns}")
    return out


# The loaded card data a game's state carries (its record's ``data.shared``). The rules compare
# it by identity (one loaded value) and it is large, so a snapshot names it (by the game's
# name) instead of pickling it, and a resume puts back the very value a fresh build would use.


def _card_data(game: str) -> object:
    """The loaded card data a snapshot names (``_pickled``): the very value a build uses."""
    spec = game_spec(game)
    if not spec.data.shared:
        raise pickle.UnpicklingError(f"a snapshot names card data of {game}, which has none")
    return spec.data.default()


def _pickled(value: object, spec: GameSpec) -> bytes:
    """``value`` pickled with the game's card data named, not kept: the C pickler finds the
    data's type in its dispatch table (no Python call for any other object)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    if spec.data.shared:
        shared = spec.data.default()

        def named(obj: object) -> tuple[Callable[[str], object], tuple[str]]:
            if obj is not shared:
                raise pickle.PicklingError(f"the state holds {spec.name} data from another "
                                           "folder")
            return _card_data, (spec.name,)

        pickler.dispatch_table = {type(shared): named}  # type: ignore[assignment]
    pickler.dump(value)
    return out.getvalue()


def snapshot_of(result: Fold, spec: GameSpec) -> bytes:
    """The folded state at a moment no action is running, pickled: the rules' state is plain
    dataclasses, which pickle keeps exactly (JSON would need a codec for every class of every
    game); the card data it carries is named, not kept (``GameSpec.data``)."""
    runner = result.runner
    assert not runner.busy, "a running action (a suspended generator) cannot be kept"
    return _pickled(
        (runner.state, len(runner.trace), runner.result, result.dice, result.chance_count), spec)


def from_snapshot(spec: GameSpec, data: bytes, seed: int | None,
                  early: Callable[[int], Sequence[Step]]) -> Fold:
    """The fold a snapshot kept, its card data the loaded one; ``early(n)`` gives the n trace
    steps before it (on demand)."""
    state, length, last, dice, count = pickle.loads(data)
    runner = Runner(spec, state)
    runner.result = last
    # Runner only appends to its trace; its readers (views, the terminal) take any Sequence.
    runner.trace = cast(list[Step], Trace(length, early))
    return Fold(runner, dice, count, seed, spec.retired_keys)


class Trace(Sequence[Step]):
    """The trace of a fold that began at a snapshot: the ``before`` steps made before it are
    not in memory. Reading one of them (rare: a view shows the steps since it last looked)
    folds them once, from the snapshot before that one (its own earlier steps lazy again)."""

    def __init__(self, before: int, early: Callable[[int], Sequence[Step]]) -> None:
        self._before = before
        self._early = early
        self._loaded: Sequence[Step] | None = None if before else []
        self._steps: list[Step] = []

    def append(self, step: Step) -> None:
        self._steps.append(step)

    def __len__(self) -> int:
        return self._before + len(self._steps)

    def _first(self) -> Sequence[Step]:
        if self._loaded is None:
            self._loaded = self._early(self._before)
        return self._loaded

    @overload
    def __getitem__(self, index: int) -> Step: ...
    @overload
    def __getitem__(self, index: slice) -> list[Step]: ...

    def __getitem__(self, index: int | slice) -> Step | list[Step]:
        if isinstance(index, slice):
            start, stop, stride = index.indices(len(self))
            if stride == 1 and start >= self._before:
                return self._steps[start - self._before:max(start, stop) - self._before]
            return [self[i] for i in range(start, stop, stride)]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("trace index out of range")
        if index >= self._before:
            return self._steps[index - self._before]
        return self._first()[index]

    def __iter__(self) -> Iterator[Step]:
        if self._before:
            yield from self._first()
        yield from self._steps

    def copy(self) -> Trace:
        """The same steps, to go on apart: the early ones shared (folded once, for both)."""
        twin = Trace(self._before, self._early)
        twin._loaded, twin._steps = self._loaded, list(self._steps)
        return twin


def _continued(trace: Sequence[Step]) -> list[Step] | Trace:
    """A trace's steps in a new trace that can go on apart from it (``Session.ahead``). (A
    list or a ``Trace``: told apart by the list's type, as ``isinstance`` of an abstract
    ``Sequence``'s subclass asks ``ABCMeta`` in Python.)"""
    return list(trace) if type(trace) is list else cast(Trace, trace).copy()


@dataclass(frozen=True, slots=True)
class Ahead:
    """What ``begin(action)`` makes of the game, worked out on a copy and never written
    (``Session.ahead``): the events it would log and the fold after them. ``begin(action,
    ahead=...)`` takes them as they are when the game has not changed since (``turn``)."""

    action: dict[str, Any]
    turn: int  # the session's turn it was worked out at
    fold: Fold
    new: tuple[Event, ...]

    @property
    def state(self) -> Any:
        return self.fold.runner.state


class Log:
    """The events of one stored game (the undone tail included), read from the store when
    first needed, a chunk at a time: a resumed game reads what its fold and undo need."""

    CHUNK = 256

    def __init__(self, store: Store, game_id: int, length: int) -> None:
        self._store = store
        self._id = game_id
        self.length = length
        self._cache: dict[int, Event] = {}

    def __len__(self) -> int:
        return self.length

    def slice(self, start: int, stop: int) -> list[Event]:
        stop = min(stop, self.length)
        cache = self._cache
        try:  # (most often every one is read already: one pass)
            return [cache[seq] for seq in range(start, stop)]
        except KeyError:
            pass
        missing = [seq for seq in range(start, stop) if seq not in cache]
        first = missing[0] - missing[0] % self.CHUNK if len(missing) < self.CHUNK else missing[0]
        rows = self._store.events(self._id, first, missing[-1] + 1)
        cache.update(enumerate(rows, first))
        return [cache[seq] for seq in range(start, stop)]

    def __getitem__(self, seq: int) -> Event:
        if not 0 <= seq < self.length:
            raise IndexError(f"no event #{seq}")
        if seq not in self._cache:
            self.slice(seq, seq + 1)
        return self._cache[seq]

    def replace_from(self, seq: int, events: list[Event]) -> None:
        """What the store now holds from ``seq`` on: ``events`` (the tail after them gone).
        Only the events from ``seq`` to the old end are looked at (none when nothing was
        undone), not the whole log."""
        for old in range(seq, self.length):
            self._cache.pop(old, None)
        self._cache.update(enumerate(events, seq))
        self.length = seq + len(events)


class _LogAfter:
    """A log's events to ``head``, then ``new`` (``Session.after``'s log, read only)."""

    def __init__(self, log: Log, head: int, new: Sequence[Event]) -> None:
        self._log, self._head, self._new = log, head, new

    def __len__(self) -> int:
        return self._head + len(self._new)

    def __getitem__(self, seq: int) -> Event:
        if not 0 <= seq < len(self):
            raise IndexError(f"no event #{seq}")
        return self._new[seq - self._head] if seq >= self._head else self._log[seq]

    def slice(self, start: int, stop: int) -> list[Event]:
        return [self[seq] for seq in range(start, min(stop, len(self)))]


@dataclass(frozen=True, slots=True)
class Undone:
    """What an undo dropped: the events, and whether the table had seen a result among them."""

    events: tuple[Event, ...]

    @property
    def marked(self) -> bool:
        return any(e.seen for e in self.events)


class Session:
    """One saved game being played. Every method that changes the game returns only after
    the change is durable in the store, in one transaction."""

    def __init__(self, store: Store, info: GameInfo) -> None:
        self.store = store
        self.id = info.id
        self.game = info.game
        self.setup = info.setup
        self.seed = info.seed
        self.dice_at_start = info.dice
        self.rules = info.rules  # the rules version that last wrote the log
        self.spec = game_spec(info.game)
        self.log = Log(store, info.id, info.length)  # all events, the undone tail included
        self.head = info.head
        self.finished = info.finished
        self.notice: str | None = None  # what the table should know about this game
        self._build = build_id()
        self._snapshots = store.snapshot_seqs(info.id, self._build)  # in order
        self.turn = 0  # how many times the fold changed: an ``Ahead`` holds for one turn
        # the fold an ahead taken left (``_input``), of the log's first ``seq`` events, apart
        # from ``fold``: the next ahead's copy (``_copy``); dropped at every refold
        self._spare: tuple[int, Fold] | None = None
        self._open()

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
            documents.upgrade(setup, game)
        except (KeyError, TypeError, ValueError) as err:
            raise SessionError(f"the {game} setup does not build: {err}") from err
        seed = secrets.randbits(63) if seed is None else seed
        game_id = store.create_game(game, setup, seed, dice)
        return cls(store, store.game(game_id))

    @classmethod
    def resume(cls, store: Store, game_id: int) -> Session:
        return cls(store, store.game(game_id))

    @classmethod
    def resume_last(cls, store: Store, game: str) -> Session | None:
        """The last unfinished game of this type, restored, or ``None``."""
        info = store.last_unfinished(game)
        return None if info is None else cls(store, info)

    @property
    def events(self) -> list[Event]:
        """Every event of the log, the undone tail included (read whole from the store)."""
        return self.log.slice(0, len(self.log))

    def _open(self) -> None:
        """Fold the log to its head (keeping snapshots on the way where the store has none),
        and say so when another rules version wrote it."""
        other = self.rules != RULES_VERSION and len(self.log) > 0
        written = (f"rules version {self.rules}" if self.rules is not None else
                   "rules older than their version numbers")
        try:
            self._refold(keep=True)
        except LogError as err:
            if not other:
                raise
            raise LogError(f"game #{self.id} was saved under {written}; this Overseer has "
                           f"rules version {RULES_VERSION}, and its log does not replay under "
                           f"them ({err}). Export it to keep it: overseer games export "
                           f"{self.id} FILE") from err
        if other:
            self.notice = (f"game #{self.id} was saved under {written}; this Overseer has "
                           f"rules version {RULES_VERSION}: its log replays under them, and "
                           f"play goes on under version {RULES_VERSION}")

    def verify(self) -> None:
        """Fold the whole log to the head from the setup, past the snapshots, each seeded
        chance checked: a ``LogError`` when an event before the last snapshot no longer replays
        (an edited log, changed rules) though the resume from the snapshot went well."""
        if not any(seq <= self.head for seq in self._snapshots):
            return  # the resume folded from the setup: checked already
        fold(self.spec, self.setup, self.dice_at_start, self.log.slice(0, self.head), self.seed)

    def _refold(self, keep: bool = False) -> None:
        """The fold of the log up to the head, from the last snapshot at or before it. With
        ``keep``, snapshots are taken on the way wherever the store lacks them (a resume)."""
        self.turn += 1
        self._spare = None  # (an undo: the log before it may change from the new head on)
        start = self._snapshot_at(self.head)
        first, result = start if start is not None else (
            0, built(self.spec, self.setup, self.dice_at_start, self.seed))
        taken: list[tuple[int, bytes]] = []
        last = [first]

        def take(seq: int, result: Fold) -> None:
            if seq - last[0] >= SNAPSHOT_EVERY and not result.runner.busy:
                taken.append((seq, snapshot_of(result, self.spec)))
                last[0] = seq

        self.fold = replay(result, self.log.slice(first, self.head), first,
                           take if keep else None)
        if taken:
            try:
                self.store.put_snapshots(self.id, self._build, taken)
            except StoreError as err:  # a read-only or full store: resumes stay slow, that is all
                log.warning("game #%d: its snapshots could not be kept: %s", self.id, err)
                return
            self._snapshots = sorted({*self._snapshots, *(seq for seq, _ in taken)})

    def _snapshot_at(self, head: int) -> tuple[int, Fold] | None:
        """The fold kept by the last snapshot at or before ``head``, if one loads."""
        for seq in reversed(self._snapshots):
            if seq > head:
                continue
            data = self.store.snapshot(self.id, seq, self._build)
            if data is None:
                continue
            try:
                return seq, from_snapshot(self.spec, data, self.seed,
                                          lambda n, seq=seq: self._early_steps(seq, n))
            except Exception as err:  # noqa: BLE001 - any unpickling failure: fold from earlier
                log.warning("game #%d: snapshot at event %d does not load (%r)", self.id, seq,
                            err)
        return None

    def _early_steps(self, seq: int, count: int) -> Sequence[Step]:
        """The trace of the first ``seq`` events: ``count`` steps, as the snapshot at ``seq``
        says. Folded from the snapshot before it (its own earlier steps as lazy again), so
        reading a few steps back costs a snapshot and some events, whatever the game's
        length; from the start when there is none."""
        start = self._snapshot_at(seq - 1)
        result = (fold(self.spec, self.setup, self.dice_at_start, self.log.slice(0, seq),
                       self.seed) if start is None
                  else replay(start[1], self.log.slice(start[0], seq), start[0]))
        steps = result.runner.trace
        if len(steps) != count:
            raise LogError(f"game #{self.id}: its first {seq} events fold to {len(steps)} "
                           f"trace steps, but its snapshot there says {count}")
        return steps

    def trace_length_at(self, seq: int) -> int:
        """How many trace steps the first ``seq`` events (at most the head) make: folded from
        the last snapshot at or before ``seq`` (its earlier steps are not read)."""
        if seq >= self.head:
            return len(self.runner.trace)
        start = self._snapshot_at(seq)
        result = (fold(self.spec, self.setup, self.dice_at_start, self.log.slice(0, seq),
                       self.seed) if start is None
                  else replay(start[1], self.log.slice(start[0], seq), start[0]))
        return len(result.runner.trace)

    def _due_snapshot(self, end: int) -> tuple[str, bytes] | None:
        """A snapshot to keep with the input that brings the head to ``end``, if one is due."""
        if self.runner.busy:
            return None
        kept = self._snapshots  # in order: the last at or before the head, by halving
        before = bisect.bisect_right(kept, self.head)
        last = kept[before - 1] if before else 0
        if end - last < SNAPSHOT_EVERY:
            return None
        try:
            return self._build, snapshot_of(self.fold, self.spec)
        except (pickle.PicklingError, TypeError, AttributeError) as err:  # never stops play
            log.warning("game #%d: the state does not pickle (%s): no snapshot", self.id, err)
            return None

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
        return self.head < len(self.log)

    # ------------------------------------------------------------------ inputs

    def begin(self, action: dict[str, Any], synced: bool = True, ahead: Ahead | None = None
              ) -> Question | None:
        """Start an action (``{"do": ...}``). Raises ``RulesError`` if the rules refuse it.
        ``synced=False``: an action the table adds nothing to but the press (NEXT AI PIECE),
        whose steps the host computes from the log and the seed alone; it returns once
        committed, before the commit's fsync (``Store.sync``; a power cut then loses the
        press, and the same press after the restart computes the same steps). ``ahead``:
        what ``ahead(action)`` worked out for it, taken as it is if it still holds."""
        action = self._checked(action)
        if ahead is not None and ahead.turn == self.turn and ahead.action == action:
            return self._input(ahead.new[0], synced, ahead)
        return self._input(Event("action", action), synced)

    def ahead(self, action: dict[str, Any]) -> Ahead | None:
        """What ``begin(action)`` would make of the game now, worked out on a copy of the
        fold (the gadget draws NEXT AI PIECE's screen before the press); nothing is written
        and the game does not change. None when it cannot be worked out apart: an action is
        running (its generator cannot be copied), or the rules refuse the action."""
        if self.finished or self.runner.busy:
            return None
        action = self._checked(action)
        new = [Event("action", action)]
        try:
            fold = self._copy()
            if fold is None:
                return None
            fold.runner.trace = cast(list[Step], _continued(self.runner.trace))
            apply_event(fold, new[0])
            self._settle(new, fold)
        except (RulesError, AnswerError, LogError):
            return None
        return Ahead(action, self.turn, fold, tuple(new))

    def _copy(self) -> Fold | None:
        """The fold as it is, apart from it (its trace aside), for ``ahead``: the spare, the
        fold the last ahead taken left behind, brought to the head by the log's events since
        (the rules of the inputs since: an activation's, some 0.2 M instructions), else the
        state pickled and loaded as a snapshot is (1.2 M). None when the state does not
        pickle."""
        spare, self._spare = self._spare, None
        if spare is not None:
            seq, fold = spare
            fold.runner.trace = []  # the steps made again: not into the trace the table read
            fold.seed = None  # its seeded chance was checked when this game first folded it
            replay(fold, self.log.slice(seq, self.head), seq)
            fold.seed = self.seed
            return fold
        try:
            kept = snapshot_of(self.fold, self.spec)
        except (pickle.PicklingError, TypeError, AttributeError) as err:
            log.warning("game #%d: the state does not pickle (%s): nothing ahead", self.id, err)
            return None
        return from_snapshot(self.spec, kept, self.seed, lambda _: ())

    def after(self, ahead: Ahead) -> Session:
        """The game as it will be once ``ahead`` is taken, to read (``view.build``) and never
        to play: a copy of this session on the ahead's fold, its log the events to come
        after the head; it has no store, so anything that would write fails."""
        copy = object.__new__(Session)
        copy.__dict__.update(self.__dict__)
        copy.fold, copy.store = ahead.fold, cast(Store, None)
        copy.log = cast(Log, _LogAfter(self.log, self.head, ahead.new))
        copy.head = self.head + len(ahead.new)
        copy.finished = self.spec.is_over(ahead.state)
        return copy

    def _checked(self, action: dict[str, Any]) -> dict[str, Any]:
        """The action as the store will hold it; ``SessionError`` when it is not one."""
        if type(action) is dict and len(action) == 1 and type(action.get("do")) is str:
            return {"do": action["do"]}  # a move by its name alone (NEXT): its JSON's own value
        if not isinstance(action, dict) or "do" not in action:
            got = "an object without 'do'" if isinstance(action, dict) else \
                f"a {type(action).__name__}"
            raise SessionError(f"an action is an object with 'do' (got {got})")
        try:
            check_plain(action, "action")  # sizes and depth first: nothing below recurses
        except BadInput as err:
            raise SessionError(f"the action is refused: {err}") from None
        try:
            return json.loads(canonical(action))  # exactly what the store will hold
        except (TypeError, ValueError) as err:
            raise SessionError(f"an action must be plain JSON data ({err})") from err

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

    def _input(self, event: Event, synced: bool = True, ahead: Ahead | None = None
               ) -> Question | None:
        if self.finished:
            raise SessionError(f"game #{self.id} is over; undo to play on")
        self.turn += 1
        new = [event]
        steps = len(self.runner.trace)
        spare = None
        try:
            if ahead is not None:  # worked out already, from this very fold
                spare = (self.head, self.fold)  # once this input holds, the next ahead's copy
                self.fold, new = ahead.fold, list(ahead.new)
            else:
                apply_event(self.fold, event)
                self._settle(new, self.fold)
        except BaseException:
            self._refold()  # the rules may have moved before refusing: back to the log
            raise
        finished = self.spec.is_over(self.state)
        end = self.head + len(new)
        try:
            snapshot = self._due_snapshot(end)
            self.store.append(self.id, self.head, new, finished, snapshot,
                              tail=self.head < len(self.log),
                              checkpoint=self._milestone(steps), synced=synced)
        except BaseException:
            self._refold()
            raise
        self.log.replace_from(self.head, new)
        kept = self._snapshots  # (a new list: ``after``'s copies share the old one)
        self._snapshots = kept[:bisect.bisect_right(kept, self.head)]  # the undone tail's go
        if snapshot is not None:
            self._snapshots.append(end)
        self.head = end
        self.finished = finished
        if spare is not None:
            self._spare = spare
        return self.pending

    def _milestone(self, since: int) -> bool:
        """Whether the steps from ``since`` on end a stretch of play (the spec's milestones)."""
        kinds = self.spec.milestones
        if kinds:
            for step in self.runner.trace[since:]:
                if step.kind in kinds:
                    return True
        return False

    def _settle(self, new: list[Event], fold: Fold) -> None:
        """Answer the chance questions the gadget answers itself, logging each first. The
        value is the seed's, for the question asked: it goes to the runner as it is, not
        through ``apply_event``, whose checks (the seed's draw made again among them) are for
        events read back from the log."""
        runner = fold.runner
        question = runner.pending
        while question is not None and auto_answered(question, fold.dice):
            value = SeededChance(self.seed, fold.chance_count)(
                cast(Roll | DrawToken | Pick, question))
            new.append(Event("chance", {"key": question.key, "value": encode_answer(value)}))
            runner.answer(value)
            fold.chance_count += 1
            question = runner.pending

    # ------------------------------------------------------------------ undo, redo

    def _last_input(self) -> int:
        for seq in range(self.head - 1, -1, -1):
            if self.log[seq].is_input:
                return seq
        raise SessionError("nothing to undo")

    def undo(self) -> Undone:
        """Drop the last input and the chance events it caused. Durable on return."""
        if self.head == 0:
            raise SessionError("nothing to undo")
        start = self._last_input()
        dropped = tuple(self.log.slice(start, self.head))
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
        while end < len(self.log) and not self.log[end].is_input:
            end += 1
        group = self.log.slice(self.head, end)
        self.turn += 1
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
