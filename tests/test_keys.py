"""The key and type checker every JSON-shaped input uses: path, problem, suggestion."""

import pytest

from overseer.core.shapes import (
    NONE,
    BadInput,
    at,
    check_choice,
    check_fields,
    check_keys,
    check_list,
    check_type,
    suggestion,
)


def refusal(call, *args) -> str:
    with pytest.raises(BadInput) as info:
        call(*args)
    return str(info.value)


def test_paths():
    assert at("", "setup") == "setup"
    assert at("setup", "heroes") == "setup.heroes"
    assert at(at("setup.heroes", 1), "helth") == "setup.heroes[1].helth"
    assert at("script.actions", 0) == "script.actions[0]"
    assert BadInput("heroes[1].helth", "x").under("setup").path == "setup.heroes[1].helth"
    assert BadInput("heroes[1]", "x").under("").path == "heroes[1]"
    assert str(BadInput("", "a scenario is a JSON object")) == "a scenario is a JSON object"


def test_suggestion_is_the_closest_key_or_the_list():
    assert suggestion("helth", ["id", "health", "gold"]) == "did you mean 'health'?"
    assert suggestion("los", ["los_blocked", "playmat"]) == "did you mean 'los_blocked'?"
    assert suggestion("zzz", ["id", "gold"]) == "known: id, gold"
    assert suggestion("x", []) == "none is allowed here"


def test_unknown_key_names_its_path_and_the_nearest_key():
    hero = {"id": "elf", "helth": 8}
    assert refusal(check_keys, hero, ("id", "health"), "setup.heroes[1]") == \
        "setup.heroes[1].helth: unknown key; did you mean 'health'?"
    assert check_keys({"id": "elf"}, ("id", "health"), "h") == {"id": "elf"}
    assert refusal(check_keys, ["id"], ("id",), "setup.heroes[0]") == \
        'setup.heroes[0]: wanted an object, got ["id"]'


def test_types_true_and_false_are_not_numbers():
    assert refusal(check_type, True, int, "health") == "health: wanted a whole number, got true"
    assert refusal(check_type, "8", int, "health") == 'health: wanted a whole number, got "8"'
    assert refusal(check_type, 3, (str, NONE), "riding") == \
        "riding: wanted a string or null, got 3"
    assert check_type(False, bool, "x") is False
    assert check_type(None, (str, NONE), "x") is None
    assert check_type(True, object, "answer") is True


def test_fields_keys_types_and_required():
    fields = {"value": int, "reset": bool}
    assert refusal(check_fields, {"reset": True}, fields, "tokens[2]", ("value",)) == \
        "tokens[2].value: missing"
    assert refusal(check_fields, {"value": 1, "reset": "no"}, fields, "tokens[2]") == \
        'tokens[2].reset: wanted true or false, got "no"'
    assert refusal(check_fields, {"value": 1, "rest": True}, fields, "tokens[2]") == \
        "tokens[2].rest: unknown key; did you mean 'reset'?"


def test_lists_and_choices():
    assert refusal(check_list, ["Melee", 3], str, "seq[0]") == "seq[0][1]: wanted a string, got 3"
    assert refusal(check_list, "Melee", str, "seq") == 'seq: wanted a list, got "Melee"'
    assert refusal(check_choice, "herp", ("hero", "ally"), "kind", "a hero kind") == \
        "kind: \"herp\" is not a hero kind; did you mean 'hero'?"
    assert refusal(check_choice, 3, ("hero", "ally"), "kind", "a hero kind") == \
        "kind: 3 is not a hero kind; known: hero, ally"
