"""Numbered schema migrations of the game store.

``MIGRATIONS[n]`` takes a store at version ``n - 1`` to version ``n``; a new store runs them
all from 0. Each runs inside the store's migration transaction, so a store is either at the old
version or at the new one, never between. Never edit a released migration: add the next one.

* v1: games (setup, seed, dice mode, timestamps, finished) and their events.
* v2: undo across restarts and resume order: ``games.head`` (how many events are live; the rest
  is the undone tail, kept for redo), ``games.touched`` (a counter, since a Pi without a clock
  cannot order by time), an index to find the last unfinished game of a type, and
  ``retracted`` (seen dice results that were undone and then replaced: the mark stays).
* v3: ``gadget``: what the table gadget keeps beside a game's log (a JSON object: the seat of
  each member of the party, whose LED lights). Not part of the game: the log stays the truth.
* v4: resume in bounded time and the rules version: ``games.rules`` (the rules version that
  last wrote the log, ``overseer.RULES_VERSION``; NULL for a game written before v4) and
  ``snapshots`` (the folded state after the first ``seq`` events, pickled, under the rules
  version and code fingerprint ``build`` it was taken with).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

APPLICATION_ID = 0x4F565253  # "OVRS" in the SQLite header: this file is an Overseer store


def _v1(db: sqlite3.Connection) -> None:
    db.execute("""
        CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            setup TEXT NOT NULL,
            seed INTEGER NOT NULL,
            dice TEXT NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0
        )""")
    db.execute("""
        CREATE TABLE events (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            data TEXT NOT NULL,
            seen INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID""")


def _v2(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE games ADD COLUMN head INTEGER NOT NULL DEFAULT 0")
    db.execute("ALTER TABLE games ADD COLUMN touched INTEGER NOT NULL DEFAULT 0")
    # v1 had no undo: every event is live.
    db.execute("UPDATE games SET head = (SELECT count(*) FROM events WHERE game_id = games.id)")
    # v1 ordered by its timestamps; keep that order as the first counter values.
    db.execute("""
        UPDATE games SET touched = (
            SELECT count(*) FROM games AS g
            WHERE g.updated < games.updated OR (g.updated = games.updated AND g.id <= games.id))""")
    db.execute("CREATE INDEX games_resume ON games (game, finished, touched)")
    db.execute("""
        CREATE TABLE retracted (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            kind TEXT NOT NULL,
            data TEXT NOT NULL,
            retracted_at TEXT NOT NULL
        )""")


def _v3(db: sqlite3.Connection) -> None:
    db.execute("""
        CREATE TABLE gadget (
            game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            data TEXT NOT NULL
        )""")


def _v4(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE games ADD COLUMN rules INTEGER")
    db.execute("""
        CREATE TABLE snapshots (
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            build TEXT NOT NULL,
            state BLOB NOT NULL,
            PRIMARY KEY (game_id, seq)
        )""")


MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _v1, 2: _v2, 3: _v3, 4: _v4}
LATEST = max(MIGRATIONS)
TABLES = {"games", "events", "retracted", "gadget", "snapshots"}


def migrate(db: sqlite3.Connection, current: int, target: int = LATEST) -> None:
    """Run migrations ``current + 1 .. target`` and record the version, in one transaction."""
    db.execute("BEGIN IMMEDIATE")
    try:
        if current == 0:
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        for version in range(current + 1, target + 1):
            MIGRATIONS[version](db)
        db.execute(f"PRAGMA user_version = {target}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
