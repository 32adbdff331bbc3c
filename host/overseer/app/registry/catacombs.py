"""Catacombs 3E's record: the rules (rules/catacombs/), the data (loaders/catacombs.py), the
cards that get tags, the screens (screens/catacombs.py) and the table (app/catacombs.py)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from overseer.app.catacombs import TABLE
from overseer.games import GameData, GameSpec, StepKinds
from overseer.loaders import catacombs as loader
from overseer.rules.catacombs import books, end, moves, rulebook, scenario
from overseer.rules.catacombs.kinds import StepKind
from overseer.screens.catacombs import SCREENS


def _load(folder: Path) -> object:
    """Every file of ``folder``, the heroes too (the files as they are now, not a cache)."""
    return loader.load(folder), loader.heroes(folder)


@cache
def _cards() -> dict[str, dict[str, str]]:
    """The monsters, rooms, Lords and heroes by id (the heroes last: a table that wrote part
    of an older list goes on with ``tags write --start N``); made once (the gadget reads the
    heroes' at every view)."""
    data = loader.default()
    return {kind: {r["id"]: r["name"] for r in table.values()}
            for kind, table in (("monster", data.monsters), ("room", data.rooms),
                                ("lord", data.lords), ("hero", loader.default_heroes()))}


GAME = GameSpec(
    name="catacombs",
    title="Catacombs 3E: the AI player",
    build=lambda setup: scenario.build(setup, loader.default()),
    format1_keys=scenario.FORMAT1_KEYS,
    format1_setup=scenario.format1_setup,
    state_dict=scenario.state_dict,
    is_over=end.is_over,
    result=end.result,
    names=scenario.names,
    moves=moves.MOVES,
    main_move="next_ai_piece",
    rulebook=rulebook,
    # "edge": is the piece at the playmat's edge? The clock step now gives both cases.
    retired_keys=frozenset({"edge"}),
    milestones=frozenset({"room_won", "party_defeated"}),
    data=GameData(load=_load, default=loader.default, shared=True),
    cards=_cards,
    kinds=StepKinds(actor_kind=StepKind.ACTIVE_CHARACTER, target_kind=StepKind.TARGET,
                    target_ends=frozenset({StepKind.ACTIVE_CHARACTER}),
                    round_kind=StepKind.ROUND),
    books=books.book_list,
    screens=SCREENS,
    table=TABLE,
)
