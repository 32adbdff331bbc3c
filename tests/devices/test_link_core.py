"""The link's core on its own (no port, no thread): bytes and the time in, bytes and what the app
hears out. The same cases over a pty, against a scripted far end: test_pico_link.py."""

from __future__ import annotations

from overseer.devices import protocol as p
from overseer.devices.link_core import DOUBLE_SEND_ERROR, LINK_TIMEOUT, NOISY_ERROR, LinkCore
from overseer.devices.link_events import LINK_LOST, LinkState, PressedButton, RollFailed
from overseer.devices.reliable import RETRANSMIT_TIMEOUT

BOOT = 0xB007
IDENT = p.Ident(p.PROTOCOL_VERSION, BOOT, "core 1")


def sent(data: bytes) -> list[tuple[int, p.Message]]:
    return [(b.seq, p.decode_message(b)) for b in p.Decoder(p.HOST_TO_PICO).feed(data)]


def ready(now: float = 0.0) -> LinkCore:
    core = LinkCore(p.PROTOCOL_VERSION, roll_timeout=5.0)
    core.opened(now)
    assert [m for _, m in sent(core.outgoing(now))] == [p.Hello(p.PROTOCOL_VERSION)]
    assert core.incoming(p.encode(IDENT), now) == b""
    assert core.state is LinkState.READY and core.session == 1
    core.outbox.clear()
    return core


def test_a_handshake_is_heard_in_order_and_another_version_refuses_the_link() -> None:
    core = LinkCore(p.PROTOCOL_VERSION, roll_timeout=5.0)
    core.opened(0.0)
    core.incoming(p.encode(IDENT), 0.01)
    assert core.outbox == [LinkState.HANDSHAKING, LinkState.READY] and core.ident == IDENT
    other = LinkCore(p.PROTOCOL_VERSION + 1, roll_timeout=5.0)
    other.opened(0.0)
    other.incoming(p.encode(IDENT), 0.01)
    assert other.state is LinkState.REFUSED and other.error is not None
    assert "flash the firmware" in str(other.error)


def test_an_event_is_acknowledged_and_handed_on_once() -> None:
    core = ready()
    press = p.ButtonEvent(event_id=9, button=p.Button.OK, press=p.Press.DOWN)
    assert sent(core.incoming(p.encode(press, 1), 0.1)) == [(0, p.HostAck(1))]
    assert sent(core.incoming(p.encode(press, 2), 0.2)) == [(0, p.HostAck(2))]  # renumbered
    assert core.outbox == [PressedButton(p.Button.OK, p.Press.DOWN, BOOT, 9)]
    assert core.stats.duplicates_dropped == 1


def test_a_screen_and_a_roll_go_through_the_window_and_the_acks_settle_them() -> None:
    core = ready()
    screen = core.screens.ask(bytes(p.FRAME_SIZE))
    roll_id = core.rolls.ask(p.Die.D12, 0.0)
    first = sent(core.outgoing(0.1))  # a clean cable's window: the whole screen at once
    assert [m for _, m in first][16:] == [p.FrameShow(screen, p.crc32(bytes(p.FRAME_SIZE))),
                                          p.RollRequest(roll_id, p.Die.D12), p.HostHeartbeat()]
    assert [type(m) for _, m in first][:16] == [p.FrameChunk] * 16
    assert p.CLEAN_WINDOW >= 18
    core.incoming(p.encode(p.PicoAck(8)), 0.11)  # a part of them: nothing more to go
    assert sent(core.outgoing(0.12)) == []
    assert core.screens.shown == 0
    core.incoming(p.encode(p.PicoAck(17)), 0.15)  # the show (the roll waits for its answer)
    assert core.screens.shown == screen and len(core.rolls) == 1


def test_on_a_noisy_cable_the_window_is_eight() -> None:
    core = ready()
    core.errors.note(1000, 3)  # three damaged blocks in the last kilobyte received
    assert NOISY_ERROR <= core.errors.rate < DOUBLE_SEND_ERROR
    core.screens.ask(bytes(p.FRAME_SIZE))
    first = sent(core.outgoing(0.1))
    assert [type(m) for _, m in first if not isinstance(m, p.HostHeartbeat)] \
        == [p.FrameChunk] * p.WINDOW
    core.incoming(p.encode(p.PicoAck(8)), 0.11)
    assert [seq for seq, _ in sent(core.outgoing(0.12))] == list(range(9, 17))


def test_silence_and_a_lost_link_fail_the_open_rolls() -> None:
    core = ready()
    roll_id = core.rolls.ask(p.Die.RUNE, 0.0)
    _, silent, deadline = core.turn(0.5)  # the request goes: its resend is the next deadline
    assert not silent and deadline == 0.5 + RETRANSMIT_TIMEOUT
    _, silent, _ = core.turn(LINK_TIMEOUT + 0.01)  # nothing heard since the IDENT at 0
    assert silent
    core.lost("silence")
    assert core.outbox == [LinkState.SEARCHING, RollFailed(p.Die.RUNE, roll_id, LINK_LOST)]
    assert core.stats.link_lost == 1 and core.stats.rolls_failed == 1
