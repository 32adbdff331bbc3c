"""A power cut between NEXT AI PIECE's screen and its fsync, many times over.

NEXT is the one press whose commit does not wait for the disk before the screen moves
(``Begin.synced``): the table adds nothing to it, and its steps come from the log and the seed
alone. ``Store.sync`` puts it on disk once the screen has moved. A power cut in between leaves
the WAL with any mix of what was on disk before the press and what the commit wrote: each
4 KiB sector it changed may hold the old bytes, the new ones, or garbage, and the file may end
short. (Killing the process would lose nothing: the commit is in the OS's cache by then.)

For each cut the gadget starts again on the store as the cut left it, and the test checks that
nothing the table gave is lost (the log is the game's log up to the press, or to its end), the
glass shows a screen the table saw, and playing on (reading to the idle screen, NEXT, the same
answers) shows exactly the screens the uncut game showed: the step lost is shown again, the
same, never a different one.
"""

from __future__ import annotations

import random
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from overseer.app.faults import faults
from overseer.screens.render import Screen
from tests.drivers import catacombs_table as play
from tests.drivers.ahead_glass import AheadGlass
from tools.table import NEXT, Table

SECTOR = 4096


@dataclass(frozen=True)
class Point:
    """One NEXT AI PIECE of the game: the store just before the press (on disk) and just
    before its fsync (the commit in the WAL, the screen moved), and what the table saw."""

    db: bytes  # the store file (the press does not write it: no checkpoint before the fsync)
    wal_before: bytes
    wal_after: bytes
    head_before: int
    head_after: int
    events: tuple  # the game's log after the press
    seen: tuple[Screen, ...]  # every screen the glass had shown by the press
    after: tuple[Screen, ...]  # the uncut game's screens from NEXT's to the next idle screen


def _on(table: Table) -> None:
    """Read and answer (the first option) until the idle screen."""
    table.read()
    while table.session.pending is not None:
        play.answer(table)
        table.read()


def _points(folder: Path, count: int) -> list[Point]:
    """The game of tests/drivers/catacombs_table.py to its first battle, then ``count`` NEXT
    AI PIECE presses, each caught just before its fsync."""
    db = folder / "games.db"
    table = Table(db)
    table.gadget.glass = AheadGlass()  # as on the box: NEXT drawn ahead, then taken
    play.new_campaign(table)
    play.first_stage(table)
    table.read()
    store, real_sync = table.gadget.store, table.gadget.store.sync
    caught: dict[str, object] = {}

    def sync() -> None:
        if store.unsynced:
            caught.update(db=db.read_bytes(), wal=Path(f"{db}-wal").read_bytes(),
                          head=table.session.head)
        real_sync()

    store.sync = sync  # type: ignore[method-assign]
    points = []
    for _ in range(count):
        assert table.screen.lines[:1] == ("NEXT: next AI piece",), table.screen
        before = (db.read_bytes(), Path(f"{db}-wal").read_bytes(), table.session.head)
        seen = tuple(table.shown)
        caught.clear()
        table.press(NEXT)
        assert caught, "NEXT's commit waited for the disk"
        assert caught["db"] == before[0]  # the store file is not written before the fsync
        start = len(table.shown) - 1
        _on(table)
        points.append(Point(before[0], before[1], caught["wal"], before[2],  # type: ignore[arg-type]
                            caught["head"], tuple(table.session.events),  # type: ignore[arg-type]
                            seen, tuple(table.shown[start:])))
    table.gadget.close()
    return points


def _cut(point: Point, rng: random.Random) -> bytes:
    """The WAL as a power cut may leave it: each 4 KiB sector the commit changed keeps its
    old bytes, its new ones, or garbage where the commit wrote (a write never harms the bytes
    beside it on a sector, which SQLite assumes of a disk); a WAL the commit made longer may
    end anywhere past its old end."""
    old, new = point.wal_before, point.wal_after
    out = bytearray(new)
    if rng.random() < 0.25:
        return bytes(out)  # all of it reached the disk
    for at in range(0, len(new), SECTOR):
        was, now = old[at:at + SECTOR], new[at:at + SECTOR]
        if was == now:
            continue
        wrote = [i for i in range(len(now)) if i >= len(was) or was[i] != now[i]]
        luck = rng.random()
        if luck < 0.4:  # not written
            out[at:at + len(now)] = was.ljust(len(now), b"\0")
        elif luck < 0.55:  # torn
            low, high = at + wrote[0], at + wrote[-1] + 1
            out[low:high] = rng.randbytes(high - low)
    if len(new) > len(old) and rng.random() < 0.3:
        del out[rng.randrange(len(old), len(new)):]
    return bytes(out)


def _restart(point: Point, wal: bytes, folder: Path) -> tuple[int, tuple[Screen, ...]]:
    """The gadget started on the store a cut left (``wal``), played on to the idle screen
    after NEXT's steps (NEXT pressed again if it was lost): the head it found, every screen."""
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    db = folder / "games.db"
    db.write_bytes(point.db)
    Path(f"{db}-wal").write_bytes(wal)  # the -shm is memory: a power cut leaves none
    already = len(faults)
    table = Table(db)
    table.gadget.glass = AheadGlass()
    try:
        head = table.session.head
        assert head in (point.head_before, point.head_after)
        assert table.session.events == list(point.events[:head])  # nothing the table gave lost
        saw = {(screen.title, screen.key) for screen in point.seen + point.after[:1]}
        assert (table.screen.title, table.screen.key) in saw, table.screen  # a step it saw
        if head == point.head_before:  # the press is lost: the table reads on and presses it
            table.read()
            assert table.screen == point.seen[-1]
            table.press(NEXT)
        first = table.screen  # NEXT's own step, as it was shown
        assert (first.title, first.key, first.options) == \
            (point.after[0].title, point.after[0].key, point.after[0].options)
        _on(table)
        assert table.session.events == list(point.events)  # the same steps, rolls and answers
        assert len(faults) == already
        return head, tuple(table.shown)
    finally:
        table.gadget.close()


def _kills(tmp_path: Path, points: int, kills: int) -> None:
    """``kills`` cuts over ``points`` presses. A restart forgets which long wordings the glass
    showed (the pages say them whole again), so each cut is held to a clean restart at the
    head it left: the press on disk (all of the commit) or not (none of it)."""
    rng = random.Random(24)
    made = _points(tmp_path / "game", points)
    clean = []
    for point in made:
        before = _restart(point, point.wal_before, tmp_path / "cut")
        after = _restart(point, point.wal_after, tmp_path / "cut")
        assert (before[0], after[0]) == (point.head_before, point.head_after)
        clean.append(dict((before, after)))
    heads = []
    for kill in range(kills):
        point = made[kill % len(made)]
        head, shown = _restart(point, _cut(point, rng), tmp_path / "cut")
        assert shown == clean[kill % len(made)][head]
        heads.append(head == point.head_after)
    assert any(heads) and not all(heads)  # cuts that kept the press, and cuts that lost it


def test_a_power_cut_before_next_ai_pieces_fsync_loses_only_the_press(tmp_path):
    _kills(tmp_path, points=3, kills=60)


@pytest.mark.long
def test_a_thousand_power_cuts_before_next_ai_pieces_fsync(tmp_path):
    _kills(tmp_path, points=5, kills=1000)
