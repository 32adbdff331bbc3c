"""A Clank! game played through the session from setup to its end, with undo, redo and a
restart (the log folded again by ``Session.resume``)."""

from __future__ import annotations

from typing import Any

import pytest

from overseer.core.procedure import RulesError
from overseer.session.session import Session, SessionError
from overseer.session.store import Store

SETUP = {"format": 2, "game": "clank", "setup": {"players": ["ann", "bo"]}}


def snapshot(session: Session) -> tuple[Any, ...]:
    pending = session.pending
    return (session.state_dict(), session.trace(), None if pending is None else pending.key,
            session.head)


def act(session: Session, action: dict[str, Any], *answers: Any) -> None:
    question = session.begin(action)
    for answer in answers:
        assert question is not None, f"{action}: no question for {answer!r}"
        question = session.answer(answer)
    assert question is None, f"{action}: {question} left"


def test_a_scripted_game_with_undo_and_a_restart(tmp_path) -> None:
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        session = Session.new(store, "clank", SETUP, seed=13)
        # the base safe tiles are confirmed by the table; the positions come from the seed
        act(session, {"do": "setup"}, True)
        tiles = session.state_dict()["safe_tiles"]
        assert tiles["row"] == 6 and len(set(tiles["positions"])) == 4
        assert all(1 <= p <= 6 for p in tiles["positions"])
        for room in ("living-statue-lair", "spirit-altar", "medusas-lair"):
            act(session, {"do": "reveal", "room": room})
        act(session, {"do": "enter", "player": "ann", "room": "living-statue-lair"})
        act(session, {"do": "fight", "player": "ann", "monster": "living-statue"},
            "spirit-altar")
        before_cube = snapshot(session)
        act(session, {"do": "place_cube", "player": "ann", "space": "spirit-altar/altar"},
            True, "living-statue-1", False)
        placed = snapshot(session)
        assert placed[0]["cubes"] == {"spirit-altar/altar": "ann"}
        assert placed[0]["players"]["ann"]["trophies"] == []

        # undo the last answer: the artifact question waits again
        session.undo()
        assert session.pending is not None and session.pending.key == "take_artifact"
        assert session.state_dict()["cubes"] == {}
        # undo to before the cube, then redo it all
        while session.head > before_cube[3]:
            session.undo()
        assert snapshot(session) == before_cube
        while session.can_redo:
            session.redo()
        assert snapshot(session) == placed
        # a new input after an undo replaces the undone tail
        session.undo()
        session.answer(True)  # take an artifact after all
        assert session.pending is not None and session.pending.key == "backpack"
        session.answer(True)
        assert session.pending is None
        with_artifact = snapshot(session)
        assert with_artifact[1][-1]["step"] == "artifact" and with_artifact[1][-1]["taken"]
        game_id = session.id

    with Store(path) as store:  # the restart: the game is folded again from its log
        session = Session.resume(store, game_id)
        assert snapshot(session) == with_artifact
        assert not session.can_redo
        act(session, {"do": "end_turn"})
        act(session, {"do": "trap_pit", "player": "bo"}, True, "fall", True)
        act(session, {"do": "take_trophy", "player": "bo", "card": "hoard-keeper"})
        act(session, {"do": "end_game"}, 12)
        assert session.finished and store.game(game_id).finished
        over = session.state_dict()["over"]
        assert over["totals"] == {"ann": 0, "bo": 2}
        assert over["players"]["bo"]["items"] == [
            {"trophy": "hoard-keeper", "name": "Hoard Keeper", "vp": 2,
             "how": "1 per 5 gold, 12 gold", "verified": True}]
        with pytest.raises(SessionError, match="is over"):
            session.begin({"do": "end_turn"})
        ended = snapshot(session)

    with Store(path) as store:
        session = Session.resume(store, game_id)
        assert snapshot(session) == ended and session.finished
        assert session.spec.result(session.state).startswith("trophy victory points: ann 0, bo 2")
        session.undo()  # back into the game: the gold question waits again
        assert not session.finished and session.pending is not None
        assert session.pending.key == "gold"
        session.answer(15)
        assert session.finished and session.state_dict()["over"]["totals"]["bo"] == 3


def test_a_refused_action_leaves_the_log_as_it_was(tmp_path) -> None:
    with Store(tmp_path / "games.sqlite3") as store:
        session = Session.new(store, "clank", {**SETUP, "setup": {"players": ["ann", "bo"],
                                                                   "base_safe_tiles": 4}}, seed=3)
        act(session, {"do": "setup"})
        act(session, {"do": "reveal", "room": "temple-of-gold"})
        act(session, {"do": "enter", "player": "ann", "room": "wayside-shrine"})
        act(session, {"do": "place_cube", "player": "ann", "space": "temple-of-gold/2"},
            True, [])
        before = (store.events(session.id), store.game(session.id).head, snapshot(session))
        with pytest.raises(RulesError, match="already made an offering"):
            session.begin({"do": "place_cube", "player": "ann", "space": "temple-of-gold/3"})
        with pytest.raises(RulesError, match="it is ann's turn, not bo's"):
            session.begin({"do": "enter", "player": "bo", "room": "elsewhere"})
        assert (store.events(session.id), store.game(session.id).head,
                snapshot(session)) == before
