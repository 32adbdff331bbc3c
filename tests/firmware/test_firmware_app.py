"""The board's logic end to end under CPython: handshake, frames, buttons, rolls, link loss."""

import struct
import zlib

import app
import buttons
import dice
import link

from tests.firmware.fwtools import FakeUrandom, Rig, of_type

IMAGE = bytes((i * 13 + 1) & 0xFF for i in range(1024))


def ack_all(rig: Rig, msgs: list) -> None:
    reliable = [m for m in msgs if m[0] in (link.BUTTON, link.ROLL_RESULT)]
    if reliable:
        rig.send(link.ACK, bytes([reliable[-1][1]]))


def test_boot_heartbeats_then_ident_on_hello() -> None:
    rig = Rig(FakeUrandom(b"\x34\x12" + bytes(range(256))))
    rig.run(600)
    beats = of_type(rig.take(), link.PICO_HEARTBEAT)
    assert len(beats) == 2
    assert beats[0][2] == struct.pack("<HH", 0x1234, 0)
    (ident,) = rig.hello()
    assert ident == (link.IDENT, 0, struct.pack("<BH", link.PROTOCOL, 0x1234) + app.FIRMWARE.encode())


def test_no_reliable_message_before_the_first_hello() -> None:
    rig = Rig()
    rig.run(900)
    rig.press(1, 100)
    assert of_type(rig.take(), link.BUTTON) == []
    rig.hello()
    rig.run(1)
    down, short = of_type(rig.take(), link.BUTTON)
    assert down[1:] == (1, struct.pack("<HBB", 1, 1, buttons.DOWN))
    assert short[1:] == (2, struct.pack("<HBB", 2, 1, buttons.SHORT))


def test_a_press_leaves_on_its_first_edge() -> None:
    rig = Rig()
    rig.run(900)
    rig.hello()
    rig.switches[1].set(0)
    rig.run(1)
    (down,) = of_type(rig.take(), link.BUTTON)  # the loop pass after the edge sends it
    assert down[2] == struct.pack("<HBB", 1, 1, buttons.DOWN)
    rig.send(link.ACK, bytes([down[1]]))
    rig.run(buttons.LONG_MS)
    (long,) = of_type(rig.take(), link.BUTTON)  # still held: LONG, before any release
    assert long[2] == struct.pack("<HBB", 2, 1, buttons.LONG)
    rig.send(link.ACK, bytes([long[1]]))
    rig.switches[1].set(1)
    rig.run(100)
    assert of_type(rig.take(), link.BUTTON) == []  # the release says nothing after LONG


def test_one_cumulative_ack_for_a_batch_of_reliable_messages() -> None:
    rig = Rig()
    rig.hello()
    batch = b"".join(
        link.encode(seq, link.FRAME_CHUNK, struct.pack("<HH", 3, 64 * seq) + bytes(64))
        for seq in (1, 2, 3)
    )
    rig.send_raw(batch)
    assert rig.take() == [(link.PICO_ACK, 0, b"\x03")]


def test_frame_is_shown_acked_and_reported_in_heartbeats() -> None:
    rig = Rig()
    rig.run(900)
    rig.hello()
    rig.show_image(9, IMAGE)
    acks = of_type(rig.take(), link.PICO_ACK)
    assert [a[2][0] for a in acks] == list(range(1, 18))  # one receive() per block here
    assert rig.glass != IMAGE  # acknowledged first, blitted by the next step
    rig.run(1)
    assert rig.glass == IMAGE
    rig.run(250)
    (beat,) = of_type(rig.take(), link.PICO_HEARTBEAT)
    assert struct.unpack("<HH", beat[2])[1] == 9


def test_bad_frame_crc_keeps_the_old_screen_and_reports_it() -> None:
    rig = Rig()
    rig.run(900)
    rig.hello()
    rig.show_image(9, IMAGE)
    rig.run(1)
    rig.take()
    rig.send(link.FRAME_CHUNK, struct.pack("<HH", 10, 0) + bytes(64))
    rig.send(link.FRAME_SHOW, struct.pack("<HI", 10, zlib.crc32(IMAGE)))  # wrong for screen 10
    rig.run(1)
    msgs = rig.take()
    assert of_type(msgs, link.ERROR) == [(link.ERROR, 0, bytes([link.ERROR_FRAME_CRC]))]
    assert rig.glass == IMAGE


def test_chunk_past_the_end_is_an_error() -> None:
    rig = Rig()
    rig.hello()
    rig.send(link.FRAME_CHUNK, struct.pack("<HH", 3, 1000) + bytes(64))
    msgs = rig.take()
    assert of_type(msgs, link.ERROR) == [(link.ERROR, 0, bytes([link.ERROR_BAD_CHUNK]))]
    assert of_type(msgs, link.PICO_ACK) == [(link.PICO_ACK, 0, b"\x01")]


def test_gap_is_dropped_and_the_last_seq_acked_again() -> None:
    rig = Rig()
    rig.run(900)
    rig.hello()
    show = struct.pack("<HI", 4, zlib.crc32(bytes(1024)))
    rig.send_raw(link.encode(2, link.FRAME_SHOW, show))  # seq 1 was lost
    assert rig.take() == [(link.PICO_ACK, 0, b"\x00")]
    assert rig.display.shown_id == 0
    rig.send_raw(link.encode(1, link.ROLL_REQUEST, struct.pack("<HB", 7, 0)))
    rig.send_raw(link.encode(2, link.FRAME_SHOW, show))
    assert [m[2] for m in rig.take()] == [b"\x01", b"\x02"]
    assert rig.display.shown_id == 4


def test_a_retransmitted_roll_request_is_rolled_once() -> None:
    rig = Rig()
    rig.run(900)
    rig.hello()
    request = link.encode(1, link.ROLL_REQUEST, struct.pack("<HB", 300, dice.D12))
    rig.send_raw(request)
    rig.send_raw(request)  # our ACK was lost: the host sends it again
    rig.run(app.TUMBLE_MS + 10)
    msgs = rig.take()
    assert [m[2] for m in of_type(msgs, link.PICO_ACK)] == [b"\x01", b"\x01"]
    (result,) = of_type(msgs, link.ROLL_RESULT)
    event_id, roll_id, die, face = struct.unpack("<HHBB", result[2])
    assert (roll_id, die) == (300, dice.D12) and 1 <= face <= 12


def test_roll_request_uses_the_fair_die_and_a_repeat_gets_the_same_face() -> None:
    # boot id 0x0000, then tumble and result bytes: the first byte drawn for the result is 0x07
    rig = Rig(FakeUrandom(b"\x00\x00\x07" + bytes([0x0D] * 64)))
    rig.run(900)
    rig.hello()
    rig.send(link.ROLL_REQUEST, struct.pack("<HB", 41, dice.D12))
    rig.run(app.TUMBLE_MS + 10)
    (result,) = of_type(rig.take(), link.ROLL_RESULT)
    assert struct.unpack("<HHBB", result[2]) == (1, 41, dice.D12, 8)
    draws = rig.urandom.i
    rig.send(link.ROLL_REQUEST, struct.pack("<HB", 41, dice.D12))  # after a reconnect, say
    rig.run(5)
    (again,) = of_type(rig.take(), link.ROLL_RESULT)
    assert again[2] == result[2]
    assert rig.urandom.i == draws  # not rolled again


def test_roll_request_for_an_unknown_die_is_refused() -> None:
    rig = Rig()
    rig.hello()
    rig.send(link.ROLL_REQUEST, struct.pack("<HB", 1, 3))
    rig.run(app.TUMBLE_MS + 10)
    msgs = rig.take()
    assert of_type(msgs, link.ERROR) == [(link.ERROR, 0, bytes([link.ERROR_BAD_ROLL]))]
    assert of_type(msgs, link.ROLL_RESULT) == []


def test_roll_button_short_d12_long_rune_die_tumbling_on_the_oled() -> None:
    rig = Rig()
    rig.run(900)
    rig.hello()
    rig.press(app.ROLL_BUTTON, 100)
    frames = set()
    for _ in range(app.TUMBLE_MS // 10):
        rig.run(10)
        frames.add(rig.glass)
    rig.run(app.RESULT_HOLD_MS)
    rig.press(app.ROLL_BUTTON, 700)
    rig.run(app.TUMBLE_MS + 10)
    results = {struct.unpack("<HHBB", m[2]) for m in of_type(rig.take(), link.ROLL_RESULT)}
    assert sorted(r[:3] for r in results) == [(1, 0, dice.D12), (2, 0, dice.RUNE)]
    assert len(frames) >= 5  # the tumble moves


def test_event_survives_a_reconnect_renumbered_with_the_same_event_id() -> None:
    rig = Rig()
    rig.run(900)
    rig.hello()
    rig.press(0, 100)
    rig.press(2, 700)
    first = set(of_type(rig.take(), link.BUTTON))  # sent, and sent again for want of an ACK
    assert first == {
        (link.BUTTON, 1, struct.pack("<HBB", 1, 0, buttons.DOWN)),
        (link.BUTTON, 2, struct.pack("<HBB", 2, 0, buttons.SHORT)),
        (link.BUTTON, 3, struct.pack("<HBB", 3, 2, buttons.DOWN)),
        (link.BUTTON, 4, struct.pack("<HBB", 4, 2, buttons.LONG)),
    }
    rig.send(link.ACK, b"\x02")  # the first press arrived
    rig.hello()  # replug
    rig.run(1)
    again = of_type(rig.take(), link.BUTTON)
    assert again == [
        (link.BUTTON, 1, struct.pack("<HBB", 3, 2, buttons.DOWN)),
        (link.BUTTON, 2, struct.pack("<HBB", 4, 2, buttons.LONG)),
    ]


def test_queue_of_32_then_queue_full_and_nothing_lost_or_doubled() -> None:
    rig = Rig()
    rig.run(900)
    rig.hello()
    for _ in range(18):  # 16 presses fill the queue (a DOWN and a SHORT each)
        rig.press(1, 30)
    msgs = rig.take()
    full = (link.ERROR, 0, bytes([link.ERROR_QUEUE_FULL]))
    assert of_type(msgs, link.ERROR) == [full, full]  # one for each press dropped whole
    seen = {}
    for _ in range(10):
        for m in of_type(msgs, link.BUTTON):
            seen[m[2]] = m
        ack_all(rig, msgs)
        rig.run(70)
        msgs = rig.take()
    assert sorted(struct.unpack("<H", p[:2])[0] for p in seen) == list(range(1, 33))


def test_link_lost_screen_then_the_host_image_comes_back() -> None:
    rig = Rig()
    rig.run(900)
    rig.hello()
    rig.show_image(9, IMAGE)
    rig.run(app.LINK_LOST_MS - 10)
    assert rig.glass == IMAGE
    rig.run(20)
    assert rig.glass != IMAGE
    lost = rig.glass
    rig.take()
    rig.run(250)
    (beat,) = of_type(rig.take(), link.PICO_HEARTBEAT)
    assert struct.unpack("<HH", beat[2])[1] == 0  # its own screen is up
    rig.send(link.HEARTBEAT)
    rig.run(1)
    assert rig.glass == IMAGE
    assert lost != rig.glass


def test_host_frame_during_a_roll_waits_for_the_result_to_be_seen() -> None:
    rig = Rig()
    rig.run(900)
    rig.hello()
    rig.send(link.ROLL_REQUEST, struct.pack("<HB", 5, dice.LOCATION))
    rig.run(100)
    for _ in range(3):
        rig.send(link.HEARTBEAT)
        rig.run(200)
    rig.show_image(9, IMAGE)
    assert rig.glass != IMAGE  # the die has the glass
    for _ in range(6):
        rig.send(link.HEARTBEAT)
        rig.run(200)
    assert rig.glass == IMAGE


def test_garbage_on_the_wire_changes_nothing() -> None:
    rig = Rig()
    rig.run(900)
    rig.hello()
    rig.show_image(9, IMAGE)
    rig.take()
    rig.send_raw(bytes(range(256)) * 3 + b"\x7e\x03\x7e")
    rig.run(5)
    msgs = rig.take()
    assert of_type(msgs, link.ERROR) == [] and of_type(msgs, link.PICO_ACK) == []
    assert rig.glass == IMAGE


def show_changed(rig: Rig, screen_id: int, image: bytes, offsets: list[int]) -> None:
    """The host's way: only the chunks at ``offsets``, then FRAME_SHOW of the whole image."""
    for off in offsets:
        rig.send(link.FRAME_CHUNK, struct.pack("<HH", screen_id, off) + image[off : off + 64])
    rig.send(link.FRAME_SHOW, struct.pack("<HI", screen_id, zlib.crc32(image)))


def sent_in(rig: Rig, ms: int) -> int:
    """Bytes the OLED received over I2C (after the address bytes) while the board ran ``ms``."""
    before = rig.i2c.sent
    rig.run(ms)
    return rig.i2c.sent - before


def test_a_changed_chunk_goes_alone_and_an_own_screen_makes_the_next_image_whole() -> None:
    rig = Rig()
    rig.run(900)
    rig.hello()
    rig.show_image(9, IMAGE)
    assert sent_in(rig, 1) == 13 + 1024  # the first host image after the waiting screen
    new = bytearray(IMAGE)
    new[3 * 64] ^= 0xFF
    show_changed(rig, 10, bytes(new), [3 * 64])
    assert sent_in(rig, 1) == 13 + 64
    assert rig.glass == new
    rig.run(app.LINK_LOST_MS)  # silence: the link-lost screen
    assert rig.display.on_glass() == 0
    new[1000] ^= 0xFF
    show_changed(rig, 11, bytes(new), [960])  # the link is back with a one-chunk change
    assert sent_in(rig, 1) == 13 + 1024
    assert rig.glass == new
    rig.send(link.ROLL_REQUEST, struct.pack("<HB", 5, dice.LOCATION))  # the die takes the glass
    for _ in range(10):
        rig.send(link.HEARTBEAT)
        rig.run(200)
    assert rig.display.on_glass() == 0
    ack_all(rig, rig.take())
    new[0] ^= 0xFF
    show_changed(rig, 12, bytes(new), [0])
    assert sent_in(rig, 1) == 13 + 1024
    assert rig.glass == new
