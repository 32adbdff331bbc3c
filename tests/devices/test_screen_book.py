"""The screen book on its own: numbering, the chunks that go, acknowledgements, handshakes and
a refused frame."""

from __future__ import annotations

from overseer.devices import protocol as p
from overseer.devices.screen_book import Arms, ScreenBook, Shows

IMAGE_A = bytes((37 * i + 11) % 256 for i in range(p.FRAME_SIZE))
IMAGE_B = bytes([IMAGE_A[0] ^ 1]) + IMAGE_A[1:]


def offsets(messages: list[tuple[p.Sendable, object]]) -> list[int]:
    return [c.offset for m, _ in messages if isinstance(m, p.FrameChunks) for c in m]


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
    assert arm == p.FrameArm(2, p.crc32(IMAGE_C), NEXT, 1)
    assert sent[-1][1] == Arms(2, IMAGE_C, p.crc32(IMAGE_C))
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


def arm_through(book: ScreenBook, image: bytes) -> list[tuple[p.Message, object]]:
    """``image`` armed on the newest screen, its messages taken and all acknowledged."""
    book.arm(image, NEXT)
    sent = book.take(64)
    for _, note in sent:
        if isinstance(note, Shows):
            book.acked(note)
    notes = [note for _, note in sent if isinstance(note, Arms)]
    if notes:
        book.arm_acked(notes[-1])
    return sent


def test_the_image_the_pico_keeps_is_armed_again_by_its_frame_arm_alone() -> None:
    book = ScreenBook()
    book.ask(IMAGE_A)
    first = arm_through(book, IMAGE_C)
    assert first[-1][0] == p.FrameArm(2, p.crc32(IMAGE_C), NEXT, 1)
    assert book.ask(IMAGE_B) == 3  # the next screen (a page read on): NEXT's screen the same
    again = arm_through(book, IMAGE_C)
    assert [type(m) for m, _ in again][-2:] == [p.FrameShow, p.FrameArm]
    assert again[-1][0] == p.FrameArm(2, p.crc32(IMAGE_C), NEXT, 3)  # its number, no chunk
    assert offsets(again) == offsets(book_of(IMAGE_A, IMAGE_B))  # B's chunks alone


def book_of(old: bytes, new: bytes) -> list[tuple[p.Message, object]]:
    """The messages a fresh book sends for ``new`` once the Pico shows ``old``."""
    book = ScreenBook()
    book.ask(old)
    book.acked(book.take(64)[-1][1])  # type: ignore[arg-type]
    book.ask(new)
    return book.take(64)


def test_another_image_armed_replaces_the_one_kept() -> None:
    book = ScreenBook()
    book.ask(IMAGE_A)
    arm_through(book, IMAGE_C)
    book.ask(IMAGE_B)
    other = arm_through(book, IMAGE_A)  # another image: a number and chunks of its own
    assert other[-1][0].screen_id == 4 and offsets(other) != offsets(book_of(IMAGE_A, IMAGE_B))
    book.ask(IMAGE_A[:5] + bytes([IMAGE_A[5] ^ 1]) + IMAGE_A[6:])
    back = arm_through(book, IMAGE_C)  # C is no longer kept: its chunks go again
    assert back[-1][0].screen_id == 6 and 100 in offsets(back)


def test_what_the_pico_keeps_is_forgotten_at_a_handshake_and_a_refusal() -> None:
    for forget in (lambda b: b.handshake(same_boot=True), lambda b: b.refused()):
        book = ScreenBook()
        book.ask(IMAGE_A)
        arm_through(book, IMAGE_C)
        forget(book)
        book.ask(IMAGE_B)
        again = arm_through(book, IMAGE_C)
        assert again[-1][0].screen_id == 4 and 100 in offsets(again)  # chunks, a new number


def test_an_arm_not_acknowledged_is_not_kept() -> None:
    book = ScreenBook()
    book.ask(IMAGE_A)
    book.arm(IMAGE_C, NEXT)
    book.take(64)  # went, but no ACK of its FRAME_ARM yet
    book.ask(IMAGE_B)
    book.arm(IMAGE_C, NEXT)
    assert 100 in offsets(book.take(64))
