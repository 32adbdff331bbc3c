"""Property tests of the host's block decoder: random and mutated bytes never make it raise,
hang or grow, and good blocks always come through resync. Hypothesis runs each property on a
few hundred cases (and shrinks a failure); the long runs (``-m long``) put 100,000 cases of the
same shapes through the same checks from a seeded ``random.Random`` (a Hypothesis example
costs far more of its own machinery than the check)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from overseer.devices.protocol import (
    DECODER_LIMIT,
    MAX_BLOCK,
    PAYLOAD_SIZES,
    PICO_TO_HOST,
    SYNC,
    Block,
    Decoder,
    decode_message,
    encode_block,
)
from tests.drivers.seeded_cases import every_case

SHORT = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def good_blocks(draw: st.DrawFn) -> Block:
    msg_type = draw(st.sampled_from(sorted(PICO_TO_HOST)))
    low, high = PAYLOAD_SIZES[msg_type]
    payload = draw(st.binary(min_size=low, max_size=high))
    return Block(draw(st.integers(0, 255)), msg_type, payload)


def good_block(rng: random.Random) -> Block:
    """``good_blocks``'s shape from a seeded generator."""
    msg_type = rng.choice(sorted(PICO_TO_HOST))
    low, high = PAYLOAD_SIZES[msg_type]
    return Block(rng.randint(0, 255), msg_type, rng.randbytes(rng.randint(low, high)))


def wire(blocks: list[Block]) -> bytes:
    return b"".join(encode_block(b.seq, b.type, b.payload) for b in blocks)


def feed_in_pieces(decoder: Decoder, data: bytes, cuts: list[int]) -> list[Block]:
    out: list[Block] = []
    start = 0
    for cut in sorted(c % (len(data) + 1) for c in cuts) + [len(data)]:
        out += decoder.feed(data[start:cut])
        start = max(start, cut)
        assert decoder.buffered <= DECODER_LIMIT
    return out


def check_never_fails(data: bytes, cuts: list[int]) -> None:
    decoder = Decoder()
    for block in feed_in_pieces(decoder, data, cuts):
        decode_message(block)  # every block it yields has a known type and size


def check_mutated_stream(blocks: list[Block], mutations: list[tuple[int, int, int]]) -> None:
    data = bytearray(wire(blocks))
    for kind, where, value in mutations:
        if not data:
            break
        i = where % len(data)
        if kind == 0:
            data[i] ^= value or 1
        elif kind == 1:
            del data[i]
        else:
            data.insert(i, value)
    decoder = Decoder()
    got = decoder.feed(bytes(data))
    assert decoder.buffered <= DECODER_LIMIT
    # A CRC-32 lets no damaged block through: what comes out is a subset of what went in.
    assert all(block in blocks for block in got)


@SHORT
@given(st.binary(max_size=2000), st.lists(st.integers(0, 5000), max_size=20))
def test_random_bytes_never_raise_and_stay_bounded(data: bytes, cuts: list[int]) -> None:
    check_never_fails(data, cuts)


@SHORT
@given(
    st.lists(good_blocks(), max_size=8),
    st.lists(st.tuples(st.integers(0, 2), st.integers(0, 10_000), st.integers(0, 255)),
             min_size=1, max_size=6),
)
def test_mutated_streams_yield_only_blocks_that_were_sent(
    blocks: list[Block], mutations: list[tuple[int, int, int]]
) -> None:
    check_mutated_stream(blocks, mutations)


@SHORT
@given(
    st.lists(st.tuples(st.binary(max_size=120), good_blocks()), max_size=8),
    st.lists(st.integers(0, 5000), max_size=10),
)
def test_good_blocks_come_through_any_garbage(
    pairs: list[tuple[bytes, Block]], cuts: list[int]
) -> None:
    # Garbage may hold a SYNC and a LEN that make the decoder wait for more bytes; a stream
    # that goes on (here: 104 bytes of padding) always releases the good blocks behind it.
    data = b"".join(garbage + wire([block]) for garbage, block in pairs) + bytes(MAX_BLOCK)
    got = feed_in_pieces(Decoder(), data, cuts)
    assert got == [block for _, block in pairs]


@SHORT
@given(st.lists(good_blocks(), max_size=10), st.lists(st.integers(0, 5000), max_size=30))
def test_clean_stream_in_any_pieces_decodes_exactly(blocks: list[Block], cuts: list[int]) -> None:
    assert feed_in_pieces(Decoder(), wire(blocks), cuts) == blocks


def test_a_flood_of_sync_bytes_is_bounded_and_released() -> None:
    decoder = Decoder()
    good = Block(3, 0x82, b"\x01\x00\x02\x00")
    assert decoder.feed(bytes([SYNC, 20]) * 10_000) == []
    assert decoder.buffered <= DECODER_LIMIT
    got = decoder.feed(wire([good]) + bytes(MAX_BLOCK))
    assert got == [good]


@pytest.mark.long
def test_long_random_bytes() -> None:
    every_case(1, lambda rng: (rng.randbytes(rng.randint(0, 2000)),
                               [rng.randint(0, 5000) for _ in range(rng.randint(0, 20))]),
               check_never_fails)


@pytest.mark.long
def test_long_mutated_streams() -> None:
    every_case(2, lambda rng: ([good_block(rng) for _ in range(rng.randint(0, 8))],
                               [(rng.randint(0, 2), rng.randint(0, 10_000), rng.randint(0, 255))
                                for _ in range(rng.randint(1, 6))]),
               check_mutated_stream)
