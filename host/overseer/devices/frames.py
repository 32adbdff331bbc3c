"""Screens for the SSD1306: a 128x64 1-bit image packed in its page layout, and the chunks of a
frame that changed (docs/protocol.md, Frames).

MONO_VLSB (MicroPython ``framebuf.MONO_VLSB``, the SSD1306's own RAM layout): 8 pages of 128
bytes, byte ``x`` of page ``n`` holding column ``x`` of rows ``8n .. 8n+7``, bit 0 the top row.
"""

from __future__ import annotations

from PIL import Image

from overseer.devices.protocol import CRC_SIZE, HEADER_SIZE, MAX_CHUNK

WIDTH, HEIGHT = 128, 64
PAGES = HEIGHT // 8
# What one more FRAME_CHUNK block costs beyond its data: the block's header and CRC, and the
# chunk's screen_id and offset. Two changed runs closer than this go in one chunk.
CHUNK_OVERHEAD = HEADER_SIZE + CRC_SIZE + 4


def vlsb(image: Image.Image) -> bytes:
    """The 1024 bytes of a 128x64 image (mode "1"; other modes are converted) in MONO_VLSB."""
    if image.size != (WIDTH, HEIGHT):
        width, height = image.size
        raise ValueError(f"a screen is {WIDTH}x{HEIGHT} pixels, not {width}x{height}")
    # Turned a quarter clockwise, each column of the screen is a row of the turned image, read
    # bottom to top: packed 8 pixels a byte (first pixel in the high bit), byte j of row x holds
    # rows 63-8j .. 56-8j of column x, its low bit the top row of page 7-j.
    if image.mode != "1":
        image = image.convert("1")
    raw = image.transpose(Image.Transpose.ROTATE_270).tobytes()
    return b"".join(raw[PAGES - 1 - page :: PAGES] for page in range(PAGES))


def changed_chunks(old: bytes | None, new: bytes, size: int = MAX_CHUNK) -> list[tuple[int, bytes]]:
    """The (offset, data) chunks that turn ``old`` into ``new``, each at most ``size`` bytes:
    the runs of bytes that differ, two runs with a gap shorter than a chunk's overhead joined.
    ``old`` None (what the Pico holds is unknown): the whole frame."""
    if not 1 <= size <= MAX_CHUNK:
        raise ValueError(f"a chunk holds 1 to {MAX_CHUNK} bytes, not {size}")
    chunks: list[tuple[int, bytes]] = []
    for start, end in changed_runs(old, new):  # each run cut at ``size``
        for offset in range(start, end, size):
            stop = offset + size
            chunks.append((offset, new[offset : stop if stop < end else end]))
    return chunks


def changed_runs(old: bytes | None, new: bytes) -> list[tuple[int, int]]:
    """The [start, end) runs of bytes that differ (``changed_chunks`` cuts them in chunks), two
    runs with a gap shorter than a chunk's overhead joined; ``old`` None: the whole frame."""
    if old is None:
        return [(0, len(new))]
    if len(old) != len(new):
        raise ValueError(f"frames of {len(old)} and {len(new)} bytes")
    return _runs(old, new)


_GAP = bytes(CHUNK_OVERHEAD)  # a run ends where this many bytes in a row agree
# The newest frame diffed and its integer: the next screen's diff starts from it (its ``old``),
# and ``int.from_bytes`` of a frame is a fifth of a diff. One tuple, read and set whole.
_newest: tuple[bytes, int] = (b"", 0)


def _runs(old: bytes, new: bytes) -> list[tuple[int, int]]:
    """[start, end) spans where the frames differ, gaps under CHUNK_OVERHEAD bridged.

    In bulk, in C: the two frames XORed as integers (0 bytes where they agree), the runs found
    with ``bytes.find`` (the next gap of CHUNK_OVERHEAD zero bytes) and ``lstrip``/``rstrip``
    of zero bytes (the first and last differing byte), never byte by byte in Python."""
    global _newest
    size = len(new)
    frame, number = _newest
    new_number = int.from_bytes(new)
    if new.__class__ is bytes:  # (kept by identity: only a frame that cannot change)
        _newest = (new, new_number)
    xor = ((number if old is frame else int.from_bytes(old)) ^ new_number).to_bytes(size)
    runs: list[tuple[int, int]] = []
    start = size - len(xor.lstrip(b"\0"))
    while start < size:
        gap = xor.find(_GAP, start)
        if gap < 0:
            runs.append((start, len(xor.rstrip(b"\0"))))
            break
        runs.append((start, gap))
        start = size - len(xor[gap:].lstrip(b"\0"))
    return runs
