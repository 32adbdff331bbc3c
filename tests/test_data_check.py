"""``overseer data check``: every game's data files loaded, each problem named by file and
line, record and field; a sound folder says ok."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from overseer.cli import main
from overseer.core.records import DATA_DIR


def test_the_shipped_data_is_sound(capsys: pytest.CaptureFixture) -> None:
    assert main(["data", "check"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{DATA_DIR / game}: ok" for game in ("catacombs", "clank", "conquest",
                                                         "runebound")]


def test_a_bad_field_and_a_missing_file_are_named(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "data"
    shutil.copytree(DATA_DIR, folder)
    monsters = folder / "catacombs" / "monsters.toml"
    text = monsters.read_text()
    first = text.index("\nname = ") + 1
    monsters.write_text(text[:first] + "nmae" + text[first + 4:])
    line = text[:first].count("\n") + 1
    (folder / "clank" / "rooms.toml").unlink()
    assert main(["data", "check", str(folder)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{folder / 'catacombs'}: BAD: {monsters}:{line}: record monster ")
    assert out[0].endswith("field 'nmae': unknown field; did you mean 'name'?")
    assert out[1] == f"{folder / 'clank'}: BAD: {folder / 'clank' / 'rooms.toml'}: cannot read:" \
        " No such file or directory"
    assert out[2:] == [f"{folder / 'conquest'}: ok", f"{folder / 'runebound'}: ok"]


def test_a_folder_that_is_not_there(tmp_path: Path, capsys) -> None:
    assert main(["data", "check", str(tmp_path / "nowhere")]) == 2
    assert "is not a folder" in capsys.readouterr().out
