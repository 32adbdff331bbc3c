"""One overseer per game store: the lock beside the database, between real processes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from overseer.session.lock import StoreInUse, acquire, lock_path

HOST = str(Path(__file__).resolve().parents[2] / "host")
HOLDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from overseer.session.lock import acquire
    lock = acquire(Path(sys.argv[1]))
    print("locked", flush=True)
    sys.stdin.readline()  # hold the lock until told to go
    """
)
SECOND = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from overseer.session.lock import StoreInUse, acquire
    try:
        acquire(Path(sys.argv[1]))
    except StoreInUse as refused:
        print(refused)
        sys.exit(3)
    print("locked")
    """
)


def python(code: str, store: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": HOST}
    return subprocess.Popen(
        [sys.executable, "-c", code, str(store)], env=env, text=True,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
    )


def test_a_second_process_on_the_same_store_is_refused_by_pid(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    holder = python(HOLDER, store)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        second = python(SECOND, store)
        out, _ = second.communicate(timeout=30)
        assert second.returncode == 3
        assert out.strip() == (
            f"the game store {store} is in use by another overseer (pid {holder.pid}); stop that "
            "one first, or give this one another store (--db)"
        )
        with pytest.raises(StoreInUse, match=f"pid {holder.pid}"):
            acquire(store)  # this process is refused too
    finally:
        holder.communicate("\n", timeout=30)
    # The holder is gone (it exited; a crash or a kill drops the lock the same way): free again.
    third = python(SECOND, store)
    out, _ = third.communicate(timeout=30)
    assert (third.returncode, out) == (0, "locked\n")


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    store = tmp_path / "games.sqlite3"
    holder = python(HOLDER, store)
    assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
    holder.kill()
    holder.wait(timeout=30)
    assert lock_path(store).read_text() == f"{holder.pid}\n"  # the file stays, the lock does not
    with acquire(store) as lock:
        assert lock.held and lock_path(store).read_text() == f"{os.getpid()}\n"
    assert not lock.held


def test_another_store_is_not_locked_and_a_released_lock_can_be_taken_again(tmp_path: Path) -> None:
    first = acquire(tmp_path / "a" / "games.sqlite3")  # the folder is made
    second = acquire(tmp_path / "b.sqlite3")
    assert first.path == tmp_path / "a" / "games.sqlite3.lock"
    first.release()
    first.release()  # twice is harmless
    again = acquire(tmp_path / "a" / "games.sqlite3")
    again.release()
    second.release()
