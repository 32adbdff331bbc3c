"""The host codec against the shared byte vectors (tests/vectors/protocol.json), plus bounds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from overseer.devices import protocol as p

VECTORS = json.loads(
    (Path(__file__).resolve().parents[1] / "vectors" / "protocol.json").read_text()
)
CLASSES = {
    p.MsgType.HELLO: p.Hello,
    p.MsgType.FRAME_CHUNK: p.FrameChunk,
    p.MsgType.FRAME_SHOW: p.FrameShow,
    p.MsgType.FRAME_ARM: p.FrameArm,
    p.MsgType.ROLL_REQUEST: p.RollRequest,
    p.MsgType.HOST_HEARTBEAT: p.HostHeartbeat,
    p.MsgType.HOST_ACK: p.HostAck,
    p.MsgType.IDENT: p.Ident,
    p.MsgType.BUTTON: p.ButtonEvent,
    p.MsgType.ROLL_RESULT: p.RollResult,
    p.MsgType.PICO_HEARTBEAT: p.PicoHeartbeat,
    p.MsgType.PICO_ACK: p.PicoAck,
    p.MsgType.ERROR: p.Error,
}
ACCEPT = {"host_to_pico": p.HOST_TO_PICO, "pico_to_host": p.PICO_TO_HOST}


def message_from_vector(entry: dict) -> p.Message:
    fields = dict(entry["fields"])
    if "data" in fields:
        fields["data"] = bytes.fromhex(fields["data"])
    return CLASSES[entry["type"]](**fields)


def dropped(stats: p.DecoderStats) -> int:
    return stats.bad_length + stats.bad_crc + stats.unknown_type + stats.bad_size


def test_vectors_are_for_this_protocol_version() -> None:
    assert VECTORS["protocol"] == p.PROTOCOL_VERSION


@pytest.mark.parametrize("entry", VECTORS["blocks"], ids=lambda e: e["label"])
def test_block_encodes_to_vector_bytes(entry: dict) -> None:
    message = message_from_vector(entry)
    assert message.payload().hex() == entry["payload"]
    assert p.encode(message, entry["seq"]).hex() == entry["hex"]


@pytest.mark.parametrize("entry", VECTORS["blocks"], ids=lambda e: e["label"])
def test_vector_bytes_decode_to_the_message(entry: dict) -> None:
    decoder = p.Decoder(ACCEPT[entry["direction"]])
    (block,) = decoder.feed(bytes.fromhex(entry["hex"]))
    assert block.seq == entry["seq"]
    assert p.decode_message(block) == message_from_vector(entry)


@pytest.mark.parametrize("entry", VECTORS["streams"], ids=lambda e: e["label"])
def test_stream_vectors(entry: dict) -> None:
    data = bytes.fromhex(entry["hex"])
    for step in (len(data) or 1, 1, 3):  # whole, byte by byte, in threes
        decoder = p.Decoder(ACCEPT[entry["direction"]])
        blocks = [b for i in range(0, len(data), step) for b in decoder.feed(data[i : i + step])]
        assert [(b.seq, p.decode_message(b)) for b in blocks] == [
            (e["seq"], message_from_vector(e)) for e in entry["expect"]
        ]
        assert dropped(decoder.stats) == entry["dropped"]


def test_image_vector_crc() -> None:
    image = bytes.fromhex(VECTORS["image_1024"]["hex"])
    assert len(image) == p.FRAME_SIZE
    assert p.crc32(image) == VECTORS["image_1024"]["crc"]


def test_oversized_payload_is_refused_when_encoding() -> None:
    with pytest.raises(ValueError, match="allows 96"):
        p.encode_block(1, p.MsgType.FRAME_CHUNK, bytes(97))


def test_largest_block_is_104_bytes() -> None:
    assert len(p.encode_block(1, p.MsgType.FRAME_CHUNK, bytes(96))) == p.MAX_BLOCK == 104


def test_decoder_keeps_partial_block_until_completed() -> None:
    block = p.encode(p.PicoHeartbeat(boot_id=0xBEEF, screen_id=7))
    decoder = p.Decoder()
    assert decoder.feed(block[:-1]) == []
    assert decoder.buffered == len(block) - 1
    assert [p.decode_message(b) for b in decoder.feed(block[-1:])] == [p.PicoHeartbeat(0xBEEF, 7)]
    assert decoder.buffered == 0


def test_a_read_decoded_again_counts_again() -> None:
    # one good unreliable block alone is remembered; the same bytes again are the same block
    decoder = p.Decoder()
    beat = p.encode(p.PicoHeartbeat(7, 3))
    assert decoder.feed(beat) == decoder.feed(beat) == [p.Block(0, p.MsgType.PICO_HEARTBEAT, beat[4:8])]
    assert decoder.stats.blocks == 2
    assert decoder.feed(beat[:5]) == [] and decoder.feed(beat[5:] + beat) == [p.Block(0, 0x84, beat[4:8])] * 2
    assert decoder.stats.blocks == 4 and decoder.buffered == 0
