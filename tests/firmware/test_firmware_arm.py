"""FRAME_ARM (docs/protocol.md, Frames): an image the Pico puts on the glass the moment its
button goes DOWN while the host screen it follows is on the glass, before the BUTTON leaves;
each way the arm ends; the refusals; a FRAME_SHOW of the image already shown writes nothing."""

import struct
import zlib

import app
import buttons
import dice
import link

from tests.firmware.fwtools import Rig, of_type

NEXT, OK = 0, 1
SHOWN = bytes((i * 13 + 1) & 0xFF for i in range(1024))  # screen 10, on the glass
ARMED = bytes(b ^ 0x5A if 300 <= i < 420 else b for i, b in enumerate(SHOWN))  # screen 11


def arm(rig: Rig, screen_id: int = 11, button: int = NEXT, after: int = 10,
        crc: int | None = None) -> None:
    """FRAME_ARM for ``screen_id`` (ARMED), its changed bytes sent first as FRAME_CHUNKs."""
    rig.send(link.FRAME_CHUNK, struct.pack("<HH", screen_id, 300) + ARMED[300:364])
    rig.send(link.FRAME_CHUNK, struct.pack("<HH", screen_id, 364) + ARMED[364:420])
    crc = zlib.crc32(ARMED) if crc is None else crc
    rig.send(link.FRAME_ARM, struct.pack("<HIBH", screen_id, crc, button, after))


def ready() -> Rig:
    """A board after its handshake with host screen 10 on the glass."""
    rig = Rig()
    rig.run(900)
    rig.hello()
    rig.show_image(10, SHOWN)
    rig.run(1)
    assert rig.glass == SHOWN
    rig.take()
    return rig


def down(rig: Rig, code: int) -> list:
    """Press ``code``: the loop pass after its edge; the messages that came of it."""
    rig.switches[code].set(0)
    rig.run(1)
    return rig.take()


def beat(rig: Rig) -> int:
    """The screen id the next HEARTBEAT reports."""
    rig.run(app.HEARTBEAT_MS)
    return struct.unpack("<HH", of_type(rig.take(), link.PICO_HEARTBEAT)[-1][2])[1]


def test_the_armed_image_is_on_the_glass_before_the_button_down_leaves() -> None:
    rig = ready()
    arm(rig)
    assert of_type(rig.take(), link.ERROR) == []
    rig.run(5)
    assert rig.glass == SHOWN  # armed, not shown
    glass_at = []  # what the glass held as each block was written

    def write(block: bytes) -> None:
        glass_at.append((block[3], rig.glass))
        rig.out.extend(block)

    rig.app.write = rig.app.sender.write = write
    (button,) = of_type(down(rig, NEXT), link.BUTTON)
    assert button[2] == struct.pack("<HBB", 1, NEXT, buttons.DOWN)  # reported as always
    assert [g for typ, g in glass_at if typ == link.BUTTON] == [ARMED]
    assert rig.display.on_glass() == 11  # the host image shown, as an accepted FRAME_SHOW
    assert beat(rig) == 11


def test_the_real_screen_sent_again_after_the_press_writes_nothing() -> None:
    rig = ready()
    arm(rig)
    down(rig, NEXT)
    writes = rig.i2c.writes
    # the host sends the screen again (a new id, the bytes it changed against screen 10)
    rig.send(link.FRAME_CHUNK, struct.pack("<HH", 12, 300) + ARMED[300:364])
    rig.send(link.FRAME_CHUNK, struct.pack("<HH", 12, 364) + ARMED[364:420])
    rig.send(link.FRAME_SHOW, struct.pack("<HI", 12, zlib.crc32(ARMED)))
    rig.run(1)
    assert of_type(rig.take(), link.ERROR) == []
    assert rig.i2c.writes == writes
    assert beat(rig) == 12 and rig.glass == ARMED


def test_a_frame_show_of_the_shown_image_writes_nothing() -> None:
    rig = ready()
    writes = rig.i2c.writes
    rig.show_image(13, SHOWN)  # every chunk, the same bytes
    rig.run(1)
    assert rig.i2c.writes == writes
    assert beat(rig) == 13


def test_the_down_fires_it_only_while_its_after_screen_is_on_the_glass() -> None:
    rig = ready()
    arm(rig, after=9)  # screen 10 is on the glass, not 9
    writes = rig.i2c.writes
    assert of_type(down(rig, NEXT), link.BUTTON) != []
    assert rig.i2c.writes == writes and rig.glass == SHOWN
    rig.switches[NEXT].set(1)
    rig.run(50)
    arm(rig, after=10)
    rig.show_image(14, SHOWN)  # the arm ends ...
    rig.run(1)
    assert rig.glass == SHOWN
    down(rig, NEXT)  # ... and the DOWN shows nothing
    assert rig.glass == SHOWN and beat(rig) == 14


def test_its_own_buttons_down_ends_it_when_it_is_not_shown() -> None:
    rig = ready()
    arm(rig, after=9)
    down(rig, NEXT)  # not shown: the arm is over
    rig.switches[NEXT].set(1)
    rig.run(50)
    rig.show_image(9, SHOWN)  # now the glass shows 9 (the same bytes)
    rig.run(1)
    down(rig, NEXT)
    assert rig.glass == SHOWN and beat(rig) == 9


def test_another_buttons_down_ends_it() -> None:
    rig = ready()
    arm(rig)
    assert of_type(down(rig, OK), link.BUTTON) != []
    down(rig, NEXT)
    assert rig.glass == SHOWN and beat(rig) == 10


def test_the_roll_buttons_down_ends_it() -> None:
    rig = ready()
    arm(rig)
    rig.switches[app.ROLL_BUTTON].set(0)
    rig.run(1)
    down(rig, NEXT)  # the die is not rolling yet: ROLL is held, short or long still unknown
    assert rig.glass == SHOWN and beat(rig) == 10


def test_an_armed_back_buffer_is_not_armed_for_another_button() -> None:
    rig = ready()
    arm(rig, button=OK)
    down(rig, NEXT)  # NEXT's DOWN: not OK's
    down(rig, OK)
    assert rig.glass == SHOWN


def test_ok_can_be_armed() -> None:
    rig = ready()
    arm(rig, button=OK)
    down(rig, OK)
    assert rig.glass == ARMED and beat(rig) == 11


def test_a_chunk_of_another_screen_ends_it() -> None:
    rig = ready()
    arm(rig)
    rig.send(link.FRAME_CHUNK, struct.pack("<HH", 12, 0) + SHOWN[:64])
    down(rig, NEXT)
    assert rig.glass == SHOWN and beat(rig) == 10


def test_a_chunk_of_the_armed_screen_ends_it_too() -> None:
    # the image whose CRC was checked is no longer the back buffer
    rig = ready()
    arm(rig)
    rig.send(link.FRAME_CHUNK, struct.pack("<HH", 11, 0) + bytes(64))
    down(rig, NEXT)
    assert rig.glass == SHOWN and beat(rig) == 10


def test_any_frame_show_ends_it_a_refused_one_too() -> None:
    rig = ready()
    arm(rig)
    rig.send(link.FRAME_SHOW, struct.pack("<HI", 11, 1234))  # the armed screen, a wrong CRC
    assert of_type(rig.take(), link.ERROR) == [(link.ERROR, 0, bytes([link.ERROR_FRAME_CRC]))]
    writes = rig.i2c.writes
    down(rig, NEXT)
    assert rig.i2c.writes == writes and beat(rig) == 10


def test_a_frame_arm_of_another_screen_replaces_it() -> None:
    rig = ready()
    arm(rig)
    other = bytearray(SHOWN)
    other[0] ^= 0xFF
    rig.send(link.FRAME_CHUNK, struct.pack("<HH", 12, 0) + other[:64])
    rig.send(link.FRAME_ARM, struct.pack("<HIBH", 12, zlib.crc32(bytes(other)), NEXT, 10))
    down(rig, NEXT)
    assert rig.glass == other and beat(rig) == 12


def test_a_refused_frame_arm_leaves_nothing_armed() -> None:
    rig = ready()
    arm(rig)
    rig.send(link.FRAME_ARM, struct.pack("<HIBH", 11, 1234, NEXT, 10))  # the same screen, bad
    assert of_type(rig.take(), link.ERROR) == [(link.ERROR, 0, bytes([link.ERROR_FRAME_CRC]))]
    down(rig, NEXT)
    assert rig.glass == SHOWN and beat(rig) == 10


def test_a_bad_crc_is_refused_and_nothing_armed() -> None:
    rig = ready()
    arm(rig, crc=zlib.crc32(SHOWN))
    msgs = rig.take()
    assert of_type(msgs, link.ERROR) == [(link.ERROR, 0, bytes([link.ERROR_FRAME_CRC]))]
    assert of_type(msgs, link.PICO_ACK)[-1][2] == bytes([rig.seq])  # acknowledged
    down(rig, NEXT)
    assert rig.glass == SHOWN and beat(rig) == 10


def test_the_roll_button_is_refused_like_a_bad_chunk() -> None:
    rig = ready()
    arm(rig, button=app.ROLL_BUTTON)
    assert of_type(rig.take(), link.ERROR) == [(link.ERROR, 0, bytes([link.ERROR_BAD_CHUNK]))]
    down(rig, NEXT)
    assert rig.glass == SHOWN
    rig.send(link.FRAME_SHOW, struct.pack("<HI", 11, zlib.crc32(ARMED)))  # the chunks stayed
    rig.run(1)
    assert of_type(rig.take(), link.ERROR) == [] and rig.glass == ARMED


def test_hello_ends_it() -> None:
    rig = ready()
    arm(rig)
    rig.hello()
    down(rig, NEXT)
    assert rig.glass == SHOWN and beat(rig) == 10


def test_a_die_that_starts_to_roll_ends_it() -> None:
    rig = ready()
    rig.show_image(12, SHOWN)  # waits behind the die, then shown: the arm's after screen
    arm(rig, after=12)
    rig.send(link.ROLL_REQUEST, struct.pack("<HB", 1, dice.D12))
    rig.run(1)
    assert rig.display.on_glass() == 0  # the die tumbles
    for _ in range(2):  # the die's time, the link kept up
        rig.run((app.TUMBLE_MS + app.RESULT_HOLD_MS) // 2 + app.TUMBLE_FRAME_MS)
        rig.send(link.HEARTBEAT)
    assert rig.glass == SHOWN and rig.display.on_glass() == 12
    down(rig, NEXT)
    assert rig.glass == SHOWN and beat(rig) == 12


def test_a_down_while_a_die_holds_the_glass_shows_nothing() -> None:
    rig = ready()
    rig.send(link.ROLL_REQUEST, struct.pack("<HB", 1, dice.D12))
    rig.run(app.TUMBLE_MS + 5)  # the face is up
    arm(rig, after=10)  # armed while the die holds the glass
    face = rig.glass
    assert of_type(down(rig, NEXT), link.BUTTON) != []
    assert rig.glass == face and beat(rig) == 0


def test_a_press_dropped_for_a_full_queue_shows_nothing() -> None:
    rig = ready()
    for _ in range(link.MAX_PENDING // 2):  # DOWN and SHORT each, none acknowledged
        rig.press(OK, 30)
    rig.take()
    arm(rig)
    msgs = down(rig, NEXT)
    assert of_type(msgs, link.ERROR) == [(link.ERROR, 0, bytes([link.ERROR_QUEUE_FULL]))]
    assert of_type(msgs, link.BUTTON) == [] and rig.glass == SHOWN


# The armed image kept (version 4): a FRAME_ARM of its id and CRC arms it again, no chunk sent.

OTHER = bytes(b ^ 0xA5 if 600 <= i < 700 else b for i, b in enumerate(SHOWN))  # screen 12


def test_the_kept_image_is_armed_again_over_a_new_screen_by_frame_arm_alone() -> None:
    rig = ready()
    arm(rig)
    rig.show_image(12, OTHER)  # the next screen ends the arm, not the image kept
    rig.run(1)
    assert rig.glass == OTHER
    rig.send(link.FRAME_ARM, struct.pack("<HIBH", 11, zlib.crc32(ARMED), NEXT, 12))
    assert of_type(rig.take(), link.ERROR) == []
    writes = rig.i2c.writes
    down(rig, NEXT)
    assert rig.glass == ARMED and beat(rig) == 11
    assert rig.i2c.writes > writes  # what differs from screen 12 (pages 2 to 5) written
    rig.send(link.FRAME_SHOW, struct.pack("<HI", 13, zlib.crc32(ARMED)))  # shown from 11 on
    rig.run(1)
    assert of_type(rig.take(), link.ERROR) == [] and beat(rig) == 13 and rig.glass == ARMED


def test_armed_again_it_fires_only_on_its_new_after_screen() -> None:
    rig = ready()
    arm(rig)
    rig.show_image(12, OTHER)
    rig.run(1)
    rig.send(link.FRAME_ARM, struct.pack("<HIBH", 11, zlib.crc32(ARMED), NEXT, 10))  # not 12
    assert of_type(rig.take(), link.ERROR) == []
    down(rig, NEXT)
    assert rig.glass == OTHER and beat(rig) == 12


def test_another_crc_for_the_kept_screen_is_checked_against_the_back_buffer() -> None:
    rig = ready()
    arm(rig)
    rig.show_image(12, OTHER)
    rig.run(1)
    rig.send(link.FRAME_ARM, struct.pack("<HIBH", 11, zlib.crc32(OTHER) ^ 1, NEXT, 12))
    assert of_type(rig.take(), link.ERROR) == [(link.ERROR, 0, bytes([link.ERROR_FRAME_CRC]))]
    down(rig, NEXT)
    assert rig.glass == OTHER and beat(rig) == 12


def test_a_new_arm_replaces_the_kept_image() -> None:
    rig = ready()
    arm(rig)
    rig.send(link.FRAME_CHUNK, struct.pack("<HH", 12, 600) + OTHER[600:664])
    rig.send(link.FRAME_CHUNK, struct.pack("<HH", 12, 664) + OTHER[664:700])
    rig.send(link.FRAME_ARM, struct.pack("<HIBH", 12, zlib.crc32(OTHER), NEXT, 10))
    assert of_type(rig.take(), link.ERROR) == []
    rig.send(link.FRAME_ARM, struct.pack("<HIBH", 11, zlib.crc32(ARMED), NEXT, 10))  # gone
    assert of_type(rig.take(), link.ERROR) == [(link.ERROR, 0, bytes([link.ERROR_FRAME_CRC]))]


def test_hello_drops_the_kept_image() -> None:
    rig = ready()
    arm(rig)
    rig.hello()
    rig.show_image(10, SHOWN)
    rig.run(1)
    rig.take()
    rig.send(link.FRAME_ARM, struct.pack("<HIBH", 11, zlib.crc32(ARMED), NEXT, 10))
    assert of_type(rig.take(), link.ERROR) == [(link.ERROR, 0, bytes([link.ERROR_FRAME_CRC]))]
    down(rig, NEXT)
    assert rig.glass == SHOWN
