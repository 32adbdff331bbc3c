"""Who draws the Conquest cards (setup ``draws``): the box, the table tapping each draw, or the
table tapping only the cards that leave a hand (the box counting the hands)."""

from __future__ import annotations

import pytest

from overseer import games
from overseer.core.procedure import Pick, RulesError, Runner
from overseer.rules.conquest.decks import hand_options
from overseer.rules.conquest.setup import SetupError
from overseer.session.session import Session
from overseer.session.store import Store

PLAYERS = {"a": "sword", "b": "skull"}


def runner(draws: str) -> Runner:
    return Runner(games.CONQUEST, games.CONQUEST.build({"players": PLAYERS, "first": "sword", "draws": draws}))


def test_tapped_draws_are_physical_picks_the_session_leaves_to_the_table(tmp_path) -> None:
    store = Store(tmp_path / "g.db")
    session = Session.new(store, "conquest", {"format": 2, "game": "conquest", "setup": {
        "players": PLAYERS, "first": "sword", "draws": "tapped"}}, seed=1)
    question = session.begin({"do": "start"})
    assert isinstance(question, Pick) and question.physical
    assert question.pool == "Sword Team deck"
    session.answer("salavi")
    assert session.state.hands["a"] == ["salavi"]
    store.close()


def test_box_draws_are_answered_by_the_seed(tmp_path) -> None:
    store = Store(tmp_path / "g.db")
    session = Session.new(store, "conquest", {"format": 2, "game": "conquest", "setup": {
        "players": PLAYERS, "first": "sword"}}, seed=1)
    assert session.begin({"do": "start"}) is None
    assert len(session.state.hands["a"]) == 5
    store.close()


def test_counted_hands_ask_nothing_and_take_any_unseen_card() -> None:
    r = runner("counted")
    assert r.begin({"do": "start"}) is None
    state = r.state
    assert [len(h) for h in state.hands.values()] == [5, 4]
    (draw,) = [s for s in r.trace if s.kind == "draw"]  # the deal's steps say it: one a player
    assert draw.data["card"] is None and "draws a card" in draw.text
    assert [s.data["cards"] for s in r.trace if s.kind == "deal"] == [4, 4]
    assert hand_options(state, "a") == [c for c in state.cards if state.cards[c].team == "sword"]
    stand_ins = list(state.hands["a"])
    card = "sword-20"  # still in the deck, for all the box knew
    assert card not in stand_ins
    r.begin({"do": "play", "player": "a", "card": card})
    assert state.in_play == [card] or card in state.discards["sword"] + state.retained["sword"]
    assert len(state.hands["a"]) == 4 and len(state.decks["sword"]) == 23
    assert stand_ins[-1] in state.decks["sword"]  # the stand-in went back where it was


def test_counted_refuses_a_card_played_this_deck() -> None:
    r = runner("counted")
    r.begin({"do": "start"})
    r.state.discards["sword"].append("salavi")
    r.state.decks["sword"].remove("salavi") if "salavi" in r.state.decks["sword"] else \
        r.state.hands["a"].remove("salavi")
    with pytest.raises(RulesError, match="salavi is not in a's hand: it is in the discard pile"):
        r.begin({"do": "play", "player": "a", "card": "salavi"})


def test_an_unknown_draws_value_is_refused() -> None:
    with pytest.raises(SetupError, match="'draws' must be one of box, tapped, counted"):
        games.CONQUEST.build({"players": PLAYERS, "draws": "hands"})
