"""Runebound with five and six players (issue 26): the book's threshold is 15 less the number
of players; the data's four encounter tokens are placeholders, so they do not refuse the fifth
and sixth player: once each is held, a colour is shared (a marked ruling)."""

from __future__ import annotations

import pytest

from tests.runebound.helpers import act, menu, new, refused

TOWNS = ["tamalir", "riverwatch", "forge", "frostgate", "greyhaven", "vynelvale"]


@pytest.mark.parametrize("count", [5, 6])
def test_five_or_six_players_set_up_and_take_quest_counters(count: int) -> None:
    players = [f"p{n}" for n in range(1, count + 1)]
    runner = new(players)
    assert act(runner, {"do": "start"}) is None
    free = [t for t in TOWNS if t in menu(runner, "place", "town")]
    for hero, town in reversed(list(zip(players, free, strict=False))):
        act(runner, {"do": "place", "hero": hero, "town": town})
    for hero, token in zip(players[:4], ("green", "red", "blue", "yellow"), strict=True):
        act(runner, {"do": "quest_counter", "hero": hero, "token": token})
    assert sorted(menu(runner, "quest_counter", "token")) == ["blue", "green", "red", "yellow"]
    act(runner, {"do": "quest_counter", "hero": "p5", "token": "green"})
    step = next(s for s in reversed(runner.trace) if s.kind == "quest_counter")
    assert step.data["shared_with"] == "p1" and step.data["verified"] is False
    assert "Overseer's ruling" in step.text


def test_a_taken_token_is_refused_while_another_is_free() -> None:
    runner = new(["p1", "p2"])
    act(runner, {"do": "start"})
    for hero, town in (("p2", "riverwatch"), ("p1", "tamalir")):
        act(runner, {"do": "place", "hero": hero, "town": town})
    act(runner, {"do": "quest_counter", "hero": "p1", "token": "green"})
    refused(runner, {"do": "quest_counter", "hero": "p2", "token": "green"},
            "already has the green token")
