"""Catacombs at the table (app/catacombs.py): identical monsters lettered in every sentence,
the forms' questions and the actions they make, the new game's questions, long lists in two
steps, the heroes of the data in the new game."""

from __future__ import annotations

import pytest

from overseer import games
from overseer.app import catacombs as flow
from overseer.app import catacombs_cards, catacombs_choices, catacombs_heroes, catacombs_new
from overseer.app.local import Local
from overseer.core.chance import SeededChance
from overseer.core.params import NoParams
from overseer.core.procedure import (
    AnswerError,
    ChooseOne,
    ChooseSome,
    EnterNumber,
    Runner,
    shown,
)
from overseer.rules.catacombs import moves, order, party, targeting
from overseer.rules.catacombs.kinds import TargetKind

SETUP = {"heroes": [{"id": "elf", "name": "Elf", "health": 7, "gold": 2, "poison": [2, 3]},
                    {"id": "hero-1", "name": "Hero 1"},
                    {"id": "mount-1", "name": "Mount 1", "kind": "mount"}],
         "pieces": [{"id": "orc-1", "card": "Orc"}, {"id": "orc-2", "card": "Orc"},
                    {"id": "swamp-orc-1", "card": "Swamp Orc"},
                    {"id": "rat-1", "card": "Sewer Rat"}]}


def battle():
    return games.CATACOMBS.build(SETUP)


def options(local: Local) -> tuple[str, ...]:
    """The options of the local procedure's question (a list to choose from)."""
    assert local.ask is not None
    question = asked(local).question
    assert isinstance(question, ChooseOne | ChooseSome)
    return question.options


def asked(local: Local):
    assert local.ask is not None
    return local.ask


def run(make, *answers) -> Local:
    local = Local(make, "test", leaves=True)
    for value in answers:
        local.answer(value)
    return local


def test_identical_monsters_get_letters_and_others_keep_their_names():
    names = flow.labels(battle())
    assert (names["orc-1"], names["orc-2"]) == ("Orc A", "Orc B")
    assert names["swamp-orc-1"] == "Swamp Orc" and names["rat-1"] == "Sewer Rat"
    assert names["elf"] == "Elf"
    assert [flow.letter(n) for n in (0, 25, 26, 27)] == ["A", "Z", "AA", "AB"]


def drawn(steps, state):
    """The steps' sentences as the glass draws them (the table's names), and as the trace
    keeps them (the rules' words)."""
    names = flow.labels(state)
    return [s.at_table(names).text for s in steps], [s.text for s in steps]


def test_a_step_names_each_piece_by_its_letter_and_keeps_the_rules_words():
    state = battle()
    orc_b, elf = state.pieces["orc-2"], state.heroes["elf"]
    steps = [order.active_step(state, orc_b, "character_tile")]
    steps += list(targeting.select_target(state, orc_b, [elf]))
    glass, trace = drawn(steps, state)
    assert glass == ["Orc B acts: Level 1 monsters tile", "Orc B targets Elf: the only enemy "
                     "in sight"]
    assert trace == ["Orc (orc-2) acts: Level 1 monsters tile", "Orc targets Elf: the only "
                     "enemy in sight"]


def test_two_orcs_in_one_sentence_are_each_named():
    """The regexes of before left "Orc targets Orc" as it was (which is which?)."""
    state = battle()
    state.pieces["orc-1"].frozen = True
    proc = targeting.advanced_target(state, state.pieces["orc-2"], [
        (TargetKind.FROZEN_TEAMMATE, ["orc-1"], "frozen teammates")])
    step = next(proc)
    assert drawn([step], state) == (["Orc B targets Orc A: nearest frozen teammate in sight"],
                                    ["Orc targets Orc: nearest frozen teammate in sight"])


def test_a_swamp_orc_keeps_its_name_beside_lettered_orcs():
    state = battle()
    swamp, orc_a = state.pieces["swamp-orc-1"], state.pieces["orc-1"]
    steps = list(targeting.advanced_target(state, swamp, [
        (TargetKind.REPEAT_TEAMMATE, ["orc-1"], "teammates")]))
    assert drawn(steps, state)[0] == ["Swamp Orc targets Orc A: nearest teammate in sight"]
    assert orc_a.name == "Orc"


def test_a_sentence_names_the_room_by_its_card():
    state = battle()
    state.adventure.room = "bholoth-cemetery"
    names = flow.labels(state)
    assert names["bholoth-cemetery"] == "Bholoth Cemetery"
    step = next(moves.end_game(state, NoParams()))
    assert step.text == "the game is over: room bholoth-cemetery"
    assert step.at_table(names).text == "the game is over: room Bholoth Cemetery"


def test_the_game_over_screen_names_the_room_by_its_card():
    state = battle()
    state.adventure.room = "bholoth-cemetery"
    list(moves.end_game(state, NoParams()))
    assert state.adventure.over == "the game is over: room bholoth-cemetery"  # the rules' words
    assert flow.TABLE.result(state, flow.labels(state)) == \
        "the game is over: room Bholoth Cemetery"


def test_a_question_is_named_at_the_table_but_answered_with_the_rules_ids():
    state = battle()
    tied = [state.pieces["orc-1"], state.pieces["orc-2"]]
    question = next(order.split_tie(state, tied))
    assert isinstance(question, ChooseOne)
    assert question.prompt.startswith("Which of Orc (orc-1), Orc (orc-2) comes first")
    seen = shown(question, flow.labels(state))
    assert isinstance(seen, ChooseOne)
    assert seen.prompt.startswith("Which of Orc A, Orc B comes first")
    assert seen.options == question.options == ("orc-1", "orc-2")
    assert seen.key == question.key


def test_a_hero_s_flags_read_yes_or_no_at_the_table():
    state = battle()
    step = next(party.update_hero(state, party.UpdateHero(hero="elf", stunned=True)))
    assert drawn([step], state) == (["Elf: stunned yes"], ["Elf: stunned True"])


def update(*answers):
    state = battle()
    return run(lambda: catacombs_heroes.update_hero_form(state, flow.labels(state)), *answers)


def test_update_hero_health_starts_at_its_value():
    local = update("elf", "health")
    assert isinstance(asked(local).question, EnterNumber) and asked(local).start == 7
    local.answer(5)
    assert local.result == {"do": "update_hero", "hero": "elf", "health": 5}


def test_update_hero_lists_what_can_change_with_the_values_now():
    assert asked(update()).cards == {("hero", "elf"): "elf"}  # its card answers "Which hero?"
    local = update("elf")
    assert asked(local).names == {
        "health": "Health 7", "gold": "Gold 2", "poison": "Poison 2", "items": "Items 0",
        "frozen": "Frozen: no", "reckless": "Reckless: no", "stunned": "Stunned: no",
        "riding": "Rides: no", "away": "Teleported"}


@pytest.mark.parametrize(("answers", "change"), [
    (("elf", "stunned"), {"stunned": True}),
    (("elf", "away"), {"away": "teleported"}),
    (("elf", "riding", "mount-1"), {"riding": "mount-1"}),
    (("elf", "items", 2), {"items": ["Item 1", "Item 2"]}),
    (("elf", "poison", "add", 4), {"poison": [2, 3, 4]}),
    (("elf", "poison", "drop", "card-0"), {"poison": [3]}),
    (("hero-1", "gold", 9), {"gold": 9}),
])
def test_update_hero_makes_one_change(answers, change):
    assert update(*answers).result == {"do": "update_hero", "hero": answers[0], **change}


def test_update_hero_refuses_a_value_out_of_range_and_moves_nothing():
    local = update("elf", "health")
    with pytest.raises(AnswerError):
        local.answer(31)
    assert not local.done and local.answers == ["elf", "health"]
    assert local.back() and asked(local).question.key == "form_change"


def test_a_long_list_comes_in_groups_and_a_tap_answers_either_step():
    rooms = tuple(f"room-{n:02}" for n in range(20))
    names = {o: f"Room {n:02}" for n, o in enumerate(rooms)}
    local = run(lambda: catacombs_choices.choose("Which?", rooms, "k", names, {("room", "x"): "room-13"},
                                    first=("stage",)))
    assert options(local) == ("stage", "group-0", "group-1", "group-2")
    assert asked(local).names["group-1"] == "Room .. Room"
    local.answer("group-1")
    assert options(local) == rooms[8:16]
    local.answer("room-09")
    assert local.result == "room-09"
    tapped = run(lambda: catacombs_choices.choose("Which?", rooms, "k", names, {("room", "x"): "room-13"}))
    assert tapped.tap("room", "x") and tapped.result == "room-13"


def pick_in_group(local: Local, option: str) -> None:
    """Answer the group question with the group that holds ``option``, then ``option``."""
    for group in options(local):
        if not group.startswith("group-"):
            continue
        local.answer(group)
        if option in options(local):
            local.answer(option)
            return
        local.back()
    raise AssertionError(f"no group holds {option}")


def test_a_room_card_the_data_lacks_is_entered_off_the_card():
    state = battle()
    local = run(lambda: catacombs_cards.enter_room_card(state, "Glaaoth"), "Level 1 Monster Group", 1)
    assert options(local)[:2] == ("done", "Level 1 Monster Group")
    pick_in_group(local, "Orc")
    for value in (2, "done", [], catacombs_cards.NO_PLAYMAT, "yes", 3):
        local.answer(value)
    assert local.done and local.result == {"level1": ["1 x Level 1 Monster Group", "2 x Orc"],
                                           "reward_spell": True, "reward_gold": 3}


def test_an_entered_room_card_gives_its_suppresses_box_and_its_playmat_when_it_has_them():
    state = battle()
    local = run(lambda: catacombs_cards.enter_room_card(state, "Glaaoth"), "Level 1 Monster Group", 1,
                "done")
    assert asked(local).question.key == "form_card_suppresses"
    shots = options(local)
    assert "Roll" in shots and "Melee+Poison" in shots  # what the card data's boxes name
    local.answer(["Roll"])
    assert asked(local).question.key == "form_card_playmat"
    assert options(local)[0] == catacombs_cards.NO_PLAYMAT  # the first answer: none, the setup rolls
    pick_in_group(local, "cave-of-the-keystone")
    for value in ("no", 0):
        local.answer(value)
    assert local.result == {"level1": ["1 x Level 1 Monster Group"], "suppresses": ["Roll"],
                            "playmat": "cave-of-the-keystone", "reward_spell": False}
    runner = Runner(games.CATACOMBS, games.CATACOMBS.build({"heroes": [{"id": "elf"}]}),
                    chance=SeededChance(1))
    runner.begin({"do": "campaign_start", "campaign": "monstrosity"})
    runner.begin({"do": "campaign_next"})
    question = runner.begin({"do": "setup_room", "room": "Glaaoth", "card": local.result})
    while question is not None:  # the Start Zone's vacant runes: the least
        assert isinstance(question, EnterNumber)
        question = runner.answer(question.low)
    kinds = {s.kind: s for s in runner.trace}
    assert kinds["playmat"].data["how"] == "card"  # named on the card: not rolled
    assert kinds["room_suppression"].data["shots"] == ["Roll"]


def campaign(name: str = "monstrosity") -> Runner:
    runner = Runner(games.CATACOMBS, games.CATACOMBS.build(
        {"heroes": [{"id": "elf", "name": "Elf", "health": 10}]}))
    runner.begin({"do": "campaign_start", "campaign": name})
    return runner


def lord_form(state) -> Local:
    """The Lord's form itself (whether the rules allow the move now aside)."""
    return run(lambda: catacombs_cards.choose_lord_form(state, flow.labels(state)))


def test_a_campaign_lord_the_data_lacks_is_entered_off_the_card_and_kept_unverified():
    runner = campaign()
    state = runner.state
    labels = [i.label for i in flow.TABLE.menu(state, games.CATACOMBS.legal_actions(state), False)]
    assert "Choose the Lord" in labels  # the data has no Monstrosity: it is entered
    local = lord_form(state)
    assert asked(local).question.key == "form_lord_health"  # its only choice: no list
    local.answer(9)
    assert options(local)[:5] == catacombs_cards.COMMON_SHOTS  # no "No more" before one sequence
    for value in ("melee", ["poison"]):
        local.answer(value)
    assert options(local)[:3] == (catacombs_cards.SEQUENCE_DONE, "if_damage", "if_hit")
    local.answer("if_damage")
    assert catacombs_cards.SEQUENCE_DONE not in options(local)  # a condition needs a shot after it
    local.answer("summon")
    pick_in_group(local, "Orc")
    local.answer(catacombs_cards.SEQUENCE_DONE)
    assert options(local)[0] == catacombs_cards.CARD_DONE
    for value in ("rush", [], catacombs_cards.SEQUENCE_DONE, catacombs_cards.CARD_DONE):
        local.answer(value)
    pick_in_group(local, "Orc")  # the mercenary
    local.answer(catacombs_cards.NO_SECOND)
    local.answer(catacombs_cards.PAIR)
    pick_in_group(local, "Orc")
    local.answer(2)
    pick_in_group(local, "Zombie")
    local.answer(3)
    pick_in_group(local, "Ghoul")
    local.answer(1)
    local.answer(catacombs_cards.ENTER_DONE)
    assert local.result == {"do": "choose_lord", "lord": "Monstrosity", "card": {
        "health": 9, "sequences": [["Melee+Poison", "If Damage", "Summon:Orc"], ["Rush"]],
        "mercenary": ["Orc"], "minions": [["2 x Orc", "3 x Zombie"], "1 x Ghoul"]}}
    runner.begin(local.result)
    lord = runner.state.adventure.entered_lords["monstrosity"]
    assert lord["verified"] is False and lord["health"] == 9
    assert runner.state.adventure.mercenary == "Orc"
    assert catacombs_cards.campaign_lord(runner.state) is None  # chosen: nothing more to enter


def test_outside_a_campaign_the_lord_comes_from_the_card_data_or_its_tapped_card():
    state = battle()
    local = lord_form(state)
    assert options(local)[0] == catacombs_cards.ENTER_LORD  # first: a card the data lacks
    assert asked(local).names[catacombs_cards.ENTER_LORD] == "Unlisted Lord (enter)"
    assert local.tap("lord", "phoshar-the-dragon")
    assert local.result == {"do": "choose_lord", "lord": "phoshar-the-dragon"}


def test_outside_a_campaign_a_lord_the_data_lacks_is_entered_as_the_unlisted_lord():
    runner = Runner(games.CATACOMBS, games.CATACOMBS.build({"heroes": [{"id": "elf"}]}),
                    chance=SeededChance(1))
    local = lord_form(runner.state)
    for value in (catacombs_cards.ENTER_LORD, 7, "missile", ["stun"], catacombs_cards.SEQUENCE_DONE, catacombs_cards.CARD_DONE):
        local.answer(value)
    pick_in_group(local, "Orc")
    local.answer(catacombs_cards.NO_SECOND)
    pick_in_group(local, "Zombie")
    local.answer(4)
    local.answer(catacombs_cards.ENTER_DONE)
    assert local.result == {"do": "choose_lord", "lord": "Unlisted Lord", "card": {
        "health": 7, "sequences": [["Missile+Stun"]], "mercenary": ["Orc"],
        "minions": ["4 x Zombie"]}}
    runner.begin(local.result)
    assert runner.state.adventure.lord == "unlisted-lord"
    assert runner.state.adventure.entered_lords["unlisted-lord"]["verified"] is False
    assert flow.title(runner.state) == "Catacombs"  # no room yet


def test_the_rules_playmat_question_of_a_lord_card_shows_the_playmats_names():
    question = ChooseOne("Which playmat?", ("rune-1", "cave-of-the-keystone"), "lord_playmat")
    names = flow.option_names(battle(), question)
    assert names["rune-1"] == "Rune 1" and names["cave-of-the-keystone"] != "cave-of-the-keystone"
    assert flow.option_names(battle(), ChooseOne("p", ("elf",), "closest")) == {}


def test_the_new_game_questions_make_the_setup_the_seats_and_the_first_actions():
    answers = ["elf", "seat-2", 9, "hero-1", "seat-4", 8, "companion", "familiar", "hero-1",
               3, "done", "blocked", "on", "table", "gadget", "table", ("d12-5",), "on",
               "pharaoh"]
    new = run(lambda: catacombs_new.wizard((1, 2, 3, 4), pico=True), *answers).result
    assert new.setup["setup"]["heroes"] == [
        {"id": "elf", "name": "Elf", "kind": "hero", "health": 9},
        {"id": "hero-1", "name": "Hero 1", "kind": "hero", "health": 8},
        {"id": "familiar-1", "name": "Familiar 1", "kind": "familiar", "health": 3,
         "owner": "hero-1"}]
    assert new.seats == {"elf": 2, "hero-1": 4, "familiar-1": 4}  # the familiar's owner's
    assert new.setup["setup"]["options"] == {
        "los_blocked": True, "advanced_targeting": True, "physical_tokens": True,
        "physical_poison": False}
    assert new.setup["setup"]["owned_playmats"] == ["d12-5"]
    assert new.dice == "table"
    assert new.first == ({"do": "hidden_cave_setup"},
                         {"do": "campaign_start", "campaign": "pharaoh"})
    games.CATACOMBS.build(new.setup["setup"])  # the rules build it


def test_the_party_has_at_most_four_heroes():
    answers = []
    for n in range(1, 5):
        answers += [f"hero-{n}"] + ([f"seat-{n}"] if n < 4 else []) + [10]
    local = run(lambda: catacombs_new.wizard((1, 2, 3, 4), pico=False), *answers)
    assert options(local) == ("done", "companion")  # the cursor starts on Done


def test_the_new_game_lists_the_heroes_of_the_data():
    local = run(lambda: catacombs_new.wizard((1, 2, 3, 4), pico=False))
    assert options(local) == ("elf", "ulom", "yilleph", "hero-1")
    assert asked(local).cards == {("hero", h): h for h in ("elf", "ulom", "yilleph")}
    joined = run(lambda: catacombs_new.wizard((1, 2, 3, 4), pico=False), "ulom", "seat-2")
    health = asked(joined).question
    assert isinstance(health, EnterNumber) and health.prompt == "Ulom: health?"  # its short name


def test_a_tapped_room_or_lord_card_begins_its_setup_when_it_can():
    state = games.CATACOMBS.build({"heroes": SETUP["heroes"][:1]})
    legal = games.CATACOMBS.legal_actions(state)
    taps = flow.tap_actions(state, legal)
    assert taps[("room", "bholoth-cemetery")] == {"do": "setup_room",
                                                  "room": "bholoth-cemetery"}
    assert "Mercenary icons" in taps[("room", "the-outer-bailey")]
    assert taps[("lord", "phoshar-the-dragon")] == {"do": "choose_lord",
                                                    "lord": "phoshar-the-dragon"}
    fighting = battle()
    refused = flow.tap_actions(fighting, games.CATACOMBS.legal_actions(fighting))
    assert refused[("room", "bholoth-cemetery")] == ("the battle goes on: a room is set up "
                                                     "between battles")
