"""Catacombs Conquest's record: the rules (rules/conquest/), the card list
(loaders/conquest.py), its cards' tags, the screens (screens/conquest.py) and the table
(app/conquest.py)."""

from __future__ import annotations

from overseer.app.conquest import TABLE
from overseer.games import GameData, GameSpec, StepKinds
from overseer.loaders import conquest as loader
from overseer.rules.conquest import books, end, moves, rulebook, scenario
from overseer.rules.conquest.kinds import StepKind
from overseer.rules.conquest.state import TEAM_NAMES, ConquestState
from overseer.screens.conquest import SCREENS


def names(state: ConquestState) -> dict[str, str]:
    found = dict(TEAM_NAMES)
    found.update((p, p) for p in state.players)
    found.update((c.id, c.title) for c in state.cards.values())
    return found


def _cards() -> dict[str, dict[str, str]]:
    """Every card (kind ``card``), named with its team (the id where the data has no name)."""
    return {"card": {c.id: f"{c.name} ({c.team})" if c.name != "unknown" else c.id
                     for c in loader.default().values()}}


GAME = GameSpec(
    name="conquest",
    title="Catacombs Conquest",
    build=lambda setup: scenario.build(setup, loader.default()),
    format1_keys=scenario.FORMAT1_KEYS,
    format1_setup=scenario.format1_setup,
    state_dict=scenario.state_dict,
    is_over=lambda state: state.over is not None,
    result=end.result,
    names=names,
    moves=moves.MOVES,
    main_move=None,
    rulebook=rulebook,
    data=GameData(load=loader.load, default=loader.default),
    cards=_cards,
    kinds=StepKinds(target_kind=StepKind.TARGET, target_ends=frozenset({StepKind.TURN})),
    books=books.book_list,
    screens=SCREENS,
    table=TABLE,
)
