"""Whose turn it is, and its steps (Cataclysm: Gameplay - play proceeds as in the base game).

Heroes take their turns in seat order from the first player. The rules follow three steps of a
turn: Movement (travel, the trading pool), Adventure (one Curse card attempted) and Market (in a
freed town). Refresh and Experience are the base game's and need nothing from the box.
"""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.params import param
from overseer.core.procedure import Procedure, RulesError, Step
from overseer.rules.runebound import rulebook
from overseer.rules.runebound.kinds import StepKind
from overseer.rules.runebound.state import PLAY, RuneboundState, Turn


def current(state: RuneboundState) -> list[str]:
    """The hero whose turn it is, as a menu's options."""
    hero = state.current()
    return [] if hero is None else [hero]


def in_play(state: RuneboundState) -> bool:
    return state.phase == PLAY and state.over is None and state.turn is not None


def check_turn(state: RuneboundState, hero: str) -> Turn:
    """The turn, if it is ``hero``'s; else ``RulesError`` saying whose it is."""
    if hero not in state.heroes:
        raise RulesError(f"there is no hero {hero!r} (heroes: {', '.join(state.heroes)})")
    turn = state.turn
    if not in_play(state) or turn is None:
        raise RulesError(f"the game is not in play (phase: {state.phase})")
    if turn.hero != hero:
        raise RulesError(f"it is {state.heroes[turn.hero].name}'s turn, not "
                         f"{state.heroes[hero].name}'s")
    return turn


def begin_turn(state: RuneboundState, hero: str) -> Procedure:
    number = 1 if state.turn is None else state.turn.number + 1
    state.turn = Turn(number=number, hero=hero)
    where = state.place_name(state.heroes[hero])
    yield Step(StepKind.TURN, rulebook.GAMEPLAY,
               f"Turn {number}: {state.heroes[hero].name} ({where}); Movement step.",
               {"number": number, "hero": hero, "where": state.heroes[hero].town})


@dataclass(frozen=True, slots=True)
class EndTurn:
    """``{"do": "end_turn", "hero": id}``: the hero's turn is over (Experience as normal)."""

    hero: str = param(options=current, prompt="Whose turn ends?")


def end_turn(state: RuneboundState, params: EndTurn) -> Procedure:
    turn = check_turn(state, params.hero)
    seat = state.players.index(turn.hero)
    yield Step(StepKind.TURN, rulebook.GAMEPLAY,
               f"{state.heroes[turn.hero].name} ends the turn (the Experience step as in the "
               "base game).", {"number": turn.number, "hero": turn.hero, "ended": True})
    yield from begin_turn(state, state.players[(seat + 1) % len(state.players)])
