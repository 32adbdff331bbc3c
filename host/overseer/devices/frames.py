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
    if old is None:
        runs = [(0, len(new))]
    else:
        if len(old) != len(new):
            raise ValueError(f"frames of {len(old)} and {len(new)} bytes")
        runs = _runs(old, new)
    chunks: list[tuple[int, bytes]] = []
    for start, end in runs:  # each run cut at ``size``: whole chunks, then the run's rest
        whole = end - (end - start) % size
        chunks += [(offset, new[offset : offset + size]) for offset in range(start, whole, size)]
        if whole < end:
            chunks.append((whole, new[whole:end]))
    return chunks


_DIFFERS = bytes([0]) + bytes([1]) * 255  # bytes.translate: 0 where two frames agree, 1 where not
_GAP = bytes(CHUNK_OVERHEAD)  # a run ends where this many bytes in a row agree


def _runs(old: bytes, new: bytes) -> list[tuple[int, int]]:
    """[start, end) spans where the frames differ, gaps under CHUNK_OVERHEAD bridged.

    In bulk, in C: the two frames XORed as integers, each byte of that turned into 0 (the same)
    or 1 (differs), and the runs found with ``bytes.find`` (a differing byte, then the next gap
    of CHUNK_OVERHEAD agreeing bytes), never byte by byte in Python."""
    size = len(new)
    mask = (int.from_bytes(old) ^ int.from_bytes(new)).to_bytes(size).translate(_DIFFERS)
    runs: list[tuple[int, int]] = []
    start = mask.find(1)
    while start >= 0:
        gap = mask.find(_GAP, start)
        if gap < 0:
            runs.append((start, mask.rfind(1) + 1))
            break
        runs.append((start, gap))
        start = mask.find(1, gap)
    return runs
