"""The games Overseer plays, one record each (``GameSpec``, after boardgame.io's ``Game``): the one
place every layer finds a game, in one registry (``GAMES``).

A record holds the game's rules (how to build the state from a setup and read it:
``state_dict``, ``names``; when it is over and how it ended; its move table, what the table may
do now: ``legal``; its rulebook module, the sections its trace cites; the question keys the
rules no longer ask; the step kinds that end a stretch of play), its data (``data``: read a
folder, the default folder's value), its cards (``cards``: kind -> id -> name, what the tags,
the simulator's reader and the app name), the step kinds its target light reads (``kinds``),
the books a correction can set (``books``: the table's "Correct the books", core/books.py),
and its two
upper facets: its screens (``screens``: the glass's faces and short forms, a
``screens.facet.Screens``) and its table (``table``: the gadget's menu and forms, an
``app.flow.Table``). This floor holds them without knowing their types (they sit above it);
``screens.facet.of`` and ``app.flow.table`` read them back typed.

The registry is filled from above: overseer/app/registry/ lists every game, one line each, and
``registry.install()`` puts them here as lazy entries. A game's rules and data are imported the
first time it is looked up (``GAMES[name]``, ``get``), so that ``overseer --help`` imports no
game (tests/test_cold_start.py). A test plugs a game of its own in with ``GAMES.add``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from overseer.core.books import Book
from overseer.core.moves import Move, MoveTable
from overseer.core.procedure import Procedure


class UnknownGame(ValueError):
    pass


def _no_data(folder: Path | None = None) -> None:
    return None


@dataclass(frozen=True)
class GameData:
    """A game's data files: ``load(folder)`` reads and checks a folder (``DataError`` naming
    file, line, record and field), ``default()`` is the default folder's, loaded once.
    ``shared``: the state carries ``default()``'s very value, which a snapshot names instead
    of keeping (session/session.py)."""

    load: Callable[[Path], object] = _no_data
    default: Callable[[], object] = _no_data
    shared: bool = False


@dataclass(frozen=True)
class StepKinds:
    """The step kinds the glass, the seat lights and the web page read of a game's trace:
    ``actor``: the step naming who acts now (its page's title: the piece acting);
    ``target``: the step naming the hero a piece aims at (its ``target`` fact: that seat
    lights up); ``target_ends``: the steps after which no target is lit and the web page
    begins a new group (a new activation, a new turn); ``round``: the step beginning a round
    (its ``round`` fact)."""

    actor_kind: str | None = None
    target_kind: str | None = None
    target_ends: frozenset[str] = frozenset()
    round_kind: str | None = None


@dataclass(frozen=True)
class GameSpec:
    name: str
    title: str
    build: Callable[[dict[str, Any]], Any]  # a setup -> the state (raises ValueError)
    format1_keys: tuple[str, ...]  # where a format 1 scenario keeps its setup
    format1_setup: Callable[[dict[str, Any]], tuple[Any, str]]
    state_dict: Callable[[Any], dict[str, Any]]
    is_over: Callable[[Any], bool]
    result: Callable[[Any], str | None]  # how it ended, None while it goes on
    names: Callable[[Any], dict[str, str]]  # id -> display name, for screens and menus
    moves: MoveTable[Any]
    main_move: str | None  # what NEXT AI PIECE begins
    rulebook: ModuleType
    # Keys of questions the rules no longer ask: an answer to one in an older log is passed
    # over when the game is replayed (the game goes on as if it had not been asked).
    retired_keys: frozenset[str] = frozenset()
    # Step kinds that end a stretch of play (a room won, the party defeated): the store's WAL is
    # checkpointed into its file after the input that yields one.
    milestones: frozenset[str] = frozenset()
    data: GameData = field(default_factory=GameData)
    # The cards a game has (a tag, the simulator's reader): kind -> card id -> name, in data
    # file order.
    cards: Callable[[], dict[str, dict[str, str]]] = dict
    kinds: StepKinds = field(default_factory=lambda: StepKinds())
    # The books the table can correct now, with what each holds (core/books.py): the game's
    # ``correct`` move sets one; None: the game keeps no books to mend.
    books: Callable[[Any], Sequence[Book]] | None = None
    screens: object = None  # a screens.facet.Screens (None: the generic screens only)
    table: object = None  # an app.flow.Table

    def legal_actions(self, state: Any) -> list[Move[Any]]:
        return self.moves.legal(state)

    def start(self, state: Any, action: dict[str, Any]) -> Procedure:
        return self.moves.start(state, action)


class Registry(Mapping[str, GameSpec]):
    """Every game by name, in the order added; a game's record is made (its rules imported)
    the first time it is looked up."""

    def __init__(self) -> None:
        self._makers: dict[str, Callable[[], GameSpec]] = {}
        self._specs: dict[str, GameSpec] = {}

    def add(self, name: str, make: Callable[[], GameSpec]) -> None:
        """The game ``name``, made by ``make`` when first looked up (again: replaced)."""
        self._makers[name] = make
        self._specs.pop(name, None)

    def remove(self, name: str) -> None:
        self._makers.pop(name, None)
        self._specs.pop(name, None)

    def __getitem__(self, name: str) -> GameSpec:
        if name not in self._specs:
            spec = self._makers[name]()
            if spec.name != name:
                raise ValueError(f"the registry's game {name!r} makes a record named "
                                 f"{spec.name!r}")
            self._specs[name] = spec
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._makers)

    def __len__(self) -> int:
        return len(self._makers)

    def __contains__(self, name: object) -> bool:
        return name in self._makers


GAMES = Registry()


def get(name: str) -> GameSpec:
    if name not in GAMES:
        known = ", ".join(GAMES) or "none (overseer.app.registry.install() lists them)"
        raise UnknownGame(f"unknown game {name!r}; known: {known}")
    return GAMES[name]


def __getattr__(name: str) -> GameSpec:
    """``games.CATACOMBS``... : a registered game by its name in capitals."""
    if name.isupper() and name.lower() in GAMES:
        return GAMES[name.lower()]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
