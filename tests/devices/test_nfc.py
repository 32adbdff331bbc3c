"""The NFC reader adapter under the real nfcpy, talking to the byte-level PN532 emulator
(overseer.devices.pn532_emulator), in-process and behind a pty."""

from __future__ import annotations

import pytest

from overseer.devices.nfc import NfcTags, Reader, ReaderLost, TagWatcher
from overseer.devices.pn532_emulator import LoopTTY, Ntag215, Pn532, PtyPn532, frame_of
from overseer.devices.tags import CardRef, TagMap
from overseer.ports.events import ReaderNotice, Tap, UnknownTap
from overseer.ports.inbox import Inbox

ROOM = CardRef("catacombs", "room", "zothas-gatehouse")
LORD = CardRef("catacombs", "lord", "phoshar-the-dragon")
UID = bytes.fromhex("04a1b2c3d4e5f6")
OTHER_UID = bytes.fromhex("04112233445566")


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Table:
    """A watcher on an in-process emulated reader, with what it put and said."""

    def __init__(self, tmp_path, **options) -> None:
        options.setdefault("patience", 0)  # a failure is said at once unless a test says
        self.chip = Pn532()
        self.clock = Clock()
        self.inputs: list[Tap | UnknownTap] = []
        self.notices: list[str] = []
        self.tag_map = TagMap(tmp_path / "tags.toml")
        self.opened = 0
        self.watcher = TagWatcher(self._open, self.inputs.append, tag_map=self.tag_map,
                                  notify=self.notices.append, clock=self.clock, **options)

    def _open(self) -> Reader:
        self.opened += 1
        return Reader.on(LoopTTY(self.chip))

    def poll(self, times: int = 1) -> None:
        for _ in range(times):
            self.watcher.poll()
            self.clock.now += 0.1


def written_tag(ref: CardRef | None, uid: bytes = UID) -> Ntag215:
    """A sticker with ``ref`` written on it by the real writer (None: a blank sticker)."""
    tag = Ntag215(uid)
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


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path)
    yield t
    t.watcher.close()


# --------------------------------------------------------------------------- the chip


def test_the_library_opens_the_emulated_pn532_with_extended_frames():
    chip = Pn532()
    reader = Reader.on(LoopTTY(chip))
    try:
        assert reader.name.startswith("PN532v1.6")
        assert chip.extended >= 1  # nfcpy's line test sends a 263-byte Diagnose
        assert {0x00, 0x02, 0x12, 0x32} <= set(chip.commands)
        assert reader.probe()
    finally:
        reader.close()
    assert chip.commands[-1] == 0x16  # closing powers the chip down


def test_extended_and_normal_frames_are_built_as_the_manual_says():
    assert frame_of(b"\xd5\x03") == bytes.fromhex("0000ff02fed50328 00".replace(" ", ""))
    long = frame_of(bytes([0xD5]) + bytes(299))
    assert long[:8] == bytes.fromhex("0000ffffff012cd3")
    assert (sum(long[8:-2]) + long[-2]) & 0xFF == 0


def test_an_error_frame_answers_a_frame_with_a_bad_checksum():
    chip = Pn532()
    assert chip.feed(bytes.fromhex("0000ff02fed4022b00")) == bytes.fromhex("0000ff01ff7f8100")


def test_the_ntag215_answers_get_version_read_and_write():
    chip = Pn532()
    reader = Reader.on(LoopTTY(chip))
    tag = Ntag215(UID)
    chip.place(tag)
    try:
        found = reader.read(reader.sense())
        assert found.uid == "04A1B2C3D4E5F6" and found.card is None
        assert 0x42 in chip.commands and tag.reads >= 1  # InCommunicateThru, CRC off
        reader.write(reader.sense(), ROOM)
        assert tag.writes >= 2
        assert b"1 catacombs room zothas-gatehouse" in bytes(tag.memory)
    finally:
        reader.close()


def test_no_pn532_on_the_line_is_a_plain_message():
    chip = Pn532()
    chip.silent = True
    with pytest.raises(ReaderLost, match="pn532-emulator"):
        Reader.on(LoopTTY(chip))


def test_a_missing_port_is_a_plain_message(tmp_path):
    with pytest.raises(ReaderLost, match="cannot open the NFC reader's port .*no-such-tty"):
        Reader.open(str(tmp_path / "no-such-tty"))


# --------------------------------------------------------------------------- at the table


def test_a_written_tag_reads_back_as_its_card(table):
    table.chip.place(written_tag(ROOM))
    table.poll()
    assert table.inputs == [Tap("catacombs", "room", "zothas-gatehouse")]
    assert table.notices == []


def test_an_unknown_tag_gives_its_uid(table):
    table.chip.place(written_tag(None))
    table.poll()
    assert table.inputs == [UnknownTap("04A1B2C3D4E5F6")]


def test_a_registered_uid_names_its_card(table):
    table.tag_map.assign("04A1B2C3D4E5F6", LORD)
    table.chip.place(written_tag(None))
    table.poll()
    assert table.inputs == [Tap("catacombs", "lord", "phoshar-the-dragon")]


def test_the_record_wins_over_the_tag_map(table):
    table.tag_map.assign("04A1B2C3D4E5F6", LORD)
    table.chip.place(written_tag(ROOM))
    table.poll()
    assert table.inputs == [Tap(*vars_of(ROOM))]


def test_a_tag_map_changed_by_another_process_is_read_again(table, tmp_path):
    table.chip.place(written_tag(None))
    table.poll()
    TagMap(tmp_path / "tags.toml").assign("04A1B2C3D4E5F6", LORD)  # `overseer tags register`
    table.chip.remove()
    table.poll()
    table.clock.now += 5
    table.chip.place(written_tag(None))
    table.poll()
    assert table.inputs == [UnknownTap("04A1B2C3D4E5F6"), Tap(*vars_of(LORD))]


def test_a_record_of_a_newer_format_is_an_unknown_tag_and_said_so(table):
    tag = written_tag(ROOM)
    at = bytes(tag.memory).index(b"1 catacombs")
    tag.memory[at] = ord("7")
    table.chip.place(tag)
    table.poll()
    assert table.inputs == [UnknownTap("04A1B2C3D4E5F6")]
    assert table.notices == ["the tag 04A1B2C3D4E5F6: the tag's card record is format 7; this "
                             "Overseer reads format 1 (a newer Overseer wrote it?)"]


def test_a_tag_held_on_the_reader_counts_once(table):
    table.chip.place(written_tag(ROOM))
    table.poll(times=20)
    assert table.inputs == [Tap(*vars_of(ROOM))]
    assert table.notices == []


def test_the_same_card_again_soon_is_ignored_and_said_so(table):
    table.chip.place(written_tag(ROOM))
    table.poll(times=3)
    table.chip.remove()
    table.poll()
    table.chip.place(written_tag(ROOM, OTHER_UID))  # a second copy of the card, at once
    table.poll()
    assert table.inputs == [Tap(*vars_of(ROOM))]
    assert table.notices == ["the card catacombs room zothas-gatehouse again within 2 s: ignored"]
    table.chip.remove()
    table.poll()
    table.clock.now += 2.5
    table.chip.place(written_tag(ROOM))
    table.poll()
    assert table.inputs == [Tap(*vars_of(ROOM))] * 2


def test_another_card_right_after_counts(table):
    table.chip.place(written_tag(ROOM))
    table.poll()
    table.chip.place(written_tag(LORD, OTHER_UID))
    table.poll()
    assert table.inputs == [Tap(*vars_of(ROOM)), Tap(*vars_of(LORD))]


def test_a_failing_read_is_tried_again(table):
    table.chip.place(written_tag(ROOM))
    table.chip.fail_reads = 3  # nfcpy's own three tries of one READ all go unanswered
    table.poll()
    assert table.inputs == [Tap(*vars_of(ROOM))]
    assert table.notices == []
    assert table.chip.fail_reads == 0


def test_a_read_that_keeps_failing_is_reported_once(table):
    table.chip.place(written_tag(ROOM))
    table.chip.fail_reads = 10_000
    table.poll(times=5)
    assert table.inputs == []
    assert len(table.notices) == 1
    assert table.notices[0].startswith("the tag 04A1B2C3D4E5F6 could not be read (3 tries: ")
    assert table.notices[0].endswith("lift it and hold it on the reader again")
    table.chip.remove()
    table.poll()
    table.chip.fail_reads = 0
    table.chip.place(written_tag(ROOM))
    table.poll()
    assert table.inputs == [Tap(*vars_of(ROOM))]


def test_a_tag_pulled_away_mid_read_is_reported(table):
    table.chip.place(written_tag(ROOM))
    table.chip.remove_after_reads = 1
    table.poll()
    assert table.inputs == []
    assert table.notices == ["the tag 04A1B2C3D4E5F6 was taken away before it could be read: "
                             "hold it still on the reader"]
    table.chip.place(written_tag(ROOM))
    table.poll()
    assert table.inputs == [Tap(*vars_of(ROOM))]


def test_a_garbled_frame_mid_read_is_tried_again(table):
    table.chip.place(written_tag(ROOM))
    table.chip.garble_code = 0x42  # the tag's first answer comes back with a bad checksum
    table.poll()
    assert table.chip.garble_code is None
    assert table.inputs == [Tap(*vars_of(ROOM))]
    assert table.notices == []
    assert table.opened == 1


def test_a_garbled_frame_while_sensing_does_not_lose_the_reader(table):
    table.poll()
    table.chip.place(written_tag(ROOM))
    table.chip.garble = 1
    table.poll(times=2)
    assert table.inputs == [Tap(*vars_of(ROOM))]
    assert table.notices == [] and table.opened == 1


def test_a_reader_that_stops_answering_is_reopened(table):
    table.poll()
    table.chip.silent = True
    table.poll()  # the sense fails, the probe too, and opening it again at once
    assert table.opened == 2
    assert table.notices == ["the NFC reader stopped answering (Input/output error); "
                             "reopening it"]
    table.clock.now += 1
    table.poll()  # still silent: opening fails, quietly this time
    assert table.opened == 3 and len(table.notices) == 1
    table.chip.silent = False
    table.clock.now += 1
    table.chip.place(written_tag(ROOM))
    table.poll()
    assert table.opened == 4
    assert table.notices[1:] == ["the NFC reader answers again"]
    table.poll()
    assert table.inputs == [Tap(*vars_of(ROOM))]


def test_a_reader_that_misses_a_beat_is_opened_again_without_a_word(table):
    table.poll()
    table.chip.drop = 2  # the sense and the probe go unanswered; the reopening is answered
    table.poll()
    assert table.opened == 2 and table.notices == [] and table.chip.drop == 0
    table.chip.place(written_tag(ROOM))
    table.poll()
    assert table.inputs == [Tap(*vars_of(ROOM))] and table.notices == []


def test_a_reader_slow_to_start_is_not_said_when_it_answers_within_its_patience(tmp_path):
    table = Table(tmp_path, patience=3)
    table.chip.silent = True
    for _ in range(3):  # failing at 0, 1.1 and 2.2 s
        table.poll()
        table.clock.now += 1
    assert table.opened == 3 and table.notices == []
    table.chip.silent = False
    table.chip.place(written_tag(ROOM))
    table.poll()
    assert table.opened == 4 and table.notices == []  # nothing was said, so no "back" either
    assert table.inputs == [Tap(*vars_of(ROOM))]


def test_a_reader_that_stays_silent_past_its_patience_is_said_once_by_its_first_failure(
        tmp_path):
    table = Table(tmp_path, patience=3)
    table.poll()
    table.chip.silent = True
    table.poll()  # it stops answering at 0.1 s; opening it again at once fails too
    for _ in range(3):
        table.clock.now += 1
        table.poll()
    assert table.notices == ["the NFC reader stopped answering (Input/output error); "
                             "reopening it"]  # at 3.4 s, the first failure said
    table.chip.silent = False
    table.clock.now += 1
    table.poll()
    assert table.notices[1:] == ["the NFC reader answers again"]


def test_a_reader_missing_at_start_is_said_once_and_tried_again(table):
    table.chip.silent = True
    table.poll()
    table.clock.now += 1
    table.poll()
    assert table.opened == 2
    assert table.notices == ["the NFC reader on pn532-emulator failed to start: Connection "
                             "timed out; trying again every 1 s"]
    table.chip.silent = False
    table.clock.now += 1
    table.poll()
    assert table.notices[1:] == ["the NFC reader answers again"]


# --------------------------------------------------------------------------- the port, on a pty


def next_input(inbox: Inbox, said: list[ReaderNotice] | None = None):
    """The next card input; the reader's notices before it go to ``said`` (on a loaded
    machine a pty reader may miss its first start: that is a notice too)."""
    while True:
        item = inbox.get(timeout=10)
        if not isinstance(item, ReaderNotice):
            return item
        if said is not None:
            said.append(item)


def test_the_tags_port_puts_taps_into_the_inbox_over_a_pty():
    inbox = Inbox()
    with PtyPn532() as emulator:
        tags = NfcTags(emulator.path, interval=0.01)
        tags.start(inbox)
        try:
            with emulator.lock:
                emulator.chip.place(written_tag(ROOM))
            assert next_input(inbox) == Tap(*vars_of(ROOM))
            with emulator.lock:
                emulator.chip.place(written_tag(None, OTHER_UID))
            assert next_input(inbox) == UnknownTap("04112233445566")
            assert inbox.get(timeout=0.3) is None  # held: counted once
        finally:
            tags.close()


def test_the_pty_reader_is_reopened_after_it_went_silent():
    inbox = Inbox()
    notices: list[str] = []
    said: list[ReaderNotice] = []
    with PtyPn532() as emulator:
        tags = NfcTags(emulator.path, interval=0.01, notify=notices.append, reopen_after=0.05,
                       patience=0.2)
        tags.start(inbox)
        try:
            with emulator.lock:
                emulator.chip.place(written_tag(ROOM))
            assert next_input(inbox) == Tap(*vars_of(ROOM))
            with emulator.lock:
                emulator.chip.silent = True
                emulator.chip.remove()
            assert wait_for(lambda: any("stopped answering" in n for n in notices))
            with emulator.lock:
                emulator.chip.silent = False
                emulator.chip.place(written_tag(LORD, OTHER_UID))
            assert next_input(inbox, said) == Tap(*vars_of(LORD))
            assert any(n.endswith("answers again") for n in notices)
        finally:
            tags.close()
    where = f"The NFC reader on {emulator.path}"
    assert ReaderNotice("Reader lost", f"{where} stopped answering (Input/output error); "
                        "reopening it.") in said
    assert said[-1] == ReaderNotice("Reader back", f"{where} answers again.")


def wait_for(condition, timeout: float = 10) -> bool:
    import time

    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.01)
    return False


def vars_of(ref: CardRef) -> tuple[str, str, str]:
    return ref.game, ref.kind, ref.card


def test_a_tag_that_failed_to_read_does_not_hold_back_the_card_before_it(table):
    table.chip.place(written_tag(ROOM))
    table.poll()
    table.chip.place(written_tag(LORD, OTHER_UID))
    table.chip.fail_reads = 10_000
    table.poll(times=30)  # 3 s with an unreadable tag on the reader
    table.chip.fail_reads = 0
    table.chip.place(written_tag(ROOM))
    table.poll()
    assert table.inputs == [Tap(*vars_of(ROOM))] * 2


def test_a_malformed_ndef_record_is_a_notice_and_the_reader_stays_open(table):
    """TNF 4 (external) with a type length of 0: ndef's decoder raises; the table hears "card
    not readable", the reader is the same, and the next card reads."""
    bad = Ntag215(UID)
    bad.memory[16:24] = bytes([0x03, 0x04, 0xD4, 0x00, 0x01, 0x41, 0xFE, 0x00])
    table.chip.place(bad)
    table.poll()
    reader = table.watcher.reader
    assert table.inputs == [] and len(table.notices) == 1
    assert "card not readable: its data does not decode (DecodeError" in table.notices[0]
    assert reader is not None and table.opened == 1 and table.watcher.faults == 0
    table.chip.remove()
    table.poll()
    table.chip.place(written_tag(ROOM, bytes.fromhex("04a1b2c3d4e5f7")))
    table.poll()
    assert table.inputs == [Tap(*vars_of(ROOM))] and table.watcher.reader is reader
