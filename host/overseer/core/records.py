"""Game data files: TOML under data/<game>/, validated on load.

Every record is one ``[[table]]`` entry and carries ``source`` (seed file and section, or the
fan data it came from) and ``verified`` (true only for facts the rulebooks print). A broken
file raises ``DataError`` naming the file, the line, the record and the field.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from overseer.core.shapes import suggestion
from overseer.core.shipped import shipped


def data_dir() -> Path:
    """Where the game data is: the folder ``OVERSEER_DATA`` names, else the one the package
    ships (``overseer/datafiles``, core/shipped.py: in a checkout, the repository's data/)."""
    named = os.environ.get("OVERSEER_DATA")
    if named:
        return Path(named)
    return shipped("datafiles")


DATA_DIR = data_dir()


class DataError(ValueError):
    """A data file that does not load: where, which record, which field, and what is wrong."""

    def __init__(self, path: Path | str, line: int | None, record: str | None,
                 field: str | None, message: str) -> None:
        where = f"{path}:{line}" if line else str(path)
        what = ", ".join(p for p in (f"record {record}" if record else "",
                                     f"field '{field}'" if field else "") if p)
        super().__init__(f"{where}: {what + ': ' if what else ''}{message}")
        self.path, self.line, self.record, self.field = str(path), line, record, field


@dataclass(frozen=True)
class Field:
    """How one field of a record is checked. ``kind`` is a type or a tuple of types;
    ``check`` returns an error message or None."""

    kind: type | tuple[type, ...]
    required: bool = True
    check: Callable[[Any], str | None] | None = None


def one_of(*choices: Any) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        if value in choices:
            return None
        return f"{value!r} is not one of {', '.join(map(repr, choices))}"
    return check


def list_of(kind: type, *, choices: tuple[Any, ...] | None = None) -> Callable[[Any], str | None]:
    def check(value: Any) -> str | None:
        for item in value:
            if not isinstance(item, kind):
                return f"item {item!r} should be {kind.__name__}"
            if choices is not None and item not in choices:
                return f"item {item!r} is not one of {', '.join(map(repr, choices))}"
        return None
    return check


def at_least(low: int) -> Callable[[Any], str | None]:
    return lambda value: None if value >= low else f"{value} is below {low}"


RECORD_FIELDS = {"source": Field(str), "verified": Field(bool)}


def _header_lines(text: str, table: str) -> list[int]:
    pattern = re.compile(r"^\s*\[\[\s*" + re.escape(table) + r"\s*\]\]")
    return [i + 1 for i, line in enumerate(text.splitlines()) if pattern.match(line)]


def _field_line(text: str, start: int, name: str) -> int:
    """The line of field ``name`` in the record whose header is line ``start`` (the header's
    line when the field is not written there)."""
    lines = text.splitlines()
    pattern = re.compile(r"^\s*" + re.escape(name) + r"\s*=")
    for i in range(start, len(lines)):
        if lines[i].lstrip().startswith("[["):
            break
        if pattern.match(lines[i]):
            return i + 1
    return start


def field_line(path: Path, start: int | None, name: str) -> int | None:
    """For checks made after loading: the line of field ``name`` in the record that starts at
    line ``start`` (a record's ``_line``)."""
    if not start:
        return None
    return _field_line(read_text(path), start, name)


def _only(path: Path, text: str, doc: dict[str, Any], table: str) -> None:
    """Refuse a top-level key of ``doc`` other than ``table``, at its line."""
    for name in doc:
        if name != table:
            pattern = re.compile(r"^\s*(?:\[\[?\s*)?[\"']?" + re.escape(name) + r"[\"']?\s*[\]=.]")
            line = next((n for n, row in enumerate(text.splitlines(), 1) if pattern.match(row)),
                        None)
            raise DataError(path, line, None, None,
                            f"unknown table {name!r}; {suggestion(name, (table,))}")


def read_text(path: Path) -> str:
    """A data file's text; ``DataError`` naming the file (and the line of a byte that is not
    UTF-8) when it cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as err:
        raise DataError(path, None, None, None, f"cannot read: {err.strerror}") from err
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise DataError(path, line, None, None, f"not UTF-8 text (byte 0x{data[err.start]:02x});"
                        " save the file as UTF-8") from None


def load_table(path: Path, table: str, fields: dict[str, Field],
               key: str = "id", alone: bool = False) -> list[dict[str, Any]]:
    """Load the ``[[table]]`` records of one file, each checked against ``fields`` plus
    ``source`` and ``verified``. Unknown fields are refused with the closest known one (a typo
    must not pass silently); ``key`` values must be unique. ``alone``: the file holds this
    table only, and any other top-level key is refused with the closest one (a misspelt
    ``[[table]]`` must not leave its records unread)."""
    text = read_text(path)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        line = getattr(err, "lineno", None)
        if line is None:
            found = re.search(r"line (\d+)", str(err))
            line = int(found.group(1)) if found else None
        raise DataError(path, line, None, None, f"not valid TOML ({err})") from err
    if alone:
        _only(path, text, doc, table)
    records = doc.get(table)
    if not isinstance(records, list) or not records:
        raise DataError(path, None, None, None, f"no [[{table}]] records")
    starts = _header_lines(text, table)
    allowed = {**RECORD_FIELDS, **fields}
    seen: dict[Any, int] = {}
    for n, record in enumerate(records):
        start = starts[n] if n < len(starts) else None
        name = f"{table} #{n + 1}"
        if key in record:
            name = f"{table} {record[key]!r}"

        def fail(field: str | None, message: str, _s=start, _name=name) -> DataError:
            line = _field_line(text, _s, field) if field and _s else _s
            return DataError(path, line, _name, field, message)

        for field_name in record:
            if field_name not in allowed:
                raise fail(field_name, f"unknown field; {suggestion(field_name, allowed)}")
        for field_name, spec in allowed.items():
            if field_name not in record:
                if spec.required:
                    raise fail(None, f"missing field '{field_name}'")
                continue
            value = record[field_name]
            kinds = spec.kind if isinstance(spec.kind, tuple) else (spec.kind,)
            if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
                wanted = " or ".join(k.__name__ for k in kinds)
                raise fail(field_name, f"{value!r} should be {wanted}")
            if spec.check is not None:
                problem = spec.check(value)
                if problem:
                    raise fail(field_name, problem)
        if key in record:
            if record[key] in seen:
                first = seen[record[key]]
                raise fail(key, f"duplicate {key} {record[key]!r} (first at line {first})")
            seen[record[key]] = start or 0
        record["_line"] = start
    return records

