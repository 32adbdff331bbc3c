"""The game store: one SQLite file holding every saved game and its event log.

Opened in WAL mode with ``synchronous=FULL``: a write returns only after its transaction is
on disk, so a confirmed step survives a power cut. At open the file is checked (SQLite header,
``PRAGMA integrity_check``, the application id, the schema version and tables). A damaged or
foreign file is moved aside, never overwritten, and a fresh store takes its place; ``notice``
says what happened and where the old file went. A store written by a newer Overseer is refused
and left as it is.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from overseer import RULES_VERSION
from overseer.session.events import Event
from overseer.session.migrations import APPLICATION_ID, LATEST, TABLES, migrate

_HEADER = b"SQLite format 3\x00"
_SIDE_FILES = ("-wal", "-shm", "-journal")
_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26  # primary result codes of a damaged file
_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = 8, 10, 13, 14


class StoreError(Exception):
    """The store cannot be used as asked; the message says why. Nothing was changed."""


class SaveError(StoreError):
    """A write the store could not make: the disk is full (``reason`` "full"), the store is
    read-only ("read-only") or the disk failed ("disk"). Nothing was changed, nothing saved
    before is lost, and the same call can be made again once the cause is gone."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def _save_error(path: Path, err: sqlite3.Error) -> StoreError:
    """What a failed write tells the table: a ``SaveError`` for a full or read-only store or a
    failing disk, else a plain ``StoreError``."""
    code = getattr(err, "sqlite_errorcode", 0) & 0xFF
    if code == _SQLITE_FULL:
        return SaveError(f"the game store {path} is full (no room left on its disk): this step "
                         f"was not saved, and the game stays at its last saved step. Make room "
                         f"and try again", "full")
    if code == _SQLITE_READONLY:
        return SaveError(f"the game store {path} is read-only: this step was not saved, and the "
                         f"game stays at its last saved step. Make the file writable and try "
                         f"again", "read-only")
    if code in (_SQLITE_IOERR, _SQLITE_CANTOPEN):
        return SaveError(f"the game store {path} could not be written ({err}): this step was "
                         f"not saved, and the game stays at its last saved step. Check the disk "
                         f"and try again", "disk")
    return StoreError(f"the store could not save ({err}); nothing was changed")


class Damaged(Exception):
    """Internal: why a file is not a usable store."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: int
    game: str
    setup: dict[str, Any]
    seed: int
    dice: str
    created: str
    updated: str
    finished: bool
    head: int
    length: int
    rules: int | None  # the rules version that last wrote the log (None: before it was kept)

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game, "seed": self.seed, "dice": self.dice,
                "created": self.created, "updated": self.updated, "finished": self.finished,
                "events": self.head, "undone_events": self.length - self.head,
                "rules_version": self.rules}


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _aside_name(path: Path) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    candidate = path.with_name(f"{path.name}.damaged-{stamp}")
    n = 1
    while any(Path(f"{candidate}{side}").exists() for side in ("", *_SIDE_FILES)):
        n += 1
        candidate = path.with_name(f"{path.name}.damaged-{stamp}-{n}")
    return candidate


def move_aside(path: Path) -> Path:
    """Move a damaged store (and its -wal/-shm/-journal files) to a new name; returns it."""
    target = _aside_name(path)
    for side in _SIDE_FILES:
        source = Path(f"{path}{side}")
        if source.exists():
            os.rename(source, f"{target}{side}")
    os.rename(path, target)
    return target


class Store:
    """Every saved game of one file. Each write is one transaction, durable on return."""

    def __init__(self, path: str | Path, timeout: float = 5.0) -> None:
        self.path = Path(path)
        self.timeout = timeout  # how long to wait for another process holding the file
        self.notice: str | None = None
        self._reopen = False  # a write found the file read-only: open it again before the next
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists() and not self.path.is_file():
            raise StoreError(f"{self.path}: not a regular file; choose another store file")
        try:
            self.db = self._open_checked()
        except Damaged as why:
            aside = move_aside(self.path)
            self.notice = (f"the game store {self.path} could not be used ({why}); it was kept "
                           f"as {aside} and a fresh store was started")
            self.db = self._open_checked()

    # ------------------------------------------------------------------ opening

    def _open_checked(self) -> sqlite3.Connection:
        if self.path.exists() and self.path.stat().st_size > 0:
            with open(self.path, "rb") as f:
                if f.read(len(_HEADER)) != _HEADER:
                    raise Damaged("not an SQLite database")
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: cannot open ({err})") from err
        try:
            db.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            version = self._check(db)
            try:
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = FULL")
                db.execute("PRAGMA foreign_keys = ON")
            except sqlite3.Error as err:
                raise StoreError(f"{self.path}: cannot open for writing ({err})") from err
            if version < LATEST:
                try:
                    migrate(db, version)
                except sqlite3.Error as err:
                    raise StoreError(f"{self.path}: updating the store from schema v{version} "
                                     f"to v{LATEST} failed ({err}); it was left at "
                                     f"v{version}") from err
        except BaseException:
            db.close()
            raise
        return db

    def _check(self, db: sqlite3.Connection) -> int:
        """The schema version of a sound store; raises ``Damaged`` or ``StoreError``."""
        try:
            problems = [row[0] for row in db.execute("PRAGMA integrity_check")]
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {row[0] for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as err:
            if getattr(err, "sqlite_errorcode", 0) & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB):
                raise Damaged(f"SQLite: {err}") from err
            # locked by another process, unreadable, I/O error: not a verdict on the file
            raise StoreError(f"{self.path}: cannot open ({err}); the file was left as it "
                             f"is") from err
        if problems != ["ok"]:
            raise Damaged(f"integrity check: {problems[0]}")
        if app_id == 0 and version == 0 and not tables:
            return 0  # a new, empty file
        if app_id != APPLICATION_ID:
            raise Damaged(f"a database of another application (application id {app_id:#x})")
        if version > LATEST:
            raise StoreError(
                f"{self.path} was written by a newer Overseer (store schema v{version}; this "
                f"one knows up to v{LATEST}). It was left as it is: update Overseer, or choose "
                f"another store file (--db or OVERSEER_DB)")
        if version < 1:
            raise Damaged("the store's schema version is missing")
        if version == LATEST and not TABLES <= tables:
            raise Damaged(f"tables missing: {', '.join(sorted(TABLES - tables))}")
        return version

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def integrity(self) -> list[str]:
        """``PRAGMA integrity_check``'s rows: ``["ok"]`` for a sound file."""
        return [row[0] for row in self.db.execute("PRAGMA integrity_check")]

    def version(self) -> int:
        return self.db.execute("PRAGMA user_version").fetchone()[0]

    # ------------------------------------------------------------------ writing

    def _transaction(self):
        if self._reopen:  # opened (or found) read-only: it may be writable now
            try:
                db = self._open_checked()
            except Damaged as why:
                raise StoreError(f"{self.path}: cannot open it again ({why})") from None
            self.db.close()
            self.db = db
            self._reopen = False
        return _Transaction(self)

    def create_game(self, game: str, setup: dict[str, Any], seed: int, dice: str,
                    events: Sequence[Event] = (), head: int = 0, finished: bool = False,
                    retracted: Sequence[dict[str, Any]] = (),
                    rules: int | None = RULES_VERSION) -> int:
        """A new game (with its events, retracted results and the rules version that wrote
        them, for an import); returns its id."""
        if not 0 <= seed < 1 << 63:
            raise StoreError(f"a seed is a whole number from 0 to 2**63 - 1 (got {seed})")
        now = _now()
        with self._transaction():
            cur = self.db.execute(
                "INSERT INTO games (game, setup, seed, dice, created, updated, finished, head,"
                " touched, rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?,"
                " (SELECT coalesce(max(touched), 0) + 1 FROM games), ?)",
                (game, json.dumps(setup, sort_keys=True), seed, dice, now, now, int(finished),
                 head, rules))
            game_id = cur.lastrowid
            assert game_id is not None  # an INSERT sets it
            self._insert(game_id, 0, list(events))
            self.db.executemany(
                "INSERT INTO retracted (game_id, seq, kind, data, retracted_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(game_id, i["seq"], i["kind"], json.dumps(i["data"], sort_keys=True),
                  i["retracted_at"]) for i in retracted])
        return game_id

    def _insert(self, game_id: int, start: int, events: list[Event]) -> None:
        self.db.executemany(
            "INSERT INTO events (game_id, seq, kind, data, seen) VALUES (?, ?, ?, ?, ?)",
            [(game_id, start + i, e.kind, e.payload(), int(e.seen))
             for i, e in enumerate(events)])

    def append(self, game_id: int, head: int, events: list[Event], finished: bool,
               snapshot: tuple[str, bytes] | None = None) -> None:
        """Confirm one input, in one transaction: drop the undone tail from ``head`` on (seen
        dice results in it are kept in ``retracted``; its snapshots go), add ``events`` there,
        move the head past them, record this rules version as the log's, and keep
        ``snapshot`` (its build and state) as the state after the new head."""
        end = head + len(events)
        with self._transaction():
            self.db.execute(
                "INSERT INTO retracted (game_id, seq, kind, data, retracted_at)"
                " SELECT game_id, seq, kind, data, ? FROM events"
                " WHERE game_id = ? AND seq >= ? AND seen = 1", (_now(), game_id, head))
            self.db.execute("DELETE FROM events WHERE game_id = ? AND seq >= ?",
                            (game_id, head))
            self.db.execute("DELETE FROM snapshots WHERE game_id = ? AND seq > ?",
                            (game_id, head))
            self._insert(game_id, head, events)
            if snapshot is not None:
                self._put_snapshot(game_id, end, *snapshot)
            self._touch(game_id, end, finished, rules=True)

    def set_head(self, game_id: int, head: int, finished: bool) -> None:
        """Undo or redo: only the head moves; the events stay."""
        with self._transaction():
            self._touch(game_id, head, finished)

    def _touch(self, game_id: int, head: int, finished: bool, rules: bool = False) -> None:
        cur = self.db.execute(
            "UPDATE games SET head = ?, finished = ?, updated = ?,"
            " touched = (SELECT max(touched) + 1 FROM games)"
            + (f", rules = {RULES_VERSION}" if rules else "") + " WHERE id = ?",
            (head, int(finished), _now(), game_id))
        if cur.rowcount != 1:
            raise StoreError(f"no saved game #{game_id}")

    def set_gadget(self, game_id: int, data: dict[str, Any]) -> None:
        """Keep what the table gadget needs beside this game's log (its seats): one JSON
        object per game, replaced whole."""
        with self._transaction():
            self.game(game_id)  # a game that is not there is refused
            self.db.execute("INSERT INTO gadget (game_id, data) VALUES (?, ?) ON CONFLICT"
                            " (game_id) DO UPDATE SET data = excluded.data",
                            (game_id, json.dumps(data, sort_keys=True)))

    def gadget(self, game_id: int) -> dict[str, Any]:
        """What ``set_gadget`` kept for this game (an empty object when nothing was)."""
        row = self.db.execute("SELECT data FROM gadget WHERE game_id = ?", (game_id,)).fetchone()
        return {} if row is None else json.loads(row[0])

    def _put_snapshot(self, game_id: int, seq: int, build: str, state: bytes) -> None:
        self.db.execute("INSERT OR REPLACE INTO snapshots (game_id, seq, build, state)"
                        " VALUES (?, ?, ?, ?)", (game_id, seq, build, state))

    def put_snapshots(self, game_id: int, build: str, states: Sequence[tuple[int, bytes]]
                      ) -> None:
        """Keep ``states`` (seq, state) of one build, in place of the game's snapshots of any
        other build (a resume rebuilding them after the rules or the code changed)."""
        with self._transaction():
            self.db.execute("DELETE FROM snapshots WHERE game_id = ? AND build != ?",
                            (game_id, build))
            for seq, state in states:
                self._put_snapshot(game_id, seq, build, state)

    def delete_game(self, game_id: int) -> None:
        with self._transaction():
            if self.db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount != 1:
                raise StoreError(f"no saved game #{game_id}")

    # ------------------------------------------------------------------ reading

    _INFO = ("SELECT id, game, setup, seed, dice, created, updated, finished, head,"
             " (SELECT count(*) FROM events WHERE game_id = games.id), rules FROM games")

    @staticmethod
    def _info(row: tuple) -> GameInfo:
        return GameInfo(row[0], row[1], json.loads(row[2]), row[3], row[4], row[5], row[6],
                        bool(row[7]), row[8], row[9], row[10])

    def games(self, game: str | None = None) -> list[GameInfo]:
        """Saved games, the most recently played first."""
        where, args = (" WHERE game = ?", (game,)) if game else ("", ())
        rows = self.db.execute(self._INFO + where + " ORDER BY touched DESC", args)
        return [self._info(row) for row in rows]

    def game(self, game_id: int) -> GameInfo:
        row = self.db.execute(self._INFO + " WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise StoreError(f"no saved game #{game_id}")
        return self._info(row)

    def last_unfinished(self, game: str) -> GameInfo | None:
        """The game of this type to offer on start: the last one played and not finished."""
        row = self.db.execute(self._INFO + " WHERE game = ? AND finished = 0"
                              " ORDER BY touched DESC LIMIT 1", (game,)).fetchone()
        return None if row is None else self._info(row)

    def events(self, game_id: int, start: int = 0, stop: int | None = None) -> list[Event]:
        """The events ``start`` to ``stop`` (all of them, the undone tail included, by
        default)."""
        rows = self.db.execute("SELECT kind, data, seen FROM events WHERE game_id = ?"
                               " AND seq >= ? AND seq < ? ORDER BY seq",
                               (game_id, start, (1 << 62) if stop is None else stop))
        return [Event(kind, json.loads(data), bool(seen)) for kind, data, seen in rows]

    def snapshot_seqs(self, game_id: int, build: str) -> list[int]:
        """Where the game has snapshots of this build: their ``seq``, in order."""
        rows = self.db.execute("SELECT seq FROM snapshots WHERE game_id = ? AND build = ?"
                               " ORDER BY seq", (game_id, build))
        return [row[0] for row in rows]

    def snapshot(self, game_id: int, seq: int, build: str) -> bytes | None:
        """The state kept after ``seq`` events under this build, or None."""
        row = self.db.execute("SELECT state FROM snapshots WHERE game_id = ? AND seq = ?"
                              " AND build = ?", (game_id, seq, build)).fetchone()
        return None if row is None else row[0]

    def retracted(self, game_id: int) -> list[dict[str, Any]]:
        """Seen dice results that were undone and replaced by another input."""
        rows = self.db.execute("SELECT seq, kind, data, retracted_at FROM retracted"
                               " WHERE game_id = ? ORDER BY rowid", (game_id,))
        return [{"seq": seq, "kind": kind, "data": json.loads(data), "retracted_at": at}
                for seq, kind, data, at in rows]


class _Transaction:
    """``BEGIN IMMEDIATE`` .. ``COMMIT`` (or ``ROLLBACK`` on any error); a failed write is a
    ``StoreError`` (a ``SaveError`` when the store is full or read-only)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db

    def _failed(self, err: sqlite3.Error) -> StoreError:
        if getattr(err, "sqlite_errorcode", 0) & 0xFF == _SQLITE_READONLY:
            self.store._reopen = True  # opened read-only: the next write opens it again
        return _save_error(self.store.path, err)

    def __enter__(self) -> None:
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            raise self._failed(err) from err

    def __exit__(self, kind, value, tb) -> None:
        try:
            if kind is None:
                self.db.execute("COMMIT")
            elif self.db.in_transaction:  # SQLite may have rolled back already (a full disk)
                self.db.execute("ROLLBACK")
        except sqlite3.Error as err:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise self._failed(err) from err
        if isinstance(value, sqlite3.Error):
            raise self._failed(value) from value
