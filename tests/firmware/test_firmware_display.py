"""The OLED: host frames appear only after their CRC checks; the Pico's own screens."""

import random
import zlib
from collections.abc import Iterable

import machine
from display import Display
from ssd1306 import SSD1306_I2C


def image(seed: int) -> bytes:
    return bytes((i * seed + 7) & 0xFF for i in range(1024))


def make() -> tuple[Display, machine.I2C]:
    i2c = machine.I2C(0)
    return Display(SSD1306_I2C(128, 64, i2c)), i2c


def glass(i2c: machine.I2C) -> bytes:
    return bytes(i2c.device.ram)


def send(d: Display, screen_id: int, img: bytes, chunks: Iterable[int] = range(0, 1024, 64)
         ) -> None:
    for off in chunks:
        assert d.chunk(screen_id, off, img[off : off + 64])


def test_driver_writes_its_buffer_to_the_controller_ram() -> None:
    i2c = machine.I2C(0)
    oled = SSD1306_I2C(128, 64, i2c)
    assert glass(i2c) == bytes(1024)
    oled.pixel(0, 0, 1)  # top left: page 0, column 0, bit 0
    oled.pixel(127, 63, 1)  # bottom right: page 7, column 127, bit 7
    oled.show()
    g = glass(i2c)
    assert g[0] == 0x01 and g[1023] == 0x80 and sum(g) == 0x81


def test_frame_shown_only_when_the_crc_matches() -> None:
    d, i2c = make()
    img = image(3)
    send(d, 5, img)
    assert d.accept(5, zlib.crc32(img))
    assert d.show_host()
    assert glass(i2c) == img
    assert d.on_glass() == 5


def test_crc_mismatch_keeps_the_old_image() -> None:
    d, i2c = make()
    old = image(3)
    send(d, 5, old)
    assert d.accept(5, zlib.crc32(old))
    d.show_host()
    new = image(5)
    send(d, 6, new, chunks=range(0, 1024 - 64, 64))  # the last chunk was lost
    assert not d.accept(6, zlib.crc32(new))
    assert d.shown == old
    assert glass(i2c) == old
    assert d.on_glass() == 5


def test_a_new_screen_starts_from_the_shown_image() -> None:
    d, i2c = make()
    old = image(3)
    send(d, 5, old)
    d.accept(5, zlib.crc32(old))
    new = bytearray(old)
    new[100:110] = bytes(10)
    assert d.chunk(6, 64, bytes(new[64:128]))  # only the chunk that changed
    assert d.accept(6, zlib.crc32(bytes(new)))
    d.show_host()
    assert glass(i2c) == bytes(new)


def test_show_without_chunks_reshows_the_same_image_under_a_new_id() -> None:
    d, _ = make()
    img = image(9)
    send(d, 5, img)
    d.accept(5, zlib.crc32(img))
    assert d.accept(7, zlib.crc32(img))
    assert d.shown_id == 7


def test_chunk_past_the_end_is_refused_and_changes_nothing() -> None:
    d, _ = make()
    assert not d.chunk(5, 1000, bytes(25))
    assert d.back == bytearray(1024)
    assert d.chunk(5, 1000, b"\x01" * 24)


def test_nothing_to_show_before_the_first_host_frame() -> None:
    d, i2c = make()
    assert not d.show_host()
    assert glass(i2c) == bytes(1024)


def test_own_screens_draw_and_are_not_host_screens() -> None:
    d, i2c = make()
    seen = set()
    img = image(3)
    send(d, 5, img)
    d.accept(5, zlib.crc32(img))
    d.show_host()
    for draw in (
        lambda: d.boot("overseer-fw 0.1.0"),
        d.waiting,
        d.link_lost,
        lambda: d.die(0, 12, 0),
        lambda: d.die(0, 12, 1),
        lambda: d.die(1, 6, 0),
        lambda: d.die(2, 6, 0),
    ):
        draw()
        g = glass(i2c)
        assert any(g)
        assert d.on_glass() == 0
        seen.add(g)
    assert len(seen) == 7
    assert d.shown == img  # the host image is kept for when the link comes back
    d.show_host()
    assert glass(i2c) == img


def test_a_missing_display_does_not_stop_the_board() -> None:
    i2c = machine.I2C(0)
    oled = SSD1306_I2C(128, 64, i2c, address=0x3D)  # nothing answers there
    d = Display(oled)
    d.waiting()
    assert oled.failures > 0
    assert glass(i2c) == bytes(1024)


# Only what changed goes over I2C


def shown(d: Display, screen_id: int, img: bytes, chunks: Iterable[int] = range(0, 1024, 64)
          ) -> None:
    send(d, screen_id, img, chunks)
    assert d.accept(screen_id, zlib.crc32(img))


def written(i2c: machine.I2C, action) -> tuple[int, int]:
    """(I2C writes, bytes after the address) that ``action()`` sent to the OLED."""
    writes, sent = i2c.writes, i2c.sent
    action()
    return i2c.writes - writes, i2c.sent - sent


def on_glass() -> tuple[Display, machine.I2C]:
    """A display whose panel shows host image 3 (screen 5), with the writes that put it there
    behind it."""
    d, i2c = make()
    shown(d, 5, image(3))
    d.show_host()
    return d, i2c


WINDOW = 13  # 0x21 first last, 0x22 first last, each byte after control byte 0x80; then 0x40
WHOLE = (1, WINDOW + 1024)  # one write: the window, then the whole RAM


def test_the_first_host_image_goes_whole() -> None:
    d, i2c = make()
    img = bytearray(1024)
    img[128:192] = image(3)[128:192]
    shown(d, 5, bytes(img), chunks=[128])  # one chunk sent: the rest zero, as on the panel
    assert written(i2c, d.show_host) == WHOLE
    assert glass(i2c) == d.shown


def test_one_changed_chunk_writes_only_that_chunk() -> None:
    d, i2c = on_glass()
    new = bytearray(image(3))
    new[5 * 64 + 10] ^= 0xFF  # chunk 5: page 2, columns 64-127
    shown(d, 6, bytes(new), chunks=[5 * 64])
    assert written(i2c, d.show_host) == (1, WINDOW + 64)
    assert glass(i2c) == new
    assert bytes(i2c.device.ram[2 * 128 + 64 : 3 * 128]) == new[5 * 64 : 6 * 64]


def test_changes_across_pages_write_one_window_per_run() -> None:
    d, i2c = on_glass()
    old = image(3)
    new = bytearray(old)
    for chunk in (4, 5, 6, 7, 11):  # pages 2 and 3 whole, page 5's right half
        new[chunk * 64] ^= 0x0F
    shown(d, 6, bytes(new), chunks=[c * 64 for c in (4, 5, 6, 7, 11)])
    assert written(i2c, d.show_host) == (2, WINDOW + 256 + WINDOW + 64)
    assert glass(i2c) == new
    newer = bytearray(new)
    for chunk in (2, 4, 6):  # the left halves of pages 1, 2 and 3: one window, three parts
        newer[chunk * 64 + 63] ^= 0x80
    shown(d, 7, bytes(newer), chunks=[c * 64 for c in (2, 4, 6)])
    assert written(i2c, d.show_host) == (1, WINDOW + 3 * 64)
    assert glass(i2c) == newer


def test_a_chunk_across_a_boundary_marks_both_halves() -> None:
    d, i2c = on_glass()
    new = bytearray(image(3))
    new[100:164] = bytes(64)  # bytes of chunk 1 (page 0 right) and chunk 2 (page 1 left)
    assert d.chunk(7, 100, bytes(64))
    assert d.accept(7, zlib.crc32(bytes(new)))
    assert written(i2c, d.show_host) == (2, 2 * (WINDOW + 64))
    assert glass(i2c) == new


def test_frames_accepted_behind_the_glass_add_up() -> None:
    d, i2c = on_glass()
    new = bytearray(image(3))
    new[0] ^= 1
    shown(d, 6, bytes(new), chunks=[0])  # accepted, not shown (a die holds the glass) ...
    new[1023] ^= 1
    shown(d, 7, bytes(new), chunks=[960])  # ... then the next one: both chunks are written
    assert written(i2c, d.show_host) == (2, 2 * (WINDOW + 64))
    assert glass(i2c) == new


def test_a_refused_frame_marks_nothing() -> None:
    d, i2c = on_glass()
    send(d, 6, image(5))  # every chunk, then a wrong CRC: the old image stays
    assert not d.accept(6, 1234)
    new = bytearray(image(3))
    new[700] ^= 4
    shown(d, 8, bytes(new), chunks=[640])  # a new screen starts again from the shown image
    assert written(i2c, d.show_host) == (1, WINDOW + 64)
    assert glass(i2c) == new


def test_an_image_equal_to_the_shown_one_writes_nothing() -> None:
    d, i2c = on_glass()
    shown(d, 6, image(3))  # every chunk sent again, the same bytes: a new id, nothing new
    assert written(i2c, d.show_host) == (0, 0)
    assert d.on_glass() == 6
    new = bytearray(image(3))
    new[300] ^= 1
    shown(d, 7, bytes(new), chunks=[256])  # a changed one after it: only its chunk goes
    assert written(i2c, d.show_host) == (1, WINDOW + 64)
    assert glass(i2c) == new


def test_a_checked_back_buffer_is_taken_as_shown() -> None:
    d, i2c = on_glass()
    new = bytearray(image(3))
    new[5] ^= 1
    send(d, 6, bytes(new), chunks=[0])
    assert not d.check(6, zlib.crc32(image(3)))
    assert d.shown_id == 5  # a check takes nothing
    assert d.check(6, zlib.crc32(bytes(new)))
    assert d.shown_id == 5 and d.shown == image(3)
    d.take()
    assert d.shown_id == 6 and d.shown == new
    assert written(i2c, d.show_host) == (1, WINDOW + 64)
    assert glass(i2c) == new


def test_after_an_own_screen_the_host_image_goes_whole() -> None:
    d, i2c = on_glass()
    for own in (d.waiting, d.link_lost, lambda: d.die(0, 7, 0), lambda: d.boot("x")):
        own()
        new = bytearray(d.shown)
        new[0] ^= 1
        shown(d, d.shown_id + 1, bytes(new), chunks=[0])
        assert written(i2c, d.show_host) == WHOLE
        assert glass(i2c) == new


def test_after_a_failed_write_the_next_image_goes_whole() -> None:
    d, i2c = on_glass()
    real = i2c.writevto

    def loose(addr, vector, stop=True):
        raise OSError(5)  # EIO: the cable came loose for a moment

    i2c.writevto = loose
    new = bytearray(image(3))
    new[0] ^= 1
    shown(d, 6, bytes(new), chunks=[0])
    d.show_host()
    assert glass(i2c) != new  # the panel missed it
    i2c.writevto = real
    new[1023] ^= 1
    shown(d, 7, bytes(new), chunks=[960])
    assert written(i2c, d.show_host) == WHOLE
    assert glass(i2c) == new


def test_the_panel_always_holds_the_shown_image() -> None:
    """Random chunks (any offset and length), accepted and refused frames, own screens."""
    rng = random.Random(11)
    d, i2c = make()
    target = bytearray(1024)
    screen = 1
    for _ in range(400):
        roll = rng.random()
        if roll < 0.6:
            for _ in range(rng.randint(0, 4)):
                offset = rng.randrange(1024)
                data = rng.randbytes(rng.randint(1, min(64, 1024 - offset)))
                assert d.chunk(screen, offset, data)
                target[offset : offset + len(data)] = data
            if rng.random() < 0.1:
                assert not d.accept(screen, zlib.crc32(bytes(target)) ^ 1)
                target[:] = d.shown
            else:
                assert d.accept(screen, zlib.crc32(bytes(target)))
            screen += 1
        elif roll < 0.9:
            if d.show_host():
                assert glass(i2c) == d.shown == target
        else:
            rng.choice((d.waiting, d.link_lost, lambda: d.die(1, 3, rng.randint(0, 5))))()
