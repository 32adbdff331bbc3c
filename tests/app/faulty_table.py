"""A table at the gadget on a store whose disk is really full or really read-only: run by
tests/app/test_gadget_faults.py inside a mount namespace of its own (``unshare -m``), where the
store's folder is a small tmpfs filled to the last byte, or a read-only bind mount (as an SD
card is remounted after errors).

    python faulty_table.py STORE KIND HOW   # prints one JSON line: the screen, the store

``HOW`` is ``full`` (the disk is filled after the gadget opened, before the input) or
``read-only`` (the folder was remounted read-only before the gadget opened).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from overseer.app import registry, shell
from overseer.session.store import read_only
from tools.table import BACK, CHOICE, NEXT, OK, Table


def contents(path: Path) -> dict[str, Any]:
    """Every game and event the store file holds (read on a connection of its own)."""
    db = read_only(path)  # immutable when no -wal is beside it: a read-only disk reads too
    try:
        return {"games": db.execute("SELECT id, game, setup, seed, dice, finished, head"
                                    " FROM games ORDER BY id").fetchall(),
                "events": db.execute("SELECT * FROM events ORDER BY game_id, seq").fetchall()}
    finally:
        db.close()


def menu(table: Table, label: str) -> None:
    table.press(OK)
    table.pick(label)


def new_catacombs(table: Table) -> None:
    menu(table, "New game")
    table.choose_game()
    table.tap("hero", "elf")
    table.pick("Seat 1")
    table.number(10)
    table.pick("Done")
    for _ in range(5):
        table.press(OK)
    table.press(NEXT)
    table.pick("Off")
    table.pick("A single room")


INPUTS = {
    "next": lambda t: t.press(NEXT),
    "form": lambda t: (menu(t, "Hit an AI piece"), t.press(OK)),  # the one piece, by 1
    "dice": lambda t: (menu(t, "Dice"), t.press(CHOICE), t.press(OK)),
    "undo": lambda t: t.press(BACK, long=True),
    "tap": lambda t: t.tap("hero", "elf"),
    "new game": new_catacombs,
}


def fill(folder: Path) -> None:
    """Write a file into ``folder`` until its disk has no byte left."""
    with open(folder / "filler", "wb", buffering=0) as f:
        for size in (1 << 16, 1 << 12, 1 << 9, 1):
            try:
                while True:
                    f.write(b"\0" * size)
            except OSError:
                continue


def main(store: Path, kind: str, how: str) -> dict[str, Any]:
    table = Table(store)
    table.read()
    opened = table.screen
    if how == "full":
        fill(store.parent)
    before = contents(store)
    faults = len(shell.faults)
    INPUTS[kind](table)
    screen = table.screen
    table.press(OK)
    after_ok = table.screen
    table.close()
    return {"opened": [opened.key, " ".join(opened.lines)], "read_only": how,
            "key": screen.key, "text": " ".join(screen.lines), "faults": len(shell.faults) - faults,
            "next_key": after_ok.key, "same": contents(store) == before}


if __name__ == "__main__":
    registry.install()  # a script of its own: the games as the command line has them
    print(json.dumps(main(Path(sys.argv[1]), sys.argv[2], sys.argv[3])))
