"""The games Overseer plays, one ``GameSpec`` each: the one place the session, export, the CLI,
scenarios and screens find a game.

A spec names how to build the state from a setup, how to read it (``state_dict``, ``names``),
when it is over and how it ended, its move table (what the table may do now: ``legal``), its
rulebook module (the sections its trace cites) and its screens. It is also the ``Game`` the
``Runner`` drives: ``start`` reads an action through the move table.

Catacombs (the gadget's game) is loaded with this module; the other games are loaded the first
time they are asked for (``GAMES[name]``, ``get``, ``CONQUEST``...), so that the gadget's cold
start does not import their rules and data (bench/sim_start.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from overseer.core.moves import Move, MoveTable
from overseer.core.procedure import Procedure
from overseer.loaders import catacombs as catacombs_loader
from overseer.rules.catacombs import end as catacombs_end
from overseer.rules.catacombs import moves as catacombs_moves
from overseer.rules.catacombs import rulebook as catacombs_rulebook
from overseer.rules.catacombs import scenario as catacombs_scenario
from overseer.rules.catacombs.carddata import CatacombsData
from overseer.rules.catacombs.state import Battle
from overseer.screens import catacombs as catacombs_screens


class UnknownGame(ValueError):
    pass


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
    screens: ModuleType | None  # its screen builders (None: the generic screens only)
    # Keys of questions the rules no longer ask: an answer to one in an older log is passed
    # over when the game is replayed (the game goes on as if it had not been asked).
    retired_keys: frozenset[str] = frozenset()
    # Step kinds that end a stretch of play (a room won, the party defeated): the store's WAL is
    # checkpointed into its file after the input that yields one.
    milestones: frozenset[str] = frozenset()

    def legal_actions(self, state: Any) -> list[Move[Any]]:
        return self.moves.legal(state)

    def start(self, state: Any, action: dict[str, Any]) -> Procedure:
        return self.moves.start(state, action)


@cache
def catacombs_data(folder: Path | None = None) -> CatacombsData:
    """The Catacombs cards and tables of ``folder`` (data/catacombs/ by default), loaded and
    validated once per folder: every battle built from it shares the one value."""
    return catacombs_loader.load(folder)


@cache
def catacombs_heroes(folder: Path | None = None) -> dict[str, dict[str, Any]]:
    """The heroes of ``folder``'s heroes.toml (data/catacombs/ by default) by id, loaded and
    validated once per folder: the new game's list, the hero cards a tap names."""
    return catacombs_loader.heroes(folder)


def _build_battle(setup: dict[str, Any]) -> Battle:
    return catacombs_scenario.build(setup, catacombs_data())


def _battle_names(battle: Battle) -> dict[str, str]:
    names = {h.id: h.name for h in battle.heroes.values()}
    names.update((p.id, p.name) for p in battle.pieces.values())
    return names


CATACOMBS = GameSpec(
    name="catacombs",
    title="Catacombs 3E: the AI player",
    build=_build_battle,
    format1_keys=catacombs_scenario.FORMAT1_KEYS,
    format1_setup=catacombs_scenario.format1_setup,
    state_dict=catacombs_scenario.state_dict,
    is_over=catacombs_end.is_over,
    result=catacombs_end.result,
    names=_battle_names,
    moves=catacombs_moves.MOVES,
    main_move="next_ai_piece",
    rulebook=catacombs_rulebook,
    screens=catacombs_screens,
    # "edge": is the piece at the playmat's edge? The clock step now gives both cases.
    retired_keys=frozenset({"edge"}),
    milestones=frozenset({"room_won", "party_defeated"}),
)

@cache
def conquest_cards() -> dict[str, Any]:
    """The Conquest card list (data/conquest/cards.toml), loaded and validated once."""
    from overseer.loaders.conquest import load_cards

    return load_cards()


def _conquest() -> GameSpec:
    from overseer.rules.conquest import end as conquest_end
    from overseer.rules.conquest import moves as conquest_moves
    from overseer.rules.conquest import rulebook as conquest_rulebook
    from overseer.rules.conquest import scenario as conquest_scenario
    from overseer.rules.conquest.state import TEAM_NAMES, ConquestState
    from overseer.screens import conquest as conquest_screens

    def names(state: ConquestState) -> dict[str, str]:
        found = dict(TEAM_NAMES)
        found.update((p, p) for p in state.players)
        found.update((c.id, c.title) for c in state.cards.values())
        return found

    return GameSpec(
        name="conquest",
        title="Catacombs Conquest",
        build=lambda setup: conquest_scenario.build(setup, conquest_cards()),
        format1_keys=conquest_scenario.FORMAT1_KEYS,
        format1_setup=conquest_scenario.format1_setup,
        state_dict=conquest_scenario.state_dict,
        is_over=lambda state: state.over is not None,
        result=conquest_end.result,
        names=names,
        moves=conquest_moves.MOVES,
        main_move=None,
        rulebook=conquest_rulebook,
        screens=conquest_screens,
    )


def _runebound() -> GameSpec:
    from overseer.loaders import runebound as runebound_data
    from overseer.rules.runebound import moves as runebound_moves
    from overseer.rules.runebound import rulebook as runebound_rulebook
    from overseer.rules.runebound import scenario as runebound_scenario
    from overseer.rules.runebound import victory as runebound_victory
    from overseer.screens import runebound as runebound_screens

    return GameSpec(
        name="runebound",
        title="Runebound: The Cataclysm",
        build=lambda setup: runebound_scenario.build(setup, runebound_data.default()),
        format1_keys=runebound_scenario.FORMAT1_KEYS,
        format1_setup=runebound_scenario.format1_setup,
        state_dict=runebound_scenario.state_dict,
        is_over=lambda state: state.over is not None,
        result=runebound_victory.result,
        names=runebound_scenario.names,
        moves=runebound_moves.MOVES,
        main_move=None,
        rulebook=runebound_rulebook,
        screens=runebound_screens,
    )


def _clank() -> GameSpec:
    from overseer.loaders import clank as clank_loader
    from overseer.rules.clank import moves as clank_moves
    from overseer.rules.clank import rulebook as clank_rulebook
    from overseer.rules.clank import scenario as clank_scenario
    from overseer.rules.clank import state as clank_state
    from overseer.screens import clank as clank_screens

    return GameSpec(
        name="clank",
        title="Clank! Catacombs: Lairs and Lost Chambers",
        build=lambda setup: clank_scenario.build(setup, clank_loader.default()),
        format1_keys=clank_scenario.FORMAT1_KEYS,
        format1_setup=clank_scenario.format1_setup,
        state_dict=clank_state.state_dict,
        is_over=lambda state: state.over is not None,
        result=clank_state.result,
        names=clank_state.names,
        moves=clank_moves.MOVES,
        main_move=None,
        rulebook=clank_rulebook,
        screens=clank_screens,
    )


_LOADERS: dict[str, Callable[[], GameSpec]] = {
    "catacombs": lambda: CATACOMBS, "conquest": _conquest, "clank": _clank,
    "runebound": _runebound}


class _Games(Mapping[str, GameSpec]):
    """Every game by name; a game's rules are imported the first time it is looked up."""

    def __init__(self) -> None:
        self._specs: dict[str, GameSpec] = {}

    def __getitem__(self, name: str) -> GameSpec:
        if name not in self._specs:
            self._specs[name] = _LOADERS[name]()
        return self._specs[name]

    def __iter__(self) -> Iterator[str]:
        return iter(_LOADERS)

    def __len__(self) -> int:
        return len(_LOADERS)

    def __contains__(self, name: object) -> bool:
        return name in _LOADERS


GAMES: Mapping[str, GameSpec] = _Games()


def __getattr__(name: str) -> GameSpec:
    """``games.CONQUEST``, ``games.CLANK``, ``games.RUNEBOUND``: loaded when first used."""
    if name in ("CONQUEST", "CLANK", "RUNEBOUND"):
        return GAMES[name.lower()]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get(name: str) -> GameSpec:
    if name not in GAMES:
        raise UnknownGame(f"unknown game {name!r}; known: {', '.join(GAMES)}")
    return GAMES[name]
