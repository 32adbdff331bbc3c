"""The screen book on its own: numbering, the chunks that go, acknowledgements, handshakes and
a refused frame."""

from __future__ import annotations

from overseer.devices import protocol as p
from overseer.devices.screen_book import ScreenBook, Shows

IMAGE_A = bytes((37 * i + 11) % 256 for i in range(p.FRAME_SIZE))
IMAGE_B = bytes([IMAGE_A[0] ^ 1]) + IMAGE_A[1:]


def offsets(messages: list[tuple[p.Message, Shows | None]]) -> list[int]:
    return [m.offset for m, _ in messages if isinstance(m, p.FrameChunk)]


def test_a_new_image_gets_the_next_number_the_same_one_keeps_it() -> None:
    book = ScreenBook()
    assert book.screen == 0 and book.take(64) == []
    assert book.ask(IMAGE_A) == 1 and book.ask(IMAGE_A) == 1 and book.ask(IMAGE_B) == 2
    assert book.screen == 2


def test_the_first_screen_goes_whole_then_only_what_differs() -> None:
    book = ScreenBook()
    book.ask(IMAGE_A)
    first = book.take(64)
    assert offsets(first) == list(range(0, p.FRAME_SIZE, 64))
    assert first[-1] == (p.FrameShow(1, p.crc32(IMAGE_A)), Shows(1, IMAGE_A))
    assert book.take(64) == []  # on its way already
    book.ask(IMAGE_B)
    assert offsets(book.take(64)) == [0]
    assert book.shown == 0
    book.acked(Shows(2, IMAGE_B))
    assert book.shown == 2


def test_only_the_newest_of_quick_screens_goes() -> None:
    book = ScreenBook()
    book.ask(IMAGE_A)
    book.ask(IMAGE_B)
    shows = [m for m, _ in book.take(64) if isinstance(m, p.FrameShow)]
    assert shows == [p.FrameShow(2, p.crc32(IMAGE_B))]


def test_a_handshake_sends_again_what_differs_from_the_image_the_same_boot_acknowledged() -> None:
    book = ScreenBook()
    book.ask(IMAGE_A)
    book.take(64)
    book.acked(Shows(1, IMAGE_A))
    book.ask(IMAGE_B)
    book.handshake(same_boot=True)
    assert book.shown == 0 and offsets(book.take(64)) == [0]
    book.handshake(same_boot=False)  # a new boot holds nothing known
    assert len(offsets(book.take(64))) == 16


def test_a_refused_frame_sends_the_next_screen_whole() -> None:
    book = ScreenBook()
    book.ask(IMAGE_A)
    book.take(64)
    book.acked(Shows(1, IMAGE_A))
    book.refused()
    assert len(offsets(book.take(32))) == p.FRAME_SIZE // 32


IMAGE_C = IMAGE_A[:100] + bytes([IMAGE_A[100] ^ 4]) + IMAGE_A[101:]
NEXT = int(p.Button.NEXT_AI_PIECE)


def test_an_armed_screen_goes_after_the_newest_on_that_screen_and_is_not_the_base() -> None:
    book = ScreenBook()
    book.ask(IMAGE_A)
    book.arm(IMAGE_C, NEXT)
    sent = book.take(64)
    arm = sent[-1][0]
    assert arm == p.FrameArm(2, p.crc32(IMAGE_C), NEXT, 1) and sent[-1][1] is None
    assert offsets(sent) == [*range(0, p.FRAME_SIZE, 64), 100]  # A whole, then what C changes
    assert book.take(64) == [] and not book.waiting
    assert book.ask(IMAGE_C) == 3  # the press's own screen: asked as any other ...
    assert offsets(book.take(64)) == [100]  # ... from A, whether the Pico put C up or not


def test_an_arm_is_dropped_by_a_new_screen_before_it_goes_and_by_a_handshake() -> None:
    book = ScreenBook()
    book.ask(IMAGE_A)
    book.take(64)
    book.arm(IMAGE_C, NEXT)
    book.ask(IMAGE_B)  # the glass moves on before the arm went: not sent
    assert not any(isinstance(m, p.FrameArm) for m, _ in book.take(64))
    book.arm(IMAGE_B, NEXT)  # the screen already shown: nothing to arm
    assert book.take(64) == []
    book.arm(IMAGE_C, NEXT)
    book.handshake(same_boot=True)
    assert not any(isinstance(m, p.FrameArm) for m, _ in book.take(64))
    book.arm(IMAGE_C, NEXT)
    book.refused()
    assert [type(m) for m, _ in book.take(64)][-1] is p.FrameShow  # B whole, no arm
