"""The reliable window on its own: numbering, go-back-N, retransmit timers, the receiver and
the byte error estimate, with the clock passed in."""

from __future__ import annotations

import math
import random

import pytest

from overseer.devices import protocol as p
from overseer.devices.reliable import (
    ERROR_WINDOW,
    FAST_RETRANSMIT_FLOOR,
    MAX_BACKOFF,
    RETRANSMIT_TIMEOUT,
    ByteErrors,
    Receiver,
    SendWindow,
    next_seq,
)


def sent(data: bytes) -> list[tuple[int, p.Message]]:
    decoder = p.Decoder(p.HOST_TO_PICO)
    return [(b.seq, p.decode_message(b)) for b in decoder.feed(data)]


def rolls(n: int) -> list[p.RollRequest]:
    return [p.RollRequest(i, 0) for i in range(1, n + 1)]


def test_numbering_wraps_past_255_to_1() -> None:
    assert [next_seq(s) for s in (0, 1, 254, 255)] == [1, 2, 255, 1]


def test_eight_go_out_the_rest_wait_for_acks() -> None:
    window = SendWindow()
    for message in rolls(10):
        window.put(message)
    first = sent(window.pump(0.0))
    assert [seq for seq, _ in first] == list(range(1, 9))
    assert window.pump(0.001) == b""  # the window is full and nothing is due
    assert window.on_ack(3, 0.002) == [] and len(window.in_flight) == 5  # 1 to 3 settled
    assert [seq for seq, _ in sent(window.pump(0.002))] == [9, 10]


def test_the_whole_window_goes_again_after_the_timeout() -> None:
    window = SendWindow()
    for message in rolls(3):
        window.put(message)
    window.pump(0.0)
    assert window.deadline() == RETRANSMIT_TIMEOUT
    assert window.pump(RETRANSMIT_TIMEOUT / 2) == b""
    again = sent(window.pump(RETRANSMIT_TIMEOUT))
    assert [seq for seq, _ in again] == [1, 2, 3] and window.retransmits == 1
    assert window.deadline() == pytest.approx(RETRANSMIT_TIMEOUT + 2 * RETRANSMIT_TIMEOUT)


def test_each_timeout_without_progress_doubles_the_next_and_an_ack_resets_it() -> None:
    window = SendWindow()
    for message in rolls(3):
        window.put(message)
    now = 0.0
    window.pump(now)
    waits = []
    for _ in range(7):  # a starved Pico: nothing acknowledged
        deadline = window.deadline()
        assert deadline is not None
        waits.append(round(deadline - now, 6))
        assert window.pump(deadline - 0.001) == b""  # not before its time
        now = deadline + 1e-9  # (float sums: the deadline itself may round short)
        assert [seq for seq, _ in sent(window.pump(now))] == [1, 2, 3]
    t = RETRANSMIT_TIMEOUT
    assert waits == [t, 2 * t, 4 * t, 8 * t, 16 * t, 16 * t, 16 * t]
    assert window.backoff == MAX_BACKOFF
    window.on_ack(1, now + 0.01)  # progress: the timeout is back to its start
    assert window.backoff == 1 and window.deadline() == pytest.approx(now + RETRANSMIT_TIMEOUT)


def test_a_repeated_ack_before_the_oldest_resends_early() -> None:
    window = SendWindow()
    for message in rolls(4):
        window.put(message)
    window.pump(0.0)
    window.on_ack(1, 0.004)  # a round trip of 4 ms
    assert window.on_ack(1, 0.005) == []  # again: 2 never came
    fast = window.deadline()
    assert fast is not None and FAST_RETRANSMIT_FLOOR <= fast < RETRANSMIT_TIMEOUT
    assert [seq for seq, _ in sent(window.pump(fast))] == [2, 3, 4]


def test_copies_and_notes() -> None:
    window = SendWindow()
    window.put(p.FrameShow(1, 0xABCD), note="screen 1")
    window.put(p.RollRequest(1, 2))
    assert [seq for seq, _ in sent(window.pump(0.0, copies=2))] == [1, 1, 2, 2]
    assert window.on_ack(2, 0.001) == ["screen 1"]


def test_forgotten_notes_and_dropped_queue() -> None:
    window = SendWindow(size=1)
    window.put(p.FrameShow(1, 0), note="screen 1")
    window.put(p.FrameChunk(2, 0, b"x"))
    window.put(p.RollRequest(1, 0))
    window.pump(0.0)
    window.forget_notes(lambda note: note == "screen 1")
    window.drop_queued(lambda m: isinstance(m, p.FrameChunk))
    assert not window.has_queued(lambda m: isinstance(m, p.FrameChunk))
    assert window.has_queued(lambda m: isinstance(m, p.RollRequest))
    assert window.on_ack(1, 0.001) == []
    assert sent(window.pump(0.001)) == [(2, p.RollRequest(1, 0))]


def test_the_window_writes_encode_of_each_in_order_and_the_same_blocks_again() -> None:
    # (seeded: every host message, chunks of every size, both copies, SEQs wrapping past 255)
    rng = random.Random(24)

    def message() -> p.Message:
        kind = rng.randrange(6)
        if kind < 3:
            return p.FrameChunk(rng.randrange(65536), rng.randrange(1024),
                                rng.randbytes(rng.randrange(1, p.MAX_PAYLOAD - 3)))
        if kind == 3:
            return p.FrameShow(rng.randrange(65536), rng.randrange(2**32))
        if kind == 4:
            return p.FrameArm(rng.randrange(65536), rng.randrange(2**32), rng.randrange(5),
                              rng.randrange(65536))
        return p.RollRequest(rng.randrange(65536), rng.randrange(3))

    window, seq, now = SendWindow(size=24), 0, 0.0
    for _ in range(300):
        batch = [message() for _ in range(rng.randrange(1, 24))]
        copies = rng.choice([1, 2])
        window.put_all((m, None) for m in batch)
        seqs = [seq := next_seq(seq) for _ in batch]
        expected = b"".join(p.encode(m, s) * copies for m, s in zip(batch, seqs, strict=True))
        assert window.pump(now, copies) == expected
        now += 1.5 * RETRANSMIT_TIMEOUT  # the window's time came: the same blocks again
        assert window.pump(now, copies) == expected
        window.on_ack(seqs[-1], now)
    window.put(p.FrameChunk(1, 0, bytes(p.MAX_PAYLOAD - 3)))
    with pytest.raises(ValueError):
        window.pump(now)


def test_an_ack_settles_across_writes_and_samples_its_own_blocks_round_trip() -> None:
    window = SendWindow()
    for message in rolls(3):
        window.put(message)
    window.pump(0.0)
    for message in rolls(2):
        window.put(message)
    window.pump(0.010)  # a second write: 4 and 5
    srtt = 0.875 * window.srtt + 0.125 * 0.004
    window.on_ack(4, 0.014)  # 1 to 3, and 4 of the second write: a round trip of 4 ms
    assert window.srtt == pytest.approx(srtt) and len(window.in_flight) == 1
    assert window.deadline() == pytest.approx(0.010 + RETRANSMIT_TIMEOUT)  # 5's
    assert [seq for seq, _ in sent(window.pump(0.1))] == [5]
    window.on_ack(5, 0.2)  # the ACK of a block sent again: no sample
    assert window.srtt == pytest.approx(srtt) and not window.in_flight
    assert window.deadline() is None


def test_a_screens_chunks_go_as_the_window_has_room_each_as_its_own_message() -> None:
    image = bytes(range(256)) * 4
    runs = [(0, 300), (400, 410), (600, 1024)]  # 5 + 1 + 7 chunks of 64
    chunks = list(p.FrameChunks(9, image, list(runs)))
    assert [(c.offset, len(c.data)) for c in chunks[:7]] == [
        (0, 64), (64, 64), (128, 64), (192, 64), (256, 44), (400, 10), (600, 64)]
    window = SendWindow(size=5)
    window.put(p.FrameChunks(9, image, list(runs)))
    window.put(p.FrameShow(9, p.crc32(image)), note="shown")
    got: list[tuple[int, p.Message]] = []
    for step in range(3):
        got += sent(window.pump(step / 100))
        window.on_ack(got[-1][0], step / 100)
    assert got == [*enumerate(chunks, start=1), (14, p.FrameShow(9, p.crc32(image)))]
    assert not window.queued and not window.in_flight


def test_reset_restarts_the_numbering() -> None:
    window = SendWindow()
    window.put(p.RollRequest(1, 0))
    window.pump(0.0)
    window.reset()
    assert not window.in_flight and window.deadline() is None
    window.put(p.RollRequest(2, 0))
    assert [seq for seq, _ in sent(window.pump(1.0))] == [1]


def test_the_receiver_takes_only_the_next_seq() -> None:
    receiver = Receiver()
    assert [receiver.accept(s) for s in (0, 2, 1, 1, 2, 4, 3)] == [
        False, False, True, False, True, False, True,
    ]
    assert receiver.last == 3
    receiver.last = 255
    assert receiver.accept(1) and receiver.last == 1
    receiver.reset()
    assert receiver.last == 0


def test_byte_errors_rise_with_damage_and_fade_with_clean_bytes() -> None:
    errors = ByteErrors()
    assert errors.rate == 0.0
    errors.note(1000, 10)
    assert errors.rate == 10 / 1000
    for _ in range(40):
        errors.note(1000, 0)
    assert errors.rate < 0.0001


def test_clean_bytes_before_the_first_damage_still_count() -> None:
    # (a clean read skips the damage's decay, 0 staying 0, but not the bytes')
    errors = ByteErrors()
    for _ in range(3):
        errors.note(2000, 0)
    assert errors.rate == 0.0
    errors.note(1000, 5)
    total = 0.0
    for size in (2000, 2000, 2000, 1000):
        total = total * math.exp(-size / ERROR_WINDOW) + size
    assert errors.rate == pytest.approx(5 / total)
