"""The game store: one SQLite file holding every saved game and its event log.

Opened in WAL mode with ``synchronous=FULL``: a write returns only after its transaction is
on disk, so a confirmed step survives a power cut. The one exception is ``append(...,
synced=False)``, for an input the table adds nothing to (NEXT AI PIECE: a power cut that loses
it loses a press whose steps the same press computes again): it is written to the WAL without
its fsync, and ``sync`` (the gadget's, once the screen has moved) makes it durable; any later
write's own fsync makes it durable too. At open the file is checked, read-only
first (SQLite header, ``PRAGMA integrity_check``, the application id, the schema version and
tables), and a file that fails is never changed:

* a file that is not an Overseer store (not SQLite, another application's database) is refused
  with ``NotAStore``;
* an Overseer store that is damaged (a bad page, cut short, a half-written migration) is
  refused with ``StoreDamaged``, whose message names ``overseer games recover``
  (``session/recover.py``: what can be read goes into a new store, the file is kept aside);
* a store written by a newer Overseer is refused and left as it is.

A new store's missing folders are made, and ``notice`` says so.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from overseer import RULES_VERSION
from overseer.session import salvage
from overseer.session.events import Event, json_writer
from overseer.session.migrations import APPLICATION_ID, LATEST, TABLES, migrate

_HEADER = b"SQLite format 3\x00"
_HEADER_SIZE = 100  # the database header; the application id is at bytes 68..71
_SIDE_FILES = ("-wal", "-shm", "-journal")
_SQLITE_CORRUPT, _SQLITE_NOTADB = 11, 26  # primary result codes of a damaged file
RECOVER = "overseer games recover"
CHECKPOINT_EVERY = 20  # events at most between two checkpoints of the WAL into the file
_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = 8, 10, 13, 14

log = logging.getLogger(__name__)


class StoreError(Exception):
    """The store cannot be used as asked; the message says why. Nothing was changed."""


class NotAStore(StoreError):
    """The file is not an Overseer game store (it was left as it is)."""


class StoreDamaged(StoreError):
    """An Overseer game store that cannot be read whole (it was left as it is)."""

    def __init__(self, path: Path, why: str) -> None:
        self.path, self.why = path, why
        super().__init__(
            f"the game store {path} is damaged ({why}); it was left as it is. `{RECOVER} "
            f"--db {path}` saves what can be read into a new store and keeps the damaged file "
            "aside")


class NoStore(StoreError):
    """No store file at that path (and the caller asked not to make one)."""

class SaveError(StoreError):
    """A write the store could not make: the disk is full (``reason`` "full"), the store is
    read-only ("read-only") or the disk failed ("disk"). Nothing was changed, nothing saved
    before is lost, and the same call can be made again once the cause is gone."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason

    @property
    def short(self) -> str:
        """The message for a small screen: no path (the journal has it)."""
        return SHORT[self.reason]


SHORT = {
    "full": "Not saved: the game store's disk is full. The game stays at its last saved step. "
            "Make room on the SD card and try again.",
    "read-only": "Not saved: the game store is read-only. The game stays at its last saved "
                 "step; you can look, not play on. Check the SD card, then restart the box.",
    "disk": "Not saved: the game store could not be written (a disk error). The game stays at "
            "its last saved step. Check the SD card and try again.",
}


def _save_error(path: Path, err: sqlite3.Error, code: int | None = None) -> StoreError:
    """What a failed write tells the table: a ``SaveError`` for a full or read-only store or a
    failing disk, else a plain ``StoreError``."""
    code = (getattr(err, "sqlite_errorcode", 0) if code is None else code) & 0xFF
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


_minute = (-1, "")  # the last minute ``_now`` wrote, and its text
_SECONDS = tuple(f"{n:02d}" for n in range(60))  # (half the cost of a format spec)


def _now() -> str:
    """The time in UTC as the store writes it, ``2026-05-09T07:34:55.123456Z`` (what
    ``strftime("%Y-%m-%dT%H:%M:%S.%fZ")`` writes): the text up to the minute made once a
    minute, the seconds and microseconds after it written out (``strftime`` was most of a
    step's write in Python)."""
    global _minute
    seconds, micros = divmod(time.time_ns() // 1000, 1_000_000)
    minute, second = divmod(seconds, 60)
    kept = _minute  # read once: another thread may write it meanwhile
    if kept[0] != minute:
        kept = _minute = (minute, time.strftime("%Y-%m-%dT%H:%M:", time.gmtime(seconds)))
    return f"{kept[1]}{_SECONDS[second]}.{str(1_000_000 + micros)[1:]}Z"


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


def _looks_ours(path: Path) -> bool:
    """A file whose first pages hold an Overseer store's schema, or whose pages hold games
    of ours (its first page lost), whatever its header says."""
    with open(path, "rb") as f:
        first = f.read(1 << 16)
    if b"CREATE TABLE games" in first and b"CREATE TABLE events" in first:
        return True
    try:
        return bool(salvage.scan(path).games)
    except (OSError, salvage.Broken):
        return False


def _emptied(path: Path) -> bool:
    """An existing store file of 0 bytes with no WAL that holds anything: a store that was cut
    to nothing (or a file made empty by someone), not one made now."""
    wal = Path(f"{path}-wal")
    return path.stat().st_size == 0 and not (wal.exists() and wal.stat().st_size > 0)


def _cannot_write(err: sqlite3.Error) -> bool:
    """SQLite says the file, its folder or its disk cannot be written."""
    return getattr(err, "sqlite_errorcode", 0) & 0xFF in (
        _SQLITE_READONLY, _SQLITE_FULL, _SQLITE_IOERR, _SQLITE_CANTOPEN)


_HALF_MIGRATED = "already exists"  # SQLite's word when a migration meets its own tables


def _header(path: Path) -> bytes:
    with open(path, "rb") as f:
        return f.read(_HEADER_SIZE)


def _holds(side: Path) -> bool:
    """A -wal or -journal beside the store that holds anything (an empty one, left by an open
    that failed on a full disk, holds nothing to read)."""
    try:
        return side.stat().st_size > 0
    except FileNotFoundError:
        return False


def read_only(path: Path, timeout: float = 5.0) -> sqlite3.Connection:
    """A connection that cannot change the file (closing it checkpoints nothing). With no
    -wal or -journal beside it that holds anything (no writer is under way) it is opened
    immutable, so that not even an empty -wal or -shm is left behind (and a disk that is full
    or read-only reads too)."""
    idle = not any(_holds(Path(f"{path}{side}")) for side in ("-wal", "-journal"))
    mode = "mode=ro&immutable=1" if idle else "mode=ro"
    db = sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True,
                         isolation_level=None, check_same_thread=False)
    db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
    return db


def diagnose(path: Path, timeout: float = 5.0) -> StoreError | None:
    """Why the file at ``path`` cannot be opened as a store (None: it can, or it is empty and
    becomes one). Reads only: the file, and its -wal, are left as they are."""
    header = _header(path)
    if not header:
        return None  # an empty file becomes a new store
    if not header.startswith(_HEADER):
        if _looks_ours(path):
            return StoreDamaged(path, "its SQLite header is damaged")
        return NotAStore(f"{path} is not an Overseer game store (not an SQLite database); it "
                         "was left as it is: choose another file (--db or OVERSEER_DB)")
    if len(header) < _HEADER_SIZE:
        return StoreDamaged(path, f"cut short: {len(header)} bytes, inside SQLite's header")
    ours = int.from_bytes(header[68:72], "big") == APPLICATION_ID
    try:
        db = read_only(path, timeout)
    except sqlite3.Error as err:
        return StoreError(f"{path}: cannot open ({err}); the file was left as it is")
    try:
        app_id = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        problems = ([row[0] for row in db.execute("PRAGMA integrity_check")]
                    if app_id == APPLICATION_ID else ["ok"])
    except (sqlite3.DatabaseError, UnicodeDecodeError) as err:
        corrupt = isinstance(err, UnicodeDecodeError) or getattr(
            err, "sqlite_errorcode", 0) & 0xFF in (_SQLITE_CORRUPT, _SQLITE_NOTADB)
        if not corrupt:
            # locked by another process, unreadable, I/O error: not a verdict on the file
            return StoreError(f"{path}: cannot open ({err}); the file was left as it is")
        if ours or Path(f"{path}-wal").exists() or _looks_ours(path):
            return StoreDamaged(path, f"SQLite: {err}")
        return NotAStore(f"{path} is not an Overseer game store (a damaged SQLite file: "
                         f"{err}); it was left as it is: choose another file (--db or "
                         "OVERSEER_DB)")
    else:
        verdict = _verdict(path, app_id, version, tables, problems)
        if verdict is None and 0 < version < LATEST:
            verdict = _trial_migration(path, db, version)
        if verdict is None and "games" in tables:
            verdict = _unreadable_game(path, db)
        return verdict
    finally:
        db.close()


def _unreadable_game(path: Path, db: sqlite3.Connection) -> StoreError | None:
    """A games row whose text SQLite's integrity check lets through but that does not read
    (a byte that is not UTF-8, a setup that is not JSON): the store is damaged."""
    rows = db.execute("SELECT id, CAST(game AS BLOB), CAST(setup AS BLOB), CAST(dice AS BLOB),"
                      " CAST(created AS BLOB), CAST(updated AS BLOB) FROM games")
    for game_id, *texts in rows:
        try:
            words = [text.decode("utf-8") for text in texts]
            if not isinstance(json.loads(words[1]), dict):
                raise ValueError("its setup is not an object")
        except (AttributeError, ValueError) as err:
            return StoreDamaged(path, f"game #{game_id}: its row cannot be read ({err})")
    return None


def _trial_migration(path: Path, db: sqlite3.Connection, version: int) -> StoreError | None:
    """Run the store's migrations on a copy in memory: one that meets its own tables is a
    half-written update (the file is never touched)."""
    copy = sqlite3.connect(":memory:", isolation_level=None)
    try:
        db.backup(copy)
        migrate(copy, version)
    except sqlite3.Error as err:
        if _HALF_MIGRATED in str(err) or "duplicate column" in str(err):
            return StoreDamaged(path, f"a half-written update: schema v{version} with parts of "
                                f"a later one ({err})")
        return None  # not a verdict on the file: the real migration reports it
    finally:
        copy.close()
    return None


def _verdict(path: Path, app_id: int, version: int, tables: set[str],
             problems: list[str]) -> StoreError | None:
    if app_id == 0 and version == 0 and not tables:
        return None  # a new, empty database
    if app_id != APPLICATION_ID:
        what = f"application id {app_id:#x}" if app_id else "no application id"
        return NotAStore(f"{path} is not an Overseer game store (an SQLite database of another "
                         f"application: {what}); it was left as it is: choose another file "
                         "(--db or OVERSEER_DB)")
    if problems != ["ok"]:
        return StoreDamaged(path, f"integrity check: {problems[0]}")
    if version > LATEST:
        return StoreError(
            f"{path} was written by a newer Overseer (store schema v{version}; this one "
            f"knows up to v{LATEST}). It was left as it is: update Overseer, or choose "
            "another store file (--db or OVERSEER_DB)")
    if version < 1:
        return StoreDamaged(path, "the store's schema version is missing")
    if version == LATEST and not TABLES <= tables:
        return StoreDamaged(path, f"tables missing: {', '.join(sorted(TABLES - tables))}")
    return None


_TOUCH = ("UPDATE games SET head = ?, finished = ?, updated = ?,"
          " touched = (SELECT max(touched) + 1 FROM games) WHERE id = ?")
_TOUCH_RULES = _TOUCH.replace(" WHERE", f", rules = {RULES_VERSION} WHERE")


class Store:
    """Every saved game of one file. Each write is one transaction, durable on return."""

    def __init__(self, path: str | Path, timeout: float = 5.0, create: bool = True,
                 made: bool = False) -> None:
        """Open the store at ``path`` (``create``: make it, and its folders, when missing;
        else ``NoStore``). ``made``: the caller made the empty file there just now (the
        store's lock does), so it is new and nothing was lost. Raises ``NotAStore``,
        ``StoreDamaged`` or ``StoreError``."""
        self.path = Path(path)
        self.timeout = timeout  # how long to wait for another process holding the file
        self.notice: str | None = None  # what opening did that the user should hear about
        self.read_only = False  # opened read-only: every write is refused (SaveError)
        self._reopen = False  # a write found the file read-only: open it again before the next
        self._unsaved = 0  # events written since the last checkpoint of the WAL
        self._unsynced = False  # an append(synced=False) is in the WAL, not yet on disk
        self._checkpoint_due = False  # a checkpoint it asked for, made at ``sync``
        self._later: dict[int, dict[str, Any]] = {}  # gadget objects for the next transaction
        # each game's gadget object as this store last wrote or read it (``gadget``): a step's
        # COMMIT would otherwise have it read and decoded again (some 35,000 instructions at
        # every answer, for the page shown); dropped at any failed write (read back then)
        self._kept: dict[int, dict[str, Any]] = {}
        if self.path.exists() and not self.path.is_file():
            raise StoreError(f"{self.path}: not a regular file; choose another store file")
        if not self.path.exists():
            if not create:
                raise NoStore(f"there is no game store at {self.path} yet (the first game "
                              "makes it)")
            self._make_folder()
            self._make()
        else:
            self._check(self.path)
            if not made and _emptied(self.path):
                self.notice = (f"the game store {self.path} was an empty file (0 bytes): it is "
                               "a new store now. If it held games, they were lost before this "
                               "start (a backup of the file brings them back)")
        self.db = self._open()
        self._cursor = self.db.cursor()  # the writes': ``Connection.execute`` makes one a call
        self._unsaved = 0

    def _make_folder(self) -> None:
        folder = self.path.parent
        if folder.is_dir():
            return
        if folder.exists():
            raise StoreError(f"{folder} is not a folder; choose another store file")
        try:
            folder.mkdir(parents=True)
        except OSError as err:
            raise StoreError(f"{folder}: cannot make the store's folder "
                             f"({err.strerror or err})") from err
        self.notice = f"made the folder {folder} for the new game store {self.path.name}"

    def _make(self) -> None:
        """A new store, made whole beside its name and then linked to it: a process killed
        while making it never leaves an empty file there (which would say it lost games)."""
        fresh = self.path.with_name(f".{self.path.name}.new-{os.getpid()}")
        for side in ("", "-wal", "-shm"):
            Path(f"{fresh}{side}").unlink(missing_ok=True)
        try:
            db = sqlite3.connect(fresh, isolation_level=None)
            try:
                db.execute("PRAGMA journal_mode = WAL")
                migrate(db, 0)
            finally:
                db.close()  # the last connection: the WAL is checkpointed into the file
            os.link(fresh, self.path)  # never over a file another process made meanwhile
        except FileExistsError:
            pass  # another process made it first: it is opened (and checked) as it is
        except (sqlite3.Error, OSError) as err:
            raise StoreError(f"{self.path}: cannot make the store ({err})") from err
        finally:
            for side in ("", "-wal", "-shm"):
                Path(f"{fresh}{side}").unlink(missing_ok=True)

    # ------------------------------------------------------------------ opening

    def _check(self, path: Path) -> None:
        """Refuse a file that is not a sound Overseer store, reading it only."""
        why = diagnose(path, self.timeout)
        if why is not None:
            raise why

    def _open(self) -> sqlite3.Connection:
        """A connection for writing; where the file, its folder or its disk cannot be written
        (a read-only remount, a full disk), a read-only one: the store still opens and its
        games resume, and every write is refused with a ``SaveError``."""
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: cannot open ({err})") from err
        try:
            db.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            try:
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = FULL")
                db.execute("PRAGMA foreign_keys = ON")
                db.execute("PRAGMA secure_delete = ON")  # no stale rows for a recovery to find
            except sqlite3.Error as err:
                if not _cannot_write(err):
                    raise StoreError(f"{self.path}: cannot open for writing ({err})") from err
                db.close()
                return self._open_read_only(err)
            if version < LATEST:
                self._migrate(db, version)
        except sqlite3.Error as err:
            db.close()
            if _cannot_write(err):
                return self._open_read_only(err)
            raise StoreError(f"{self.path}: cannot open ({err}); the file was left as it "
                             "is") from err
        except BaseException:
            db.close()
            raise
        self.read_only = False
        return db

    def _open_read_only(self, why: sqlite3.Error) -> sqlite3.Connection:
        try:
            db = read_only(self.path, self.timeout)
            version = db.execute("PRAGMA user_version").fetchone()[0]
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: cannot open, not even to read ({err}); the file "
                             "was left as it is") from err
        if version != LATEST:
            db.close()
            raise StoreError(f"{self.path}: cannot be written ({why}), and it needs an update "
                             f"(schema v{version} to v{LATEST}) before it can be read; it was "
                             "left as it is")
        self.read_only = True
        self._reopen = True  # it may be writable at the next write
        self.notice = (f"the game store {self.path} cannot be written ({why}): its games "
                       "open, and no step can be saved until it can")
        return db

    def _migrate(self, db: sqlite3.Connection, version: int) -> None:
        try:
            migrate(db, version)
        except sqlite3.Error as err:
            raise StoreError(f"{self.path}: updating the store from schema v{version} "
                             f"to v{LATEST} failed ({err}); it was left at "
                             f"v{version}") from err

    def close(self) -> None:
        """Close the store, what ``set_gadget_later`` holds written and the WAL checkpointed
        first (the file alone then holds every game: a copy of it, or a lost ``-wal``, loses
        nothing). A store that cannot be written then is closed all the same (what was held
        is lost, as a power cut would lose it)."""
        try:
            self.sync()
        except StoreError as err:
            log.error("closing the store: %s", err)
        if self._later:
            try:
                with self._transaction():
                    pass  # the held gadget objects go in with any transaction
            except StoreError:
                self._later.clear()
        self.checkpoint()
        self.db.close()

    def checkpoint(self) -> bool:
        """Copy the WAL into the store file (``wal_checkpoint(PASSIVE)``; the WAL file is kept
        and written again from its start by the next commit, cheaper than one made anew): at a
        room's end, a game's end, a clean stop and every ``CHECKPOINT_EVERY`` events, so that a
        game never lives in the ``-wal`` alone. False when it could not be done (read-only, a
        reader in the way: the next one tries again)."""
        if self.read_only:
            return False
        try:
            busy, log, done = self.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        except sqlite3.Error:
            return False
        if busy or done < log:
            return False
        self._unsaved = 0
        return True

    def _written(self, events: int, checkpoint: bool, synced: bool = True) -> None:
        """After a commit: checkpoint when asked, or when enough events wait in the WAL (after
        an unsynced commit: at ``sync``, which comes after the screen has moved)."""
        self._unsaved += events
        if not synced:
            self._unsynced = True
            self._checkpoint_due = self._checkpoint_due or checkpoint
            return
        self._unsynced = False  # this commit's fsync took the WAL's earlier frames with it
        if checkpoint or self._checkpoint_due or self._unsaved >= CHECKPOINT_EVERY:
            self._checkpoint_due = False
            self.checkpoint()

    @property
    def unsynced(self) -> bool:
        """An ``append(synced=False)`` is written but not yet on disk (``sync`` puts it there)."""
        return self._unsynced

    def sync(self) -> None:
        """Make the last ``append(synced=False)`` durable (the WAL's fsync), then make the
        checkpoint it put off; nothing when every commit is on disk. Raises ``StoreError`` when
        the disk refuses (the step may be lost to a power cut: the gadget restarts from the
        store)."""
        if not self._unsynced:
            return
        wal = f"{self.path}-wal"
        try:
            fd = os.open(wal, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as err:
            raise StoreError(f"{wal}: the last step could not be put on disk "
                             f"({err.strerror or err})") from err
        self._written(0, checkpoint=False)

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

    def _transaction(self, synced: bool = True):
        if self._reopen:  # opened (or found) read-only: it may be writable now
            self._check(self.path)
            db = self._open()
            self.db.close()
            self.db, self._cursor = db, db.cursor()
            self._reopen = self.read_only
        if self.read_only:
            raise _save_error(self.path, sqlite3.OperationalError("read-only"), _SQLITE_READONLY)
        return _Transaction(self, synced)

    def create_game(self, game: str, setup: dict[str, Any], seed: int, dice: str,
                    events: Sequence[Event] = (), head: int = 0, finished: bool = False,
                    retracted: Sequence[dict[str, Any]] = (), game_id: int | None = None,
                    created: str | None = None, rules: int | None = RULES_VERSION) -> int:
        """A new game (with its events, retracted results and the rules version that wrote
        them, for an import); returns its id. ``game_id`` and ``created`` keep a recovered
        game's own (a new id otherwise)."""
        if not 0 <= seed < 1 << 63:
            raise StoreError(f"a seed is a whole number from 0 to 2**63 - 1 (got {seed})")
        now = _now()
        with self._transaction():
            cur = self.db.execute(
                "INSERT INTO games (id, game, setup, seed, dice, created, updated, finished,"
                " head, touched, rules) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?,"
                " (SELECT coalesce(max(touched), 0) + 1 FROM games), ?)",
                (game_id, game, json.dumps(setup, sort_keys=True), seed, dice, created or now,
                 now, int(finished), head, rules))
            new_id = cur.lastrowid
            assert new_id is not None  # an INSERT sets it
            self._insert(new_id, 0, list(events))
            self.db.executemany(
                "INSERT INTO retracted (game_id, seq, kind, data, retracted_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(new_id, i["seq"], i["kind"], json.dumps(i["data"], sort_keys=True),
                  i["retracted_at"]) for i in retracted])
        self._written(len(events), checkpoint=True)  # a new game is never in the WAL alone
        return new_id

    def same_game(self, game: str, setup: dict[str, Any], seed: int, dice: str,
                  events: Sequence[Event], head: int) -> int | None:
        """The id of a stored game with exactly this setup, seed, dice, log and head (an
        import of a game already here), else None."""
        rows = self.db.execute(
            "SELECT id FROM games WHERE game = ? AND setup = ? AND seed = ? AND dice = ?"
            " AND head = ? ORDER BY id",
            (game, json.dumps(setup, sort_keys=True), seed, dice, head)).fetchall()
        wanted = list(events)
        return next((gid for (gid,) in rows if self.events(gid) == wanted), None)

    def _insert(self, game_id: int, start: int, events: list[Event]) -> None:
        self._cursor.executemany(
            "INSERT INTO events (game_id, seq, kind, data, seen) VALUES (?, ?, ?, ?, ?)",
            [(game_id, start + i, e.kind, e.payload(), int(e.seen))
             for i, e in enumerate(events)])

    def append(self, game_id: int, head: int, events: list[Event], finished: bool,
               snapshot: tuple[str, bytes] | None = None, tail: bool = True,
               checkpoint: bool = False, synced: bool = True) -> None:
        """Confirm one input, in one transaction: drop the undone tail from ``head`` on (seen
        dice results in it are kept in ``retracted``; its snapshots go), add ``events`` there,
        move the head past them, record this rules version as the log's, and keep
        ``snapshot`` (its build and state) as the state after the new head. ``tail=False``:
        the caller knows the log ends at ``head`` (nothing was undone), so there is no tail to
        drop and those statements are left out (were it wrong, the events' primary key refuses
        the insert and nothing is written). ``checkpoint`` (and a finished game): the WAL is
        checkpointed into the file after the commit (a room's end). ``synced=False``: the
        commit returns before its fsync, which ``sync`` makes (see the module's docstring)."""
        end = head + len(events)
        now = _now()
        with self._transaction(synced):
            if tail:
                write = self._cursor.execute
                write("INSERT INTO retracted (game_id, seq, kind, data, retracted_at)"
                      " SELECT game_id, seq, kind, data, ? FROM events"
                      " WHERE game_id = ? AND seq >= ? AND seen = 1", (now, game_id, head))
                write("DELETE FROM events WHERE game_id = ? AND seq >= ?", (game_id, head))
                write("DELETE FROM snapshots WHERE game_id = ? AND seq > ?", (game_id, head))
            self._insert(game_id, head, events)
            if snapshot is not None:
                self._put_snapshot(game_id, end, *snapshot)
            self._touch(game_id, end, finished, rules=True, now=now)
        self._written(len(events), checkpoint or finished, synced)

    def set_head(self, game_id: int, head: int, finished: bool) -> None:
        """Undo or redo: only the head moves; the events stay."""
        with self._transaction():
            self._touch(game_id, head, finished)
        self._written(1, finished)

    def _touch(self, game_id: int, head: int, finished: bool, rules: bool = False,
               now: str | None = None) -> None:
        cur = self._cursor.execute(
            _TOUCH_RULES if rules else _TOUCH, (head, int(finished), now or _now(), game_id))
        if cur.rowcount != 1:
            raise StoreError(f"no saved game #{game_id}")

    def set_gadget(self, game_id: int, data: dict[str, Any]) -> None:
        """Keep what the table gadget needs beside this game's log (its seats): one JSON
        object per game, replaced whole, durable on return (in place of one held by
        ``set_gadget_later``). ``data`` is the store's from then on (``gadget`` answers copies
        of it)."""
        self._later.pop(game_id, None)
        with self._transaction():
            if self.db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
                raise StoreError(f"no saved game #{game_id}")  # a game that is not there
            self.db.execute(_SET_GADGET, (game_id, _gadget_text(data)))
        self._kept[game_id] = data

    def set_gadget_later(self, game_id: int, data: dict[str, Any]) -> None:
        """``set_gadget`` without a transaction of its own: the object is held and written
        inside the store's next write (a step's, in its one COMMIT), or at ``close``; until
        then ``gadget`` answers it. For what the gadget may lose to a power cut or a kill
        (which page of the steps was on the glass): nothing is written for it now. A game
        that is gone by then is passed over. ``data`` (plain JSON values) is the store's from
        now on: encoded when it is written, once, not at every page turned."""
        self._later[game_id] = data

    def _write_later(self) -> None:
        """Inside a transaction: the gadget objects ``set_gadget_later`` holds (one that is
        not plain JSON is dropped: lost, never the step it goes in with)."""
        for game_id, data in list(self._later.items()):
            try:
                text = _gadget_text(data)
            except (TypeError, ValueError) as err:
                log.error("game #%d: the gadget's object not kept: %s", game_id, err)
                del self._later[game_id]
                continue
            self._cursor.execute(_SET_GADGET_IF_GAME, (game_id, text, game_id))

    def gadget(self, game_id: int) -> dict[str, Any]:
        """What ``set_gadget`` (or ``set_gadget_later``) kept for this game (an empty object
        when nothing was): a new object, whose values the caller replaces, never changes."""
        held = self._later.get(game_id)
        if held is None:
            held = self._kept.get(game_id)
        if held is not None:
            return dict(held)
        try:
            row = self.db.execute("SELECT data FROM gadget WHERE game_id = ?",
                                  (game_id,)).fetchone()
            data = {} if row is None else json.loads(row[0])
        except (sqlite3.DatabaseError, ValueError):  # a page SQLite's check let through
            return {}  # the seats and the form are the gadget's to ask again: never the game
        if not isinstance(data, dict):
            return {}
        self._kept[game_id] = data
        return dict(data)

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
        self._later.pop(game_id, None)
        self._kept.pop(game_id, None)
        with self._transaction():
            if self.db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount != 1:
                raise StoreError(f"no saved game #{game_id}")

    # ------------------------------------------------------------------ reading

    # The log's length from its last seq (the events are numbered 0, 1, ... with no gap): one
    # step down the primary key, where count(*) read every event of the game (a 100,000-event
    # game's resume paid for it at every power-on).
    _INFO = ("SELECT id, game, setup, seed, dice, created, updated, finished, head,"
             " (SELECT coalesce(max(seq) + 1, 0) FROM events WHERE game_id = games.id), rules"
             " FROM games")

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
        try:
            rows = self.db.execute("SELECT kind, data, seen FROM events WHERE game_id = ?"
                                   " AND seq >= ? AND seq < ? ORDER BY seq",
                                   (game_id, start, (1 << 62) if stop is None else stop))
            return [Event(kind, json.loads(data), bool(seen)) for kind, data, seen in rows]
        except (sqlite3.DatabaseError, ValueError) as err:  # a page SQLite's check let through
            raise StoreDamaged(self.path, f"game #{game_id}: its log cannot be read "
                               f"({str(err)[:80]})") from err

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


_gadget_text = json_writer((", ", ": "), ensure_ascii=True)  # json.dumps(data, sort_keys=True)
_SET_GADGET = ("INSERT INTO gadget (game_id, data) VALUES (?, ?) ON CONFLICT (game_id)"
               " DO UPDATE SET data = excluded.data")
_SET_GADGET_IF_GAME = ("INSERT INTO gadget (game_id, data) SELECT ?, ? WHERE EXISTS"
                       " (SELECT 1 FROM games WHERE id = ?) ON CONFLICT (game_id)"
                       " DO UPDATE SET data = excluded.data")


class _Transaction:
    """``BEGIN IMMEDIATE`` .. ``COMMIT`` (or ``ROLLBACK`` on any error); a failed write is a
    ``StoreError`` (a ``SaveError`` when the store is full or read-only)."""

    def __init__(self, store: Store, synced: bool = True) -> None:
        self.store = store
        self.db = store.db
        self.write = store._cursor.execute
        self.synced = synced  # False: COMMIT without its fsync (synchronous=NORMAL for it)

    def _failed(self, err: sqlite3.Error) -> StoreError:
        self.store._kept.clear()  # what the file holds now is read back from it
        if getattr(err, "sqlite_errorcode", 0) & 0xFF == _SQLITE_READONLY:
            self.store._reopen = True  # opened read-only: the next write opens it again
        return _save_error(self.store.path, err)

    def __enter__(self) -> None:
        try:
            if not self.synced:
                self.write("PRAGMA synchronous = NORMAL")
            self.write("BEGIN IMMEDIATE")
        except sqlite3.Error as err:
            self._full()
            raise self._failed(err) from err

    def _full(self) -> None:
        """Every other write is FULL again (the pragma holds for the connection)."""
        if not self.synced:
            self.write("PRAGMA synchronous = FULL")

    def __exit__(self, kind, value, tb) -> None:
        try:
            self._end(kind, value)
        finally:
            self._full()

    def _end(self, kind, value) -> None:
        later = self.store._later
        try:
            if kind is None:
                if later:
                    self.store._write_later()
                self.write("COMMIT")
                if later:
                    self.store._kept.update(later)
                    later.clear()
            elif self.db.in_transaction:  # SQLite may have rolled back already (a full disk)
                self.write("ROLLBACK")
        except sqlite3.Error as err:
            if self.db.in_transaction:
                self.write("ROLLBACK")
            raise self._failed(err) from err
        if isinstance(value, sqlite3.Error):
            raise self._failed(value) from value
