"""Runebound: The Cataclysm's record: the rules (rules/runebound/), the box data
(loaders/runebound.py), the screens (screens/runebound.py) and the table (app/runebound.py).
No Runebound card is tagged."""

from __future__ import annotations

from overseer.app.runebound import TABLE
from overseer.games import GameData, GameSpec, StepKinds
from overseer.loaders import runebound as loader
from overseer.rules.runebound import books, moves, rulebook, scenario, victory
from overseer.rules.runebound.kinds import StepKind
from overseer.screens.runebound import SCREENS

GAME = GameSpec(
    name="runebound",
    title="Runebound: The Cataclysm",
    build=lambda setup: scenario.build(setup, loader.default()),
    format1_keys=scenario.FORMAT1_KEYS,
    format1_setup=scenario.format1_setup,
    state_dict=scenario.state_dict,
    is_over=lambda state: state.over is not None,
    result=victory.result,
    names=scenario.names,
    moves=moves.MOVES,
    main_move=None,
    rulebook=rulebook,
    data=GameData(load=loader.load, default=loader.default, shared=True),
    kinds=StepKinds(target_ends=frozenset({StepKind.TURN})),
    books=books.book_list,
    screens=SCREENS,
    table=TABLE,
)
