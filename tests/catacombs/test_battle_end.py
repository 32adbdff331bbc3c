"""The end of a battle: said when it happens, and the next press says it again instead of
acting; the session marks the game finished when the party is defeated."""

from __future__ import annotations

import pytest

from overseer import documents, games
from overseer.core.procedure import RulesError, Runner, Token
from overseer.session.session import Session, SessionError
from overseer.session.store import Store

ROOM_WON = "tests/scenarios/catacombs/battle_end_room_won.json"
DEFEATED = "tests/scenarios/catacombs/battle_end_party_defeated.json"


def test_next_ai_piece_after_the_room_is_won_says_so():
    doc = documents.load(ROOM_WON)
    battle = games.CATACOMBS.build(doc["setup"])
    runner = Runner(games.CATACOMBS, battle)
    for piece in ("rat-1", "rat-2"):
        runner.begin({"do": "damage_piece", "piece": piece, "amount": 5})
    assert runner.trace[-1].kind == "room_won"
    with pytest.raises(RulesError, match="the room is won: every monster is destroyed or frozen"):
        runner.begin({"do": "next_ai_piece"})
    names = [m.name for m in games.CATACOMBS.legal_actions(battle)]
    assert "next_ai_piece" not in names and "room_reward" in names and "end_game" in names


def test_no_room_yet_says_so():
    battle = games.CATACOMBS.build({"heroes": [{"id": "elf"}]})
    with pytest.raises(RulesError, match="no room is set up yet"):
        Runner(games.CATACOMBS, battle).begin({"do": "next_ai_piece"})


def test_the_session_finishes_a_game_the_party_lost(tmp_path):
    setup = documents.load(DEFEATED)["setup"]
    setup = {**setup, "options": {"physical_tokens": True}}  # the table draws: a 2 kills
    with Store(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "catacombs", {"format": 2, "setup": setup})
        question = session.begin({"do": "next_ai_piece"})
        assert question is not None and question.key == "token"
        assert session.answer(Token(2)) is None
        assert session.finished and session.trace()[-1]["step"] == "party_defeated"
        assert games.CATACOMBS.result(session.state) == \
            "the party is defeated: every hero is destroyed"
        with pytest.raises(SessionError, match="is over; undo to play on"):
            session.begin({"do": "update_hero", "hero": "elf", "health": 3})
        session.undo()
        assert not session.finished and session.state.heroes["elf"].alive
