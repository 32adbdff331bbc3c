"""The rows of a damaged game store read straight from its pages, without SQLite's b-tree walk:
what ``overseer games recover`` falls back on where SQLite cannot read (a scribbled root or
interior page hides every row under it, a damaged header hides the whole file).

Every leaf page of the file is decoded on its own (the SQLite file format: b-tree pages, cells,
overflow chains, records), and each row is told apart by its shape: a ``games`` row (the game's
name, its setup as JSON, seed, dice, times), an ``events`` row (game, seq, kind, data, seen) and a
``gadget`` row. A damaged page loses only the rows on it. Pages on the free list are passed over,
and the store writes with ``secure_delete`` on, so no deleted row is found again.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from overseer.session.events import KINDS

_MAGIC = b"SQLite format 3\x00"
_TABLE_LEAF, _INDEX_LEAF, _INDEX_INTERIOR = 0x0D, 0x0A, 0x02
_GAMES_COLUMNS = ("id", "game", "setup", "seed", "dice", "created", "updated", "finished",
                  "head", "touched", "rules")


class Broken(ValueError):
    """A page or a cell that does not decode."""


@dataclass
class Salvage:
    """What the pages hold: each game's row (by id), its events (by seq), its gadget object,
    and for each page the ids of the games with a row or an event on it (or on a page its
    overflow chain)."""

    games: dict[int, dict[str, Any]] = field(default_factory=dict)
    events: dict[int, dict[int, tuple[str, str, int]]] = field(default_factory=dict)
    gadget: dict[int, str] = field(default_factory=dict)
    pages: dict[int, set[int]] = field(default_factory=dict)
    page_size: int = 4096

    def log(self, game_id: int) -> list[tuple[str, str, int]]:
        """The game's events from seq 0 on, up to the first one missing."""
        found = self.events.get(game_id, {})
        out = []
        while len(out) in found:
            out.append(found[len(out)])
        return out


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value = 0
    for n in range(9):
        if at + n >= len(data):
            raise Broken("a varint runs off the page")
        byte = data[at + n]
        if n == 8:
            return (value << 8) | byte, at + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + n + 1
    raise Broken("unreachable")


def _record(payload: bytes) -> list[Any]:
    """The values of one record (the SQLite record format)."""
    size, at = _varint(payload, 0)
    if not 1 <= size <= len(payload):
        raise Broken("a record header longer than its record")
    types = []
    while at < size:
        kind, at = _varint(payload, at)
        types.append(kind)
    values: list[Any] = []
    at = size
    for kind in types:
        if kind == 0:
            values.append(None)
            continue
        if kind in (8, 9):
            values.append(kind - 8)
            continue
        if 1 <= kind <= 6:
            width = (1, 2, 3, 4, 6, 8)[kind - 1]
            values.append(int.from_bytes(payload[at:at + width], "big", signed=True))
        elif kind == 7:
            values.append(struct.unpack(">d", payload[at:at + 8])[0])
            width = 8
        elif kind >= 12:
            width = (kind - 12) // 2
            raw = payload[at:at + width]
            values.append(raw.decode("utf-8") if kind % 2 else raw)
        else:
            raise Broken(f"serial type {kind}")
        if at + width > len(payload):
            raise Broken("a value runs past its record")
        at += width
    return values


class _File:
    def __init__(self, data: bytes, page_size: int, reserved: int) -> None:
        self.data = data
        self.size = page_size
        self.usable = page_size - reserved
        self.count = len(data) // page_size
        self.chain: list[int] = []  # the overflow pages of the last cell read

    def page(self, number: int) -> bytes:
        if not 1 <= number <= self.count:
            raise Broken(f"no page {number}")
        return self.data[(number - 1) * self.size:number * self.size]

    def payload(self, page: bytes, at: int, total: int, index: bool) -> bytes:
        """A cell's payload of ``total`` bytes starting at ``at``, its overflow chain
        followed."""
        u = self.usable
        most = u - 35 if not index else (u - 12) * 64 // 255 - 23
        if total <= most:
            local = total
        else:
            least = (u - 12) * 32 // 255 - 23
            local = least + (total - least) % (u - 4)
            if local > most:
                local = least
        out = bytearray(page[at:at + local])
        if len(out) < local:
            raise Broken("a cell runs off its page")
        if local == total:
            return bytes(out)
        following = int.from_bytes(page[at + local:at + local + 4], "big")
        seen: set[int] = set()
        while len(out) < total:
            if following in seen or following == 0:
                raise Broken("an overflow chain breaks off")
            seen.add(following)
            self.chain.append(following)
            chunk = self.page(following)
            following = int.from_bytes(chunk[:4], "big")
            out += chunk[4:u][:total - len(out)]
        return bytes(out)

    def cells(self, number: int) -> Iterator[tuple[int | None, list[Any]]]:
        """(rowid or None, values) of each cell of a leaf page or an index's interior page
        (``chain``: its overflow pages); a cell that does not decode is passed over."""
        page = self.page(number)
        head = 100 if number == 1 else 0
        kind = page[head]
        if kind not in (_TABLE_LEAF, _INDEX_LEAF, _INDEX_INTERIOR):
            return
        count = int.from_bytes(page[head + 3:head + 5], "big")
        index = kind != _TABLE_LEAF
        # an index's interior cells hold whole keys too (a WITHOUT ROWID table's rows)
        cells = head + (12 if kind == _INDEX_INTERIOR else 8)
        for n in range(min(count, (self.usable - cells) // 2)):
            pointer = int.from_bytes(page[cells + 2 * n:cells + 2 + 2 * n], "big")
            if not cells <= pointer < self.usable:
                continue
            self.chain = []
            try:
                total, at = _varint(page, pointer + (4 if kind == _INDEX_INTERIOR else 0))
                rowid = None
                if not index:
                    rowid, at = _varint(page, at)
                if total > len(self.data):
                    continue
                yield rowid, _record(self.payload(page, at, total, index))
            except (Broken, UnicodeDecodeError, struct.error):
                continue


def _free_pages(file: _File, header: bytes) -> set[int]:
    """The pages of the free list (trunks and leaves), from a sound header."""
    free: set[int] = set()
    trunk = int.from_bytes(header[32:36], "big")
    while trunk and trunk not in free and len(free) < file.count:
        free.add(trunk)
        try:
            page = file.page(trunk)
        except Broken:
            break
        leaves = int.from_bytes(page[4:8], "big")
        for n in range(min(leaves, file.usable // 4 - 2)):
            free.add(int.from_bytes(page[8 + 4 * n:12 + 4 * n], "big"))
        trunk = int.from_bytes(page[:4], "big")
    return free


def _geometry(data: bytes) -> tuple[int, int, bytes | None]:
    """(page size, reserved bytes, the header when it is sound)."""
    header = data[:100]
    if header.startswith(_MAGIC) and len(header) == 100:
        size = int.from_bytes(header[16:18], "big")
        size = 65536 if size == 1 else size
        if size >= 512 and size & (size - 1) == 0:
            return size, header[20], header
    counts = {size: sum(_btree_page(data, n * size, size) for n in range(1, len(data) // size))
              for size in (512, 1024, 2048, 4096, 8192, 16384, 32768, 65536)}
    most = max(counts.values())
    if most == 0:
        return 4096, 0, None  # SQLite's default
    # a smaller size finds the same pages (and little else): the largest that finds them
    return max(size for size, n in counts.items() if n >= 0.9 * most), 0, None


def _btree_page(data: bytes, at: int, size: int) -> bool:
    """Whether ``size`` bytes at ``at`` look like the start of a b-tree page."""
    kind = data[at]
    if kind not in (0x02, 0x05, 0x0A, 0x0D):
        return False
    cells = int.from_bytes(data[at + 3:at + 5], "big")
    start = int.from_bytes(data[at + 5:at + 7], "big") or 65536
    head = 8 if kind in (0x0A, 0x0D) else 12
    return data[at + 7] <= 60 and head + 2 * cells <= start <= size


def scan(path: Path) -> Salvage:
    """Every row of ours that the pages of ``path`` hold."""
    data = path.read_bytes()
    size, reserved, header = _geometry(data)
    file = _File(data, size, reserved)
    free = _free_pages(file, header) if header is not None else set()
    found = Salvage(page_size=size)
    for number in range(1, file.count + 1):
        if number in free:
            continue
        for rowid, values in file.cells(number):
            game_id = _take(found, rowid, values)
            if game_id is not None:
                for page in (number, *file.chain):
                    found.pages.setdefault(page, set()).add(game_id)
    return found


def _take(found: Salvage, rowid: int | None, values: list[Any]) -> int | None:
    """Keep a row that has the shape of one of ours; the game id it belongs to."""
    if rowid is None:  # an index cell: the events table (WITHOUT ROWID)
        if len(values) == 5 and isinstance(values[0], int) and isinstance(values[1], int) \
                and values[2] in KINDS and isinstance(values[3], str) and values[4] in (0, 1):
            found.events.setdefault(values[0], {}).setdefault(
                values[1], (values[2], values[3], values[4]))
            return values[0]
        return None
    if len(values) == 2 and values[0] is None and isinstance(values[1], str) \
            and values[1].startswith("{"):
        found.gadget.setdefault(rowid, values[1])
        return None  # the seats are not the game: losing them costs no game
    if 8 <= len(values) <= len(_GAMES_COLUMNS) and values[0] is None and \
            isinstance(values[1], str) and isinstance(values[2], str) and \
            isinstance(values[3], int) and isinstance(values[4], str) and \
            isinstance(values[5], str):
        try:
            setup = json.loads(values[2])
        except ValueError:
            return None
        if not isinstance(setup, dict):
            return None
        row: dict[str, Any] = dict(zip(_GAMES_COLUMNS, values, strict=False))
        row["id"], row["head"], row["touched"] = rowid, row.get("head") or 0, \
            row.get("touched") or 0
        found.games.setdefault(rowid, row)
        return rowid
    return None
