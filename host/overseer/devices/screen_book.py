"""The link's screen book: the newest screen asked for, what the Pico holds, and the messages
that bring it there, without I/O or a lock (``pico_link.PicoLink`` holds its lock around the
app's side: ``ask``, ``acked``, ``handshake``).

A new image gets the next screen number; the same image again keeps its number. When no frame
message waits in the link's window, ``take`` gives the newest screen's messages: the chunks that
differ from what the Pico holds once the window is through (the whole frame when that is
unknown), then its FRAME_SHOW, noted with the screen (``Shows``). An ACK that settles a
FRAME_SHOW makes its screen shown (``acked``). After a handshake the same boot still holds the
last image it acknowledged, so only what differs goes; a new boot holds nothing known. A
FRAME_SHOW the Pico refused (``refused``) sends the next screen whole.

``arm(image, button)``: the screen a press of ``button`` will show, sent ahead once the newest
screen is on its way (its chunks, then FRAME_ARM on that screen): the Pico puts it up itself
when the button goes down on that screen. It takes a number but is not asked for: what the
Pico holds for the next screen stays the newest screen's image (had the Pico put the armed one
up, the next screen's chunks from there still make it, and its CRC is checked). A new screen
asked for before the arm went drops it (the Pico drops one that went). The Pico keeps the image
of the last FRAME_ARM it accepted past the screens after it (protocol version 4): arming that
image again (as every new screen read on to does, NEXT's screen the same) takes its number again
and sends its FRAME_ARM alone, no chunk. What it keeps is known from the FRAME_ARM's ACK (its
note, ``Arms``); a handshake or a refusal forgets it."""

from __future__ import annotations

from typing import NamedTuple

from overseer.devices import protocol as p
from overseer.devices.frames import changed_runs


class Shows(NamedTuple):
    """The note on a FRAME_SHOW: the screen number and image it shows (a named tuple: one a
    screen, made as the tuple it is)."""

    screen: int
    image: bytes


class Arms(NamedTuple):
    """The note on a FRAME_ARM: the screen number, image and CRC it arms (the Pico keeps that
    image once the FRAME_ARM is acknowledged)."""

    screen: int
    image: bytes
    crc: int


class ScreenBook:
    """The screens of one link; see the module's docstring."""

    def __init__(self) -> None:
        self.asked: tuple[int, bytes] | None = None  # the newest screen asked for, its image
        self.shown = 0  # the newest screen the Pico acknowledged since the handshake
        self._queued = 0  # the screen whose messages are queued or in flight
        self._base: bytes | None = None  # the image the Pico holds once the queue is through
        self._acked: bytes | None = None  # the newest image whose FRAME_SHOW was acknowledged
        self._numbered = 0  # the last screen number given (asked for or armed)
        self._armed: tuple[int, bytes, int, int] | None = None  # number, image, button, on
        self._arm_queued = False  # its messages are queued or in flight
        self._kept: Arms | None = None  # the armed image the Pico keeps (an acknowledged arm)

    @property
    def screen(self) -> int:
        """The number of the newest screen asked for (0 before the first)."""
        return 0 if self.asked is None else self.asked[0]

    @property
    def waiting(self) -> bool:
        """A screen was asked for whose messages are not queued yet (``take`` has some)."""
        asked = self.asked
        return asked is not None and (asked[0] != self._queued or (
            self._armed is not None and not self._arm_queued))

    def ask(self, image: bytes) -> int:
        """Show ``image`` (1024 bytes, MONO_VLSB): its screen number."""
        if self.asked is None or self.asked[1] != image:
            self._numbered += 1
            self.asked, self._armed = (self._numbered, image), None
        return self.asked[0]

    def arm(self, image: bytes, button: int) -> None:
        """Send ``image`` ahead, for a press of ``button`` (a ``protocol.Button``) on the newest
        screen asked for to put up (nothing when that is the same image, or none)."""
        asked = self.asked
        if asked is None or asked[1] == image:
            self._armed = None
            return
        kept = self._kept
        if kept is not None and kept.image == image:  # the Pico keeps it: its number again
            number = kept.screen
        else:
            self._numbered += 1
            number = self._numbered
        self._armed, self._arm_queued = (number, image, button, asked[0]), False

    def take(self, chunk_size: int) -> list[tuple[p.Sendable, Shows | Arms | None]]:
        """The messages that show the newest screen, once (none when it is on its way)."""
        asked = self.asked  # one read: the app may ask for another screen meanwhile
        if asked is None:
            return []
        out: list[tuple[p.Sendable, Shows | Arms | None]] = []
        if asked[0] != self._queued:
            screen, image = asked
            out = self._chunks(screen, image, chunk_size)
            new = tuple.__new__
            out.append((new(p.FrameShow, (p.wire_id(screen), p.crc32(image))),
                        new(Shows, (screen, image))))
            self._queued, self._base = screen, image
        armed = self._armed
        if armed is not None and not self._arm_queued and armed[3] == self._queued:
            screen, image, button, on = armed
            kept = self._kept
            if kept is not None and kept.screen == screen:  # kept: the FRAME_ARM alone
                crc = kept.crc
            else:  # its chunks from ``_base``; the Pico keeps another image once they are through
                self._kept = None
                out += self._chunks(screen, image, chunk_size)
                crc = p.crc32(image)
            out.append((p.FrameArm(p.wire_id(screen), crc, button, p.wire_id(on)),
                        Arms(screen, image, crc)))
            self._arm_queued = True  # what the Pico holds once through: still ``_base``
        return out

    def _chunks(self, screen: int, image: bytes, chunk_size: int
                ) -> list[tuple[p.Sendable, Shows | Arms | None]]:
        """Its FRAME_CHUNKs from ``_base`` (``frames.changed_chunks``'s): one queued item, the
        changed runs, cut and encoded as the window takes them (none when nothing changed)."""
        runs = changed_runs(self._base, image)
        return [(p.FrameChunks(p.wire_id(screen), image, runs, chunk_size), None)] if runs else []

    def acked(self, shows: Shows) -> None:
        """The Pico acknowledged this FRAME_SHOW (the newest an ACK settled)."""
        self._acked = shows.image
        self.shown = max(self.shown, shows.screen)

    def arm_acked(self, arms: Arms) -> None:
        """The Pico acknowledged this FRAME_ARM (the newest an ACK settled): it keeps its image."""
        self._kept = arms

    def handshake(self, same_boot: bool) -> None:
        """A handshake: nothing shown in it yet; the newest screen goes again, only what differs
        from the image the Pico acknowledged when it is the same boot, else whole."""
        self.shown = self._queued = 0
        self._base = self._acked if same_boot else None
        self._armed = self._kept = None  # a HELLO drops what the Pico held armed and kept

    def refused(self) -> None:
        """The Pico refused a FRAME_SHOW: the next screen goes whole."""
        self._queued = 0
        self._base = self._acked = self._armed = self._kept = None
