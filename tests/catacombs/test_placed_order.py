"""Which of two tied pieces acts first when the setup placed them and neither has moved since
(Red Box: AI Player Behaviour, step 1, by the Direction tiles; Overseer's ruling,
``order.may_come_first``): the box knows the order it placed them in along the green tile, so it
asks the table only what it cannot know."""

from __future__ import annotations

from typing import Any

from overseer import games
from overseer.core.procedure import DrawToken, Runner
from overseer.rules.catacombs.kinds import Key

TILES = {"character_order": ["level-1", "level-2"], "monster_order": ["green", "blue", "grey"],
         "direction": ["left-to-right", "monster-to-hero"]}
HEROES = [{"id": "elf", "name": "Elf", "health": 8}]
# Told apart by their health: of alike pieces none is asked (order.alike, test_known_facts.py).
ORCS = [{"id": f"orc-{n}", "name": "Orc", "type": "green", "order_tile": "level-1",
         "health": n + 1, "sequences": [["Melee"]]} for n in (1, 2)]


def battle(spots: dict[str, str], direction: list[str] | None = None) -> Any:
    """Two Orcs placed by the setup on ``spots`` (as placement.walk keeps them)."""
    tiles = {**TILES, **({"direction": direction} if direction else {})}
    made = games.CATACOMBS.build({"tiles": tiles, "heroes": HEROES, "pieces": ORCS})
    made.adventure.placement = list(spots.items())
    made.unmoved = list(spots)
    return made


def first_asked(runner: Runner) -> str | None:
    return runner.pending.key if runner.pending is not None else None


def active(runner: Runner) -> dict[str, Any]:
    return next(s.data for s in runner.trace if s.kind == "active_character")


def test_two_pieces_behind_obstacles_act_in_the_order_placed_without_a_question():
    runner = Runner(games.CATACOMBS, battle({"orc-1": "obstacle-3", "orc-2": "obstacle-2"}))
    runner.begin({"do": "next_ai_piece"})
    assert first_asked(runner) != Key.FIRST_BY_DIRECTION
    assert active(runner)["piece"] == "orc-2" and active(runner)["why"] == "placement"
    assert "as the setup placed it (Overseer's ruling: not moved since)" in next(
        s.text for s in runner.trace if s.kind == "active_character")
    assert "orc-2" not in runner.state.unmoved and "orc-1" in runner.state.unmoved


def test_the_table_is_asked_when_the_spots_are_of_two_kinds():
    runner = Runner(games.CATACOMBS, battle({"orc-1": "rune-1", "orc-2": "obstacle-1"}))
    runner.begin({"do": "next_ai_piece"})
    assert first_asked(runner) == Key.FIRST_BY_DIRECTION


def test_the_table_is_asked_when_a_piece_has_moved_since():
    made = battle({"orc-1": "rune-1", "orc-2": "rune-2"})
    made.unmoved.remove("orc-1")  # it acted (out of turn) since it was placed
    runner = Runner(games.CATACOMBS, made)
    runner.begin({"do": "next_ai_piece"})
    assert first_asked(runner) == Key.FIRST_BY_DIRECTION


def test_the_table_is_asked_when_the_scan_reads_the_blue_tile_first():
    made = battle({"orc-1": "rune-1", "orc-2": "rune-2"},
                  direction=["monster-to-hero", "left-to-right"])
    runner = Runner(games.CATACOMBS, made)
    runner.begin({"do": "next_ai_piece"})
    assert first_asked(runner) == Key.FIRST_BY_DIRECTION


def test_pieces_given_by_a_scenario_are_not_placed_and_the_table_says():
    runner = Runner(games.CATACOMBS, games.CATACOMBS.build(
        {"tiles": TILES, "heroes": HEROES, "pieces": ORCS}))
    runner.begin({"do": "next_ai_piece"})
    assert first_asked(runner) == Key.FIRST_BY_DIRECTION


def test_of_two_on_runes_and_one_behind_an_obstacle_the_second_rune_is_not_offered():
    # The box placed three Orcs: rune 1, rune 2, behind obstacle 1 (the green tile read first).
    # The piece on rune 2 comes after the one on rune 1 by the scan; the obstacle's against
    # rune 1 is where they lie, for the table to see.
    made = games.CATACOMBS.build({"tiles": TILES, "heroes": HEROES, "pieces": [
        {**ORCS[0], "id": f"orc-{n}"} for n in (1, 2, 3)]})
    made.adventure.placement = [("orc-1", "rune-1"), ("orc-2", "rune-2"), ("orc-3", "obstacle-1")]
    made.unmoved = ["orc-1", "orc-2", "orc-3"]
    runner = Runner(games.CATACOMBS, made)
    runner.begin({"do": "next_ai_piece"})
    assert first_asked(runner) == Key.FIRST_BY_DIRECTION
    assert runner.pending.options == ("orc-1", "orc-3")
    assert runner.pending.prompt == ("Which of Orc (orc-1), Orc (orc-3) comes first scanning "
                                     "left to right (if level, Monster Start Zone to Hero Start "
                                     "Zone)?")
    runner.answer("orc-3")
    assert active(runner) == {"piece": "orc-3", "why": "direction_tile",
                              "character_tile": "level-1", "monster_tile": "green"}


def test_the_second_rune_is_offered_once_the_first_has_moved():
    made = battle({"orc-1": "rune-1", "orc-2": "rune-2"})
    made.unmoved.remove("orc-1")  # the heroes pushed it: it may lie anywhere now
    runner = Runner(games.CATACOMBS, made)
    runner.begin({"do": "next_ai_piece"})
    assert runner.pending.options == ("orc-1", "orc-2")


ARCHERS = [{"id": f"archer-{n}", "name": "Archer", "type": "green", "order_tile": "level-1", "health": 3,
            "sequences": [["Missile"]]} for n in (1, 2)]


def archers(spots: dict[str, str]) -> Any:
    made = games.CATACOMBS.build({"tiles": TILES, "heroes": HEROES, "pieces": ARCHERS})
    made.adventure.placement = list(spots.items())
    made.unmoved = list(spots)
    return made


def play_round(runner: Runner, answers: dict[str, Any]) -> list[str | None]:
    """Both pieces' turns, the table's questions answered from ``answers`` (a die by 1, a
    draw by the bag's last token); the keys asked, in order."""
    asked: list[str | None] = []
    for _ in range(2):
        runner.begin({"do": "next_ai_piece"})
        while runner.pending is not None:
            asked.append(runner.pending.key)
            pending = runner.pending
            if isinstance(pending, DrawToken):
                runner.answer(pending.remaining[-1])  # the last in the bag (1 damage: a push)
            else:
                runner.answer(answers.get(pending.key, 1))
    return asked


def test_pieces_that_only_shot_from_their_spots_are_still_known_the_next_round():
    # Red Box: AI Player Behaviour, step 5: a ranged shot draws a Damage token; the piece that
    # shoots does not move, so the order the box placed the Archers in still holds in round 2.
    runner = Runner(games.CATACOMBS, archers({"archer-1": "rune-2", "archer-2": "rune-1"}))
    first = play_round(runner, {})
    assert Key.FIRST_BY_DIRECTION not in first
    assert runner.state.unmoved == ["archer-1", "archer-2"]
    runner.begin({"do": "next_ai_piece"})  # round 2
    assert first_asked(runner) != Key.FIRST_BY_DIRECTION
    assert runner.state.round == 2
    assert [s.data["piece"] for s in runner.trace if s.kind == "active_character"][-1] == \
        "archer-2"


def test_a_piece_a_hero_hit_may_have_been_knocked_and_the_table_says():
    runner = Runner(games.CATACOMBS, archers({"archer-1": "rune-2", "archer-2": "rune-1"}))
    play_round(runner, {})
    runner.begin({"do": "damage_piece", "piece": "archer-2", "amount": 1, "by": "elf"})
    assert runner.state.unmoved == ["archer-1"]
    runner.begin({"do": "next_ai_piece"})
    assert first_asked(runner) == Key.FIRST_BY_DIRECTION


def test_a_piece_that_rushed_has_moved_and_the_table_says_the_next_round():
    runner = Runner(games.CATACOMBS, battle({"orc-1": "rune-2", "orc-2": "rune-1"}))
    play_round(runner, {Key.TEMPLATE: False})
    assert runner.state.unmoved == []
    runner.begin({"do": "next_ai_piece"})
    assert first_asked(runner) == Key.FIRST_BY_DIRECTION
