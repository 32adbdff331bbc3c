"""The simulator's card reader: a tapped card is a written NTAG215 held on the emulated PN532,
read by nfcpy through NfcTags, then lifted off; without nfcpy the Tap goes straight into the
inbox and the log says so once."""

import asyncio
import sys
import time

import pytest

from overseer.app.sim import SimTags  # noqa: E402
from overseer.devices.nfc import NfcTags  # noqa: E402
from overseer.devices.pn532_emulator import Ntag215  # noqa: E402
from overseer.devices.tags import CardRef, TagError  # noqa: E402
from overseer.ports.events import Input, ReaderNotice, Tap  # noqa: E402
from overseer.ports.inbox import Inbox  # noqa: E402
from overseer.sim import reader as sim_reader  # noqa: E402
from overseer.sim.app import Simulator  # noqa: E402
from overseer.sim.cards import Card, catalogue  # noqa: E402
from overseer.sim.reader import EmulatedReader, card_reader, uid_of  # noqa: E402
from overseer.sim.running import Running  # noqa: E402
from overseer.sim.widgets import StepLog  # noqa: E402
from tests.sim.test_app import Table, new_game  # noqa: E402

ORC = CardRef("catacombs", "monster", "orc")
ROOM = CardRef("catacombs", "room", "bholoth-cemetery")
BAD = Card("catacombs", "monster", "Bad!", "Bad card")
READ_IN = 10.0  # seconds a tap may take on a loaded machine
IN_PICO_CS = 0x42  # the PN532's InCommunicateThru: how nfcpy reads a Type 2 tag's pages


def taken(inbox: Inbox) -> Input:
    item = inbox.get(READ_IN)
    assert item is not None, "the reader put nothing"
    return item


def started(repeat_window: float):
    """An emulated reader, started on a new inbox; closed after the test."""
    reader = EmulatedReader(repeat_window=repeat_window)
    inbox = Inbox()
    reader.start(inbox)
    yield reader, inbox
    reader.close()


@pytest.fixture
def reading():
    yield from started(1.0)


def test_a_tap_is_a_written_sticker_read_by_nfcpy_then_lifted(reading):
    reader, inbox = reading
    assert isinstance(reader.port, NfcTags) and reader.port.port == reader.emulator.path
    reader.tap("catacombs", "monster", "orc")
    assert taken(inbox) == Tap("catacombs", "monster", "orc")
    sticker = reader.stickers[ORC]
    assert isinstance(sticker, Ntag215) and sticker.uid == uid_of(ORC)
    assert sticker.reads > 0  # nfcpy read its pages off the emulated reader
    assert IN_PICO_CS in reader.emulator.chip.commands
    deadline = time.monotonic() + READ_IN
    while reader.emulator.chip.tag is not None:  # lifted off after the hold
        assert time.monotonic() < deadline, "the sticker was never lifted"
        time.sleep(0.02)


@pytest.fixture
def slow_window():
    """A reader whose window for the same card outlasts a loaded machine's second tap."""
    yield from started(60.0)


def test_the_same_card_again_within_the_window_is_ignored_and_said(slow_window):
    reader, inbox = slow_window
    reader.tap("catacombs", "monster", "orc")
    reader.tap("catacombs", "monster", "orc")  # one hand: after the first is lifted
    assert taken(inbox) == Tap("catacombs", "monster", "orc")
    notice = taken(inbox)
    assert isinstance(notice, ReaderNotice) and notice.key == "Ignored"
    assert "orc again within 60 s" in notice.text
    reader.tap("catacombs", "room", "bholoth-cemetery")  # another card: counted at once
    assert taken(inbox) == Tap("catacombs", "room", "bholoth-cemetery")


def test_the_same_card_after_the_window_counts_again(reading):
    reader, inbox = reading
    reader.tap("catacombs", "monster", "orc")
    assert taken(inbox) == Tap("catacombs", "monster", "orc")
    time.sleep(1.5)  # the window (1 s) from when it was last seen on the reader
    reader.tap("catacombs", "monster", "orc")
    assert taken(inbox) == Tap("catacombs", "monster", "orc")
    assert len(reader.stickers) == 1  # the same sticker, written once


def test_any_card_of_the_picker_is_written_and_read_and_a_bad_id_refused(reading):
    reader, inbox = reading
    reader.tap("catacombs", "hero", "elf")
    assert taken(inbox) == Tap("catacombs", "hero", "elf")
    with pytest.raises(TagError, match="card is lower-case letters"):
        reader.tap("catacombs", "monster", "Orc!")
    with pytest.raises(TagError, match="kind is lower-case letters"):
        reader.tap("catacombs", "", "orc")


def test_without_nfcpy_the_reader_is_simulated_and_says_why(monkeypatch):
    monkeypatch.setitem(sys.modules, "nfc", None)  # as on a laptop without the library
    tags, note = card_reader()
    assert isinstance(tags, SimTags)
    assert note is not None and note.startswith("The card reader is simulated without the "
                                                "driver: the NFC library nfcpy")
    monkeypatch.undo()
    assert sim_reader.driver_missing() is None


# --------------------------------------------------------------------------- in the simulator


async def tap_in_the_simulator(path, game_id, check) -> None:
    running = Running(path, game_id)
    app = Simulator(running, [*catalogue(), BAD])
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            table = Table(pilot, running)
            await table.until(lambda g: g.screen is not None, what="the first screen")
            await table.menu("room")  # the room set-up asks for the Room card
            await table.until(lambda g: g.app.view.question is not None, what="the form")
            asked = table.gadget.screen
            await pilot.press("t", *"bholoth cemetery", "enter")
            await table.until(lambda g: g.session.events, READ_IN, "the room's set-up")
            assert table.gadget.screen != asked  # the glass moved on
            await check(table, app, running)
            await pilot.press("q")
        assert app.return_value == 0 and app.failure is None
    finally:
        running.close()


def log_text(app) -> str:
    """The log as one text (its lines are wrapped to the terminal's width)."""
    return " ".join(" ".join(str(line.text) for line in app.query_one(StepLog).lines).split())


def test_a_card_tapped_in_the_simulator_goes_through_the_emulated_reader(tmp_path, monkeypatch):
    # the picker takes seconds to type in on a loaded machine: a window that outlasts it
    monkeypatch.setattr(sim_reader, "REPEAT_WINDOW", 60.0)

    async def check(table, app, running):
        reader = running.box.tags
        assert isinstance(reader, EmulatedReader) and running.box.reader_note is None
        assert reader.said >= 1 and reader.stickers[ROOM].reads > 0  # via NfcTags and nfcpy
        assert "simulated without the driver" not in log_text(app)
        await table.pilot.press("t", *"bholoth cemetery", "enter")  # again, at once
        await table.until(lambda g: g.screen.key == "Ignored", READ_IN, "the notice")
        assert "again within 60 s" in " ".join(table.gadget.screen.lines)
        said = reader.said
        await table.pilot.press("t", *"bad card", "enter")  # no record can hold its id
        await table.pilot.pause(0.5)
        assert "Not tapped: monster: Bad card (catacombs Bad!): a card's card is lower-case " \
            "letters" in log_text(app)
        assert reader.said == said and not app.failure

    path = tmp_path / "games.sqlite3"
    asyncio.run(tap_in_the_simulator(path, new_game(path), check))


def test_without_nfcpy_the_simulator_puts_the_tap_in_the_inbox_and_says_so_once(
        tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "nfc", None)

    async def check(table, app, running):
        assert isinstance(running.box.tags, SimTags)
        said = log_text(app)
        assert said.count("The card reader is simulated without the driver: the NFC library "
                          "nfcpy is not installed") == 1
        assert "Tapped room: Bholoth Cemetery" in said

    path = tmp_path / "games.sqlite3"
    asyncio.run(tap_in_the_simulator(path, new_game(path), check))
