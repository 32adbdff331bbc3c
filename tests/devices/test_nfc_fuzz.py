"""Seeded fuzz of the card reader: random and malformed tags through the real reader path (the
table's TagWatcher, nfcpy, the byte-level PN532 emulator and its NTAG215). Every tag ends as a
tap, an unknown tag or a reader notice ("card not readable"); nothing raises out of the reader,
no tag reaches the watcher's last-resort guard, and the reader stays open throughout. A few
hundred tags by default; ``-m long`` puts 100,000 through (``OVERSEER_NFC_FUZZ`` sets how many).
"""

from __future__ import annotations

import os
import random

import pytest

from overseer.devices.nfc import Reader, TagWatcher
from overseer.devices.pn532_emulator import LoopTTY, Ntag215, Pn532
from overseer.devices.tags import RECORD_TYPE, CardRef, card_record, message_octets

USER = (3 * 4, 130 * 4)  # the capability container and the user memory of an NTAG215
CC = bytes([0xE1, 0x10, 0x3E, 0x00])


def _record_bytes(rng: random.Random) -> bytes:
    """One NDEF record with random header bits, lengths that may lie, random contents."""
    tnf = rng.randrange(8)
    short = rng.random() < 0.7
    has_id = rng.random() < 0.3
    flags = (rng.random() < 0.8) << 7 | (rng.random() < 0.8) << 6 | (rng.random() < 0.1) << 5 \
        | short << 4 | has_id << 3 | tnf
    kind = rng.choice([b"", b"T", b"U", b"Sp", RECORD_TYPE[8:].encode(), rng.randbytes(
        rng.randrange(6))])
    payload = rng.randbytes(rng.randrange(40))
    lie = rng.random() < 0.3
    type_length = rng.randrange(256) if lie else len(kind)
    size = rng.randrange(1 << 16) if lie else len(payload)
    out = bytes([flags, type_length])
    out += bytes([size & 0xFF]) if short else size.to_bytes(4, "big")
    ident = rng.randbytes(rng.randrange(4))
    if has_id:
        out += bytes([len(ident)])
    return out + kind + (ident if has_id else b"") + payload


def _ours_garbled(rng: random.Random) -> bytes:
    """Our own record, its payload changed: bad words, other formats, bytes not ASCII."""
    ref = CardRef("catacombs", "room", "zothas-gatehouse")
    octets = bytearray(message_octets([card_record(ref)]))
    for _ in range(rng.randrange(1, 4)):
        octets[rng.randrange(len(octets))] = rng.randrange(256)
    return bytes(octets)


def memory_of(rng: random.Random) -> bytes:
    """Pages 3..129 of a random or malformed tag (the UID pages stay the chip's)."""
    size = USER[1] - USER[0]
    roll = rng.random()
    if roll < 0.15:
        return rng.randbytes(size)  # noise, the capability container too
    if roll < 0.35:
        body = rng.randbytes(size - 4)  # noise behind a good capability container
    elif roll < 0.55:
        body = _ours_garbled(rng)
        body = bytes([0x03, len(body)]) + body + b"\xfe"
    else:
        message = b"".join(_record_bytes(rng) for _ in range(rng.randrange(1, 4)))
        length = len(message) if rng.random() < 0.7 else rng.randrange(256)
        tlv = bytes([0x03, length]) if length < 255 and rng.random() < 0.9 else \
            bytes([0x03, 0xFF]) + rng.randrange(1 << 16).to_bytes(2, "big")
        lead = bytes(rng.choice([b"", b"\x00", b"\x01\x03\xa0\x0c\x34", b"\xfd\x02ab"]))
        body = lead + tlv + message + (b"\xfe" if rng.random() < 0.8 else b"")
    body = (body + rng.randbytes(size))[:size - 4]
    return (CC if rng.random() < 0.9 else rng.randbytes(4)) + body


def fuzz(count: int, seed: int) -> dict[str, int]:
    rng = random.Random(seed)
    chip = Pn532()
    now = [0.0]
    inputs: list[object] = []
    notices: list[str] = []
    opened: list[Reader] = []

    def open_reader() -> Reader:
        opened.append(Reader.on(LoopTTY(chip)))
        return opened[-1]

    watcher = TagWatcher(open_reader, inputs.append, notify=notices.append,
                         clock=lambda: now[0], patience=0, repeat_window=0.5)
    counts = {"taps": 0, "notices": 0}
    try:
        for n in range(count):
            uid = bytes([0x04, *rng.randbytes(6)])
            tag = Ntag215(uid)
            tag.memory[USER[0]:USER[1]] = memory_of(rng)
            chip.place(tag)
            taps, said = len(inputs), len(notices)
            watcher.poll()  # raises nothing: a raise fails the test with its seed and tag
            assert len(inputs) > taps or len(notices) > said, (seed, n, tag.memory.hex())
            counts["taps" if len(inputs) > taps else "notices"] += 1
            chip.remove()
            watcher.poll()
            now[0] += 1.0
        assert watcher.faults == 0  # every tag took a path meant for it
        assert len(opened) == 1 and watcher.reader is opened[0]  # the reader stayed open
    finally:
        watcher.close()
    return counts


def test_a_few_hundred_random_and_malformed_tags_are_taps_or_notices() -> None:
    counts = fuzz(300, seed=23)
    assert counts["taps"] > 0 and counts["notices"] > 0


@pytest.mark.long
def test_a_hundred_thousand_random_and_malformed_tags() -> None:
    count = int(os.environ.get("OVERSEER_NFC_FUZZ", "100000"))
    counts = fuzz(count, seed=2323)
    assert sum(counts.values()) == count
