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
    raw = image.convert("1").transpose(Image.Transpose.ROTATE_270).tobytes()
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
    return [
        (offset, new[offset : min(offset + size, end)])
        for start, end in runs
        for offset in range(start, end, size)
    ]


def _runs(old: bytes, new: bytes) -> list[tuple[int, int]]:
    """[start, end) spans where the frames differ, gaps under CHUNK_OVERHEAD bridged."""
    runs: list[tuple[int, int]] = []
    # Whole 64-byte slices compare in C; only a slice that differs is walked byte by byte.
    for base in range(0, len(new), MAX_CHUNK):
        if old[base : base + MAX_CHUNK] == new[base : base + MAX_CHUNK]:
            continue
        for i in range(base, min(base + MAX_CHUNK, len(new))):
            if old[i] == new[i]:
                continue
            if runs and i - runs[-1][1] < CHUNK_OVERHEAD:
                runs[-1] = (runs[-1][0], i + 1)
            else:
                runs.append((i, i + 1))
    return runs
