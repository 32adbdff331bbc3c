"""Reliability: in-order acceptance, duplicates, gaps, go-back-N retransmission, renumbering."""

import importlib.util
import sys
import zlib

import link
import pytest

from tests.firmware.fwtools import FIRMWARE, decode_all


def test_receiver_accepts_only_the_next_seq() -> None:
    r = link.Receiver()
    assert not r.accept(2)  # a gap: dropped, ACK 0
    assert r.last == 0
    assert r.accept(1)
    assert not r.accept(1)  # a retransmission: not acted on again
    assert not r.accept(3)  # a gap
    assert r.accept(2)
    assert r.last == 2


def test_receiver_wraps_from_255_to_1_never_0() -> None:
    r = link.Receiver()
    for seq in range(1, 256):
        assert r.accept(seq)
    assert not r.accept(0)
    assert r.accept(1)


class Wire:
    def __init__(self) -> None:
        self.sent: list[bytes] = []

    def __call__(self, block: bytes) -> None:
        self.sent.append(block)

    def take(self) -> list[tuple[int, int, bytes]]:
        d = link.Decoder(link.PICO_TO_HOST)
        for b in self.sent:
            d.feed(b)
        self.sent = []
        return decode_all(d)


def event(n: int) -> bytes:
    return n.to_bytes(2, "little") + b"\x01\x00"


def test_sender_sends_nothing_before_the_handshake() -> None:
    wire = Wire()
    s = link.Sender(wire)
    s.send(link.BUTTON, event(1))
    s.poll(0)
    assert wire.sent == []
    s.reset()
    s.poll(0)
    assert wire.take() == [(link.BUTTON, 1, event(1))]


def test_window_of_eight_then_more_as_acks_arrive() -> None:
    wire = Wire()
    s = link.Sender(wire)
    s.reset()
    for n in range(12):
        assert s.send(link.BUTTON, event(n))
    s.poll(0)
    assert [m[1] for m in wire.take()] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert s.on_ack(3, 10)  # cumulative: 1..3 done
    s.poll(10)
    assert [m[1] for m in wire.take()] == [9, 10, 11]
    assert [p[2] for p in s.pending] == [event(n) for n in range(3, 12)]


def test_go_back_n_resends_everything_in_flight_in_order_after_the_timeout() -> None:
    wire = Wire()
    s = link.Sender(wire)
    s.reset()
    for n in range(3):
        s.send(link.BUTTON, event(n))
    s.poll(1000)
    wire.take()
    s.poll(1000 + link.RETRANSMIT_MS - 1)
    assert wire.take() == []
    s.poll(1000 + link.RETRANSMIT_MS)
    assert [(m[1], m[2]) for m in wire.take()] == [(1, event(0)), (2, event(1)), (3, event(2))]
    assert s.on_ack(1, 1100)
    s.poll(1100 + link.RETRANSMIT_MS - 1)  # the timer restarted at the ACK
    assert wire.take() == []
    s.poll(1100 + link.RETRANSMIT_MS)
    assert [m[1] for m in wire.take()] == [2, 3]


def test_stale_and_zero_acks_change_nothing() -> None:
    wire = Wire()
    s = link.Sender(wire)
    s.reset()
    s.send(link.BUTTON, event(1))
    s.poll(0)
    assert not s.on_ack(0, 1)
    assert not s.on_ack(200, 1)
    assert len(s.pending) == 1


def test_queue_holds_32_and_refuses_more() -> None:
    s = link.Sender(Wire())
    for n in range(link.MAX_PENDING):
        assert s.send(link.BUTTON, event(n))
    assert s.full()
    assert not s.send(link.BUTTON, event(99))
    assert len(s.pending) == 32


def test_handshake_renumbers_unacked_messages_from_one_keeping_payloads() -> None:
    wire = Wire()
    s = link.Sender(wire)
    s.reset()
    for n in range(4):
        s.send(link.BUTTON, event(n))
    s.poll(0)
    s.on_ack(2, 5)
    wire.take()
    s.reset()  # HELLO again (a replug)
    s.poll(10)
    assert [(m[1], m[2]) for m in wire.take()] == [(1, event(2)), (2, event(3))]


def test_seq_numbers_wrap_past_255_to_1() -> None:
    wire = Wire()
    s = link.Sender(wire)
    s.reset()
    seqs = []
    for n in range(260):
        s.send(link.BUTTON, event(n))
        s.poll(n)
        (msg,) = wire.take()
        seqs.append(msg[1])
        assert s.on_ack(msg[1], n)
    assert seqs[253:258] == [254, 255, 1, 2, 3]


def test_table_crc_equals_zlib(monkeypatch) -> None:
    # the fallback used where binascii.crc32 is missing: load link.py with binascii hidden
    monkeypatch.setitem(sys.modules, "binascii", None)
    spec = importlib.util.spec_from_file_location("link_table_crc", FIRMWARE / "link.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.crc32 is not link.crc32
    for data in (b"", b"123456789", bytes(range(256)) * 4):
        assert module.crc32(data) == zlib.crc32(data)
    assert module.crc32(b"123456789") == 0xCBF43926


def test_encode_refuses_a_payload_over_96_bytes() -> None:
    with pytest.raises(ValueError):
        link.encode(1, link.FRAME_CHUNK, bytes(97))
