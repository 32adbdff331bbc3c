"""The Catacombs books a correction sets (rules/catacombs/books.py): an AI piece's health,
set to what the table has, in the rules' words with the rule it rests on; the pieces that take
no damage have no book; a correction never destroys a piece; none outside a battle."""

from __future__ import annotations

import copy

import pytest

from overseer import games
from overseer.core.procedure import RulesError, Runner
from overseer.rules.catacombs import books, rulebook

SETUP = {"heroes": [{"id": "elf", "name": "Elf", "health": 7}],
         "pieces": [{"id": "orc-1", "card": "Orc"}, {"id": "orc-2", "card": "Orc"},
                    {"id": "rat-1", "card": "Sewer Rat"}]}


def battle():
    return games.CATACOMBS.build(SETUP)


def test_each_piece_on_the_playmat_has_its_health_as_a_book() -> None:
    state = battle()
    listed = books.book_list(state)
    assert [(b.id, b.label, b.now, b.low, b.high) for b in listed] == [
        ("health-orc-1", "orc-1 health", state.pieces["orc-1"].health, 1, books.MOST),
        ("health-orc-2", "orc-2 health", state.pieces["orc-2"].health, 1, books.MOST),
        ("health-rat-1", "rat-1 health", state.pieces["rat-1"].health, 1, books.MOST)]
    state.pieces["rat-1"].health = 0  # destroyed: no longer on the playmat
    state.pieces["orc-2"].mount = True  # a Mount takes no damage (Ice Box: Mounts)
    assert [b.id for b in books.book_list(state)] == ["health-orc-1"]
    assert games.CATACOMBS.books is books.book_list


def test_a_correction_sets_the_piece_s_health_and_says_so() -> None:
    runner = Runner(games.CATACOMBS, battle())
    was = runner.state.pieces["orc-2"].health
    assert runner.begin({"do": "correct", "book": "health-orc-2", "value": was + 3}) is None
    assert runner.state.pieces["orc-2"].health == was + 3
    step = runner.trace[-1]
    assert (step.kind, step.rule) == ("correction", rulebook.PIECE_DAMAGE)
    assert step.text == f"Correction by the table: Orc's health {was} -> {was + 3}."
    assert step.at_table({"orc-2": "Orc B"}).text == \
        f"Correction by the table: Orc B's health {was} -> {was + 3}."
    assert step.data == {"book": "health-orc-2", "piece": "orc-2", "was": was, "now": was + 3}


@pytest.mark.parametrize(("value", "why"), [
    (0, "a piece is destroyed by a hit, not by a correction .*: Orc's health is at least 1"),
    (31, "Orc's health is at most 30"),
    (None, "already holds"),
])
def test_a_correction_the_piece_cannot_hold_changes_nothing(value: int | None, why: str) -> None:
    state = battle()
    if value is None:
        value = state.pieces["orc-1"].health
    before = copy.deepcopy(state)
    with pytest.raises(RulesError, match=why):
        Runner(games.CATACOMBS, state).begin({"do": "correct", "book": "health-orc-1",
                                              "value": value})
    assert games.CATACOMBS.state_dict(state) == games.CATACOMBS.state_dict(before)


def test_no_correction_outside_a_battle() -> None:
    state = games.CATACOMBS.build({"heroes": SETUP["heroes"]})  # no room set up yet
    assert books.book_list(state) == []
    assert "correct" not in {m.name for m in games.CATACOMBS.legal_actions(state)}
    with pytest.raises(RulesError, match="Correct the books"):
        Runner(games.CATACOMBS, state).begin({"do": "correct", "book": "health-orc-1",
                                              "value": 2})
