"""The app's one inbox: inputs from any thread, in order; a timeout; timers; refusals."""

from __future__ import annotations

import threading
import time

import pytest

from overseer.ports.events import Button, Die, LinkChanged, Press, Rolled, SetLeds, Tap
from overseer.ports.inbox import Inbox


def test_inputs_come_out_in_the_order_they_went_in() -> None:
    inbox = Inbox()
    items = [Press(Button.OK), Rolled(Die.D12, 7, 1), Tap("catacombs", "hero", "elf"), LinkChanged(True)]
    for item in items:
        inbox.put(item)
    assert len(inbox) == 4
    assert [inbox.get(0) for _ in items] == items
    assert len(inbox) == 0


def test_get_waits_up_to_its_timeout() -> None:
    inbox = Inbox()
    started = time.monotonic()
    assert inbox.get(0.1) is None
    assert time.monotonic() - started >= 0.1


def test_many_threads_put_and_nothing_is_lost() -> None:
    inbox = Inbox()

    def source(n: int) -> None:
        for i in range(200):
            inbox.put(Rolled(Die.RUNE, 1 + i % 6, n * 1000 + i))

    threads = [threading.Thread(target=source, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    got = [inbox.get(2) for _ in range(800)]
    for thread in threads:
        thread.join()
    assert inbox.get(0) is None
    requests = [item.request for item in got if isinstance(item, Rolled)]
    assert sorted(requests) == sorted(n * 1000 + i for n in range(4) for i in range(200))
    for n in range(4):  # each source's inputs stay in its order
        own = [r for r in requests if r // 1000 == n]
        assert own == sorted(own)


def test_a_blocked_get_wakes_when_an_input_comes() -> None:
    inbox = Inbox()
    threading.Timer(0.05, inbox.put, (Press(Button.NEXT),)).start()
    assert inbox.get(2) == Press(Button.NEXT)


def test_a_timer_puts_its_input_later_unless_cancelled() -> None:
    inbox = Inbox()
    inbox.put_after(0.05, Press(Button.BACK, long=True))
    cancelled = inbox.put_after(0.05, Press(Button.OK))
    cancelled.cancel()
    assert inbox.get(0) is None
    assert inbox.get(2) == Press(Button.BACK, long=True)
    assert inbox.get(0.2) is None


def test_what_is_not_an_input_is_refused() -> None:
    inbox = Inbox()
    with pytest.raises(ValueError, match="the inbox takes inputs \\(Press, Tap, .*\\), not SetLeds"):
        inbox.put(SetLeds(()))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not str"):
        inbox.put_after(0.01, "ok")  # type: ignore[arg-type]
    assert inbox.get(0.05) is None


def test_a_flooding_source_is_dropped_with_a_notice_not_queued_without_end() -> None:
    """A Pico gone wrong sends presses without end: the inbox holds at most its limit, the
    rest is dropped and counted, and the next input the app takes says so."""
    from overseer.ports.events import ReaderNotice
    from overseer.ports.inbox import DROPPED, LIMIT

    inbox = Inbox()
    stop = threading.Event()

    def flood() -> None:
        while not stop.is_set():
            inbox.put(Press(Button.NEXT))

    thread = threading.Thread(target=flood)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while inbox.dropped_total < 10 * LIMIT and time.monotonic() < deadline:
            assert len(inbox) <= LIMIT
            time.sleep(0.01)
    finally:
        stop.set()
        thread.join()
    assert len(inbox) == LIMIT and inbox.dropped_total >= 10 * LIMIT
    notice = inbox.get(0)
    assert isinstance(notice, ReaderNotice) and notice.key == DROPPED
    assert notice.text.endswith("were dropped (a Pico sending presses without end?). Nothing "
                                "else changed.")
    assert inbox.get(0) == Press(Button.NEXT)  # then what was kept, in order
