"""``overseer games recover``: a damaged game store's readable games saved into a new store.

The damaged file is only read (a read-only connection, row by row: a bad page loses the rows
on it, not the scan). Each game keeps its id, setup, seed, dice and start time; its log is what
could be read, cut back to the last point between two inputs that replays through the rules
(a game whose setup no longer builds is not saved, and the report says why). The new store is
written beside the old one and only then takes its name; the damaged file (and its -wal) is
kept aside as ``<name>.damaged-<time>``, byte for byte. The store's lock is held throughout,
so a running gadget is never pulled from under.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from overseer.session import lock, salvage
from overseer.session.events import Event
from overseer.session.export import _torn as torn
from overseer.session.session import LogError, apply_event, fold, game_spec
from overseer.session.store import (
    NotAStore,
    Store,
    StoreDamaged,
    StoreError,
    diagnose,
    move_aside,
    read_only,
)

PROBE = 1000  # game ids tried one by one past the last readable one, when the scan broke


@dataclass
class Saved:
    id: int
    game: str
    events: int  # events saved
    dropped: int = 0  # events read that were cut off: they stopped inside an input
    broke: str | None = None  # why the rest of the log could not be read (None: it was whole)


@dataclass
class Recovery:
    store: Path  # the new store, at the old one's path
    aside: Path  # the damaged file, kept
    why: str  # what was wrong with it
    saved: list[Saved] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)  # games (or parts) that could not be saved
    notes: list[str] = field(default_factory=list)  # how it was read, where SQLite could not

    def lines(self) -> list[str]:
        """The report, for people."""
        out = [f"the damaged store ({self.why}) is kept as {self.aside}",
               f"a new store at {self.store} holds the {len(self.saved)} game"
               f"{'' if len(self.saved) == 1 else 's'} that could be read"]
        for game in self.saved:
            cut = f", {game.dropped} read after them dropped (they do not replay)" \
                if game.dropped else ""
            rest = "the rest of its log" if game.events else "its log (its setup is kept)"
            broke = f"; {rest} could not be read ({game.broke})" if game.broke else ""
            out.append(f"  game #{game.id} ({game.game}): {game.events} events{cut}{broke}")
        out.extend(f"  lost: {what}" for what in self.lost)
        out.extend(f"  note: {what}" for what in self.notes)
        return out


class NothingToRecover(StoreError):
    """The store is sound (or not an Overseer store at all): there is nothing to recover."""


def recover(path: Path) -> Recovery:
    """Save what can be read of the damaged store at ``path`` (see the module's docstring).
    Raises ``NothingToRecover``, ``StoreInUse`` or ``StoreError``; nothing is changed then."""
    if not path.is_file():
        raise NothingToRecover(f"there is no game store at {path}; nothing to recover")
    why = diagnose(path)
    if why is None:
        raise NothingToRecover(f"the game store {path} is sound; nothing to recover")
    if isinstance(why, NotAStore):
        raise NothingToRecover(f"{why}; nothing to recover")
    if not isinstance(why, StoreDamaged):
        raise why  # locked, unreadable, from a newer Overseer: not for recovery
    with lock.acquire(path):
        return _recover(path, why.why)


def _recover(path: Path, why: str) -> Recovery:
    fresh = path.with_name(f".{path.name}.recovering-{os.getpid()}")
    for side in ("", "-wal", "-shm"):
        Path(f"{fresh}{side}").unlink(missing_ok=True)
    report = Recovery(path, path, why)
    try:
        old = read_only(path)
    except sqlite3.Error as err:
        raise StoreError(f"{path}: cannot be read at all ({err}); it was left as it is") \
            from err
    try:
        old.execute("PRAGMA writable_schema = ON")  # read a file shorter than its header says
    except sqlite3.Error as err:  # a damaged header: its pages are read one by one below
        report.notes.append(f"SQLite cannot read it ({err})")
    try:
        scanned = salvage.scan(path)
    except (OSError, salvage.Broken) as err:
        report.notes.append(f"its pages could not be read one by one ({err})")
        scanned = salvage.Salvage()
    try:
        with Store(fresh) as new:
            for row in _games(old, report, scanned):
                _save(old, new, row, report, scanned)
            new.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except BaseException:
        for side in ("", "-wal", "-shm"):
            Path(f"{fresh}{side}").unlink(missing_ok=True)
        raise
    finally:
        old.close()
    report.aside = move_aside(path)
    os.rename(fresh, path)
    for side in ("-wal", "-shm"):
        Path(f"{fresh}{side}").unlink(missing_ok=True)
    return report


def _rows(db: sqlite3.Connection, sql: str, args: tuple = ()) -> tuple[list[sqlite3.Row],
                                                                       str | None]:
    """The rows a query gives before the file fails it, and why it failed (None: it did not)."""
    rows: list[sqlite3.Row] = []
    try:
        for row in db.execute(sql, args):
            rows.append(row)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as err:  # text that is not UTF-8 too
        return rows, str(err)
    return rows, None


def _games(db: sqlite3.Connection, report: Recovery,
           scanned: salvage.Salvage) -> Iterator[dict[str, Any]]:
    """The readable rows of ``games``, in the order they were last played: the ids first
    (they live in the table's pages), then each row on its own (a long setup spills onto
    pages of its own, which may be the ones lost); then the rows SQLite could not reach that
    the pages hold (under a damaged root page or header)."""
    db.row_factory = sqlite3.Row
    unread: list[str] = []
    ids = _ids(db, unread)
    rows: dict[int, dict[str, Any]] = {}
    failed: dict[int, str | None] = {}
    for game_id in ids:
        found, broke = _rows(db, "SELECT * FROM games WHERE id = ?", (game_id,))
        if broke is not None or not found:
            failed[game_id] = broke
            continue
        rows[game_id] = dict(found[0])
    extra = [game_id for game_id in scanned.games if game_id not in rows]
    for game_id in extra:
        rows[game_id] = scanned.games[game_id]
    report.lost.extend(f"game #{game_id}: its row could not be read ({why})"
                       for game_id, why in failed.items() if game_id not in rows)
    if unread and extra:
        report.notes.append(f"{unread[0]}; the store's pages were read one by one instead "
                            f"({len(extra)} more game{'' if len(extra) == 1 else 's'} found)")
    elif unread:
        report.lost.extend(unread)
    yield from sorted(rows.values(), key=lambda row: (row.get("touched") or 0, row["id"]))


def _ids(db: sqlite3.Connection, lost: list[str]) -> list[int]:
    rows, broke = _rows(db, "SELECT id FROM games ORDER BY id")
    ids = [row[0] for row in rows]
    if broke is None:
        return ids
    last = ids[-1] if ids else 0
    top, _ = _rows(db, "SELECT max(id) FROM games")
    known = bool(top) and top[0][0] is not None
    unread = []
    for game_id in range(last + 1, (top[0][0] if known else last + PROBE) + 1):
        found, failed = _rows(db, "SELECT id FROM games WHERE id = ?", (game_id,))
        ids.extend(row[0] for row in found)
        if failed is not None:
            unread.append(game_id)
    gone = (f"; games #{', #'.join(map(str, unread))} could not be read" if known and unread
            else "; the games past it could not be counted" if unread else "")
    lost.append(f"the list of games broke off after game #{last} ({broke}){gone}")
    return ids


def _save(old: sqlite3.Connection, new: Store, row: dict[str, Any], report: Recovery,
          scanned: salvage.Salvage) -> None:
    game_id = row["id"]
    try:
        setup = json.loads(row["setup"])
        read, broke = _events(old, game_id)
        paged = _paged(scanned, game_id)
        head_of = row["head"] if "head" in row else None
        best: tuple[list[Event], int] | None = None
        source = read
        for log in (read, paged):  # what SQLite read, what the pages hold: the longer replay
            head = min(len(log) if head_of is None else head_of, len(log))
            events, head = replayable(row["game"], setup, row["dice"], log, head)
            if best is None or len(events) > len(best[0]):
                best, source = (events, head), log
        assert best is not None
        events, head = best
        if source is paged and source is not read:
            found = scanned.events.get(game_id, {})
            known = max(found) + 1 if found else 0
            broke = None if known == len(paged) and (head_of is None or head_of <= len(paged)) \
                else "a page of its log is damaged"
            read = paged
    except (LogError, ValueError, KeyError, TypeError) as err:
        report.lost.append(f"game #{game_id}: {err}")
        return
    whole = broke is None and len(events) == len(read)
    retracted = [r for r in _retracted(old, game_id) if r["seq"] < len(events)]
    new.create_game(row["game"], setup, row["seed"], row["dice"], events, head,
                    bool(row.get("finished")) and whole, retracted, game_id=game_id,
                    created=row["created"])
    gadget, _ = _rows(old, "SELECT data FROM gadget WHERE game_id = ?", (game_id,)) \
        if _has_table(old, "gadget") else ([], None)
    data = gadget[0][0] if gadget else scanned.gadget.get(game_id)
    if data is not None:
        try:
            new.set_gadget(game_id, json.loads(data))
        except ValueError:
            pass  # the seats are the gadget's to ask again; the game is what matters
    report.saved.append(Saved(game_id, row["game"], len(events), len(read) - len(events),
                              broke))


def _paged(scanned: salvage.Salvage, game_id: int) -> list[Event]:
    """The game's log as its pages hold it, up to the first event missing or unreadable."""
    events = []
    for kind, data, seen in scanned.log(game_id):
        try:
            events.append(Event(kind, json.loads(data), bool(seen)))
        except ValueError:
            break
    return events


def _events(db: sqlite3.Connection, game_id: int) -> tuple[list[Event], str | None]:
    rows, broke = _rows(db, "SELECT kind, data, seen FROM events WHERE game_id = ? ORDER BY seq",
                        (game_id,))
    events = []
    for kind, data, seen in rows:
        try:
            events.append(Event(kind, json.loads(data), bool(seen)))
        except ValueError:
            broke = f"an event that is not JSON: {data[:40]!r}"
            break
    return events, broke


def _has_table(db: sqlite3.Connection, name: str) -> bool:
    rows, _ = _rows(db, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                    (name,))
    return bool(rows)


def _retracted(db: sqlite3.Connection, game_id: int) -> list[dict[str, Any]]:
    if not _has_table(db, "retracted"):
        return []
    rows, _ = _rows(db, "SELECT seq, kind, data, retracted_at FROM retracted"
                    " WHERE game_id = ? ORDER BY rowid", (game_id,))
    kept = []
    for seq, kind, data, at in rows:
        try:
            kept.append({"seq": seq, "kind": kind, "data": json.loads(data),
                         "retracted_at": at})
        except ValueError:
            continue  # one unreadable mark; the rest stay
    return kept


def replayable(game: str, setup: dict[str, Any], dice: str, events: list[Event],
               head: int) -> tuple[list[Event], int]:
    """The longest start of ``events`` that replays and ends between inputs, and the head
    within it. Raises LogError when not even the setup builds."""
    spec = game_spec(game)
    result = fold(spec, setup, dice, [])
    good = 0  # events that replay, ending where an input may begin
    for n, event in enumerate(events):
        if event.is_input and not torn(result):
            good = n
        try:
            apply_event(result, event)
        except Exception:  # a damaged log may fail the rules in any way
            return events[:good], min(head, good)
    if not torn(result):
        good = len(events)
    return events[:good], min(head, good)

