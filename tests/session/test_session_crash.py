"""The crash loop (tests/session/crashloop.py): SIGKILL at random moments, nothing confirmed
is lost, the store stays sound, the resumed state is the live one."""

from __future__ import annotations

import pytest

from tests.session.crashloop import run


def _crash(tmp_path, kills: int, seed: int) -> None:
    totals = run(tmp_path / "games.sqlite3", kills, seed)
    print(f"crash loop: {totals}")
    assert totals["kills"] == kills
    assert totals["steps_lost"] == 0
    assert totals["steps_confirmed"] >= totals["steps_planned"] > kills


def test_crash_loop_200_kills(tmp_path):
    _crash(tmp_path, 200, seed=1)


@pytest.mark.long
def test_crash_loop_2000_kills(tmp_path):
    _crash(tmp_path, 2000, seed=2)
