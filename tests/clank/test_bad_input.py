"""Refused actions, setups and answers: a clear message, and nothing changed."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from overseer import games
from overseer.core.procedure import AnswerError, RulesError, Runner
from overseer.core.shapes import BadInput
from overseer.rules.clank.setup import SetupError

SPEC = games.CLANK


def started(players: tuple[str, ...] = ("ann", "bo"), *rooms: str) -> Runner:
    """A game set up (positions 1-4 drawn) with ``rooms`` placed."""
    runner = Runner(SPEC, SPEC.build({"players": list(players), "base_safe_tiles": 4}),
                    chance=lambda question: question.options[0])
    assert runner.begin({"do": "setup"}) is None
    for room in rooms:
        assert runner.begin({"do": "reveal", "room": room}) is None
    return runner


def play(runner: Runner, action: dict[str, Any], *answers: Any) -> None:
    question = runner.begin(action)
    for answer in answers:
        assert question is not None
        question = runner.answer(answer)
    assert question is None


def refused(runner: Runner, action: dict[str, Any], message: str, *answers: Any) -> None:
    """The action (with ``answers`` to its questions) is refused with ``message`` and the state
    is as before."""
    before = copy.deepcopy(SPEC.state_dict(runner.state))
    with pytest.raises(RulesError, match=message):
        question = runner.begin(action)
        for answer in answers:
            assert question is not None
            question = runner.answer(answer)
    assert SPEC.state_dict(runner.state) == before
    assert not runner.busy


# --------------------------------------------------------------------------- cubes


def test_a_cube_in_an_occupied_space() -> None:
    runner = started(("ann", "bo"), "mad-bazaar")
    play(runner, {"do": "enter", "player": "ann", "room": "mad-bazaar"})
    play(runner, {"do": "place_cube", "player": "ann", "space": "mad-bazaar/showcase"},
         True, "gold")
    play(runner, {"do": "end_turn"})
    play(runner, {"do": "enter", "player": "bo", "room": "mad-bazaar"})
    refused(runner, {"do": "place_cube", "player": "bo", "space": "mad-bazaar/showcase"},
            r"Showcase stall already holds ann's cube: a cube goes only in an empty space")


def test_a_second_temple_offering() -> None:
    runner = started(("ann",), "temple-of-gold")
    play(runner, {"do": "enter", "player": "ann", "room": "wayside-shrine"})
    play(runner, {"do": "place_cube", "player": "ann", "space": "temple-of-gold/3"},
         True, ["heal-2"])
    refused(runner, {"do": "place_cube", "player": "ann", "space": "temple-of-gold/5"},
            r"ann has already made an offering in the Temple of Gold \(3 gold\): one offering "
            "only")


def _second_on_the_3_gold_column() -> Runner:
    runner = started(("ann", "bo"), "temple-of-gold")
    play(runner, {"do": "enter", "player": "ann", "room": "wayside-shrine"})
    play(runner, {"do": "place_cube", "player": "ann", "space": "temple-of-gold/3"},
         True, ["heal-2"])
    play(runner, {"do": "end_turn"})
    play(runner, {"do": "enter", "player": "bo", "room": "wayside-shrine"})
    return runner


def test_a_second_offering_of_a_size_shares_its_column_as_a_marked_ruling() -> None:
    runner = _second_on_the_3_gold_column()
    question = runner.begin({"do": "place_cube", "player": "bo", "space": "temple-of-gold/3"})
    assert question is not None and question.key == "cube_in_supply"
    question = runner.answer(True)
    assert question is not None and question.key == "temple_column_shared"
    assert "Overseer's ruling: yes" in question.prompt
    assert runner.answer(True) is not None  # which parts of the reward
    assert runner.answer(["heal-2"]) is None
    temple = next(s for s in runner.trace if s.kind == "temple" and s.data["player"] == "bo")
    assert temple.data == {**temple.data, "shared_with": "ann", "verified": False}
    assert runner.state.players["bo"].offering == 3


def test_the_table_may_read_the_temple_as_one_cube_a_column() -> None:
    runner = _second_on_the_3_gold_column()
    before = copy.deepcopy(SPEC.state_dict(runner.state))
    play(runner, {"do": "place_cube", "player": "bo", "space": "temple-of-gold/3"},
         True, False)
    assert runner.trace[-1].data == {"player": "bo", "offering": None,
                                     "column": "temple-of-gold/3", "verified": False}
    assert "the table reads the 3-gold column as ann's alone" in runner.trace[-1].text
    assert SPEC.state_dict(runner.state)["players"] == before["players"]
    assert runner.state.players["bo"].offering is None


def test_the_temple_is_offered_to_from_a_wayside_shrine_only() -> None:
    runner = started(("ann",), "temple-of-gold")
    refused(runner, {"do": "place_cube", "player": "ann", "space": "temple-of-gold/2"},
            "ann must be in a wayside shrine to place a cube in Temple of Gold "
            r"\(now in another room\)")


def test_a_cube_only_in_the_room() -> None:
    runner = started(("ann",), "mad-bazaar", "aegis-shrine")
    play(runner, {"do": "enter", "player": "ann", "room": "aegis-shrine"})
    refused(runner, {"do": "place_cube", "player": "ann", "space": "mad-bazaar/mystic-brew"},
            r"ann must be in Mad Bazaar to place a cube there \(now in Aegis Shrine\)")


def test_one_cube_a_room() -> None:
    runner = started(("ann",), "mad-bazaar")
    play(runner, {"do": "enter", "player": "ann", "room": "mad-bazaar"})
    play(runner, {"do": "place_cube", "player": "ann", "space": "mad-bazaar/showcase"},
         True, "gold")
    refused(runner, {"do": "place_cube", "player": "ann", "space": "mad-bazaar/stolen-goods"},
            r"ann already has a cube in Mad Bazaar \(mad-bazaar/showcase\): one cube a room")


def test_no_cube_left_in_the_supply() -> None:
    runner = started(("ann",), "aegis-shrine")
    play(runner, {"do": "enter", "player": "ann", "room": "aegis-shrine"})
    refused(runner, {"do": "place_cube", "player": "ann", "space": "aegis-shrine/1"},
            "ann has no cube left in their personal supply: no cube can be placed", False)


def test_no_cube_in_umbroka_vessna_and_a_room_is_not_a_space() -> None:
    runner = started(("ann",), "umbroka-vessna", "mad-bazaar")
    refused(runner, {"do": "place_cube", "player": "ann", "space": "umbroka-vessna"},
            "no cubes may be placed in Treasury of Umbroka Vessna")
    refused(runner, {"do": "place_cube", "player": "ann", "space": "mad-bazaar"},
            "name a space of Mad Bazaar: mad-bazaar/mystic-brew, mad-bazaar/magic-salve")
    refused(runner, {"do": "place_cube", "player": "ann", "space": "mad-bazaar/showcse"},
            "unknown space 'mad-bazaar/showcse'; did you mean 'mad-bazaar/showcase'")


def test_a_chamber_not_yet_in_the_dungeon() -> None:
    refused(started(("ann",)), {"do": "place_cube", "player": "ann", "space": "spirit-altar/altar"},
            "Place a cube: no lost chamber with an empty cube space is in the dungeon")
    runner = started(("ann",), "mad-bazaar")
    refused(runner, {"do": "place_cube", "player": "ann", "space": "spirit-altar/altar"},
            "Spirit Altar is not in the dungeon yet")
    refused(runner, {"do": "enter", "player": "ann", "room": "spirit-altar"},
            r"Spirit Altar is not in the dungeon yet \(reveal its tile first\)")


def test_the_spirit_altar_needs_a_trophy() -> None:
    runner = started(("ann",), "spirit-altar")
    play(runner, {"do": "enter", "player": "ann", "room": "spirit-altar"})
    refused(runner, {"do": "place_cube", "player": "ann", "space": "spirit-altar/altar"},
            "ann has no trophy to give up at the Spirit Altar")


def test_the_aegis_cube_spent_needs_a_new_entry() -> None:
    runner = started(("ann",), "aegis-shrine")
    play(runner, {"do": "enter", "player": "ann", "room": "aegis-shrine"})
    play(runner, {"do": "place_cube", "player": "ann", "space": "aegis-shrine/1"}, True)
    play(runner, {"do": "aegis_shield", "player": "ann"})
    refused(runner, {"do": "place_cube", "player": "ann", "space": "aegis-shrine/2"},
            "ann spent their Aegis Shrine cube: enter the shrine again before placing a new one")
    refused(runner, {"do": "aegis_shield", "player": "ann"},
            "Ghost attack: Aegis cube: nobody has a cube in the Aegis Shrine")


def test_an_aegis_shield_without_a_cube() -> None:
    runner = started(("ann", "bo"), "aegis-shrine")
    play(runner, {"do": "enter", "player": "ann", "room": "aegis-shrine"})
    play(runner, {"do": "place_cube", "player": "ann", "space": "aegis-shrine/1"}, True)
    refused(runner, {"do": "aegis_shield", "player": "bo"},
            "bo has no cube in the Aegis Shrine: the ghost attack's damage is taken")


# --------------------------------------------------------------------------- lairs


def test_fights_only_in_the_lair_and_while_a_monster_remains() -> None:
    runner = started(("ann",), "sphinxs-lair", "living-statue-lair")
    play(runner, {"do": "enter", "player": "ann", "room": "living-statue-lair"})
    refused(runner, {"do": "fight", "player": "ann", "monster": "sphinx"},
            r"ann must be in Sphinx's Lair to fight the Sphinx \(now in Living Statue Lair\)")
    refused(runner, {"do": "fight", "player": "ann", "monster": "living-statue", "way": "riddle"},
            "the Living Statue has no riddle; fight it with 3 swords")
    refused(runner, {"do": "fight", "player": "ann", "monster": "medusa"},
            "Medusa's Lair is not in the dungeon yet")
    refused(runner, {"do": "fight", "player": "ann", "monster": "sphynx"},
            "unknown monster 'sphynx'; did you mean 'sphinx'")
    play(runner, {"do": "enter", "player": "ann", "room": "sphinxs-lair"})
    play(runner, {"do": "fight", "player": "ann", "monster": "sphinx"})
    refused(runner, {"do": "fight", "player": "ann", "monster": "sphinx"},
            "no Sphinx is left in Sphinx's Lair")


def test_medusa_is_fought_only_with_a_secret_tome() -> None:
    runner = started(("ann",), "medusas-lair")
    play(runner, {"do": "enter", "player": "ann", "room": "medusas-lair"}, "stone", True)
    refused(runner, {"do": "fight", "player": "ann", "monster": "medusa"},
            "ann must play a Secret Tome this turn to fight Medusa", False)


def test_medusas_lair_cannot_be_entered_without_a_fight_or_the_damage() -> None:
    runner = started(("ann",), "medusas-lair")
    refused(runner, {"do": "enter", "player": "ann", "room": "medusas-lair"},
            "ann may not enter Medusa's Lair: without a Secret Tome", "fight", False, False)
    refused(runner, {"do": "enter", "player": "ann", "room": "medusas-lair"},
            "ann may not enter Medusa's Lair", "stone", False)


def test_a_room_revealed_twice_and_an_unknown_room() -> None:
    runner = started(("ann",), "mad-bazaar", "aegis-shrine")
    refused(runner, {"do": "reveal", "room": "mad-bazaar"},
            "Mad Bazaar is already in the dungeon")
    refused(runner, {"do": "reveal", "room": "mad-bazar"},
            "unknown room 'mad-bazar'; did you mean 'mad-bazaar'")
    play(runner, {"do": "enter", "player": "ann", "room": "mad-bazaar"})
    refused(runner, {"do": "enter", "player": "ann", "room": "mad-bazaar"},
            "ann is already in Mad Bazaar")
    refused(runner, {"do": "enter", "player": "ann", "room": "aegis"},
            "unknown room 'aegis'; did you mean 'aegis-shrine'")


# --------------------------------------------------------------------------- moving


def test_a_trap_pit_room_cannot_be_entered_without_a_card_or_the_damage() -> None:
    runner = started(("ann",))
    refused(runner, {"do": "trap_pit", "player": "ann"},
            "ann may not enter a room with a trap pit: no card to discard", False, False)
    refused(runner, {"do": "trap_pit", "player": "ann"},
            "ann may not fall into the pit by choice: avoid it by discarding a card",
            True, "fall", False)


def test_no_boots_through_a_magic_barrier_with_an_artifact_nor_after_a_fall() -> None:
    runner = started(("ann",))
    refused(runner, {"do": "magic_barrier", "player": "ann", "by": "boots"},
            "ann carries an artifact: boots cannot cross a magic barrier; teleport can", True)
    play(runner, {"do": "trap_pit", "player": "ann"}, False, True)
    refused(runner, {"do": "magic_barrier", "player": "ann", "by": "boots"},
            r"ann fell into a trap pit this turn: no boots until the turn ends")
    refused(runner, {"do": "magic_barrier", "player": "ann", "by": "jump"},
            "'by' must be boots or teleport")


def test_umbroka_loot_only_in_the_treasury() -> None:
    runner = started(("ann",), "umbroka-vessna")
    refused(runner, {"do": "umbroka_loot", "player": "ann", "what": "chest"},
            "ann is not in the Treasury of Umbroka Vessna")


# --------------------------------------------------------------------------- turns, trophies


def test_out_of_turn_before_the_setup_and_after_the_end() -> None:
    runner = Runner(SPEC, SPEC.build({"players": ["ann", "bo"], "base_safe_tiles": 4}),
                    chance=lambda question: question.options[0])
    refused(runner, {"do": "enter", "player": "ann", "room": "elsewhere"},
            "Enter a room: the game is not set up yet")
    play(runner, {"do": "setup"})
    refused(runner, {"do": "setup"}, "the game is already set up")
    refused(runner, {"do": "trap_pit", "player": "bo"}, "it is ann's turn, not bo's")
    refused(runner, {"do": "trap_pit", "player": "zed"}, "'player' must be one of ann, bo")
    play(runner, {"do": "end_game"})
    refused(runner, {"do": "end_turn"}, "End the turn: the game is not set up yet, or it is over")
    play(runner, {"do": "look_up", "topic": "trophies"})  # a look-up always


def test_trophy_cards_the_data_has_and_lacks() -> None:
    runner = started(("ann",))
    refused(runner, {"do": "take_trophy", "player": "ann", "card": "tuner"},
            "'tuner' is not a TROPHY card of data/clank/cards.toml")
    refused(runner, {"do": "enter_trophy", "player": "ann", "name": "Hoard keeper", "vp": 2},
            'is in the data; take it with {"do": "take_trophy", "card": "hoard-keeper"}')
    refused(runner, {"do": "enter_trophy", "player": "ann", "name": "Sphinx", "vp": 1},
            "'Sphinx' is a monster token, won in its lair")
    refused(runner, {"do": "enter_trophy", "player": "ann", "name": " ", "vp": 1},
            "'name' must name the card")
    refused(runner, {"do": "enter_trophy", "player": "ann", "name": "Idol", "vp": 99},
            "'vp' must be 0 to 20")


def test_unknown_actions_and_keys_are_refused_with_a_suggestion() -> None:
    runner = started(("ann",))
    refused(runner, {"do": "place_cub"}, "unknown action 'place_cub'; did you mean 'place_cube'")
    refused(runner, {"do": "enter", "player": "ann", "rom": "elsewhere"},
            "enter: rom: unknown key; did you mean 'room'")
    refused(runner, {"do": "enter", "player": "ann"}, r"enter: room: missing \(a string\)")


def test_bad_answers_change_nothing() -> None:
    runner = started(("ann",), "temple-of-gold")
    play(runner, {"do": "enter", "player": "ann", "room": "wayside-shrine"})
    question = runner.begin({"do": "place_cube", "player": "ann", "space": "temple-of-gold/5"})
    assert question is not None and question.key == "cube_in_supply"
    question = runner.answer(True)
    assert question is not None and question.key == "reward"
    assert question.options == ("heal-1", "big-secret")
    before = copy.deepcopy(SPEC.state_dict(runner.state))
    for bad in (["lockpick"], "heal-1", ["heal-1", "heal-1"]):
        with pytest.raises(AnswerError):
            runner.answer(bad)
        assert SPEC.state_dict(runner.state) == before
    assert runner.answer(["big-secret"]) is None
    assert runner.state.players["ann"].offering == 5


@pytest.mark.parametrize("setup,message", [
    ({"players": []}, "must list 1 to 4 player names"),
    ({"players": ["a", "b", "c", "d", "e"]}, "must list 1 to 4 player names"),
    ({"players": ["a", "a"]}, "each name once"),
    ({"players": ["a"], "first_game": "yes"}, "'first_game' must be true or false"),
    ({"players": ["a"], "base_safe_tiles": 1}, "'base_safe_tiles' must be a whole number 2 to 20"),
])
def test_bad_setups(setup: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        SPEC.build(setup)


def test_an_unknown_setup_key_is_named_with_a_suggestion() -> None:
    with pytest.raises(BadInput, match="first_gme: unknown key; did you mean 'first_game'"):
        SPEC.build({"players": ["a"], "first_gme": True})
