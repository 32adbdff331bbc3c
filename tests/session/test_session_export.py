"""Export, import and replay of saved games; bad files are refused and change nothing."""

from __future__ import annotations

import json
import random

import pytest

from overseer.session.events import digest, event_from_dict
from overseer.session.export import ExportError, import_game, read_export, replay, write_export
from overseer.session.session import Session
from overseer.session.store import Store
from tests.drivers.table_script import setup_of, step


@pytest.fixture
def played(tmp_path):
    """A store with a Catacombs game of 120 inputs, 10 of them undone, exported."""
    store = Store(tmp_path / "games.sqlite3")
    game, setup = setup_of("catacombs/los_blocked")
    session = Session.new(store, game, setup, seed=42)
    rng = random.Random(42)
    for _ in range(120):
        step(session, rng)
    for _ in range(10):
        session.undo()
    path = write_export(store, session.id, tmp_path / "game.json")
    yield store, session, path
    store.close()


def _counts(store: Store) -> tuple:
    return tuple((g.id, g.head, g.length) for g in store.games())


def test_import_gives_the_same_game(played, tmp_path):
    _, session, path = played
    other = Store(tmp_path / "other.sqlite3")
    other.create_game("conquest", {}, 1, "seeded")  # the copy gets another id there
    new_id = import_game(other, path)
    assert new_id != session.id
    copy = Session.resume(other, new_id)
    assert copy.events == session.events and copy.head == session.head
    assert copy.state_dict() == session.state_dict() and copy.trace() == session.trace()
    copy.redo()  # the undone tail came along
    session.redo()
    assert copy.state_dict() == session.state_dict()
    other.close()


def test_an_import_already_in_the_store_is_not_stored_twice(played):
    store, session, path = played
    before = _counts(store)
    assert import_game(store, path) == session.id
    assert import_game(store, path) == session.id
    assert _counts(store) == before
    session.redo()  # played on, the same export is another game now (a branch of it)
    assert import_game(store, path) not in {g for g, _, _ in before}
    assert len(store.games()) == 2


def test_replay_prints_the_trace_up_to_the_head(played):
    _, session, path = played
    trace, final = replay(path)
    assert trace == session.trace() and final == session.state_dict()


def test_export_never_replaces_a_file(played):
    store, session, path = played
    before = path.read_bytes()
    with pytest.raises(ExportError, match="already exists"):
        write_export(store, session.id, path)
    assert path.read_bytes() == before
    assert [p.name for p in path.parent.iterdir() if p.name.startswith(".")] == []


def _refused(store: Store, path, message: str) -> None:
    before = _counts(store)
    with pytest.raises(ExportError, match=message):
        import_game(store, path)
    assert _counts(store) == before


def test_truncated_export_is_refused(played):
    store, _, path = played
    text = path.read_text()
    cut = path.with_name("cut.json")
    cut.write_text(text[:len(text) * 2 // 3])
    _refused(store, cut, r"cut.json:\d+:\d+: not valid JSON .*truncated\?")
    cut.write_text("")
    _refused(store, cut, "the file is empty")


def test_export_from_the_future_is_refused(played):
    store, _, path = played
    doc = json.loads(path.read_text())
    doc["format"] = 2
    path.write_text(json.dumps(doc))
    _refused(store, path, r"written by a newer Overseer \(export format 2; this one reads up "
                          r"to format 1\)")


def _edited(path, change) -> None:
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def test_edited_events_are_refused(played):
    store, _, path = played
    _edited(path, lambda d: d["events"][3]["data"].update(value=["dwarf"]))
    _refused(store, path, "do not match the file's digest")


def test_a_log_that_does_not_replay_is_refused(played):
    store, _, path = played
    def swap(doc):
        doc["events"] = doc["events"][1:]  # drop the first action
        doc["digest"] = digest([event_from_dict(e, "") for e in doc["events"]])
        doc["head"] -= 1
    _edited(path, swap)
    _refused(store, path, "the log does not replay: event #0")


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(kind="scenario"), "not an Overseer game export"),
    (lambda d: d.update(game="chess"), "'game' must be one of"),
    (lambda d: d.update(seed=-1), "'seed' must be from 0"),
    (lambda d: d.update(dice="loaded"), "'dice' must be one of"),
    (lambda d: d.pop("head"), "'head' is missing"),
    (lambda d: d.update(head=10 ** 6), "'head' must be from 0 to"),
    (lambda d: d.update(head=[e["kind"] for e in d["events"]].index("chance")),
     "'head' falls inside an input"),
    (lambda d: d["events"].append({"kind": "roll"}), "events\\[\\d+\\]: an event is an object"),
    (lambda d: d.update(format="1"), "'format' has the wrong type"),
])
def test_malformed_exports_are_refused(played, change, message):
    store, _, path = played
    _edited(path, change)
    _refused(store, path, message)


def test_read_export_names_a_missing_file(tmp_path):
    with pytest.raises(ExportError, match="cannot read"):
        read_export(tmp_path / "nope.json")


def test_a_log_cut_inside_an_input_is_refused(played):
    store, _, path = played
    def cut(doc):
        kinds = [e["kind"] for e in doc["events"]]
        doc["events"] = doc["events"][:kinds.index("chance")]  # an input without its chance
        doc["digest"] = digest([event_from_dict(e, "") for e in doc["events"]])
        doc["head"] = len(doc["events"])
    _edited(path, cut)
    _refused(store, path, "the log stops inside an input")


def test_retracted_results_travel_with_the_game(tmp_path):
    with Store(tmp_path / "games.sqlite3") as store:
        game, setup = setup_of("catacombs/antient")
        session = Session.new(store, game, setup, seed=2, dice="table")
        rng = random.Random(2)
        while session.pending is None or not session.pending.chance:
            step(session, rng)
        faces = session.pending.faces
        session.answer(1)
        session.undo()
        session.answer(faces)
        path = write_export(store, session.id, tmp_path / "g.json")
        retracted = store.retracted(session.id)
    with Store(tmp_path / "other.sqlite3") as other:
        copy = import_game(other, path)
        assert [r["data"]["value"] for r in other.retracted(copy)] == [1]
        assert other.retracted(copy) == retracted
