"""A toy fifth game, to show that a game plugs into the house with one registry line: tiny rules
(take coins, one at a time, until the table has taken as many as it said), one move (``take``),
one card kind (``coin``), a table of a few lines on the Table base class, and its record.

``plugged`` (a fixture of tests/toy/conftest.py) is the one line: ``games.GAMES.add("toy",
lambda: GAME)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from overseer.app.flow import NewGame, Table, TapActions
from overseer.app.local import Ask, LocalProcedure
from overseer.core.moves import Move, MoveTable
from overseer.core.params import param
from overseer.core.procedure import EnterNumber, Procedure, Step
from overseer.games import GameSpec
from overseer.screens.facet import Screens
from tests.toy import rulebook

COINS = {"gold": "Gold coin", "silver": "Silver coin", "copper": "Copper coin"}


# --------------------------------------------------------------------------- the rules


@dataclass
class Coins:
    goal: int
    taken: list[str] = field(default_factory=list)

    def left(self) -> list[str]:
        return [c for c in COINS if c not in self.taken]


@dataclass(frozen=True)
class Take:
    coin: str = param(options=lambda state: state.left(), prompt="Which coin?")


def build(setup: dict[str, Any]) -> Coins:
    goal = setup.get("goal", 2)
    if not isinstance(goal, int) or not 1 <= goal <= len(COINS):
        raise ValueError(f"goal: 1 to {len(COINS)} coins, not {goal!r}")
    return Coins(goal)


def take(state: Coins, params: Take) -> Procedure:
    if params.coin not in state.left():
        from overseer.core.procedure import RulesError

        raise RulesError(f"the {COINS.get(params.coin, params.coin)} is taken already")
    state.taken.append(params.coin)
    yield Step("taken", rulebook.TAKE, f"{COINS[params.coin]} taken", {"coin": params.coin})


def is_over(state: Coins) -> bool:
    return len(state.taken) >= state.goal


MOVES: MoveTable[Coins] = MoveTable("Toy", {"take": Move(
    "take", "Take a coin", Take, take, lambda s: not is_over(s), "every coin wanted is taken")})


# --------------------------------------------------------------------------- the table


class ToyTable(Table):
    game, label = "toy", "Toy"
    short = {"take": "Take a coin"}

    def wizard(self, seats: tuple[int, ...], pico: bool) -> LocalProcedure:
        goal = yield Ask(EnterNumber("How many coins?", "new_goal", 1, len(COINS)), start=2)
        return NewGame({"format": 2, "game": "toy", "setup": {"goal": goal}}, "seeded", ())

    def labels(self, state: Coins) -> dict[str, str]:
        return dict(COINS)

    def taps(self, state: Coins, question: Any) -> dict[tuple[str, str], str]:
        return {("coin", c): c for c in state.left()}

    def status(self, state: Coins, names: Mapping[str, str]) -> tuple[str, ...]:
        return (f"{len(state.taken)} of {state.goal} coins taken",)

    def tap_actions(self, state: Coins, legal: list[Move[Any]]) -> TapActions:
        out: TapActions = {("coin", c): f"the {COINS[c]} is taken already" for c in state.taken}
        if legal:
            out.update((("coin", c), {"do": "take", "coin": c}) for c in state.left())
        return out


# --------------------------------------------------------------------------- the record


GAME = GameSpec(
    name="toy",
    title="A toy game",
    build=build,
    format1_keys=(),
    format1_setup=lambda doc: (doc, ""),
    state_dict=lambda state: {"goal": state.goal, "taken": list(state.taken)},
    is_over=is_over,
    result=lambda state: f"{len(state.taken)} coins taken" if is_over(state) else None,
    names=lambda state: dict(COINS),
    moves=MOVES,
    main_move=None,
    rulebook=rulebook,
    cards=lambda: {"coin": dict(COINS)},
    screens=Screens(short={"coin": "Which coin?"}),
    table=ToyTable(),
)
