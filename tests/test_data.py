"""Data files: a broken one names its file, line, record and field."""

from pathlib import Path

import pytest

from overseer.core.records import DataError, Field, at_least, load_table, one_of

FIELDS = {"id": Field(str), "level": Field(int, check=one_of(1, 2, 3)),
          "count": Field(int, check=at_least(1))}
GOOD = """# tokens
[[token]]
id = "a"
level = 1
count = 2
source = "test"
verified = false

[[token]]
id = "b"
level = 2
count = 1
source = "test"
verified = true
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tokens.toml"
    path.write_text(text)
    return path


def test_good_file_loads(tmp_path):
    records = load_table(write(tmp_path, GOOD), "token", FIELDS)
    assert [r["id"] for r in records] == ["a", "b"]
    assert records[1]["_line"] == 9


@pytest.mark.parametrize("broken,message", [
    (GOOD.replace("level = 2", "level = 5"), r"tokens.toml:11: record token 'b', field 'level': 5 is not one of"),
    (GOOD.replace('count = 1', 'count = "one"'), r"tokens.toml:12: record token 'b', field 'count': 'one' should be int"),
    (GOOD.replace('verified = false', 'verifed = false'), r"tokens.toml:7: record token 'a', field 'verifed': unknown field"),
    (GOOD.replace('source = "test"\nverified = true', 'verified = true'), r"tokens.toml:9: record token 'b': missing field 'source'"),
    (GOOD.replace('id = "b"', 'id = "a"'), r"tokens.toml:10: record token 'a', field 'id': duplicate id 'a' \(first at line 2\)"),
    (GOOD.replace("level = 1", "level = = 1"), r"tokens.toml:4: not valid TOML"),
    (GOOD.replace("[[token]]", "[[tile]]"), r"no \[\[token\]\] records"),
    (GOOD.replace("verified = false", "verified = 0"), r"field 'verified': 0 should be bool"),
])
def test_broken_file_says_where(tmp_path, broken, message):
    with pytest.raises(DataError, match=message):
        load_table(write(tmp_path, broken), "token", FIELDS)


def test_missing_file(tmp_path):
    with pytest.raises(DataError, match="cannot read"):
        load_table(tmp_path / "nope.toml", "token", FIELDS)
