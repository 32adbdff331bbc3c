"""``Session.ahead``: NEXT AI PIECE worked out on a copy before the press (the gadget draws its
screen ahead) is exactly what ``begin`` makes of it, and ``begin(..., ahead=)`` takes it as it
is only while the game has not changed since."""

from __future__ import annotations

import random

from overseer.app import registry
from overseer.session import session as session_module
from overseer.session.session import Ahead, Session, snapshot_of
from overseer.session.store import Store
from tests.drivers.table_script import answer_for, setup_of

NEXT = {"do": "next_ai_piece"}


def _play(store: Store, use_ahead: bool, seed: int) -> tuple[list, list]:
    """A seeded battle to its end, NEXT worked out ahead at every chance: its log and trace."""
    registry.install()
    game, setup = setup_of("catacombs/los_blocked")
    session = Session.new(store, game, setup, seed=seed)
    rng = random.Random(seed)
    while not session.finished and session.head < 400:
        if session.pending is not None:
            session.answer(answer_for(session.pending, rng))
            continue
        head, state, steps = session.head, snapshot_of(session.fold, session.spec), \
            len(session.runner.trace)
        ahead = session.ahead(NEXT)
        assert ahead is not None
        # worked out apart: the game itself does not move until the press
        assert (session.head, snapshot_of(session.fold, session.spec)) == (head, state)
        session.begin(NEXT, ahead=ahead if use_ahead else None)
        assert list(session.log.slice(head, session.head)) == list(ahead.new)
        assert session.runner.trace[steps:] == ahead.fold.runner.trace[steps:]
        if not use_ahead and not session.runner.busy:
            assert snapshot_of(session.fold, session.spec) == \
                snapshot_of(ahead.fold, session.spec)
    return session.events, session.trace()


def test_next_worked_out_ahead_is_what_begin_makes_of_it(tmp_path):
    for seed in (1, 2, 3):
        with Store(tmp_path / f"plain{seed}.db") as plain, \
                Store(tmp_path / f"ahead{seed}.db") as taken:
            assert _play(plain, False, seed) == _play(taken, True, seed)


def test_an_ahead_holds_only_while_the_game_has_not_changed(tmp_path):
    registry.install()
    game, setup = setup_of("catacombs/los_blocked")
    with Store(tmp_path / "games.db") as store:
        session = Session.new(store, game, setup, seed=4)
        rng = random.Random(4)
        ahead = session.ahead(NEXT)
        assert ahead is not None
        session.begin(NEXT)  # the press taken without it: the game moved on
        while session.pending is not None:
            session.answer(answer_for(session.pending, rng))
        head = session.head
        session.begin(NEXT, ahead=ahead)  # a stale one is not taken: worked out anew
        assert session.log[head] == ahead.new[0]  # the same action ...
        assert session.runner.trace[-1] != ahead.fold.runner.trace[-1]  # ... as the game is
        session.undo()
        assert session.head == head
        stale = session.ahead(NEXT)
        session.undo()
        session.redo()  # back where it was, but not the same turn
        assert stale is not None and stale.turn != session.turn
        assert session.ahead({"do": "no such action"}) is None  # the rules refuse it


def _same(one: Ahead, other: Ahead, spec) -> None:
    assert one.new == other.new
    assert list(one.fold.runner.trace) == list(other.fold.runner.trace)
    if not one.fold.runner.busy:
        assert snapshot_of(one.fold, spec) == snapshot_of(other.fold, spec)


def test_an_ahead_from_the_fold_the_last_one_left_is_the_one_a_copy_makes(tmp_path, monkeypatch):
    """Once an ahead is taken, the next one is worked out on the fold it replaced, brought to
    the head by the log (no copy of the state); it is the one a copy of the game makes, and
    an undo drops that fold (the log before it may change)."""
    registry.install()
    copies = []
    real = session_module.from_snapshot
    monkeypatch.setattr(session_module, "from_snapshot",
                        lambda *args: (copies.append(1), real(*args))[1])
    game, setup = setup_of("catacombs/los_blocked")
    with Store(tmp_path / "games.db") as store:
        session = Session.new(store, game, setup, seed=5)
        rng = random.Random(5)
        activations = 0
        while not session.finished and activations < 12:
            if session.pending is not None:
                session.answer(answer_for(session.pending, rng))
                continue
            copies[:] = []
            ahead = session.ahead(NEXT)  # from the fold the last ahead taken left ...
            copied = session.ahead(NEXT)  # ... which it used: this one is a copy's
            assert ahead is not None and copied is not None
            assert len(copies) == (2 if activations in (0, 6) else 1)
            _same(ahead, copied, session.spec)
            session.begin(NEXT, ahead=ahead)
            activations += 1
            if activations == 6:  # an answer undone, then given again: no fold left over
                while session.pending is not None:
                    session.answer(answer_for(session.pending, rng))
                session.undo()
        assert activations == 12
