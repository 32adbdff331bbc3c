"""One overseer per game store: a lock file beside the database, held for the process's life.

``acquire(store)`` takes an exclusive ``flock`` on ``<store>.lock`` (e.g. ``games.sqlite3.lock``)
and writes the process id into it. A second process on the same store is refused with
``StoreInUse``, naming the first one's pid. The kernel drops the lock when its holder exits, even
by a crash or a kill, so a stale lock file never blocks anyone: the next ``acquire`` takes it over.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


class StoreInUse(Exception):
    """Another process holds the game store's lock; the message names it."""


def lock_path(store: Path) -> Path:
    """The lock file of the store file ``store``."""
    return store.with_name(store.name + ".lock")


class Lock:
    """A held store lock; ``release()`` (or the process ending) lets it go."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @property
    def held(self) -> bool:
        return self._fd is not None

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing the last descriptor drops the flock

    def __enter__(self) -> Lock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def acquire(store: Path) -> Lock:
    """Lock the game store ``store`` (the database file) for this process, or raise StoreInUse.

    The store's folder is made if missing (the store itself is made by ``Store.open``).
    """
    path = lock_path(Path(store))
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _read_pid(fd)
        os.close(fd)
        who = f"overseer (pid {holder})" if holder else "overseer"
        raise StoreInUse(
            f"the game store {store} is in use by another {who}; stop that one first, or give "
            "this one another store (--db)"
        ) from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    return Lock(path, fd)


def _read_pid(fd: int) -> int | None:
    """The pid the holder wrote (None if it has not written it yet, or wrote something else)."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None
