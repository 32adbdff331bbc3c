"""Setup checks, starting hands, the card data and its validation."""

from __future__ import annotations

from pathlib import Path

import pytest

from overseer import documents, games, scenario
from overseer.core.procedure import Roll, Runner
from overseer.core.records import DataError
from overseer.core.shapes import BadInput
from overseer.loaders.conquest import CARDS_FILE, load_cards
from overseer.rules.conquest.end import winner
from overseer.rules.conquest.scenario import state_dict
from overseer.rules.conquest.setup import SetupError, hand_size

NAMED = {"salavi", "mayra", "serangan", "witch-hunter",
         "ughurth", "formilus", "phalomoru", "lenore", "phoenix"}


def test_card_data_has_both_decks_and_the_named_cards() -> None:
    cards = load_cards()
    assert len(cards) == 56
    assert {c.id for c in cards.values() if c.verified} == NAMED
    for card in cards.values():
        assert card.source.startswith("002_537138dd24e99996.txt: ") == card.verified
    formilus = cards["formilus"]
    assert (formilus.team, formilus.shots, formilus.ability, formilus.armour) == \
        ("skull", ("rush", "missile"), "capture_life", "yes")
    assert cards["mayra"].shots == ("rush", "target_fireball")
    assert cards["ughurth"].shots == ("critical_melee", "rush")
    placeholder = cards["sword-17"]
    assert (placeholder.shots, placeholder.ability, placeholder.armour, placeholder.verified) == \
        ((), "unknown", "unknown", False)


GOOD = CARDS_FILE.read_text(encoding="utf-8")


def broken(tmp_path: Path, old: str, new: str, count: int = 1) -> Path:
    assert old in GOOD
    path = tmp_path / "cards.toml"
    path.write_text(GOOD.replace(old, new, count), encoding="utf-8")
    return path


def line_of(text: str, needle: str) -> int:
    return text.splitlines().index(needle) + 1


def test_bad_field_value_names_file_line_record_and_field(tmp_path: Path) -> None:
    path = broken(tmp_path, 'ability = "capture_life"', 'ability = "steal_life"')
    with pytest.raises(DataError) as err:
        load_cards(path)
    line = line_of(path.read_text(), 'ability = "steal_life"')
    assert str(err.value).startswith(f"{path}:{line}: record card 'formilus', field 'ability':")
    assert "'steal_life' is not one of" in str(err.value)


def test_bad_shot_and_unknown_field(tmp_path: Path) -> None:
    path = broken(tmp_path, 'shots = ["rush", "missile"]', 'shots = ["rush", "lasso"]')
    with pytest.raises(DataError, match=r"field 'shots': item 'lasso' is not one of"):
        load_cards(path)
    path = broken(tmp_path, 'armour = "yes"', 'armor = "yes"')
    with pytest.raises(DataError, match=r"record card 'ughurth', field 'armor': unknown field"):
        load_cards(path)


def test_id_used_twice_and_deck_size(tmp_path: Path) -> None:
    path = broken(tmp_path, 'id = "sword-06"', 'id = "sword-05"')
    with pytest.raises(DataError, match=r"field 'id': duplicate id 'sword-05'"):
        load_cards(path)
    path = broken(tmp_path, '[[card]]\nid = "sword-28"', '[[spare]]\nid = "sword-28"')
    with pytest.raises(DataError, match=r"the sword deck has 27 cards, wanted 28"):
        load_cards(path)


@pytest.mark.parametrize("setup, message", [
    ({"players": {"a": "sword"}}, "must map 2 to 4 player ids"),
    ({"players": {"a": "sword", "b": "skull", "c": "skull", "d": "skull"}},
     "the Skull Team needs one or two players"),
    ({"players": {"a": "sword", "b": "sword"}}, "the Skull Team needs one or two players"),
    ({"players": {"a": "sword", "b": "dragon"}}, "team must be 'sword' or 'skull'"),
    ({"players": {"a": "sword", "b": "skull"}, "health": 12}, "'health' must be a whole number 1..11"),
    ({"players": {"a": "sword", "b": "skull"}, "first": "both"}, "'first' must be"),
    ({"players": {"a": "sword", "b": "skull"}, "last_stand": "yes"}, "'last_stand' must be true"),
    ({"players": {"a": "sword", "b": "skull"}, "seed": 3}, "seed: unknown key; known: players"),
    ({"players": {"a": "sword", "b": "skull"}, "frist": "sword"},
     "frist: unknown key; did you mean 'first'"),
    ({"players": {"a": "sword", "b": "skull"}, "cards": {"sword-07": {"armor": "no"}}},
     "cards.sword-07.armor: unknown key; did you mean 'armour'"),
    ({"players": {"a": "sword", "b": "skull"}, "cards": {"formilus": {"armour": "no"}}},
     "the card data already gives armour 'yes'; only unknown facts can be filled in"),
    ({"players": {"a": "sword", "b": "skull"}, "cards": {"sword-09": {"shots": []}}},
     "shots must be a non-empty list"),
    ({"players": {"a": "sword", "b": "skull"}, "cards": {"sword-99": {"armour": "no"}}},
     "there is no Conquest card 'sword-99'"),
])
def test_bad_setup(setup: dict, message: str) -> None:
    with pytest.raises((SetupError, BadInput), match=message):
        games.CONQUEST.build(setup)


def test_bad_setup_in_a_scenario_file_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": 1, "game": "conquest", "setup": {"players": {"a": "sword"}},'
                    ' "actions": [{"do": "start"}]}', encoding="utf-8")
    with pytest.raises(documents.ScenarioError, match=rf"{path}: setup 'players' must map"):
        scenario.run(documents.load(path))


def test_filling_in_a_known_value_unchanged_is_accepted() -> None:
    state = games.CONQUEST.build({"players": {"a": "sword", "b": "skull"},
                      "cards": {"formilus": {"armour": "yes"}, "salavi": {"ability": "none"}}})
    assert state.cards["salavi"].ability == "none"


@pytest.mark.parametrize("players, draw_at_end, sizes", [
    ({"a": "sword", "b": "skull"}, False, {"a": 4, "b": 4}),
    ({"a": "sword", "b": "skull", "c": "skull"}, False, {"a": 8, "b": 4, "c": 4}),
    ({"a": "sword", "b": "skull", "c": "sword", "d": "skull"}, False,
     {"a": 4, "b": 4, "c": 4, "d": 4}),
    ({"a": "sword", "b": "skull", "c": "skull"}, True, {"a": 9, "b": 5, "c": 5}),
])
def test_starting_hand_sizes(players: dict, draw_at_end: bool, sizes: dict) -> None:
    state = games.CONQUEST.build({"players": players, "draw_at_end": draw_at_end})
    assert {p: hand_size(state, p) for p in players} == sizes


def test_discs_pools_bank_and_trackers_before_the_start() -> None:
    state = games.CONQUEST.build({"players": {"a": "skull", "b": "sword", "c": "skull"}, "health": 5})
    data = state_dict(state)
    assert data["players"] == {"a": {"team": "skull", "discs": ["skull1"]},
                               "b": {"team": "sword", "discs": ["sword1", "sword2"]},
                               "c": {"team": "skull", "discs": ["skull2"]}}
    assert (data["pools"], data["bank"]) == ({"sword": 5, "skull": 5}, 14)
    assert data["next_disc"] == {"sword": "sword1", "skull": "skull1"}
    assert data["turn"] is None and data["deck_counts"] == {"sword": 28, "skull": 28}


def test_build_is_deterministic() -> None:
    setup = {"players": {"a": "sword", "b": "skull"}, "last_stand": True}
    assert state_dict(games.CONQUEST.build(setup)) == state_dict(games.CONQUEST.build(setup))


def test_winner_tie_breaks_and_draw() -> None:
    state = games.CONQUEST.build({"players": {"a": "sword", "b": "skull"}})
    state.hands = {"a": ["salavi"], "b": ["ughurth", "formilus"]}
    assert winner(state) == "skull"                     # 8-8, cards 1-2
    state.pools["sword"] = 9
    assert winner(state) == "sword"                     # most tokens first
    state.pools["sword"] = 8
    state.hands["b"] = ["ughurth"]
    assert winner(state) is None                        # ruling: a draw


def test_a_scenario_that_expects_wrongly_is_reported() -> None:
    path = Path(__file__).resolve().parents[1] / "scenarios" / "conquest" / "capture_life.json"
    scn = documents.load(path)
    trace, final = scenario.run(scn)
    scn["expect"] = [{"step": "health", "captured": 0}]
    scn["expect_state"] = {"pools": {"sword": 8}}
    problems = scenario.check(scn, trace, final)
    assert len(problems) == 2


@pytest.mark.parametrize("face, team", [(1, "sword"), (6, "sword"), (7, "skull"), (12, "skull")])
def test_first_team_by_d12(face: int, team: str) -> None:
    state = games.CONQUEST.build({"players": {"a": "sword", "b": "skull"}})

    def chance(question):
        return face if isinstance(question, Roll) else question.options[0]

    runner = Runner(games.CONQUEST, state, chance=chance)
    assert runner.begin({"do": "start"}) is None
    first = next(step for step in runner.trace if step.kind == "first_team")
    assert (first.data, state.team_to_act) == ({"team": team, "roll": face}, team)
    assert state_dict(state)["turn"]["disc"] == f"{team}1"
