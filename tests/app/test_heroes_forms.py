"""The heroes' side on the buttons (issue 26): each form of "Hero changed" the table fills in on
the Gadget sends the action the rules then apply: back from teleport, off the mount, onto a
wild wyvern, a death entered (its Mount leaves with the rider) and the Mount's return."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from overseer.ports.events import Button
from overseer.session.session import Session
from overseer.session.store import Store
from tools.table import Table

OK = Button.OK
HEROES = [{"id": "elf", "name": "Elf", "kind": "hero", "health": 8},
          {"id": "knight", "name": "Knight", "kind": "hero", "health": 10, "riding": "horse"},
          {"id": "horse", "name": "Warhorse", "kind": "mount", "health": 3, "owner": "knight"}]


def table_at(tmp_path: Path, **setup: Any) -> Table:
    """A stored game in a battle (an Orc on the playmat), at the Gadget's idle screen."""
    path = tmp_path / "games.db"
    store = Store(path)
    try:
        Session.new(store, "catacombs", {"format": 2, "game": "catacombs", "setup": {
            "heroes": HEROES, "pieces": [{"id": "orc-1", "card": "Orc"}], **setup}},
            seed=11, dice="seeded")
    finally:
        store.close()
    table = Table(path)
    table.read()
    return table


def last_action(table: Table) -> dict[str, Any]:
    """The action the form sent, as the session's log keeps it."""
    return next(e.data for e in reversed(table.session.events) if e.kind == "action")


def hero_changed(table: Table, hero: str, what: str) -> None:
    """The menu's "Hero changed", the hero, what changed."""
    table.press(OK)
    table.pick("Hero changed")
    table.pick(hero)
    table.pick(what)


@pytest.fixture
def close():
    tables: list[Table] = []
    yield tables.append
    for table in tables:
        table.close()


def test_back_from_teleport(tmp_path, close):
    table = table_at(tmp_path, heroes=[{**HEROES[0], "away": "teleported"}, *HEROES[1:]])
    close(table)
    hero_changed(table, "Elf", "Back from teleport")
    table.read()
    assert table.session.state.heroes["elf"].away is None
    assert last_action(table) == {"do": "update_hero", "hero": "elf", "away": None}


def test_dismount(tmp_path, close):
    table = table_at(tmp_path)
    close(table)
    hero_changed(table, "Knight", "Rides: Warhorse")
    table.pick("Nothing (off)")
    table.read()
    assert table.session.state.heroes["knight"].riding is None
    assert last_action(table) == {"do": "update_hero", "hero": "knight",
                                               "riding": None}


def test_ride_a_wyvern(tmp_path, close):
    table = table_at(tmp_path, wyverns=["wyvern-1"])
    close(table)
    hero_changed(table, "Elf", "Rides: no")
    table.pick("wyvern-1")
    table.read()
    state = table.session.state
    assert state.heroes["elf"].riding == "wyvern-1" and state.wyverns == []


def test_a_death_entered_takes_the_mount_out_and_a_return_brings_it_back(tmp_path, close):
    table = table_at(tmp_path)
    close(table)
    hero_changed(table, "Knight", "Health 10")
    table.number(0)
    steps = table.read()
    state = table.session.state
    assert state.heroes["knight"].health == 0 and state.heroes["horse"].away == "with_rider"
    assert any("Warhorse" in " ".join(s.lines) for s in steps)
    hero_changed(table, "Knight", "Health 0")  # brought back (Althea the Healer, say)
    table.number(2)
    table.read()
    state = table.session.state
    assert state.heroes["horse"].away is None and state.heroes["knight"].riding is None
