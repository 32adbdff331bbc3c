"""PicoLink's protocol behaviour over a real pty and pyserial, against a scripted far end."""

from __future__ import annotations

import os
import queue
from collections.abc import Iterator

import pytest
from serial.tools import list_ports
from serial.tools.list_ports_common import ListPortInfo

from overseer.devices import link_core, reliable
from overseer.devices import protocol as p
from overseer.devices.link_events import (
    DieRolled,
    LinkState,
    PicoEvent,
    PressedButton,
    ProtocolMismatch,
)
from overseer.devices.pico_link import PicoLink
from overseer.devices.usb import find_pico_ports
from tests.devices.link_peer import ScriptedPico

IMAGE_A = bytes((37 * i + 11) % 256 for i in range(p.FRAME_SIZE))


@pytest.fixture
def pico() -> Iterator[ScriptedPico]:
    peer = ScriptedPico()
    yield peer
    peer.close()


Events = queue.Queue[PicoEvent]  # what a link hands its sink


@pytest.fixture
def events() -> Events:
    return queue.Queue()


def nothing_more(events: Events, timeout: float) -> bool:
    """No event comes within ``timeout`` seconds."""
    try:
        events.get(timeout=timeout)
    except queue.Empty:
        return True
    return False


@pytest.fixture
def link(pico: ScriptedPico, events: Events) -> Iterator[PicoLink]:
    with PicoLink(pico.port, events.put) as link:
        link.wait_ready(timeout=3)
        yield link


def test_handshake_gives_the_ident(pico: ScriptedPico, link: PicoLink) -> None:
    assert link.ident == p.Ident(p.PROTOCOL_VERSION, 0xB007, "scripted 1")
    assert link.state is LinkState.READY
    assert pico.of_type(p.Hello)[0] == (0, p.Hello(p.PROTOCOL_VERSION))


def test_another_protocol_version_is_refused_and_nothing_else_is_sent() -> None:
    peer = ScriptedPico(protocol=2)  # a Pico with the firmware before version 3
    link = PicoLink(peer.port, lambda event: None)
    link.start()
    try:
        with pytest.raises(ProtocolMismatch) as refused:
            link.wait_ready(timeout=3)
        link.show(IMAGE_A)
        link.request_roll(p.Die.D12)
    finally:
        link.close()
        peer.close()
    assert str(refused.value) == (
        f"the Pico runs protocol 2; this host speaks {p.PROTOCOL_VERSION}: flash the firmware "
        "(scripts/flash)"
    )
    assert link.state is LinkState.REFUSED
    assert {type(m) for _, m in peer.received} == {p.Hello}


def test_first_screen_goes_whole_then_only_changed_chunks(
    pico: ScriptedPico, link: PicoLink
) -> None:
    first = link.show(IMAGE_A)
    assert link.wait_shown(first, timeout=3)
    assert pico.shown == IMAGE_A
    assert len(pico.of_type(p.FrameChunk)) == 16
    changed = bytearray(IMAGE_A)
    changed[700] ^= 0xFF
    changed[705] ^= 0x01  # closer than a chunk's overhead: one chunk with the byte before
    changed[900] ^= 0x80
    second = link.show(bytes(changed))
    assert second == first + 1
    assert link.wait_shown(second, timeout=3)
    assert pico.shown == bytes(changed)
    chunks = [m for _, m in pico.of_type(p.FrameChunk)][16:]
    assert [(c.offset, c.data) for c in chunks] == [(700, changed[700:706]), (900, changed[900:901])]
    assert link.show(bytes(changed)) == second  # the same image again sends nothing


def test_unacknowledged_messages_are_sent_again_in_order(
    pico: ScriptedPico, link: PicoLink
) -> None:
    pico.acking = False
    screen = link.show(IMAGE_A)
    # Go-back-N: the screen's 16 chunks and its show go out (a clean cable's window), then all
    # again, in order, with their SEQs.
    assert pico.wait(lambda: len(pico.of_type(p.FrameChunk)) >= 32)
    seqs = [seq for seq, _ in pico.of_type(p.FrameChunk)][:32]
    assert seqs == list(range(1, 17)) * 2
    pico.acking = True
    assert link.wait_shown(screen, timeout=3)
    assert pico.shown == IMAGE_A
    assert link.stats.retransmits >= 1


def test_a_repeated_event_is_delivered_once(pico: ScriptedPico, link: PicoLink,
                                            events: Events) -> None:
    press = p.ButtonEvent(event_id=41, button=p.Button.OK, press=p.Press.DOWN)
    pico.send(press, 1)
    pico.send(press, 1)  # a retransmission (our ACK was lost)
    pico.send(press, 2)  # the same event renumbered (resent after a handshake)
    pico.send(p.ButtonEvent(event_id=42, button=p.Button.BACK, press=p.Press.LONG), 3)
    assert events.get(timeout=3) == PressedButton(p.Button.OK, p.Press.DOWN, 0xB007, 41)
    assert events.get(timeout=3) == PressedButton(p.Button.BACK, p.Press.LONG, 0xB007, 42)
    assert nothing_more(events, 0.1)
    assert link.stats.duplicates_dropped == 1
    acks = [m.seq for _, m in pico.of_type(p.HostAck)]
    assert acks == [1, 1, 2, 3]


def test_a_gap_is_not_accepted(pico: ScriptedPico, link: PicoLink, events: Events) -> None:
    pico.send(p.ButtonEvent(event_id=7, button=p.Button.OK, press=p.Press.DOWN), 2)
    assert pico.wait(lambda: len(pico.of_type(p.HostAck)) == 1)
    assert pico.of_type(p.HostAck)[0][1] == p.HostAck(0)
    assert nothing_more(events, 0.1)


def test_an_event_outside_the_protocol_is_dropped(pico: ScriptedPico, link: PicoLink,
                                                 events: Events) -> None:
    pico.send(p.ButtonEvent(event_id=1, button=9, press=p.Press.DOWN), 1)
    pico.send(p.RollResult(event_id=2, roll_id=0, die=p.Die.RUNE, face=7), 2)
    pico.send(p.ButtonEvent(event_id=3, button=p.Button.OK, press=3), 3)  # no such press
    assert pico.wait(lambda: len(pico.of_type(p.HostAck)) == 3)
    assert nothing_more(events, 0.1)
    assert link.stats.invalid_events == 3


def test_roll_request_is_answered_once(pico: ScriptedPico, link: PicoLink,
                                      events: Events) -> None:
    roll_id = link.request_roll(p.Die.LOCATION)
    assert pico.wait(lambda: bool(pico.of_type(p.RollRequest)))
    assert pico.of_type(p.RollRequest)[0][1] == p.RollRequest(roll_id, p.Die.LOCATION)
    answer = p.RollResult(event_id=5, roll_id=roll_id, die=p.Die.LOCATION, face=4)
    pico.send_reliable(answer)
    pico.send_reliable(p.RollResult(event_id=6, roll_id=roll_id, die=p.Die.LOCATION, face=4))
    assert events.get(timeout=3) == DieRolled(p.Die.LOCATION, 4, roll_id, 0xB007, 5)
    assert nothing_more(events, 0.1)


def test_a_new_boot_id_means_handshake_and_whole_screen_again(
    pico: ScriptedPico, link: PicoLink
) -> None:
    screen = link.show(IMAGE_A)
    assert link.wait_shown(screen, timeout=3)
    roll_id = link.request_roll(p.Die.D12)
    assert pico.wait(lambda: bool(pico.of_type(p.RollRequest)))
    with pico._cond:  # the board restarts: blank glass, counters from zero, a new boot id
        pico.boot_id = 0x1234
        pico.shown = bytes(p.FRAME_SIZE)
        pico.back = bytearray(p.FRAME_SIZE)
        pico.rx_seq = pico.tx_seq = 0
    pico.send(p.PicoHeartbeat(0x1234, 0))
    assert pico.wait(lambda: pico.shown == IMAGE_A)
    assert link.ident == p.Ident(p.PROTOCOL_VERSION, 0x1234, "scripted 1")
    assert link.session == 2 and link.stats.restarts_seen == 1
    assert len(pico.of_type(p.FrameChunk)) == 32  # the whole screen, twice
    # The unanswered roll request is asked again, under its roll_id.
    assert pico.wait(lambda: len(pico.of_type(p.RollRequest)) == 2)
    assert pico.of_type(p.RollRequest)[1][1] == p.RollRequest(roll_id, p.Die.D12)


def test_silence_means_link_lost_and_a_fresh_handshake(pico: ScriptedPico) -> None:
    with PicoLink(pico.port, lambda event: None) as link:
        link.wait_ready(timeout=3)
        pico.heartbeats = False
        assert pico.wait(lambda: len(pico.of_type(p.Hello)) >= 2, timeout=3)
        pico.heartbeats = True
        link.wait_ready(timeout=3)
        assert link.stats.link_lost == 1 and link.session == 2


def test_show_refuses_a_wrong_size() -> None:
    with pytest.raises(ValueError, match="1024 bytes, not 10"):
        PicoLink("/nonexistent", lambda event: None).show(bytes(10))


def test_finds_the_pico_by_usb_vendor_id(monkeypatch: pytest.MonkeyPatch) -> None:
    def port(device: str, vid: int | None, pid: int | None) -> ListPortInfo:
        info = ListPortInfo(device, skip_link_detection=True)
        info.vid, info.pid = vid, pid
        return info

    ports = [
        port("/dev/ttyUSB0", 0x0403, 0x6001),
        port("/dev/ttyACM1", 0x2E8A, 0x0005),
        port("/dev/ttyS0", None, None),
        port("/dev/ttyACM0", 0x2E8A, 0x000A),
    ]
    monkeypatch.setattr(list_ports, "comports", lambda: ports)
    assert find_pico_ports() == ["/dev/ttyACM0", "/dev/ttyACM1"]
    assert find_pico_ports(pid=0x0005) == ["/dev/ttyACM1"]


def test_a_repeated_ack_resends_before_the_timeout(
    pico: ScriptedPico, link: PicoLink, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reliable, "RETRANSMIT_TIMEOUT", 60.0)  # only the fast path is left
    pico.lose_once = {3}
    screen = link.show(IMAGE_A)
    assert link.wait_shown(screen, timeout=5)
    assert pico.shown == IMAGE_A
    seqs = [seq for seq, _ in pico.of_type(p.FrameChunk)]
    assert seqs[:8] == list(range(1, 9))
    again = seqs.index(3, 3)  # back to the lost one (ACKs of 1 and 2 let 9 and 10 go first)
    assert seqs[again : again + 8] == list(range(3, 11))


def test_a_noisy_cable_gets_small_chunks_sent_twice(pico: ScriptedPico, link: PicoLink) -> None:
    damaged = bytearray(p.encode(p.PicoHeartbeat(0xB007, 0)))
    damaged[5] ^= 0xFF
    for _ in range(40):
        os.write(pico.master, bytes(damaged) + p.encode(p.PicoHeartbeat(0xB007, 0)))
    assert pico.wait(lambda: link.byte_error() > 0.01)
    screen = link.show(IMAGE_A)
    assert link.wait_shown(screen, timeout=5)
    assert pico.shown == IMAGE_A
    chunks = pico.of_type(p.FrameChunk)
    assert {len(c.data) for _, c in chunks} == {16}
    assert [seq for seq, _ in chunks[:6]] == [1, 1, 2, 2, 3, 3]


def test_hello_comes_after_bytes_that_flush_a_cut_block(
    pico: ScriptedPico, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(link_core, "HELLO_INTERVAL", 60.0)  # one HELLO only: it must get in
    cut = p.encode(p.FrameChunk(1, 0, bytes(64)), 9)[:6]  # a block cut off by an unplug ...
    os.write(pico.slave, cut)  # ... still waiting in the Pico's decoder for 70 more bytes
    with PicoLink(pico.port, lambda event: None) as link:
        assert link.wait_ready(timeout=3)
        assert len(pico.of_type(p.Hello)) == 1


def test_a_refused_frame_is_sent_again_whole(pico: ScriptedPico, link: PicoLink) -> None:
    assert link.wait_shown(link.show(IMAGE_A), timeout=3)
    with pico._cond:  # the Pico holds another image than the host believes
        pico.shown = bytes(p.FRAME_SIZE)
    changed = bytearray(IMAGE_A)
    changed[5] ^= 1
    screen = link.show(bytes(changed))
    assert link.wait_shown(screen, timeout=3)
    assert pico.shown == bytes(changed)
    assert link.stats.pico_errors == {p.ErrorCode.FRAME_CRC: 1}
    chunks = [c for _, c in pico.of_type(p.FrameChunk)][16:]
    assert [c.offset for c in chunks] == [5] + list(range(0, p.FRAME_SIZE, 64))


def test_without_a_port_it_finds_the_pico_by_vendor_id(
    pico: ScriptedPico, monkeypatch: pytest.MonkeyPatch
) -> None:
    info = ListPortInfo(pico.port, skip_link_detection=True)
    info.vid, info.pid = 0x2E8A, 0x0005
    monkeypatch.setattr(list_ports, "comports", lambda: [info])
    with PicoLink(None, lambda event: None) as link:
        assert link.wait_ready(timeout=3).boot_id == 0xB007


def test_a_second_ident_of_the_same_boot_keeps_the_count(pico: ScriptedPico, link: PicoLink,
                                                          events: Events) -> None:
    # The Pico answered two HELLOs of one handshake (a repeat, or a HELLO sent twice): it
    # numbered its queue from 1 at both, identically, and the ACKs the host sent after the
    # first IDENT reached it after its second reset. What they acknowledged it never sends
    # again: the next event comes with the next number, and must be taken.
    pico.send(p.ButtonEvent(event_id=1, button=p.Button.OK, press=p.Press.DOWN), 1)
    pico.send(p.ButtonEvent(event_id=2, button=p.Button.OK, press=p.Press.SHORT), 2)
    assert pico.wait(lambda: [m.seq for _, m in pico.of_type(p.HostAck)][-1:] == [2])
    pico.send(p.Ident(p.PROTOCOL_VERSION, 0xB007, "scripted 1"))  # the answer to HELLO #2
    pico.send(p.ButtonEvent(event_id=3, button=p.Button.NEXT_AI_PIECE, press=p.Press.DOWN), 3)
    got = [events.get(timeout=3) for _ in range(3)]
    assert [e.event_id for e in got if isinstance(e, PressedButton)] == [1, 2, 3]
    assert link.session == 1  # no new handshake: the link stayed up
