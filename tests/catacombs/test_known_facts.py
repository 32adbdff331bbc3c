"""Facts the box already knows, so it does not ask them again (Overseer's rulings,
docs/rules-coverage.md): the Attack template still covers a hero its last shot covered when
neither piece moved since, or the hero was pushed with the ruler the piece rushes with
(``shots.Cover``); the LOS check asked together with the Direction
tiles (``targeting.first_in_sight``) or with a closest column the later columns cannot split
(``targeting.ties_after``). Each test fixes the answers, tokens and dice and checks the
questions asked and the decision."""

from __future__ import annotations

from typing import Any

from overseer import games
from overseer.core.procedure import ChooseOne, DrawToken, Roll, Runner, Step, Token, YesNo
from overseer.rules.catacombs.targeting import NONE_IN_SIGHT, TIE

TILES = {"character_order": ["level-1"], "monster_order": ["brown", "blue", "grey"],
         "direction": ["left-to-right", "monster-to-hero"]}
ELF = {"id": "elf", "name": "Elf", "health": 9}
DWARF = {"id": "dwarf", "name": "Dwarf", "health": 9}


def runner_of(pieces: list[dict[str, Any]], heroes: list[dict[str, Any]],
              **options: Any) -> Runner:
    battle = games.CATACOMBS.build({"tiles": TILES, "heroes": heroes, "pieces": pieces,
                                    "options": options})
    return Runner(games.CATACOMBS, battle)


def steps(runner: Runner, kind: str) -> list[Step]:
    return [s for s in runner.trace if isinstance(s, Step) and s.kind == kind]


# ------------------------------------------------------------------ the Attack template


TWICE = {"id": "ogre", "name": "Ogre", "type": "blue", "order_tile": "level-1",
         "sequences": [["Melee", "Melee"]]}  # blue: Ruler 3, the heroes' push ruler
SHORT = {**TWICE, "type": "grey"}  # grey: Ruler 1


def first_hit(token: int, piece: dict[str, Any] = TWICE) -> tuple[Runner, object]:
    """The piece's first melee on the elf covered, its token ``token``: what comes next."""
    runner = runner_of([piece], [ELF])
    question = runner.begin({"do": "next_ai_piece"})
    assert isinstance(question, YesNo) and question.key == "template"
    question = runner.answer(True)
    assert isinstance(question, DrawToken)
    return runner, runner.answer(Token(token))


def test_a_second_melee_after_a_covered_zero_token_is_not_asked_again():
    runner, question = first_hit(0)
    # No push (a zero token), nothing moved: the second melee's template is known to cover.
    assert isinstance(question, DrawToken), question
    assert not steps(runner, "clock")
    covered = steps(runner, "covered")
    assert len(covered) == 1 and covered[0].data == {"piece": "ogre", "target": "elf"}
    assert "Overseer's ruling" in covered[0].text
    runner.answer(Token(2))
    assert runner.pending is not None and runner.state.heroes["elf"].health == 7


def test_a_push_with_the_rushing_piece_s_ruler_keeps_the_template_known():
    # The elf is pushed with Ruler 3; the ogre rushes with Ruler 3 toward her: as near again.
    runner, question = first_hit(1)
    assert isinstance(question, Roll)  # the push's D12 (Clock template)
    question = runner.answer(5)
    assert isinstance(question, DrawToken)
    assert [s.data["ruler"] for s in steps(runner, "clock")] == [3]
    assert len(steps(runner, "covered")) == 1


def test_a_push_longer_than_the_piece_s_rush_asks_the_template_again():
    runner, question = first_hit(1, SHORT)
    question = runner.answer(5)
    assert isinstance(question, YesNo) and question.key == "template"
    assert not steps(runner, "covered")


def test_a_miss_asks_the_template_again():
    runner = runner_of([TWICE], [ELF])
    runner.begin({"do": "next_ai_piece"})
    question = runner.answer(False)
    assert isinstance(question, YesNo) and question.key == "template"
    assert not steps(runner, "covered")


def test_one_melee_then_another_shot_keeps_nothing():
    # A shot between the melees may move either piece: the third shot asks again.
    ogre = {**TWICE, "sequences": [["Melee", "Rush", "Melee"]]}
    runner = runner_of([ogre], [ELF])
    runner.begin({"do": "next_ai_piece"})
    runner.answer(True)
    question = runner.answer(Token(0))
    assert isinstance(question, YesNo) and question.key == "template"


# ------------------------------------------------------------------ LOS and the tiles


BROWN = {"id": "rat", "name": "Rat", "type": "brown", "order_tile": "level-1",
         "sequences": [["Melee"]]}  # most gold, most poison, most poison: no closest column


def test_blocked_los_with_every_column_tied_asks_the_first_in_sight_once():
    runner = runner_of([BROWN], [ELF, DWARF], los_blocked=True)
    question = runner.begin({"do": "next_ai_piece"})
    assert isinstance(question, ChooseOne) and question.key == "first_in_sight"
    assert question.options == ("elf", "dwarf", NONE_IN_SIGHT)
    assert "comes first scanning left to right" in question.prompt
    question = runner.answer("dwarf")
    assert isinstance(question, YesNo) and question.key == "template"
    decided = steps(runner, "target")[-1].data
    assert decided["target"] == "dwarf" and decided["column"] == "direction"


def test_the_first_in_sight_answered_none_is_the_no_target_action():
    runner = runner_of([BROWN], [ELF, DWARF], los_blocked=True)
    runner.begin({"do": "next_ai_piece"})
    runner.answer(NONE_IN_SIGHT)
    assert steps(runner, "no_target") and not steps(runner, "target")


def test_a_column_that_splits_the_enemies_keeps_the_los_check_alone():
    runner = runner_of([BROWN], [{**ELF, "gold": 2}, DWARF], los_blocked=True)
    question = runner.begin({"do": "next_ai_piece"})
    assert question is not None and question.key == "los"
    question = runner.answer(("elf", "dwarf"))
    assert isinstance(question, YesNo)  # most gold: the elf, no other question
    assert steps(runner, "target")[-1].data["target"] == "elf"


# ------------------------------------------------------------------ a closest column


BLUE = {"id": "harpy", "name": "Harpy", "type": "blue", "order_tile": "level-1",
        "sequences": [["Melee"]]}  # closest, least health, least health


def test_closest_with_later_columns_tied_splits_by_the_tiles_in_the_question():
    runner = runner_of([BLUE], [ELF, DWARF])
    question = runner.begin({"do": "next_ai_piece"})
    assert isinstance(question, ChooseOne) and question.key == "closest"
    assert question.options == ("elf", "dwarf")  # no tie: the tiles split it
    assert "If equally close, the first scanning left to right" in question.prompt
    runner.answer("dwarf")
    decided = steps(runner, "target")[-1].data
    assert decided["target"] == "dwarf" and decided["column"] == "primary"


def test_closest_with_a_later_column_that_splits_offers_tie():
    runner = runner_of([BLUE], [ELF, {**DWARF, "health": 4}])
    question = runner.begin({"do": "next_ai_piece"})
    assert isinstance(question, ChooseOne) and question.options == ("elf", "dwarf", TIE)
    runner.answer(TIE)
    assert steps(runner, "target")[-1].data["target"] == "dwarf"  # least health


def test_closest_in_sight_with_later_columns_tied_has_no_tie_option():
    runner = runner_of([BLUE], [ELF, DWARF], los_blocked=True)
    question = runner.begin({"do": "next_ai_piece"})
    assert isinstance(question, ChooseOne) and question.key == "closest_in_sight"
    assert question.options == ("elf", "dwarf", NONE_IN_SIGHT)
    runner.answer("elf")
    assert steps(runner, "target")[-1].data["target"] == "elf"


def test_a_later_closest_column_is_asked_with_the_los_check_when_the_first_ties_all():
    orange = {"id": "imp", "name": "Imp", "type": "orange", "order_tile": "level-1",
              "sequences": [["Melee"]]}  # least health, closest, most gold
    runner = runner_of([orange], [ELF, DWARF], los_blocked=True)
    question = runner.begin({"do": "next_ai_piece"})
    assert isinstance(question, ChooseOne) and question.key == "closest_in_sight"
    runner.answer("dwarf")
    decided = steps(runner, "target")[-1].data
    assert decided["target"] == "dwarf" and decided["column"] == "secondary"
