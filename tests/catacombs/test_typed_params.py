"""Each move's procedure takes its move's typed parameters (a frozen dataclass beside the
procedure) and reads them as attributes; the rule checks the types cannot make are still made,
and change nothing."""

from __future__ import annotations

import copy
import typing

import pytest

from overseer import games
from overseer.core.procedure import RulesError, Step
from overseer.rules.catacombs import party, setup
from overseer.rules.catacombs.party import DamagePiece, UpdateHero
from overseer.rules.catacombs.setup import SetupRoom
from overseer.rules.conquest.play import Play, check_play


@pytest.mark.parametrize("spec", [games.CATACOMBS, games.CONQUEST], ids=lambda s: s.name)
def test_every_procedure_declares_its_moves_parameters(spec):
    for move in spec.moves.moves.values():
        procedure = getattr(move.procedure, "__wrapped__", move.procedure)
        assert typing.get_type_hints(procedure)["params"] is move.params, move.name


def battle():
    return games.CATACOMBS.build({"heroes": [{"id": "elf", "health": 8, "gold": 1,
                                              "items": ["Rope"]}],
                                  "pieces": [{"id": "orc-1", "card": "Orc"}]})


def test_update_hero_changes_only_the_fields_given():
    state = battle()
    steps = list(party.update_hero(state, UpdateHero(hero="elf", gold=3, poison=(2,))))
    elf = state.heroes["elf"]
    assert (elf.health, elf.gold, elf.poison, elf.items, elf.away) == (8, 3, [2], ["Rope"], None)
    assert [s.data for s in steps if isinstance(s, Step)] == [
        {"hero": "elf", "gold": 3, "poison": [2]}]


@pytest.mark.parametrize("procedure,params,message", [
    (party.update_hero, UpdateHero(hero="elf", health=-1), "health cannot be negative"),
    (party.update_hero, UpdateHero(hero="ogre", gold=2), "no hero 'ogre'"),
    (party.damage_piece, DamagePiece(piece="orc-1", amount=0), "at least 1"),
    (party.damage_piece, DamagePiece(piece="orc-2"), "no AI piece 'orc-2' on the playmat"),
    (party.damage_piece, DamagePiece(piece="orc-1", by="ogre"), "no hero 'ogre'"),
    (setup.setup_room, SetupRoom(room="bholoth-cemetery"), r"the battle is not over \(orc-1"),
])
def test_a_rule_check_refuses_and_changes_nothing(procedure, params, message):
    state = battle()
    before = copy.deepcopy(state.as_dict())
    with pytest.raises(RulesError, match=message):
        next(procedure(state, params))
    assert state.as_dict() == before


def test_conquest_checks_a_typed_play():
    state = games.CONQUEST.build({"players": {"p1": "sword", "p2": "skull"}})
    with pytest.raises(RulesError, match="the game has not started"):
        check_play(state, Play(player="p1", card="salavi"))
