"""One overseer per game store: an exclusive lock on the store file itself, held for the process's
life.

``acquire(store)`` takes an exclusive ``flock`` on the database file (opened read-only: a store
on a read-only disk is locked as well). The lock is on the file, not on its name, so a second
process that reaches the same file by another name (a symlink, a hard link, a bind mount) is
refused with ``StoreInUse``, naming the first one's pid (from the kernel's lock table). The
kernel drops the lock when its holder exits, even by a crash or a kill, so nothing stale is
ever left behind. A missing store file is made empty (and its folder, when missing) for the
lock to hold; ``Lock.made`` says so, and the store then takes the empty file as new.

A held lock must be released only after every SQLite connection of this process to the file is
closed (closing any descriptor of a file drops the process's POSIX locks on it, SQLite's too).
"""

from __future__ import annotations

import fcntl
import os
import stat
from pathlib import Path


class LockError(Exception):
    """The store cannot be locked; the message says why."""


class StoreInUse(LockError):
    """Another process holds the game store's lock; the message names it."""


class Lock:
    """A held store lock; ``release()`` (or the process ending) lets it go."""

    def __init__(self, path: Path, fd: int, made: bool = False) -> None:
        self.path = path
        self.made = made  # the store file was missing: this lock made it (empty)
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


def _open(path: Path) -> tuple[int, bool]:
    """A descriptor of the store file, and whether it was made now."""
    try:
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC), False
    except FileNotFoundError:
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644), True
    except FileExistsError:  # another process made it first: lock that one
        return _open(path)
    except OSError as err:
        raise LockError(f"the game store {path} cannot be made ({err.strerror or err}): "
                        "choose another store file (--db), or make its disk writable") from err


def acquire(store: Path) -> Lock:
    """Lock the game store ``store`` (the database file) for this process, or raise
    ``StoreInUse`` (another process holds it) or ``LockError`` (it cannot be opened or made)."""
    path = Path(store)
    try:
        fd, made = _open(path)
    except OSError as err:
        raise LockError(f"the game store {path} cannot be opened ({err.strerror or err}); it "
                        "was left as it is") from err
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        what = "a folder" if path.is_dir() else "not a regular file"
        raise LockError(f"{path} is {what}, not a game store file: choose another store file "
                        "(--db)")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = holder_pid(fd)
        os.close(fd)
        who = f"overseer (pid {holder})" if holder else "overseer"
        raise StoreInUse(
            f"the game store {store} is in use by another {who}; stop that one first, or give "
            "this one another store (--db)"
        ) from None
    except OSError as err:  # a file system without locks
        os.close(fd)
        raise LockError(f"the game store {path} cannot be locked ({err.strerror or err})") \
            from err
    return Lock(path, fd, made)


def in_use(store: Path) -> str | None:
    """Whether another process holds the lock of ``store`` (its message), without making or
    changing anything (``overseer doctor``); None when it is free or there is no file."""
    try:
        fd = os.open(store, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = holder_pid(fd)
        who = f"overseer (pid {holder})" if holder else "overseer"
        return f"the game store {store} is in use by another {who}"
    except OSError:
        return None
    finally:
        os.close(fd)
    return None


def holder_pid(fd: int) -> int | None:
    """The pid holding a flock on the file of ``fd``, from the kernel's lock table
    (``/proc/locks``), or None where it cannot be told."""
    st = os.fstat(fd)
    inode = f"{os.major(st.st_dev):02x}:{os.minor(st.st_dev):02x}:{st.st_ino}"
    try:
        table = Path("/proc/locks").read_text()
    except OSError:
        return None
    for line in table.splitlines():
        fields = line.split()
        if len(fields) > 5 and fields[1] == "FLOCK" and fields[5] == inode \
                and fields[4].isdigit():
            return int(fields[4])
    return None
