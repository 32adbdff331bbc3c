"""Card tags: the overseer:card record, the cards a game has tags for, the UID tag map."""

from __future__ import annotations

import ndef
import pytest

from overseer.devices.tags import (
    RECORD_TYPE,
    CardRef,
    TagError,
    TagMap,
    card_from_records,
    card_record,
    cards,
    check_card,
    check_uid,
    message_octets,
    tag_map_path,
)

ROOM = CardRef("catacombs", "room", "zothas-gatehouse")


def test_a_card_record_is_an_external_type_with_a_short_text_payload():
    record = card_record(ROOM)
    assert record.type == RECORD_TYPE == "urn:nfc:ext:overseer:card"
    assert bytes(record.data) == b"1 catacombs room zothas-gatehouse"
    octets = message_octets([record])
    assert octets == b"\xd4\x0d\x21overseer:card1 catacombs room zothas-gatehouse"
    assert card_from_records(ndef.message_decoder(octets)) == ROOM


def test_the_first_card_record_counts_and_other_records_are_skipped():
    records = [ndef.UriRecord("https://example.org"), card_record(ROOM),
               card_record(CardRef("conquest", "card", "salavi"))]
    assert card_from_records(records) == ROOM
    assert card_from_records([ndef.TextRecord("hello")]) is None
    assert card_from_records([]) is None


@pytest.mark.parametrize(("payload", "message"), [
    (b"2 catacombs room x", "format 2; this Overseer reads format 1"),
    (b"catacombs room x", "has no format number"),
    (b"1 catacombs room", "should read '1 game kind card'"),
    (b"1 catacombs Room x", "should read '1 game kind card'"),
    (b"1 caf\xc3\xa9 room x", "not ASCII"),
])
def test_a_bad_card_record_says_what_is_wrong(payload, message):
    with pytest.raises(TagError, match=message):
        card_from_records([ndef.Record(RECORD_TYPE, "", payload)])


def test_a_card_with_spaces_cannot_be_written():
    with pytest.raises(TagError, match="card is lower-case letters"):
        card_record(CardRef("catacombs", "room", "Zotha's Gatehouse"))


def test_every_catacombs_monster_room_lord_and_hero_and_every_conquest_card_gets_a_tag():
    catacombs = cards("catacombs")
    kinds = [ref.kind for ref, _ in catacombs]
    assert kinds.count("monster") == 44 and kinds.count("room") == 66 and kinds.count("lord") == 8
    assert catacombs[-3:] == [(CardRef("catacombs", "hero", "elf"), "Elf"),
                              (CardRef("catacombs", "hero", "ulom"), "Ulom the Merman"),
                              (CardRef("catacombs", "hero", "yilleph"),
                               "Yilleph the Illusionist")]  # last: older --start N still hold
    assert (ROOM, "Zotha's Gatehouse") in catacombs
    assert len({ref for ref, _ in catacombs}) == len(catacombs)
    conquest = cards("conquest")
    assert len(conquest) == 56 and {ref.kind for ref, _ in conquest} == {"card"}
    longest = max(len(message_octets([card_record(ref)]))
                  for ref, _ in catacombs + conquest)
    assert longest + 3 <= 144  # in its TLV, on the smallest NTAG21x sticker (NTAG213)


def test_a_card_is_checked_with_a_suggestion():
    assert check_card("catacombs", "room", "zothas-gatehouse") == ROOM
    with pytest.raises(TagError, match="no card tags for game 'catacomb'.*did you mean 'catacombs'"):
        check_card("catacomb", "room", "x")
    with pytest.raises(TagError, match="catacombs has no 'rooms' cards: did you mean 'room'"):
        check_card("catacombs", "rooms", "x")
    with pytest.raises(TagError, match="no room 'zotha-gatehouse': did you mean 'zothas-gatehouse'"):
        check_card("catacombs", "room", "zotha-gatehouse")


def test_a_hero_card_is_checked_against_heroes_toml_with_a_suggestion():
    assert check_card("catacombs", "hero", "elf") == CardRef("catacombs", "hero", "elf")
    with pytest.raises(TagError, match="catacombs has no hero 'ullom': did you mean 'ulom'"):
        check_card("catacombs", "hero", "ullom")
    with pytest.raises(TagError, match="catacombs has no 'heroes' cards: did you mean 'hero'"):
        check_card("catacombs", "heroes", "elf")


def test_uids_are_upper_case_hex():
    assert check_uid("04:a1:b2:c3:d4:e5:f6") == "04A1B2C3D4E5F6"
    with pytest.raises(TagError, match="4 to 10 bytes in hex"):
        check_uid("04A1B")


def test_the_tag_map_lives_beside_the_store_and_round_trips(tmp_path):
    path = tag_map_path(tmp_path / "games.sqlite3")
    assert path == tmp_path / "tags.toml"
    tags = TagMap(path)
    assert tags.cards == {} and not path.exists()
    assert tags.assign("04a1b2c3d4e5f6", ROOM) is None
    lord = CardRef("catacombs", "lord", "phoshar-the-dragon")
    assert tags.assign("04A1B2C3D4E5F6", lord) == ROOM
    again = TagMap(path)
    assert again.get("04A1B2C3D4E5F6") == lord
    assert "[tags.04A1B2C3D4E5F6]" in path.read_text()


def test_the_tag_map_sees_another_writer(tmp_path):
    path = tmp_path / "tags.toml"
    reader = TagMap(path)
    assert not reader.refresh()
    TagMap(path).assign("04112233445566", ROOM)
    assert reader.refresh() and reader.get("04112233445566") == ROOM
    assert not reader.refresh()


@pytest.mark.parametrize(("text", "message"), [
    ("[tags.04112233445566]\ngame = 'catacombs'\nkind = 'room'\n", "needs game, kind and card"),
    ("[tag.04112233445566]\n", "unknown key 'tag': did you mean 'tags'"),
    ("[tags.XYZ]\ngame = 'catacombs'\nkind = 'room'\ncard = 'x'\n", "4 to 10 bytes in hex"),
    ("[tags\n", "tags.toml"),
])
def test_a_broken_tag_map_is_refused_with_its_file_named(tmp_path, text, message):
    path = tmp_path / "tags.toml"
    path.write_text(text)
    with pytest.raises(TagError, match=message):
        TagMap(path)
