"""Bounded resume and undo: snapshots of the folded state kept with the log, one committed
transaction per input, the rules version, seeded chance checked on replay, a full or read-only
store."""

from __future__ import annotations

import os
import pickle
import random
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from overseer import RULES_VERSION
from overseer.loaders import catacombs as catacombs_loader
from overseer.session import session as session_module
from overseer.session.export import read_export, write_export
from overseer.session.session import (
    SNAPSHOT_EVERY,
    LogError,
    Session,
    build_id,
    fold,
    game_spec,
)
from overseer.session.store import SaveError, Store
from tests.drivers.table_script import setup_of, step

GAME = "catacombs/los_blocked"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


def played(store: Store, events: int, seed: int = 5, name: str = GAME) -> Session:
    """A game played by the scripted table until its log holds ``events`` events, stopped
    where no action is running or where a question waits."""
    game, setup = setup_of(name)
    session = Session.new(store, game, setup, seed=seed)
    rng = random.Random(seed)
    while session.head < events:
        step(session, rng)
    return session


def seen(session: Session) -> tuple:
    pending = session.pending
    return (session.state_dict(), session.trace(), None if pending is None else pending.key,
            session.dice, session.fold.chance_count, session.can_undo, session.can_redo)


def full_fold(store: Store, game_id: int) -> tuple:
    """What a fold of the whole stored log, from the setup, gives (no snapshot used)."""
    info = store.game(game_id)
    spec = game_spec(info.game)
    result = fold(spec, info.setup, info.dice, store.events(game_id)[:info.head], info.seed)
    pending = result.runner.pending
    return (spec.state_dict(result.runner.state), [s.as_dict() for s in result.runner.trace],
            None if pending is None else pending.key, result.dice, result.chance_count)


def commits(store: Store) -> list[str]:
    """Every COMMIT the store's connection runs from now on."""
    done: list[str] = []
    store.db.set_trace_callback(lambda sql: done.append(sql) if sql == "COMMIT" else None)
    return done


# ---------------------------------------------------------------------- transactions


def test_one_committed_transaction_per_input_however_many_chance_answers(path: Path) -> None:
    with Store(path) as store:
        game, setup = setup_of(GAME)
        session = Session.new(store, game, setup, seed=3)
        rng = random.Random(3)
        most_chance = 0
        for _ in range(300):
            before = session.head
            done = commits(store)
            kind = step(session, rng)
            group = session.log.slice(before, session.head) if kind != "undo" else []
            assert len(done) == 1, f"{kind}: {len(done)} commits"
            most_chance = max(most_chance, sum(e.kind == "chance" for e in group))
        assert most_chance >= 2  # some inputs settled more than one roll or draw at once
        assert store.snapshot_seqs(session.id, build_id())  # snapshots went in the same commits
        done = commits(store)
        session.undo()
        session.set_dice("table" if session.dice != "table" else "seeded")
        session.undo()
        session.redo()
        assert len(done) == 4


# ---------------------------------------------------------------------- snapshots


def test_snapshots_every_n_events_and_resume_equals_a_whole_fold(path: Path) -> None:
    with Store(path) as store:
        session = played(store, 3 * SNAPSHOT_EVERY + 30)
        live = seen(session)
        seqs = store.snapshot_seqs(session.id, build_id())
        assert len(seqs) == 3
        gaps = [b - a for a, b in zip([0, *seqs], seqs, strict=False)]
        assert all(SNAPSHOT_EVERY <= gap < SNAPSHOT_EVERY + 30 for gap in gaps), gaps
        game_id = session.id
    with Store(path) as store:
        reads: list[tuple[int, int | None]] = []
        real = store.events
        store.events = lambda gid, start=0, stop=None: (reads.append((start, stop)),  # type: ignore[method-assign]
                                                          real(gid, start, stop))[1]
        resumed = Session.resume(store, game_id)
        assert reads and all(start >= seqs[-1] - session_module.Log.CHUNK for start, _ in reads)
        assert seen(resumed) == live
        assert seen(resumed)[:5] == full_fold(store, game_id)


def test_the_state_a_snapshot_keeps_is_the_live_state(path: Path) -> None:
    with Store(path) as store:
        session = played(store, SNAPSHOT_EVERY + 40)
        (seq,) = store.snapshot_seqs(session.id, build_id())
        data = store.snapshot(session.id, seq, build_id())
        assert data is not None
        kept = session_module.from_snapshot(session.spec, data, session.seed, lambda n: [])
        again = fold(session.spec, session.setup, "seeded", session.events[:seq], session.seed)
        assert kept.runner.state == again.runner.state  # the dataclasses, field by field
        assert len(kept.runner.trace) == len(again.runner.trace)
        assert (kept.dice, kept.chance_count) == (again.dice, again.chance_count)


def test_a_snapshot_names_the_card_data_and_a_resume_puts_back_the_loaded_one(path: Path
                                                                            ) -> None:
    with Store(path) as store:
        session = played(store, SNAPSHOT_EVERY + 40)
        (seq,) = store.snapshot_seqs(session.id, build_id())
        data = store.snapshot(session.id, seq, build_id())
        assert data is not None
        whole = pickle.dumps(session.state.data, protocol=pickle.HIGHEST_PROTOCOL)
        assert len(data) < len(whole) // 4  # the cards are not in it
        kept = session_module.from_snapshot(session.spec, data, session.seed, lambda n: [])
        assert kept.runner.state.data is catacombs_loader.default()  # the rules compare by identity


def test_a_game_resumed_from_a_snapshot_plays_on_as_a_replayed_one(path: Path, tmp_path: Path
                                                                   ) -> None:
    with Store(path) as store:
        game_id = played(store, 2 * SNAPSHOT_EVERY + 17).id
    shutil.copy(path, tmp_path / "replayed.sqlite3")
    with Store(tmp_path / "replayed.sqlite3") as store:  # the same log with no snapshots
        store.db.execute("DELETE FROM snapshots")
    games_after = []
    for where in (path, tmp_path / "replayed.sqlite3"):
        with Store(where) as store:
            folds: list[int] = []
            session = Session.resume(store, game_id)
            folds.append(session.fold.runner.trace.__class__ is session_module.Trace)
            assert session.state.data is catacombs_loader.default()
            rng = random.Random(11)
            while session.head < 3 * SNAPSHOT_EVERY + 60:
                step(session, rng)
            session.undo()
            games_after.append((folds, seen(session), [e.payload() for e in session.events]))
    (snapshot, *first), (replayed, *second) = games_after
    assert snapshot == [True] and replayed == [False]  # one resumed from a snapshot, one folded
    assert first == second


def test_a_resumed_trace_reads_its_early_steps_only_when_asked(path: Path, monkeypatch) -> None:
    with Store(path) as store:
        session = played(store, 2 * SNAPSHOT_EVERY + 10)
        trace = session.trace()
        game_id = session.id
    early = []
    real = Session._early_steps
    monkeypatch.setattr(Session, "_early_steps",
                        lambda self, seq, n: (early.append(seq), real(self, seq, n))[1])
    with Store(path) as store:
        resumed = Session.resume(store, game_id)
        steps = resumed.runner.trace
        assert len(steps) == len(trace)
        assert [s.as_dict() for s in steps[len(steps) - 3:]] == trace[-3:]
        assert early == []  # the last steps came without folding the log again
        assert resumed.trace() == trace
        # each stretch between two snapshots folded once, from the one before it
        assert early == sorted(resumed._snapshots, reverse=True)


def counting_builds(monkeypatch) -> list[int]:
    """Every fold from the setup (``built``) from now on."""
    made: list[int] = []
    real = session_module.built
    monkeypatch.setattr(session_module, "built",
                        lambda *args: (made.append(1), real(*args))[1])
    return made


def test_steps_just_before_a_snapshot_fold_from_the_snapshot_before_it(path: Path,
                                                                       monkeypatch) -> None:
    with Store(path) as store:
        session = played(store, 3 * SNAPSHOT_EVERY + 10)
        trace = session.trace()
        game_id = session.id
    with Store(path) as store:
        resumed = Session.resume(store, game_id)
        builds = counting_builds(monkeypatch)
        steps = resumed.runner.trace
        start = len(steps) - len(resumed.runner.trace._steps) - 5  # type: ignore[attr-defined]
        assert [s.as_dict() for s in steps[start:start + 10]] == trace[start:start + 10]
        assert builds == []  # no fold from the setup: the snapshot before was enough


def test_trace_length_at_an_earlier_event_equals_a_whole_fold(path: Path, monkeypatch) -> None:
    with Store(path) as store:
        session = played(store, 3 * SNAPSHOT_EVERY + 10)
        game_id = session.id
    with Store(path) as store:
        resumed = Session.resume(store, game_id)
        events = store.events(game_id)
        info = store.game(game_id)
        for seq in (1, SNAPSHOT_EVERY + 7, 3 * SNAPSHOT_EVERY + 3, resumed.head):
            whole = fold(resumed.spec, info.setup, info.dice, events[:seq], info.seed)
            builds = counting_builds(monkeypatch)
            assert resumed.trace_length_at(seq) == len(whole.runner.trace)
            assert builds == ([1] if seq < resumed._snapshots[0] else [])
            monkeypatch.undo()


def test_undo_and_redo_from_snapshots_to_any_depth(path: Path) -> None:
    with Store(path) as store:
        session = played(store, 2 * SNAPSHOT_EVERY + 20, seed=8)
    with Store(path) as store:
        session = Session.resume_last(store, "catacombs")
        assert session is not None
        states = [seen(session)]
        while session.can_undo:
            session.undo()
            states.append(seen(session))
            assert states[-1][:5] == full_fold(store, session.id)
        for state in reversed(states[:-1]):
            session.redo()
            assert seen(session) == state


def test_a_new_input_after_an_undo_drops_the_snapshots_past_it(path: Path) -> None:
    with Store(path) as store:
        session = played(store, 2 * SNAPSHOT_EVERY + 20, seed=2)
        first, second = store.snapshot_seqs(session.id, build_id())
        while session.head > first + 5:
            session.undo()
        rng = random.Random(99)
        while session.head <= first + 5:
            step(session, rng)  # another future
        assert second not in store.snapshot_seqs(session.id, build_id())
        live = seen(session)
    with Store(path) as store:
        assert seen(Session.resume(store, session.id)) == live


def test_snapshots_of_another_build_are_ignored_and_rebuilt(path: Path, monkeypatch) -> None:
    with Store(path) as store:
        session = played(store, 2 * SNAPSHOT_EVERY + 20)
        live = seen(session)
        old = store.snapshot_seqs(session.id, build_id())
    monkeypatch.setattr(session_module, "build_id", lambda: "rules 999, files changed")
    with Store(path) as store:
        resumed = Session.resume(store, session.id)
        assert seen(resumed) == live
        assert store.snapshot_seqs(session.id, build_id()) == []  # the real build's: gone
        rebuilt = store.snapshot_seqs(session.id, "rules 999, files changed")
        assert len(rebuilt) == len(old)


def test_a_snapshot_that_does_not_load_is_passed_over(path: Path) -> None:
    with Store(path) as store:
        session = played(store, 2 * SNAPSHOT_EVERY + 20)
        live = seen(session)
        last = store.snapshot_seqs(session.id, build_id())[-1]
        store.db.execute("UPDATE snapshots SET state = x'00ff' WHERE seq = ?", (last,))
    with Store(path) as store:
        assert seen(Session.resume(store, session.id)) == live


def test_build_id_names_the_rules_version_and_follows_the_files(tmp_path: Path,
                                                                monkeypatch) -> None:
    assert build_id().startswith(f"rules {RULES_VERSION}, files ")
    data = tmp_path / "data"
    (data / "catacombs").mkdir(parents=True)
    table = data / "catacombs" / "monsters.toml"
    table.write_text("[[monster]]\n")
    monkeypatch.setattr(session_module, "DATA_DIR", data)
    fresh = session_module.build_id.__wrapped__  # not the cached one
    first = fresh()
    assert fresh() == first
    table.write_text("[[monster]]\nid = 'orc'\n")  # a data file changed
    assert fresh() != first


# ---------------------------------------------------------------------- the rules version


def test_a_game_saved_under_other_rules_says_so_and_plays_on(path: Path) -> None:
    with Store(path) as store:
        session = played(store, 40)
        live = seen(session)
        store.db.execute("UPDATE games SET rules = ? WHERE id = ?", (RULES_VERSION - 1,
                                                                     session.id))
    with Store(path) as store:
        assert store.game(session.id).as_dict()["rules_version"] == RULES_VERSION - 1
        resumed = Session.resume(store, session.id)
        assert resumed.notice is not None
        assert f"saved under rules version {RULES_VERSION - 1}" in resumed.notice
        assert f"this Overseer has rules version {RULES_VERSION}" in resumed.notice
        assert seen(resumed) == live
        step(resumed, random.Random(1))  # play goes on, and the log is now this version's
        assert store.game(session.id).rules == RULES_VERSION
    with Store(path) as store:
        assert Session.resume(store, session.id).notice is None


def test_a_log_of_other_rules_that_does_not_replay_is_refused_and_exports(path: Path,
                                                                         tmp_path: Path) -> None:
    with Store(path) as store:
        session = played(store, 40)
        store.db.execute("UPDATE games SET rules = NULL WHERE id = ?", (session.id,))
        store.db.execute("UPDATE events SET data = '{\"do\": \"an_action_of_other_rules\"}'"
                         " WHERE game_id = ? AND seq = 0", (session.id,))
    with Store(path) as store:
        with pytest.raises(LogError) as refused:
            Session.resume(store, session.id)
        message = str(refused.value)
        assert "saved under rules older than their version numbers" in message
        assert f"rules version {RULES_VERSION}" in message
        assert f"overseer games export {session.id} FILE" in message
        out = write_export(store, session.id, tmp_path / "kept.json")
        assert out.exists()  # exported whole, though it does not replay here


def test_an_export_carries_the_rules_version_and_an_import_keeps_it(path: Path,
                                                                    tmp_path: Path) -> None:
    from overseer.session.export import import_game

    with Store(path) as store:
        session = played(store, 20)
        exported = write_export(store, session.id, tmp_path / "game.json")
        assert read_export(exported)["rules_version"] == RULES_VERSION
        copy = import_game(store, exported)
        assert store.game(copy).rules == RULES_VERSION


# ---------------------------------------------------------------------- seeded chance checked


def test_a_seeded_roll_that_does_not_match_its_seed_is_a_log_error(path: Path) -> None:
    with Store(path) as store:
        session = played(store, 30)
        chance = next(n for n, e in enumerate(session.events) if e.kind == "chance")
        event = session.events[chance]
        value = event.data["value"]
        wrong = (value % 6) + 1 if isinstance(value, int) else value
        assert wrong != value, "the first chance event is a roll"
        data = {**event.data, "value": wrong}
        store.db.execute("UPDATE events SET data = ? WHERE game_id = ? AND seq = ?",
                         (session_module.canonical(data), session.id, chance))
    with Store(path) as store:
        with pytest.raises(LogError, match=f"event #{chance} \\(chance\\).*seeded chance"):
            Session.resume(store, session.id)
        info = store.game(session.id)
        with pytest.raises(LogError, match="seeded chance"):
            fold(game_spec(info.game), info.setup, info.dice, store.events(info.id), info.seed)


# ---------------------------------------------------------------------- full or read-only


def test_a_full_store_refuses_the_step_keeps_the_game_and_takes_the_retry(path: Path) -> None:
    with Store(path) as store:
        session = played(store, 30)
        rng = random.Random(7)
        pages = store.db.execute("PRAGMA page_count").fetchone()[0]
        store.db.execute(f"PRAGMA max_page_count = {pages}")  # not one page more
        before = seen(session)
        saved = store.events(session.id)
        refused = 0
        for _ in range(200):  # until an input needs a new page
            try:
                step(session, rng)
            except SaveError as err:
                assert err.reason == "full" and "is full" in str(err)
                assert "try again" in str(err)
                refused += 1
                break
            before, saved = seen(session), store.events(session.id)
        assert refused == 1
        assert seen(session) == before  # the game stays where it was saved
        assert store.events(session.id) == saved  # nothing saved is lost
        store.db.execute(f"PRAGMA max_page_count = {pages * 100}")  # room again
        for _ in range(5):
            step(session, random.Random(7))  # the retry is taken
        live = seen(session)
    with Store(path) as store:
        assert seen(Session.resume(store, session.id)) == live


def test_a_read_only_store_refuses_the_step_and_takes_the_retry(path: Path) -> None:
    with Store(path) as store:
        session = played(store, 30)
        before, saved, head = seen(session), store.events(session.id), session.head
        store.db.execute("PRAGMA query_only = ON")  # every write refused, as on a read-only file
        with pytest.raises(SaveError, match="is read-only") as refused:
            step(session, random.Random(4))
        assert refused.value.reason == "read-only"
        assert seen(session) == before and store.events(session.id) == saved
        step(session, random.Random(4))  # writable again (a fresh connection): taken
        assert session.head > head and len(store.events(session.id)) > len(saved)


def _chattr(flag: str, path: Path) -> bool:
    chattr = shutil.which("chattr")
    if chattr is None:
        return False
    return subprocess.run([chattr, flag, str(path)], capture_output=True).returncode == 0


def test_a_file_that_cannot_be_written_opens_plays_back_and_refuses_steps(path: Path) -> None:
    with Store(path) as store:
        session = played(store, 30)
        live, game_id = seen(session), session.id
    if os.geteuid() == 0:  # root writes through a read-only mode: make the file immutable
        if not _chattr("+i", path):
            pytest.skip("no chattr +i here, and root ignores a read-only mode")
    else:
        path.chmod(0o444)
    try:
        with Store(path) as store:
            resumed = Session.resume(store, game_id)
            assert seen(resumed) == live  # the game opens on what was saved
            with pytest.raises(SaveError, match="read-only"):
                step(resumed, random.Random(4))
            assert seen(resumed) == live
    finally:
        if os.geteuid() == 0:
            _chattr("-i", path)
        else:
            path.chmod(0o644)
    with Store(path) as store:
        assert seen(Session.resume(store, game_id)) == live
        assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_the_command_line_says_which_rules_saved_a_game(path: Path, capsys) -> None:
    from overseer.cli import main

    with Store(path) as store:
        session = played(store, 20)
        store.db.execute("UPDATE games SET rules = 0 WHERE id = ?", (session.id,))
    assert main(["games", "list", "--json", "--db", str(path)]) == 0
    assert '"rules_version": 0' in capsys.readouterr().out
    assert main(["games", "list", "--db", str(path)]) == 0
    assert f"in play (rules version 0, this Overseer's is {RULES_VERSION})" in \
        capsys.readouterr().out
    assert main(["games", "resume", str(session.id), "--json", "--db", str(path)]) == 0
    captured = capsys.readouterr()
    assert "overseer games resume: game #1 was saved under rules version 0" in captured.err
    assert '"rules_version": 0' in captured.out  # not yet played on: still version 0's log


def test_an_import_whose_seeded_roll_was_changed_is_refused(path: Path, tmp_path: Path) -> None:
    import json

    from overseer.session.events import digest, event_from_dict
    from overseer.session.export import ExportError, import_game

    with Store(path) as store:
        session = played(store, 30)
        exported = write_export(store, session.id, tmp_path / "game.json")
        doc = json.loads(exported.read_text())
        chance = next(e for e in doc["events"] if e["kind"] == "chance")
        chance["data"]["value"] = chance["data"]["value"] % 6 + 1  # edited, digest made again
        doc["digest"] = digest([event_from_dict(e, "") for e in doc["events"]])
        exported.write_text(json.dumps(doc))
        before = len(store.games())
        with pytest.raises(ExportError, match="does not replay.*seeded chance"):
            import_game(store, exported)
        assert len(store.games()) == before
