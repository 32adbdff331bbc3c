"""One overseer per game store: the lock on the database file itself, between real processes
(and by any name that reaches the file: a symlink, a hard link, a bind mount)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from overseer.session.lock import LockError, StoreInUse, acquire, in_use

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
    assert in_use(store) == f"the game store {store} is in use by another overseer (pid " \
        f"{holder.pid})"
    holder.kill()
    holder.wait(timeout=30)
    assert in_use(store) is None  # the file stays (empty: made for the lock), the lock does not
    with acquire(store) as lock:
        assert lock.held and not lock.made
    assert not lock.held
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.sqlite3"]  # no lock file


def test_another_store_is_not_locked_and_a_released_lock_can_be_taken_again(tmp_path: Path) -> None:
    first = acquire(tmp_path / "a" / "games.sqlite3")  # the folder and the file are made
    second = acquire(tmp_path / "b.sqlite3")
    assert first.path == tmp_path / "a" / "games.sqlite3" and first.made
    first.release()
    first.release()  # twice is harmless
    again = acquire(tmp_path / "a" / "games.sqlite3")
    assert not again.made
    again.release()
    second.release()


@pytest.mark.parametrize("name", ["symlink", "hard link", "bind mount"])
def test_the_same_file_by_another_name_is_refused(tmp_path: Path, name: str) -> None:
    store = tmp_path / "games.sqlite3"
    store.touch()
    other = tmp_path / "other.sqlite3"
    if name == "symlink":
        other.symlink_to(store)
    elif name == "hard link":
        os.link(store, other)
    holder = python(HOLDER, store)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        if name == "bind mount":
            code = f"mount --bind {tmp_path} {tmp_path / 'm'} && {sys.executable} -c \"$0\" " \
                f"{tmp_path / 'm' / 'games.sqlite3'}"
            (tmp_path / "m").mkdir()
            second = subprocess.run(["unshare", "-m", "sh", "-c", code, SECOND],
                                    env={**os.environ, "PYTHONPATH": HOST}, text=True,
                                    capture_output=True, timeout=30)
            if second.returncode not in (0, 3):
                pytest.skip(f"no bind mount here: {second.stderr.strip()}")
            out, code_ = second.stdout, second.returncode
        else:
            run = python(SECOND, other)
            out, _ = run.communicate(timeout=30)
            code_ = run.returncode
        assert code_ == 3, out
        assert f"is in use by another overseer (pid {holder.pid})" in out
    finally:
        holder.communicate("\n", timeout=30)


def test_a_store_on_a_read_only_disk_is_locked_and_a_missing_one_said(tmp_path: Path) -> None:
    """A read-only remount (an SD card after errors): the lock opens the file read-only."""
    store = tmp_path / "games.sqlite3"
    store.touch()
    code = textwrap.dedent(f"""
        from pathlib import Path
        from overseer.session.lock import LockError, acquire
        with acquire(Path({str(store)!r})) as lock:
            print("locked", lock.made)
        try:
            acquire(Path({str(tmp_path / "new.sqlite3")!r}))
        except LockError as err:
            print(err)
        """)
    shell = f"mount --bind {tmp_path} {tmp_path} && mount -o remount,ro,bind {tmp_path} && " \
        f"{sys.executable} -c \"$0\""
    run = subprocess.run(["unshare", "-m", "sh", "-c", shell, code], text=True,
                         env={**os.environ, "PYTHONPATH": HOST}, capture_output=True, timeout=30)
    if "locked" not in run.stdout and run.returncode != 0:
        pytest.skip(f"no read-only remount here: {run.stderr.strip()}")
    assert run.stdout.splitlines() == [
        "locked False",
        f"the game store {tmp_path / 'new.sqlite3'} cannot be made (Read-only file system): "
        "choose another store file (--db), or make its disk writable"]


def test_a_folder_is_not_a_store(tmp_path: Path) -> None:
    with pytest.raises(LockError, match="is a folder"):
        acquire(tmp_path)
