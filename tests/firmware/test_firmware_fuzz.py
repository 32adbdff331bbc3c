"""Property tests: random and mutated bytes at the firmware's decoder and at the whole board.

No exception escapes, nothing is held beyond one block, only well-formed messages come out, and
a mangled frame transfer never puts anything but the real image on the glass. Hypothesis runs
each property on a few hundred cases (and shrinks a failure); the long runs (``-m long``) put
100,000 cases of the same shapes through the same checks from a seeded ``random.Random``: a
Hypothesis example costs some 10 ms of its own machinery here, the decoder's check 0.04 ms.
"""

import random
import struct
import zlib

import link
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.drivers.seeded_cases import every_case
from tests.firmware.fwtools import Rig, decode_all, load_vectors

VECTORS = load_vectors()
GOOD = [bytes.fromhex(b["hex"]) for b in VECTORS["blocks"] if b["direction"] == "host_to_pico"]
GOOD += [bytes.fromhex(s["hex"]) for s in VECTORS["streams"] if s["direction"] == "host_to_pico"]
IMAGE = bytes((i * 29 + 3) & 0xFF for i in range(1024))
CI = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MUTATIONS = ("flip", "insert", "delete", "repeat")


def transfer() -> bytes:
    """HELLO, then IMAGE in chunks and FRAME_SHOW, as the host sends it."""
    out = link.encode(0, link.HELLO, b"\x01")
    seq = 0
    for off in range(0, 1024, 64):
        seq += 1
        payload = struct.pack("<HH", 3, off) + IMAGE[off : off + 64]
        out += link.encode(seq, link.FRAME_CHUNK, payload)
    return out + link.encode(seq + 1, link.FRAME_SHOW, struct.pack("<HI", 3, zlib.crc32(IMAGE)))


TRANSFER = transfer()


ANY_GOOD = st.sampled_from(GOOD + [TRANSFER])


@st.composite
def mutated(draw, base=ANY_GOOD) -> bytes:
    data = bytearray(draw(base))
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(["flip", "insert", "delete", "repeat"]))
        i = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[i] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            data[i:i] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "delete" and data:
            del data[i : i + draw(st.integers(1, 8))]
        elif kind == "repeat" and data:
            data[i:i] = data[i : i + draw(st.integers(1, 40))]
    return bytes(data)


def mutate(rng: random.Random, base: bytes) -> bytes:
    """``mutated``'s shapes from a seeded generator: up to 8 flips, inserts, deletes,
    repeats."""
    data = bytearray(base)
    for _ in range(rng.randint(0, 8)):
        kind = rng.choice(MUTATIONS)
        i = rng.randint(0, max(len(data) - 1, 0))
        if kind == "flip" and data:
            data[i] ^= 1 << rng.randint(0, 7)
        elif kind == "insert":
            data[i:i] = rng.randbytes(rng.randint(1, 8))
        elif kind == "delete" and data:
            del data[i : i + rng.randint(1, 8)]
        elif kind == "repeat" and data:
            data[i:i] = data[i : i + rng.randint(1, 40)]
    return bytes(data)


def check_decoder(data: bytes, pieces: list[int]) -> None:
    d = link.Decoder(link.HOST_TO_PICO)
    i = 0
    for n in pieces + [len(data)]:
        d.feed(data[i : i + n])
        i += n
        assert d.n <= link.MAX_BLOCK
        for typ, seq, payload in decode_all(d):
            low, high = link.HOST_TO_PICO[typ]
            assert low <= len(payload) <= high
            assert 0 <= seq <= 255


def check_board(data: bytes) -> None:
    rig = Rig()
    rig.run(1)
    rig.send_raw(data)
    rig.run(5)
    rig.take()
    # the glass shows one of the Pico's own screens or exactly the image the host sent
    assert rig.display.shown_id in (0, 3)
    if rig.display.shown_id:
        assert rig.display.shown == IMAGE
    if rig.display.on_glass():
        assert rig.glass == IMAGE


def test_the_unmangled_transfer_is_shown() -> None:
    rig = Rig()
    rig.send_raw(TRANSFER)
    rig.run(1)
    assert rig.display.on_glass() == 3
    assert rig.glass == IMAGE


PIECES = st.lists(st.integers(1, 30), max_size=20)


@CI
@given(st.binary(max_size=600), PIECES)
def test_decoder_random_bytes(data: bytes, pieces: list[int]) -> None:
    check_decoder(data, pieces)


@CI
@given(mutated(), PIECES)
def test_decoder_mutated_blocks(data: bytes, pieces: list[int]) -> None:
    check_decoder(data, pieces)


@CI
@given(st.one_of(mutated(), st.binary(max_size=300)))
def test_board_never_shows_a_wrong_frame(data: bytes) -> None:
    check_board(data)


@pytest.mark.long
def test_decoder_100k_cases() -> None:
    def case(rng: random.Random) -> tuple[bytes, list[int]]:
        data = (mutate(rng, rng.choice(GOOD + [TRANSFER])) if rng.random() < 0.5
                else rng.randbytes(rng.randint(0, 600)))
        return data, [rng.randint(1, 30) for _ in range(rng.randint(0, 20))]

    every_case(1, case, check_decoder)


@pytest.mark.long
def test_board_100k_mangled_transfers() -> None:
    every_case(2, lambda rng: (mutate(rng, TRANSFER),), check_board)
