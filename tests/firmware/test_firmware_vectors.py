"""The firmware codec against the shared byte vectors (tests/vectors/protocol.json)."""

import random
import struct
import zlib

import link
import pytest

from tests.firmware.fwtools import decode_all, load_vectors, unpack_fields

VECTORS = load_vectors()
BLOCKS = VECTORS["blocks"]
STREAMS = VECTORS["streams"]
SIZES = {"host_to_pico": link.HOST_TO_PICO, "pico_to_host": link.PICO_TO_HOST}


@pytest.mark.parametrize("block", BLOCKS, ids=[b["label"] for b in BLOCKS])
def test_vector_block_is_what_the_spec_says(block: dict) -> None:
    # independent of the firmware: zlib's CRC-32 over LEN SEQ TYPE PAYLOAD, little endian
    payload = bytes.fromhex(block["payload"])
    body = bytes([len(payload), block["seq"], block["type"]]) + payload
    assert bytes.fromhex(block["hex"]) == b"\x7e" + body + struct.pack("<I", zlib.crc32(body))
    assert unpack_fields(block["name"], payload) == block["fields"]


@pytest.mark.parametrize("block", BLOCKS, ids=[b["label"] for b in BLOCKS])
def test_firmware_encodes_each_vector_block(block: dict) -> None:
    payload = bytes.fromhex(block["payload"])
    assert link.encode(block["seq"], block["type"], payload).hex() == block["hex"]


@pytest.mark.parametrize("block", BLOCKS, ids=[b["label"] for b in BLOCKS])
def test_firmware_decodes_each_vector_block(block: dict) -> None:
    decoder = link.Decoder(SIZES[block["direction"]])
    decoder.feed(bytes.fromhex(block["hex"]))
    assert decode_all(decoder) == [(block["type"], block["seq"], bytes.fromhex(block["payload"]))]
    assert decoder.dropped == 0


def expected(stream: dict) -> list[tuple[int, int, bytes]]:
    out = []
    for e in stream["expect"]:
        payload = [b for b in BLOCKS if b["name"] == e["name"] and b["fields"] == e["fields"]][0]
        out.append((e["type"], e["seq"], bytes.fromhex(payload["payload"])))
    return out


@pytest.mark.parametrize("stream", STREAMS, ids=[s["label"] for s in STREAMS])
def test_stream_in_one_piece(stream: dict) -> None:
    decoder = link.Decoder(SIZES[stream["direction"]])
    decoder.feed(bytes.fromhex(stream["hex"]))
    assert decode_all(decoder) == expected(stream)
    assert decoder.dropped == stream["dropped"]


@pytest.mark.parametrize("stream", STREAMS, ids=[s["label"] for s in STREAMS])
def test_stream_in_random_pieces(stream: dict) -> None:
    data = bytes.fromhex(stream["hex"])
    rng = random.Random(stream["label"])
    for _ in range(20):
        decoder = link.Decoder(SIZES[stream["direction"]])
        got = []
        i = 0
        while i < len(data):
            n = rng.randint(1, 12)
            decoder.feed(data[i : i + n])
            got += decode_all(decoder)
            i += n
        assert got == expected(stream)
        assert decoder.dropped == stream["dropped"]


def test_vectors_cover_every_message_type() -> None:
    names = {(b["direction"], b["type"]) for b in BLOCKS}
    want = {("host_to_pico", t) for t in link.HOST_TO_PICO}
    want |= {("pico_to_host", t) for t in link.PICO_TO_HOST}
    assert names == want
