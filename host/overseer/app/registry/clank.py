"""Clank! Catacombs' record: the rules (rules/clank/), the data (loaders/clank.py), the screens
(screens/clank.py) and the table (app/clank.py). Its room and monster cards are tapped by their
own ids; none gets a tag of ours yet."""

from __future__ import annotations

from overseer.app.clank import TABLE
from overseer.games import GameData, GameSpec, StepKinds
from overseer.loaders import clank as loader
from overseer.rules.clank import books, moves, rulebook, scenario, state
from overseer.rules.clank.kinds import StepKind
from overseer.screens.clank import SCREENS

GAME = GameSpec(
    name="clank",
    title="Clank! Catacombs: Lairs and Lost Chambers",
    build=lambda setup: scenario.build(setup, loader.default()),
    format1_keys=scenario.FORMAT1_KEYS,
    format1_setup=scenario.format1_setup,
    state_dict=state.state_dict,
    is_over=lambda s: s.over is not None,
    result=state.result,
    names=state.names,
    moves=moves.MOVES,
    main_move=None,
    rulebook=rulebook,
    data=GameData(load=loader.load, default=loader.default, shared=True),
    kinds=StepKinds(target_ends=frozenset({StepKind.TURN})),
    books=books.book_list,
    screens=SCREENS,
    table=TABLE,
)
