"""``overseer tags write|register|read`` through the command line, the real nfcpy and the PN532
emulator behind a pty; a scripted hand puts tags on the reader when the command asks."""

from __future__ import annotations

import io
import json
import sys

import pytest

from overseer.cli import main
from overseer.devices.nfc import Reader
from overseer.devices.pn532_emulator import Ntag215, PtyPn532
from overseer.devices.tags import CardRef, TagMap, card_record


class Hand(io.StringIO):
    """stdout for the command: each prompt to hold a tag (and each refused tag) puts the next
    of ``tags`` on the reader."""

    def __init__(self, emulator: PtyPn532, tags: list[Ntag215]) -> None:
        super().__init__()
        self.emulator, self.tags, self.used = emulator, list(tags), []

    def write(self, text: str) -> int:
        prompt = text.endswith("on the reader") or (
            text.startswith("    tag") and not text.endswith("read back")
            and "garbled" not in text)
        if prompt and self.tags:
            with self.emulator.lock:
                self.emulator.chip.place(self.tags.pop(0))
                self.used.append(self.emulator.chip.tag)
        return super().write(text)


def blank(n: int) -> Ntag215:
    return Ntag215(bytes([0x04, 0x10, 0x20, 0x30, 0x40, 0x50, n]))


def names(tag: Ntag215) -> bytes:
    """The card payload written on ``tag`` (what follows the record type)."""
    memory = bytes(tag.memory)
    at = memory.find(b"overseer:card")
    return memory[at + 13:at + 13 + memory[at - 1]] if at > 0 else b""


@pytest.fixture
def emulator():
    with PtyPn532() as emu:
        yield emu


def run(monkeypatch, hand: Hand | None, *argv: str) -> int:
    if hand is not None:
        monkeypatch.setattr(sys, "stdout", hand)
    return main(list(argv))


def test_write_puts_every_card_of_a_kind_on_tags_one_after_another(monkeypatch, emulator):
    tags = [blank(n) for n in range(8)]
    hand = Hand(emulator, tags)
    assert run(monkeypatch, hand, "tags", "write", "catacombs", "--kind", "lord",
               "--port", emulator.path) == 0
    written = [names(tag) for tag in hand.used]
    assert written[0] == b"1 catacombs lord vasesak-the-sorcerer"
    assert len(set(written)) == 8 and all(w.startswith(b"1 catacombs lord ") for w in written)
    out = hand.getvalue().splitlines()
    assert out[0].startswith("writing 8 catacombs card tags with PN532v1.6")
    assert out[1] == ("[1/8] lord Vasesak The Sorcerer (vasesak-the-sorcerer): hold a tag on "
                      "the reader")
    assert out[2] == "    tag 04102030405000: written and read back"
    assert out[3].startswith("[2/8] lord Phoshar The Dragon (phoshar-the-dragon): take the last "
                             "tag away and hold the next on the reader")
    assert out[-1] == "all 8 tags written and checked"


def test_write_refuses_a_tag_of_another_card_and_asks_again(monkeypatch, emulator):
    taken = blank(9)
    chip_tag_with(taken, CardRef("catacombs", "room", "zothas-gatehouse"))
    hand = Hand(emulator, [taken, blank(1), blank(2)])
    assert run(monkeypatch, hand, "tags", "write", "catacombs", "--kind", "lord", "--start", "7",
               "--port", emulator.path) == 0
    out = hand.getvalue().splitlines()
    assert out[1].startswith("[7/8] lord ")
    assert out[2] == ("    tag 04102030405009: the tag already names catacombs room "
                      "zothas-gatehouse: use another tag, or --overwrite")
    assert names(taken) == b"1 catacombs room zothas-gatehouse"  # left alone
    assert [names(t) for t in hand.used[1:]] == [b"1 catacombs lord kaulaurn-the-hydra",
                                                 b"1 catacombs lord pholith-the-shapeshifter"]


def test_write_says_plainly_when_there_is_no_reader(capsys, tmp_path):
    assert main(["tags", "write", "conquest", "--port", str(tmp_path / "ttyX")]) == 2
    assert capsys.readouterr().err == (f"overseer tags write: cannot open the NFC reader's port "
                                       f"{tmp_path / 'ttyX'}: No such file or directory\n")


def test_write_puts_the_heroes_of_heroes_toml_on_tags(monkeypatch, emulator):
    hand = Hand(emulator, [blank(n) for n in range(3)])
    assert run(monkeypatch, hand, "tags", "write", "catacombs", "--kind", "hero",
               "--port", emulator.path) == 0
    assert [names(tag) for tag in hand.used] == [b"1 catacombs hero elf", b"1 catacombs hero ulom",
                                                 b"1 catacombs hero yilleph"]
    out = hand.getvalue().splitlines()
    assert out[1] == "[1/3] hero Elf (elf): hold a tag on the reader"
    assert out[3].startswith("[2/3] hero Ulom the Merman (ulom): take the last tag away")
    assert out[-1] == "all 3 tags written and checked"
    assert [read_back(tag) for tag in hand.used] == [CardRef("catacombs", "hero", card)
                                                     for card in ("elf", "ulom", "yilleph")]


def test_write_of_the_whole_game_ends_with_the_heroes(monkeypatch, emulator):
    hand = Hand(emulator, [blank(n) for n in range(3)])
    assert run(monkeypatch, hand, "tags", "write", "catacombs", "--start", "119",
               "--port", emulator.path) == 0
    out = hand.getvalue().splitlines()
    assert out[0].startswith("writing 3 catacombs card tags")
    assert out[1] == "[119/121] hero Elf (elf): hold a tag on the reader"
    assert [names(tag) for tag in hand.used] == [b"1 catacombs hero elf", b"1 catacombs hero ulom",
                                                 b"1 catacombs hero yilleph"]


def test_write_refuses_an_unknown_kind(capsys, tmp_path):
    assert main(["tags", "write", "catacombs", "--kind", "heroes", "--port", "x"]) == 2
    assert capsys.readouterr().err == ("overseer tags write: catacombs has no 'heroes' cards: the "
                                       "kinds are hero, lord, monster, room\n")


def test_register_by_uid_needs_no_reader(capsys, tmp_path):
    db = tmp_path / "games.sqlite3"
    assert main(["tags", "register", "conquest", "card", "salavi", "--uid", "04:11:22:33:44:55:66",
                 "--db", str(db)]) == 0
    assert capsys.readouterr().out == (f"tag 04112233445566 names conquest card salavi: "
                                       f"{tmp_path / 'tags.toml'}\n")
    assert TagMap(tmp_path / "tags.toml").get("04112233445566") == CardRef("conquest", "card",
                                                                          "salavi")


def test_register_refuses_a_card_the_game_has_not(capsys, tmp_path):
    assert main(["tags", "register", "catacombs", "room", "zotha", "--uid", "04112233445566",
                 "--db", str(tmp_path / "g.sqlite3")]) == 2
    assert "catacombs has no room 'zotha'" in capsys.readouterr().err
    assert not (tmp_path / "tags.toml").exists()


def test_register_a_hero_card_and_refuse_a_misspelt_one(capsys, tmp_path):
    db = str(tmp_path / "games.sqlite3")
    assert main(["tags", "register", "catacombs", "hero", "ulom", "--uid", "04112233445577",
                 "--db", db]) == 0
    assert TagMap(tmp_path / "tags.toml").get("04112233445577") == CardRef("catacombs", "hero",
                                                                          "ulom")
    assert main(["tags", "register", "catacombs", "hero", "yileph", "--uid", "04112233445588",
                 "--db", db]) == 2
    assert capsys.readouterr().err.endswith("catacombs has no hero 'yileph': did you mean "
                                            "'yilleph'?\n")
    assert TagMap(tmp_path / "tags.toml").get("04112233445588") is None


def test_register_the_tag_on_the_reader(monkeypatch, emulator, tmp_path):
    hand = Hand(emulator, [blank(5)])
    assert run(monkeypatch, hand, "tags", "register", "catacombs", "monster", "sewer-rat",
               "--port", emulator.path, "--db", str(tmp_path / "games.sqlite3")) == 0
    assert hand.getvalue().splitlines()[-1].startswith("tag 04102030405005 names catacombs "
                                                       "monster sewer-rat")
    assert TagMap(tmp_path / "tags.toml").get("04102030405005") == CardRef(
        "catacombs", "monster", "sewer-rat")


def test_register_refuses_a_tag_that_names_a_card_by_its_record(monkeypatch, emulator, tmp_path,
                                                                capsys):
    tag = blank(6)
    chip_tag_with(tag, CardRef("conquest", "card", "salavi"))
    hand = Hand(emulator, [tag])
    assert run(monkeypatch, hand, "tags", "register", "catacombs", "monster", "sewer-rat",
               "--port", emulator.path, "--db", str(tmp_path / "games.sqlite3")) == 2
    assert "names conquest card salavi by its own record" in capsys.readouterr().err
    assert not (tmp_path / "tags.toml").exists()


def test_read_prints_what_the_tag_names(monkeypatch, emulator, tmp_path):
    TagMap(tmp_path / "tags.toml").assign("04102030405007", CardRef("catacombs", "room",
                                                                    "bholoth-cemetery"))
    hand = Hand(emulator, [blank(7)])
    emulator.chip.place(blank(7))
    assert run(monkeypatch, hand, "tags", "read", "--port", emulator.path,
               "--db", str(tmp_path / "games.sqlite3")) == 0
    assert json.loads(hand.getvalue()) == {"uid": "04102030405007", "by": "tag map",
                                           "card": "catacombs room bholoth-cemetery",
                                           "problem": None}


def test_a_garbled_answer_while_writing_writes_the_same_tag_again():
    from overseer.cli.tags import write_cards
    from overseer.devices.pn532_emulator import LoopTTY, Pn532

    chip = Pn532()
    reader = Reader.on(LoopTTY(chip))
    said: list[str] = []
    tag = blank(3)

    def out(text: str) -> None:
        said.append(text)
        if text.endswith("on the reader"):
            chip.place(tag)
            chip.garble_code = 0x42  # the tag's first answer comes back garbled

    ref = CardRef("conquest", "card", "salavi")
    try:
        assert write_cards(reader, [(ref, "Salavi")], out) == 1
    finally:
        reader.close()
    assert said[1].startswith("    tag 04102030405003: the reader's answer was garbled (")
    assert said[1].endswith("): writing it again")
    assert said[2] == "    tag 04102030405003: written and read back"
    assert names(tag) == b"1 conquest card salavi"


def read_back(tag: Ntag215) -> CardRef | None:
    """The card ``tag`` names, read by the real reader code on a reader of its own."""
    from overseer.devices.pn532_emulator import LoopTTY, Pn532

    chip = Pn532()
    chip.place(tag)
    reader = Reader.on(LoopTTY(chip))
    try:
        return reader.read(reader.sense()).card
    finally:
        reader.close()


def chip_tag_with(tag: Ntag215, ref: CardRef) -> None:
    """Write ``ref`` on ``tag`` with the real writer, on a reader of its own."""
    from overseer.devices.pn532_emulator import LoopTTY, Pn532

    chip = Pn532()
    chip.place(tag)
    reader = Reader.on(LoopTTY(chip))
    try:
        reader.write(reader.sense(), ref)
    finally:
        reader.close()
    assert card_record(ref)


def malformed(n: int) -> Ntag215:
    """A sticker whose NDEF record does not decode: TNF 4 (external) with a type length of 0."""
    tag = blank(n)
    tag.memory[16:24] = bytes([0x03, 0x04, 0xD4, 0x00, 0x01, 0x41, 0xFE, 0x00])
    return tag


def test_read_and_register_refuse_a_malformed_tag_with_a_message(monkeypatch, emulator,
                                                                 tmp_path, capsys):
    emulator.chip.place(malformed(6))
    db = str(tmp_path / "games.sqlite3")
    assert run(monkeypatch, None, "tags", "read", "--port", emulator.path, "--db", db) == 2
    err = capsys.readouterr().err
    assert "card not readable" in err or "not readable" in err
    assert "Traceback" not in err
    assert run(monkeypatch, None, "tags", "register", "catacombs", "room", "bholoth-cemetery",
               "--port", emulator.path, "--db", db) == 2
    err = capsys.readouterr().err
    assert "not readable" in err and "Traceback" not in err


def test_write_refuses_a_malformed_tag_and_asks_again():
    from overseer.cli.tags import write_cards
    from overseer.devices.pn532_emulator import LoopTTY, Pn532

    chip = Pn532()
    reader = Reader.on(LoopTTY(chip))
    said: list[str] = []
    good = blank(4)

    def out(text: str) -> None:
        said.append(text)
        if "not readable" in text:
            chip.place(good)  # the hand takes the bad tag away and holds another

    chip.place(malformed(5))
    ref = CardRef("catacombs", "room", "zothas-gatehouse")
    try:
        assert write_cards(reader, [(ref, "Zotha's Gatehouse")], out) == 1
    finally:
        reader.close()
    assert said[1].startswith("    tag 04102030405005: the tag holds data that is not readable")
    assert said[1].endswith("use another tag, or --overwrite")
    assert said[2] == "    tag 04102030405004: written and read back"
