"""Cards the table enters (a campaign room or Lord the card data lacks): bad cards are refused
with a message and change nothing, an entered card is found again by later actions, and it
comes back when the game is folded again from its log."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from overseer.core.procedure import RulesError
from overseer.session.session import Session, fold, game_spec
from overseer.session.store import Store
from tests.catacombs.driving import drive_scenario

GLAAOTH = {"level1": ["2 x Orc"], "level2": ["1 x Level 1 Monster Group"], "reward_gold": 2}
MONSTROSITY = {"health": 18, "sequences": [["Rush", "Melee+Critical"]], "mercenary": ["Orc"],
               "minions": ["2 x Orc"]}


def drive(**scn: Any):
    return drive_scenario({"format": 1, "game": "catacombs",
                           "heroes": [{"id": "elf", "health": 8}], **scn})


def setup_glaaoth(card: Any) -> dict[str, Any]:
    return {"do": "setup_room", "room": "Glaaoth", "card": card}


@pytest.mark.parametrize("action,message", [
    ({"do": "setup_room", "room": "Glaaoth"}, "no Room card 'Glaaoth'"),
    (setup_glaaoth({**GLAAOTH, "levl": 1}), "no field 'levl'; did you mean 'level'?"),
    (setup_glaaoth({**GLAAOTH, "level": 2}), "level 2 is not the printed level (1)"),
    (setup_glaaoth({**GLAAOTH, "level1": ["2 x Tarrasque"]}), "no monster card 'Tarrasque'"),
    (setup_glaaoth({**GLAAOTH, "level1": ["two orcs"]}), "should read 'N x Monster name'"),
    (setup_glaaoth({"level1": [], "level2": []}), "needs at least one monster entry"),
    (setup_glaaoth({**GLAAOTH, "reward_gold": "2"}), "reward_gold must be a whole number"),
    (setup_glaaoth({**GLAAOTH, "reward_gold": 0}), "reward_gold must be a whole number, 1"),
    (setup_glaaoth({**GLAAOTH, "level": 1.0}), "level 1.0 is not the printed level"),
    ({"do": "setup_room", "room": " ", "card": GLAAOTH}, "needs the room's name"),
    (setup_glaaoth({**GLAAOTH, "playmat": "rune-9"}), "playmat ids of"),
    (setup_glaaoth(["2 x Orc"]), "card: wanted an object"),
    ({"do": "setup_room", "room": "Temple Of Nowhere", "card": {"level1": ["1 x Orc"]}},
     "give its 'level'"),
    ({"do": "setup_room", "room": "the-outer-bailey", "card": GLAAOTH}, "already known"),
    ({"do": "choose_lord", "lord": "Monstrosity"}, "no Catacomb Lord card 'Monstrosity'"),
    ({"do": "choose_lord", "lord": "Monstrosity", "card": {"health": 18}},
     "give its sequences, mercenary, minions"),
    ({"do": "choose_lord", "lord": "Monstrosity", "card": {**MONSTROSITY, "health": 0}},
     "health must be a whole number, 1 or more"),
    ({"do": "choose_lord", "lord": "Monstrosity",
      "card": {**MONSTROSITY, "mercenary": ["Orc", "Centaur", "Troll"]}},
     "mercenary names one monster or two"),
    ({"do": "choose_lord", "lord": "Monstrosity",
      "card": {**MONSTROSITY, "minions": [["2 x Orc"]]}}, "a [left, right] pair"),
    ({"do": "choose_lord", "lord": "Monstrosity", "card": {**MONSTROSITY, "sequence": []}},
     "did you mean 'sequences'?"),
    ({"do": "choose_lord", "lord": "thaggu-the-orc-warchief", "card": MONSTROSITY},
     "already known"),
])
def test_a_bad_card_is_refused_and_nothing_changes(action, message):
    card = copy.deepcopy(action.get("card"))
    battle, runner, err = drive(actions=[action])
    assert isinstance(err, RulesError) and message in str(err), err
    assert runner.trace == [] and battle.pieces == {}
    adventure = battle.adventure
    assert adventure.entered_rooms == {} and adventure.entered_lords == {}
    assert adventure.lord is None and adventure.room is None
    assert action.get("card") == card  # the logged action is never changed


def test_a_campaign_keeps_its_own_lord():
    battle, runner, err = drive(campaign="pharaoh", actions=[
        {"do": "choose_lord", "lord": "thaggu-the-orc-warchief"}])
    assert isinstance(err, RulesError) and "Catacomb Lord is the Pharaoh" in str(err)
    battle, runner, err = drive(lord="thaggu-the-orc-warchief", actions=[
        {"do": "campaign_start", "campaign": "pharaoh"}])
    assert isinstance(err, RulesError) and "starts with the Pharaoh" in str(err)
    assert battle.adventure.campaign is None and runner.trace == []


def test_a_room_entered_once_is_found_again_by_name_or_id():
    battle, runner, err = drive(
        mercenary="Orc", picks=["level-1", "level-2", "level-3", "level-4", "green", "blue",
                                "brown", "grey", "orange", "purple", "target-1",
                                "left-to-right", "monster-to-hero", "sewer-rat"],
        dice=[2], answers=[{"key": "units", "answer": 1},
                           {"key": "start_zone_runes", "answer": 2}],
        actions=[setup_glaaoth(GLAAOTH)])
    assert err is None
    assert list(battle.adventure.entered_rooms) == ["glaaoth"]
    assert battle.adventure.entered_rooms["glaaoth"]["difficulty"] == 1  # the printed level
    for piece in battle.pieces.values():
        piece.health = 0
    with pytest.raises(RulesError, match="already known"):
        runner.begin({"do": "setup_room", "room": "Glaaoth", "card": GLAAOTH})
    assert runner.begin({"do": "room_reward", "room": "glaaoth"}) is None
    assert runner.trace[-1].kind == "reward_gold" and battle.heroes["elf"].gold == 2
    battle, runner, err = drive(pieces=[{"id": "orc-1", "card": "Orc", "health": 0}],
                                actions=[{"do": "room_reward", "room": "glaaoth"}])
    # another game: the card was entered in the first one, so its icons are asked
    assert "unanswered question [reward_spell]" in str(err)


def test_the_entered_cards_come_back_when_the_log_is_folded_again(tmp_path):
    with Store(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "catacombs", {"heroes": [{"id": "elf", "health": 8}]},
                              seed=3)
        session.begin({"do": "campaign_start", "campaign": "monstrosity", "card": MONSTROSITY})
        session.begin({"do": "campaign_next"})
        question = session.begin(setup_glaaoth(GLAAOTH))
        while question is not None:
            question = session.answer(1 if question.key == "units" else 2)
        live = session.state_dict()["adventure"]
        info = store.game(session.id)
        again = fold(game_spec("catacombs"), info.setup, info.dice,
                     store.events(session.id)[:info.head])
        folded = game_spec("catacombs").state_dict(again.runner.state)["adventure"]
    assert folded["entered"] == live["entered"]
    assert set(folded["entered"]["rooms"]) == {"glaaoth"}
    assert set(folded["entered"]["lords"]) == {"monstrosity"}
    assert folded["lord"] == "monstrosity" and folded["room"] == "glaaoth"
    assert folded["entered"]["rooms"]["glaaoth"]["reward_gold"] == 2
