"""Cards tapped on the NFC reader at a gadget playing Catacombs: the real nfcpy over the PN532
emulator, the tag watcher putting into the Gadget's inbox. Every bad tap is a message on the
glass and leaves the session as it was."""

from __future__ import annotations

import json

import pytest

from overseer import games
from overseer.devices.nfc import Reader, TagWatcher
from overseer.devices.pn532_emulator import LoopTTY, Ntag215, Pn532
from overseer.devices.tags import CardRef, TagMap
from overseer.ports.events import Button
from tools.table import Table as Driver

ROOM = CardRef("catacombs", "room", "bholoth-cemetery")
ORC = CardRef("catacombs", "monster", "orc")
CONQUEST = CardRef("conquest", "card", "salavi")
UIDS = [bytes([4, 0x10, 0x20, 0x30, 0x40, 0x50, n]) for n in range(4)]
OK, NEXT = Button.OK, Button.NEXT


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Reading:
    """A table at a Gadget (tools/table.py's driver) with an emulated reader beside it: the
    watcher puts its inputs and its notices into the Gadget's inbox."""

    def __init__(self, tmp_path) -> None:
        self.chip = Pn532()
        self.clock = Clock()
        self.table = Driver(tmp_path / "games.db")
        self.opened = 0
        inbox = self.table.gadget.inbox
        self.watcher = TagWatcher(self._open, inbox.put, say=inbox.put, clock=self.clock,
                                  tag_map=TagMap(tmp_path / "tags.toml"), patience=0)

    def _open(self) -> Reader:
        self.opened += 1
        return Reader.on(LoopTTY(self.chip))

    def poll(self, times: int = 1) -> None:
        """Poll the reader, and let the gadget take what came."""
        for _ in range(times):
            self.watcher.poll()
            self.clock.now += 0.1
            self.table._take()

    def hold(self, tag: Ntag215) -> None:
        """Put ``tag`` on the reader, then take it away (the reader sees both)."""
        self.chip.place(tag)
        self.poll()
        self.chip.remove()
        self.poll()

    def close(self) -> None:
        self.watcher.close()
        self.table.close()


def written(ref: CardRef | None, n: int = 0) -> Ntag215:
    """A sticker with ``ref`` written by the real writer (None: blank)."""
    tag = Ntag215(UIDS[n])
    if ref is not None:
        chip = Pn532()
        chip.place(tag)
        reader = Reader.on(LoopTTY(chip))
        try:
            reader.write(reader.sense(), ref)
        finally:
            reader.close()
        tag.active = False
    return tag


def snapshot(reading: Reading) -> tuple[int, int, str]:
    """What must not change: the session's head, its log and its state."""
    session = reading.table.session
    return (session.head, len(session.events),
            json.dumps(games.CATACOMBS.state_dict(session.state), sort_keys=True))


def single_room(t) -> None:
    """The party done: the default options, no expansion playmat, no Hidden Cave, a single
    room; its set-up's idle screen."""
    t.pick("Done")
    for _ in range(5):
        t.press(OK)
    t.press(NEXT)
    t.pick("Off")
    t.pick("A single room")
    t.read()
    assert t.screen.key == "Set up"


@pytest.fixture
def reading(tmp_path):
    """A single-room game with the Elf on seat 1, on the idle screen of its set-up."""
    r = Reading(tmp_path)
    t = r.table
    t.choose_game()
    t.tap("hero", "elf")
    t.pick("Seat 1")
    t.number(10)
    single_room(t)
    yield r
    r.close()


def text(reading: Reading) -> str:
    return " ".join(reading.table.screen.lines)


def test_a_room_card_tapped_sets_the_room_up(reading):
    before = snapshot(reading)
    reading.hold(written(ROOM))
    assert snapshot(reading) != before
    assert reading.table.gadget.app is not None and reading.table.gadget.app.reading


def test_the_same_card_again_within_the_window_is_ignored_and_said(reading):
    reading.hold(written(ROOM))
    reading.table.read()
    before = snapshot(reading)
    reading.hold(written(ROOM, 1))  # a second copy of the card, at once
    assert reading.table.screen.key == "Ignored"
    assert text(reading).startswith("The card catacombs room bholoth-cemetery again within")
    assert snapshot(reading) == before
    reading.table.press(OK)
    assert reading.table.screen.key != "Ignored"


def test_an_unknown_tag_is_said_and_changes_nothing(reading):
    before = snapshot(reading)
    reading.hold(written(None))
    assert reading.table.screen.key == "Unknown tag"
    assert "04102030405000" in text(reading)
    assert snapshot(reading) == before


def test_a_card_of_another_game_is_said_and_changes_nothing(reading):
    before = snapshot(reading)
    reading.hold(written(CONQUEST))
    assert reading.table.screen.key == "Wrong game"
    assert "conquest" in text(reading)
    assert snapshot(reading) == before


def test_a_card_that_makes_no_sense_now_is_said_and_changes_nothing(reading):
    before = snapshot(reading)
    reading.hold(written(ORC))  # no question waits, and a monster card begins nothing
    assert reading.table.screen.key == "No question"
    assert snapshot(reading) == before


def test_a_tag_of_a_newer_format_says_why_it_is_unknown(reading):
    tag = written(ROOM)
    at = bytes(tag.memory).index(b"1 catacombs")
    tag.memory[at] = ord("7")
    before = snapshot(reading)
    reading.hold(tag)
    assert reading.table.screen.key == "Tag problem"
    assert "format 7" in text(reading)
    assert snapshot(reading) == before


def test_a_read_that_keeps_failing_is_retried_then_said(reading):
    before = snapshot(reading)
    reading.chip.fail_reads = 10_000
    reading.hold(written(ROOM))
    assert reading.table.screen.key == "Tag not read"
    assert "could not be read (3 tries" in text(reading)
    assert snapshot(reading) == before
    reading.chip.fail_reads = 0
    reading.table.press(OK)
    reading.hold(written(ROOM))  # tapped again, it reads
    assert snapshot(reading) != before


def test_a_reader_that_stops_answering_is_said_and_reopened(reading):
    reading.poll()
    before = snapshot(reading)
    reading.chip.silent = True
    reading.poll()
    assert reading.table.screen.key == "Reader lost"
    assert "stopped answering" in text(reading) and "reopening" in text(reading)
    reading.chip.silent = False
    reading.clock.now += 1
    reading.poll()
    assert reading.table.screen.key == "Reader back"
    assert reading.opened == 3  # the first time, opened again at once (and failed)
    assert snapshot(reading) == before
    reading.table.press(OK)
    reading.hold(written(ROOM))
    assert snapshot(reading) != before


def test_a_hero_card_tapped_answers_who_joins_the_party(tmp_path):
    r = Reading(tmp_path)
    try:
        t = r.table
        assert t.choose_game().title == "Who joins the party?"
        r.hold(written(CardRef("catacombs", "hero", "ulom")))  # as `tags write` writes it
        assert t.screen.title == "Seat for Ulom?"
        t.pick("Seat 2")
        t.number(9)
        assert t.screen.title == "Who joins the party?" and "Ulom" not in t.screen.rows
        single_room(t)
        assert list(games.CATACOMBS.state_dict(t.session.state)["heroes"]) == ["ulom"]
        assert t.gadget.playing.seats == {"ulom": 2}
        assert t.session.state.heroes["ulom"].name == "Ulom the Merman"
    finally:
        r.close()


def test_a_hero_tag_named_by_the_tag_map_answers_too(tmp_path):
    r = Reading(tmp_path)
    try:
        TagMap(tmp_path / "tags.toml").assign(UIDS[2].hex(), CardRef("catacombs", "hero",
                                                                     "yilleph"))
        assert r.table.choose_game().title == "Who joins the party?"
        r.hold(written(None, 2))  # a blank sticker, known by its UID
        assert r.table.screen.title == "Seat for Yilleph?"
    finally:
        r.close()
