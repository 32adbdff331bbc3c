"""The roll book on its own: numbering, sending, answers, refusals, deadlines, a lost link."""

from __future__ import annotations

from overseer.devices import protocol as p
from overseer.devices.link_events import BAD_ROLL, BUSY, LINK_LOST, TIMEOUT, RollFailed
from overseer.devices.roll_book import RollBook


def test_a_request_is_sent_once_and_answered_once() -> None:
    book = RollBook(timeout=5.0)
    first, second = book.ask(p.Die.D12, 0.0), book.ask(p.Die.RUNE, 1.0)
    assert (first, second) == (1, 2) and len(book) == 2
    assert book.unsent() == [(1, p.Die.D12), (2, p.Die.RUNE)]
    assert book.unsent() == []
    assert book.answered(first) and not book.answered(first)  # a repeat is not an answer
    assert len(book) == 1 and book.deadline() == 6.0


def test_roll_ids_wrap_past_65535_to_1() -> None:
    book = RollBook()
    book._count = 0xFFFE
    assert [book.ask(p.Die.D12, 0.0) for _ in range(3)] == [0xFFFF, 1, 2]


def test_after_a_handshake_every_open_request_goes_again_oldest_first() -> None:
    book = RollBook()
    for die in (p.Die.D12, p.Die.RUNE, p.Die.LOCATION):
        book.ask(die, 0.0)
    book.unsent()
    book.answered(2)
    book.send_again()
    assert book.unsent() == [(1, p.Die.D12), (3, p.Die.LOCATION)]


def test_refusals_belong_to_the_requests_the_next_ack_settles_in_order() -> None:
    book = RollBook()
    for die in (p.Die.D12, p.Die.RUNE, p.Die.LOCATION):
        book.ask(die, 0.0)
    book.refused(BAD_ROLL)
    book.refused(BUSY)
    assert book.settled([1, 2, 3]) == [RollFailed(p.Die.D12, 1, BAD_ROLL),
                                       RollFailed(p.Die.RUNE, 2, BUSY)]
    assert book.settled([3]) == []  # the refusals were the last ACK's
    assert len(book) == 1


def test_a_refusal_heard_before_a_handshake_settles_nothing_after_it() -> None:
    book = RollBook()
    book.ask(p.Die.D12, 0.0)
    book.refused(BUSY)  # a dropped press's, or the last connection's
    book.forget_refusals()
    assert book.settled([1]) == [] and len(book) == 1


def test_a_late_request_expires_and_a_lost_link_fails_the_rest() -> None:
    book = RollBook(timeout=5.0)
    book.ask(p.Die.D12, 0.0)
    book.ask(p.Die.RUNE, 2.0)
    assert book.expire(4.9) == []
    assert book.expire(5.0) == [RollFailed(p.Die.D12, 1, TIMEOUT)]
    assert book.fail_all(LINK_LOST) == [RollFailed(p.Die.RUNE, 2, LINK_LOST)]
    assert len(book) == 0 and book.deadline() == float("inf")
    assert not book.answered(2)  # a late answer to a failed request is dropped


def test_a_request_on_a_stopped_link_is_numbered_and_fails_at_once() -> None:
    book = RollBook()
    assert book.refuse_now(p.Die.RUNE, LINK_LOST) == RollFailed(p.Die.RUNE, 1, LINK_LOST)
    assert book.ask(p.Die.D12, 0.0) == 2 and book.unsent() == [(2, p.Die.D12)]
