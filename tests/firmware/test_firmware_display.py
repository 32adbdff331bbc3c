"""The OLED: host frames appear only after their CRC checks; the Pico's own screens."""

import zlib

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


def send(d: Display, screen_id: int, img: bytes, chunks=range(0, 1024, 64)) -> None:
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
