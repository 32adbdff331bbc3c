"""A Runebound game played through the session from the setup to its end, as the gadget plays
it: the table's inputs logged, the blind draws (Level I cards, revealed quests) answered by the
seed, an undo of an answer and of an action, a redo, and a restart (``Session.resume``) in the
middle; the state after each restart is the state before it, and the game ends with a winner.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from overseer.core.procedure import RulesError
from overseer.session.session import Session, SessionError, fold, game_spec
from overseer.session.store import Store

SETUP = {"format": 2, "game": "runebound",
         "setup": {"players": ["ann", "bo"], "counters": "table", "trading_dice": "table"}}
# What the table turns over at the reveal, town by town (Greyhaven takes the last deck).
COUNTERS = ["curse-2", "savage-brood", "destroyed", "curse-3", "destroyed", "curse-4"]


def drive(session: Session, action: dict[str, Any], *answers: Any) -> None:
    """An action and the table's answers; nothing may be left waiting."""
    question = session.begin(action)
    for value in answers:
        assert question is not None, f"no question for {value!r}"
        question = session.answer(value)
    assert question is None, f"still waiting: {question}"


def snapshot(session: Session) -> tuple:
    pending = session.pending
    return session.state_dict(), session.trace(), None if pending is None else pending.key


def folded(store: Store, game_id: int) -> dict:
    info = store.game(game_id)
    result = fold(game_spec(info.game), info.setup, info.dice, store.events(game_id)[:info.head])
    return game_spec(info.game).state_dict(result.runner.state)


def quest_of(session: Session, town: str) -> str:
    (quest,) = session.state.towns[town].quests
    return quest


def next_round(session: Session) -> None:
    drive(session, {"do": "end_turn", "hero": "ann"})
    drive(session, {"do": "end_turn", "hero": "bo"})


def deck_round(session: Session, town: str) -> None:
    """Ann travels to ``town``, claims a Level I card there and the quest it reveals."""
    drive(session, {"do": "travel", "hero": "ann", "to": town})
    drive(session, {"do": "level_one", "hero": "ann"}, True)
    drive(session, {"do": "claim_quest", "hero": "ann", "quest": quest_of(session, town)})


def restart(path: Path, store: Store, session: Session) -> tuple[Store, Session]:
    before = snapshot(session)
    store.close()
    store = Store(path)
    resumed = Session.resume(store, session.id)
    assert snapshot(resumed) == before
    return store, resumed


def test_a_whole_game_through_the_session_with_undo_and_restarts(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = Store(path)
    session = Session.new(store, "runebound", SETUP, seed=21)
    drive(session, {"do": "start"})
    drive(session, {"do": "place", "hero": "bo", "town": "tamalir"})
    drive(session, {"do": "place", "hero": "ann", "town": "riverwatch"}, *COUNTERS)
    assert session.state.towns["greyhaven"].curse == "curse-5"
    drive(session, {"do": "quest_counter", "hero": "ann", "token": "green"})
    drive(session, {"do": "quest_counter", "hero": "bo", "token": "red"})
    store, session = restart(path, store, session)

    # Turn 1: Ann trades (one match: a market draw), then fails her first Level I card ...
    drive(session, {"do": "trade", "hero": "ann", "trading": 2, "travel": 3}, 1, "market", 0)
    session.begin({"do": "level_one", "hero": "ann"})
    asked = snapshot(session)
    assert asked[2] == "challenge"
    session.answer(False)
    assert session.state.turn.attempted and not session.state.heroes["ann"].claimed
    # ... the table meant "passed": undo the answer, the same card is asked again
    session.undo()
    assert snapshot(session) == asked
    session.answer(True)
    card = session.state.heroes["ann"].claimed[0]
    assert card.startswith("savage-brood-i-") and session.state.heroes["ann"].xp == 1
    drive(session, {"do": "claim_quest", "hero": "ann", "quest": quest_of(session, "riverwatch")})
    assert session.state.points("ann") == 3
    store, session = restart(path, store, session)

    # A refused action leaves no trace in the log
    head = session.head
    with pytest.raises(RulesError, match="has attempted a Curse card this Adventure step"):
        session.begin({"do": "level_three", "hero": "ann"})
    assert session.head == head

    next_round(session)
    # Turn 3: Ann frees Riverwatch; its immediate Market step: 5 spent, 3 off (I, II, III)
    drive(session, {"do": "level_three", "hero": "ann"}, True, 5)
    assert session.state.towns["riverwatch"].status == "freed"
    assert session.trace()[-1] | {"text": ""} == {
        "step": "market", "rule": "Cataclysm: Curse Cards, Level III", "text": "",
        "hero": "ann", "town": "riverwatch", "spent": 5, "discount": 3, "pay": 2,
        "immediate": True}
    # undo the whole action, redo it: the same state
    after = snapshot(session)
    session.undo()  # the amount spent: freed, the Market step asks again
    assert session.pending.key == "spent" and session.state.towns["riverwatch"].status == "freed"
    session.undo()  # the Level III answer: still cursed, the fight asked again
    assert session.pending.key == "defeated"
    assert session.state.towns["riverwatch"].status == "cursed"
    session.undo()  # the action
    assert session.pending is None and session.state.turn.step == "movement"
    for _ in range(3):
        session.redo()
    assert snapshot(session) == after
    store, session = restart(path, store, session)

    next_round(session)
    deck_round(session, "tamalir")  # 9 points
    next_round(session)
    drive(session, {"do": "level_three", "hero": "ann"}, True, 0)  # 12 points, 2 towns
    next_round(session)
    store, session = restart(path, store, session)
    drive(session, {"do": "travel", "hero": "ann", "to": "forge"})
    # 13 points (15 - 2 players) and a town freed: Ann wins at the Level I claim, before the
    # quest it would reveal
    drive(session, {"do": "level_one", "hero": "ann"}, True)
    assert session.finished and session.state.over.winner == "ann"
    assert session.state_dict()["over"] == {"reason": "victory", "winner": "ann",
                                            "points": {"ann": 13, "bo": 0}}
    assert session.state.towns["forge"].quests == []
    assert folded(store, session.id) == session.state_dict()
    with pytest.raises(SessionError, match="is over; undo to play on"):
        session.begin({"do": "end_turn", "hero": "ann"})
    store, session = restart(path, store, session)
    assert session.finished
    store.close()
