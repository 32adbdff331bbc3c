"""Sessions over the real rules engines: fold = live, undo/redo, resume, chance, bad inputs."""

from __future__ import annotations

import random

import pytest

from overseer import documents
from overseer.core.chance import SeededChance
from overseer.core.procedure import AnswerError, Roll, RulesError, Runner
from overseer.session.events import Event, decode_answer
from overseer.session.session import LogError, Session, SessionError, fold, game_spec
from overseer.session.store import Store, StoreError
from tests.drivers.table_script import setup_of, step

LONG_GAMES = ["catacombs/shot_choice", "catacombs/los_blocked", "catacombs/physical_tokens",
              "catacombs/antient", "conquest/turn_order_3_players"]


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "games.sqlite3") as s:
        yield s


def _new(store: Store, name: str, seed: int = 5, dice: str = "seeded") -> Session:
    game, setup = setup_of(name)
    return Session.new(store, game, setup, seed=seed, dice=dice)


def _folded(store: Store, game_id: int) -> tuple[dict, list]:
    """The state and trace folded from what the store holds, by a fresh reader."""
    info = store.game(game_id)
    result = fold(game_spec(info.game), info.setup, info.dice,
                  store.events(game_id)[:info.head])
    spec = game_spec(info.game)
    return spec.state_dict(result.runner.state), [s.as_dict() for s in result.runner.trace]


def _snapshot(session: Session) -> tuple:
    pending = session.pending
    return session.state_dict(), session.trace(), None if pending is None else pending.key


def _fold_equals_live(store: Store, name: str, limit: int) -> None:
    rng = random.Random(name)
    session = _new(store, name, dice=rng.choice(["seeded", "seeded", "table"]))
    steps = 0
    while steps < limit and not session.finished:
        step(session, rng)
        steps += 1
        state, trace = _folded(store, session.id)
        assert state == session.state_dict(), f"step {steps}"
        assert trace == session.trace(), f"step {steps}"
    assert steps >= 40 or session.finished  # a long game, or a whole game to its end
    print(f"{name}: {steps} steps, {session.head} events, fold = live after each")


@pytest.mark.parametrize("name", LONG_GAMES)
def test_fold_equals_live_after_every_step(store, name):
    _fold_equals_live(store, name, 200)


@pytest.mark.long
@pytest.mark.parametrize("name", LONG_GAMES)
def test_fold_equals_live_after_every_step_of_1000(store, name):
    _fold_equals_live(store, name, 1000)


def test_undo_redo_to_any_depth_and_back(store):
    session = _new(store, "catacombs/shot_choice", seed=9)
    rng = random.Random(9)
    snapshots = [_snapshot(session)]
    for _ in range(80):
        step(session, rng)
        snapshots.append(_snapshot(session))
    for depth in range(1, 81):  # all the way back, one input at a time
        session.undo()
        assert _snapshot(session) == snapshots[80 - depth], f"undo depth {depth}"
    assert not session.can_undo and session.head == 0
    with pytest.raises(SessionError, match="nothing to undo"):
        session.undo()
    for n in range(1, 81):  # and all the way forward again
        session.redo()
        assert _snapshot(session) == snapshots[n], f"redo {n}"
    with pytest.raises(SessionError, match="nothing to redo"):
        session.redo()
    assert _folded(store, session.id)[0] == snapshots[80][0]


def test_undo_redo_random_walk_across_restarts(tmp_path):
    """Inputs, undos and redos at random, with restarts between; a plain list is the model."""
    path = tmp_path / "games.sqlite3"
    rng = random.Random(3)
    store = Store(path)
    session = _new(store, "catacombs/los_open_enemies", seed=3)
    history = [_snapshot(session)]  # the state after 0, 1, 2 ... live inputs
    undone: list[tuple] = []
    for n in range(300):
        move = rng.random()
        if move < 0.25 and session.can_undo:
            session.undo()
            undone.append(history.pop())
        elif move < 0.45 and undone:
            session.redo()
            history.append(undone.pop())
        else:
            step(session, rng)
            history.append(_snapshot(session))
            undone.clear()  # a new input replaces the undone tail
        assert session.can_redo == bool(undone)
        if n % 37 == 0:  # restart: the undo history survives
            store.close()
            store = Store(path)
            session = Session.resume_last(store, "catacombs")
        assert _snapshot(session) == history[-1]
    store.close()


def test_resume_after_restart_equals_the_state_before(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        rng = random.Random(11)
        cat = _new(store, "catacombs/los_blocked", seed=11)
        while cat.head < 200:
            step(cat, rng)
        while cat.pending is None:  # stop where a question waits
            step(cat, rng)
        con = _new(store, "conquest/turn_order_3_players", seed=4)
        for _ in range(10):
            step(con, rng)
        while con.pending is None:  # stop where a question waits
            step(con, rng)
        before = {"catacombs": _snapshot(cat), "conquest": _snapshot(con)}
        ids = {"catacombs": cat.id, "conquest": con.id}
    with Store(path) as store:
        for game in ("catacombs", "conquest"):
            resumed = Session.resume_last(store, game)
            assert resumed.id == ids[game]
            assert _snapshot(resumed) == before[game]
        assert Session.resume_last(store, "conquest").pending.key == before["conquest"][2]


def test_chance_is_the_seeded_source_counted_by_chance_events(store):
    """Replaying the table's inputs with the plain SeededChance (counting from 0) as the
    runner's chance source gives the same game: the log's chance values are exactly it."""
    session = _new(store, "catacombs/shot_choice", seed=77)
    rng = random.Random(77)
    while session.head < 300:
        step(session, rng)
    state = session.spec.build(documents.setup_of(session.setup, session.spec))
    runner = Runner(session.spec, state, chance=SeededChance(77))
    chance_events = 0
    for event in session.events[:session.head]:
        if event.kind == "action":
            runner.begin(event.data)
        elif event.kind == "answer":
            runner.answer(decode_answer(runner.pending, event.data["value"]))
        else:
            chance_events += 1
    assert chance_events > 20
    assert session.spec.state_dict(runner.state) == session.state_dict()


def test_undo_then_the_same_input_gives_the_same_roll(store):
    session = _new(store, "catacombs/antient", seed=21)
    rng = random.Random(21)
    while True:  # find an input that made the seed answer chance questions
        before = session.head
        step(session, rng)
        group = session.events[before:session.head]
        if any(e.kind == "chance" for e in group):
            break
    after = _snapshot(session)
    session.undo()
    if group[0].kind == "action":
        session.begin(group[0].data)
    else:
        session.answer(decode_answer(session.pending, group[0].data["value"]))
    assert session.events[before:session.head] == group
    assert _snapshot(session) == after


def _to_a_roll(session: Session, rng: random.Random) -> None:
    while not isinstance(session.pending, Roll):
        step(session, rng)


def test_a_seen_roll_can_be_undone_but_stays_marked(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        session = _new(store, "catacombs/antient", seed=2, dice="pico")
        rng = random.Random(2)
        _to_a_roll(session, rng)
        with pytest.raises(AnswerError):
            session.answer(13, source="pico")
        session.answer(4, source="pico")
        assert session.events[-1].seen and session.events[-1].data["source"] == "pico"
        assert session.events[-1].seen and session.events[-1].data["source"] == "pico"
        undone = session.undo()
        assert undone.marked and undone.events[0].data["value"] == 4
        session.answer(2, source="pico")  # a re-roll replaces it: the first result is kept
        retracted = store.retracted(session.id)
        assert [(r["data"]["value"], r["data"]["source"]) for r in retracted] == [(4, "pico")]
    with Store(path) as store:
        assert store.retracted(session.id)[0]["data"]["value"] == 4
        # an undo over table answers and seeded chance is not marked
        resumed = Session.resume(store, session.id)
        resumed.set_dice("seeded")
        step(resumed, rng)
        assert not resumed.undo().marked


def test_dice_mode_is_an_input_of_the_log(store):
    session = _new(store, "catacombs/antient", seed=8)
    rng = random.Random(8)
    session.set_dice("table")
    _to_a_roll(session, rng)
    with pytest.raises(SessionError, match="source"):
        session.answer(3, source="dice cup")
    session.answer(3)
    assert _folded(store, session.id)[0] == session.state_dict()
    with pytest.raises(SessionError, match="dice mode"):
        session.set_dice("loaded")
    while session.events[session.head - 1].kind != "setting":
        session.undo()
    session.undo()
    assert session.dice == "seeded"


def test_bad_inputs_change_nothing(store):
    session = _new(store, "conquest/turn_order_3_players", seed=6)
    rng = random.Random(6)

    def frozen() -> tuple:
        return store.events(session.id), store.game(session.id).head, _snapshot(session)

    def unchanged(before: tuple) -> None:
        assert frozen() == before
        assert _folded(store, session.id)[0] == before[2][0]

    step(session, rng)  # the start: no question waits
    assert session.pending is None and not session.finished
    before = frozen()
    with pytest.raises(SessionError, match="no question"):
        session.answer(1)
    with pytest.raises(RulesError):
        session.begin({"do": "play", "player": "nobody", "card": "sword-01"})
    with pytest.raises(RulesError):
        session.begin({"do": "start"})
    unchanged(before)
    while session.pending is None:  # a question waits
        step(session, rng)
    before = frozen()
    with pytest.raises(AnswerError):
        session.answer({"not": "an answer"})
    unchanged(before)
    with pytest.raises(RulesError):
        session.begin({"do": "start"})  # an action while a question waits
    unchanged(before)
    with pytest.raises(SessionError, match="'do'"):
        session.begin({"play": "x"})
    unchanged(before)
    with pytest.raises(SessionError, match="plain JSON data"):
        session.begin({"do": "play", "card": {1, 2}})
    unchanged(before)


def test_a_finished_game_is_not_offered_and_takes_no_input_until_undone(store):
    session = _new(store, "conquest/turn_order_3_players", seed=4)
    rng = random.Random(4)
    while not session.finished:
        step(session, rng)
    assert session.state_dict()["over"]
    assert Session.resume_last(store, "conquest") is None
    with pytest.raises(SessionError, match="is over"):
        session.begin({"do": "start"})
    session.undo()
    assert not session.finished and Session.resume_last(store, "conquest").id == session.id
    session.redo()
    assert session.finished and store.game(session.id).finished


def test_table_can_end_a_game_the_rules_do_not_end(store):
    session = _new(store, "catacombs/los_blocked")
    step(session, random.Random(0))
    session.finish()
    assert store.last_unfinished("catacombs") is None


def test_new_game_with_a_bad_setup_stores_nothing(store):
    with pytest.raises(SessionError, match="setup does not build"):
        Session.new(store, "catacombs", {"options": {"no_such_option": True}})
    with pytest.raises(SessionError, match="unknown game"):
        Session.new(store, "chess", {})
    with pytest.raises(SessionError, match="dice mode"):
        Session.new(store, "catacombs", {}, dice="loaded")
    assert store.games() == []


def test_a_log_that_does_not_fit_the_rules_is_reported(store):
    session = _new(store, "catacombs/los_blocked")
    with pytest.raises(LogError, match="event #0 \\(answer\\)"):
        fold(session.spec, session.setup, "seeded",
             [Event("answer", {"key": "los", "value": []})])


def test_a_failed_save_leaves_the_session_as_it_was(tmp_path):
    path = tmp_path / "games.sqlite3"
    with Store(path) as store:
        session = _new(store, "catacombs/los_blocked")
        rng = random.Random(1)
        for _ in range(5):
            step(session, rng)
        snap = _snapshot(session)
        with Store(path) as other:  # another process deletes the game meanwhile
            other.delete_game(session.id)
        with pytest.raises(StoreError, match="could not save"):
            step(session, rng)
        assert _snapshot(session) == snap
        with pytest.raises(StoreError, match="no saved game"):
            session.undo()
        assert _snapshot(session) == snap


def test_an_older_logs_answer_to_a_retired_question_is_passed_over(store):
    """Catacombs no longer asks whether a piece stands at the playmat's edge (the clock step
    gives both cases): a log from before holds those answers among the others, and the game
    replays to the same state and trace."""
    rng = random.Random(3)
    session = _new(store, "catacombs/los_blocked")
    for _ in range(40):
        if session.finished:
            break
        step(session, rng)
    events = store.events(session.id)[:session.head]
    answered = [n for n, e in enumerate(events) if e.kind in ("answer", "chance")]
    assert len(answered) >= 5
    older = list(events)
    for n in sorted(rng.sample(answered, 5), reverse=True):
        older.insert(n, Event("answer", {"key": "edge", "value": True}))
    info = store.game(session.id)
    spec = game_spec(info.game)
    again = fold(spec, info.setup, info.dice, older)
    assert spec.state_dict(again.runner.state) == session.state_dict()
    assert [s.as_dict() for s in again.runner.trace] == session.trace()
    with pytest.raises(LogError, match="no question waiting"):  # no licence elsewhere
        fold(spec, info.setup, info.dice, [*events, Event("answer", {"key": "edge",
                                                                     "value": True})])
