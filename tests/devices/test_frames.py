"""Frames: a PIL image packed in MONO_VLSB by Pillow, and the chunks that change one frame into
another."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from overseer.devices import protocol as p
from overseer.devices.frames import CHUNK_OVERHEAD, changed_chunks, vlsb
from overseer.screens.render import Screen, draw, frame_bytes

frames = st.binary(min_size=p.FRAME_SIZE, max_size=p.FRAME_SIZE)


def test_a_lit_pixel_lands_on_its_page_column_and_bit() -> None:
    image = Image.new("1", (128, 64))
    image.putpixel((5, 0), 1)  # page 0, column 5, bit 0
    image.putpixel((127, 63), 1)  # page 7, column 127, bit 7
    image.putpixel((64, 12), 1)  # page 1, column 64, bit 4
    frame = vlsb(image)
    assert {i: b for i, b in enumerate(frame) if b} == {5: 0x01, 7 * 128 + 127: 0x80, 128 + 64: 0x10}


@settings(max_examples=50)
@given(frames)
def test_vlsb_agrees_with_the_pixel_by_pixel_packing(data: bytes) -> None:
    image = Image.frombytes("1", (128, 64), data)
    assert vlsb(image) == frame_bytes(image)


def test_a_drawn_screen_packs_as_the_screens_module_packs_it() -> None:
    image = draw(Screen("NEXT AI PIECE", ("Sewer Rat", "melee + poison")))
    assert vlsb(image) == frame_bytes(image)


def test_an_image_of_another_mode_is_made_one_bit_first() -> None:
    assert vlsb(Image.new("L", (128, 64), 255)) == bytes([0xFF]) * p.FRAME_SIZE
    assert vlsb(Image.new("RGB", (128, 64), (0, 0, 0))) == bytes(p.FRAME_SIZE)


def test_another_size_is_refused() -> None:
    with pytest.raises(ValueError, match="a screen is 128x64 pixels, not 64x32"):
        vlsb(Image.new("1", (64, 32)))


def apply(old: bytes, chunks: list[tuple[int, bytes]]) -> bytes:
    out = bytearray(old)
    for offset, data in chunks:
        out[offset : offset + len(data)] = data
    return bytes(out)


@settings(max_examples=200)
@given(frames, st.data(), st.sampled_from([16, 32, 64]))
def test_the_chunks_turn_the_old_frame_into_the_new(old: bytes, data: st.DataObject, size: int) -> None:
    new = bytearray(old)
    for at in data.draw(st.lists(st.integers(0, p.FRAME_SIZE - 1), max_size=40)):
        new[at] ^= data.draw(st.integers(1, 255))
    chunks = changed_chunks(old, bytes(new), size)
    assert apply(old, chunks) == new
    assert all(1 <= len(chunk) <= size and offset + len(chunk) <= p.FRAME_SIZE for offset, chunk in chunks)
    # A chunk starts and ends on a changed byte unless it goes on in the next chunk (a run cut
    # at the size), and holds no stretch of unchanged bytes as long as a block's overhead.
    ends = [offset + len(chunk) for offset, chunk in chunks]
    for i, (offset, chunk) in enumerate(chunks):
        assert old[offset] != new[offset] or (i and ends[i - 1] == offset)
        last = offset + len(chunk) - 1
        assert old[last] != new[last] or (i + 1 < len(chunks) and chunks[i + 1][0] == last + 1)
        same = "".join("s" if old[j] == new[j] else "d" for j in range(offset, last + 1))
        assert "s" * CHUNK_OVERHEAD not in same


def test_close_changes_share_a_chunk_and_far_ones_do_not() -> None:
    old = bytes(p.FRAME_SIZE)
    new = bytearray(old)
    new[100] = new[100 + CHUNK_OVERHEAD - 1] = 1  # a gap of overhead - 2 bytes: joined
    new[500] = new[500 + CHUNK_OVERHEAD + 1] = 1  # a gap of overhead bytes: apart
    chunks = changed_chunks(old, bytes(new))
    assert [(o, len(d)) for o, d in chunks] == [(100, CHUNK_OVERHEAD), (500, 1), (500 + CHUNK_OVERHEAD + 1, 1)]


def test_a_run_longer_than_a_chunk_is_cut() -> None:
    old = bytes(p.FRAME_SIZE)
    new = bytes(10) + bytes([1]) * 100 + bytes(p.FRAME_SIZE - 110)
    assert [(o, len(d)) for o, d in changed_chunks(old, new, 32)] == [(10, 32), (42, 32), (74, 32), (106, 4)]


def test_unknown_old_frame_and_same_frame() -> None:
    frame = random.Random(5).randbytes(p.FRAME_SIZE)
    chunks = changed_chunks(None, frame)
    assert [o for o, _ in chunks] == list(range(0, p.FRAME_SIZE, 64)) and apply(bytes(p.FRAME_SIZE), chunks) == frame
    assert changed_chunks(frame, frame) == []


def test_bad_chunk_sizes_and_frames_are_refused() -> None:
    with pytest.raises(ValueError, match="a chunk holds 1 to 64 bytes, not 65"):
        changed_chunks(None, bytes(p.FRAME_SIZE), 65)
    with pytest.raises(ValueError, match="frames of 10 and 1024 bytes"):
        changed_chunks(bytes(10), bytes(p.FRAME_SIZE))


def reference_chunks(old: bytes, new: bytes, size: int) -> list[tuple[int, bytes]]:
    """changed_chunks byte by byte: the runs of differing bytes, gaps under the overhead
    joined, each run cut at ``size``."""
    runs: list[list[int]] = []
    for i in range(len(new)):
        if old[i] != new[i]:
            if runs and i - runs[-1][1] < CHUNK_OVERHEAD:
                runs[-1][1] = i + 1
            else:
                runs.append([i, i + 1])
    return [(o, new[o : min(o + size, end)]) for start, end in runs for o in range(start, end, size)]


def test_the_chunks_are_those_of_the_byte_by_byte_diff() -> None:
    # (each new frame is the next one's old, as the screen book diffs them, and also not)
    rng = random.Random(24)
    old = rng.randbytes(p.FRAME_SIZE)
    for case in range(3000):
        new = bytearray(old)
        for _ in range(rng.choice([0, 1, 3, 10, 40, 400])):
            at = rng.randrange(p.FRAME_SIZE)
            data = rng.randbytes(rng.randrange(1, 30))[: p.FRAME_SIZE - at]
            new[at : at + len(data)] = data
        new = bytes(new)
        if case % 3 == 0:
            old = bytes(bytearray(old))  # an equal frame, not the one diffed last
        size = rng.choice([16, 32, 64])
        assert changed_chunks(old, new, size) == reference_chunks(old, new, size), case
        old = new


def test_a_frame_changed_in_place_is_diffed_as_it_is_now() -> None:
    # (the diff keeps the newest frame's integer for the next diff: a bytes frame's only)
    frame = bytearray(p.FRAME_SIZE)
    changed_chunks(bytes([1]) * p.FRAME_SIZE, frame)
    frame[5] = 7
    assert changed_chunks(frame, bytes(p.FRAME_SIZE)) == [(5, bytes(1))]
