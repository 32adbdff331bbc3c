"""Knockouts (Cataclysm: Knockouts): a hero knocked out stays on the space, or moves to the
nearest free town if there is one. The box does not know the map: the table says which free
town is nearest when there are several. The rest of a knockout is the base game's."""

from __future__ import annotations

from dataclasses import dataclass

from overseer.core.params import param
from overseer.core.procedure import ChooseOne, Procedure, RulesError, Step, YesNo
from overseer.rules.runebound import rulebook
from overseer.rules.runebound.kinds import Key, StepKind
from overseer.rules.runebound.state import FREED, RuneboundState
from overseer.rules.runebound.turns import in_play


def _heroes(state: RuneboundState) -> list[str]:
    return list(state.players) if in_play(state) else []


@dataclass(frozen=True, slots=True)
class Knockout:
    """``{"do": "knockout", "hero": id}``: the hero was knocked out."""

    hero: str = param(options=_heroes, prompt="Who was knocked out?")


def knockout(state: RuneboundState, params: Knockout) -> Procedure:
    if params.hero not in state.heroes:
        raise RulesError(f"there is no hero {params.hero!r} (heroes: {', '.join(state.heroes)})")
    hero = state.heroes[params.hero]
    free = state.towns_with(FREED)
    facts = {"hero": hero.id, "free_towns": free}
    if hero.town in free:
        yield Step(StepKind.KNOCKOUT, rulebook.KNOCKOUTS,
                   f"{hero.name} is knocked out in {state.place_name(hero)}, a free town: "
                   "stays there (Overseer's ruling: it is the nearest free town).",
                   {**facts, "moved": False, "town": hero.town})
        return
    if not free:
        yield Step(StepKind.KNOCKOUT, rulebook.KNOCKOUTS,
                   f"{hero.name} is knocked out; no town is free yet: stays on this space "
                   f"({state.place_name(hero)}).", {**facts, "moved": False, "town": hero.town})
        return
    move = yield YesNo(prompt=f"{hero.name} is knocked out: move to the nearest free town "
                              "(yes) or stay on this space (no)?", key=Key.KNOCKOUT)
    if not move:
        yield Step(StepKind.KNOCKOUT, rulebook.KNOCKOUTS,
                   f"{hero.name} is knocked out and stays on this space "
                   f"({state.place_name(hero)}).", {**facts, "moved": False, "town": hero.town})
        return
    names = {t: state.data.towns[t].name for t in free}
    town = free[0] if len(free) == 1 else (yield ChooseOne(
        prompt=f"Which free town is nearest to {hero.name}? ({', '.join(names.values())})",
        options=tuple(free), key=Key.NEAREST))
    hero.town, hero.terrain = town, state.data.towns[town].terrain
    yield Step(StepKind.KNOCKOUT, rulebook.KNOCKOUTS,
               f"{hero.name} is knocked out and moves to {names[town]}, the nearest free town.",
               {**facts, "moved": True, "town": town})
