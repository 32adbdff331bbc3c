"""A flooding Pico (issue 23): a board gone wrong that sends presses without end, over the real
link (PicoLink on a pty, the scripted far end of link_peer.py), into the app's bounded inbox.
What does not fit is dropped and counted, never queued without end, and the app hears of it
first, as a notice."""

from __future__ import annotations

import time

from overseer.devices import protocol as p
from overseer.devices.pico import Pico
from overseer.ports.events import Button, LinkChanged, Press, ReaderNotice
from overseer.ports.inbox import DROPPED, Inbox
from tests.devices.link_peer import ScriptedPico

LIMIT = 64  # a small inbox, so that a few hundred presses flood it


def test_a_flooding_pico_is_dropped_with_a_notice() -> None:
    peer = ScriptedPico()
    inbox = Inbox(limit=LIMIT)
    face = Pico(peer.port, roll_timeout=2.0)
    try:
        face.start(inbox)
        face.wait_ready(3)
        assert inbox.get(3) == LinkChanged(True)
        sent = 4 * LIMIT
        for event_id in range(1, sent + 1):
            peer.send_reliable(p.ButtonEvent(event_id, p.Button.NEXT_AI_PIECE, p.Press.DOWN))
        deadline = time.monotonic() + 30
        while len(inbox) + inbox.dropped_total < sent and time.monotonic() < deadline:
            assert len(inbox) <= LIMIT
            time.sleep(0.01)
        assert len(inbox) == LIMIT and inbox.dropped_total == sent - LIMIT
        notice = inbox.get(0)
        assert isinstance(notice, ReaderNotice) and notice.key == DROPPED
        assert notice.text.startswith(f"{sent - LIMIT:,} inputs came faster than the box")
        assert inbox.get(0) == Press(Button.NEXT, False)  # what was kept comes in order
        assert face.link.error is None  # the link itself is fine
    finally:
        face.close()
        peer.close()
