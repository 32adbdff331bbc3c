"""The link's screen book: the newest screen asked for, what the Pico holds, and the messages
that bring it there, without I/O or a lock (``pico_link.PicoLink`` holds its lock around the
app's side: ``ask``, ``acked``, ``handshake``).

A new image gets the next screen number; the same image again keeps its number. When no frame
message waits in the link's window, ``take`` gives the newest screen's messages: the chunks that
differ from what the Pico holds once the window is through (the whole frame when that is
unknown), then its FRAME_SHOW, noted with the screen (``Shows``). An ACK that settles a
FRAME_SHOW makes its screen shown (``acked``). After a handshake the same boot still holds the
last image it acknowledged, so only what differs goes; a new boot holds nothing known. A
FRAME_SHOW the Pico refused (``refused``) sends the next screen whole."""

from __future__ import annotations

from dataclasses import dataclass

from overseer.devices import protocol as p
from overseer.devices.frames import changed_chunks


@dataclass(frozen=True)
class Shows:
    """The note on a FRAME_SHOW: the screen number and image it shows."""

    screen: int
    image: bytes


class ScreenBook:
    """The screens of one link; see the module's docstring."""

    def __init__(self) -> None:
        self.asked: tuple[int, bytes] | None = None  # the newest screen asked for, its image
        self.shown = 0  # the newest screen the Pico acknowledged since the handshake
        self._queued = 0  # the screen whose messages are queued or in flight
        self._base: bytes | None = None  # the image the Pico holds once the queue is through
        self._acked: bytes | None = None  # the newest image whose FRAME_SHOW was acknowledged

    @property
    def screen(self) -> int:
        """The number of the newest screen asked for (0 before the first)."""
        return 0 if self.asked is None else self.asked[0]

    @property
    def waiting(self) -> bool:
        """A screen was asked for whose messages are not queued yet (``take`` has some)."""
        asked = self.asked
        return asked is not None and asked[0] != self._queued

    def ask(self, image: bytes) -> int:
        """Show ``image`` (1024 bytes, MONO_VLSB): its screen number."""
        if self.asked is None or self.asked[1] != image:
            self.asked = (self.screen + 1, image)
        return self.asked[0]

    def take(self, chunk_size: int) -> list[tuple[p.Message, Shows | None]]:
        """The messages that show the newest screen, once (none when it is on its way)."""
        asked = self.asked  # one read: the app may ask for another screen meanwhile
        if asked is None or asked[0] == self._queued:
            return []
        screen, image = asked
        wire = p.wire_id(screen)
        chunk, new = p.FrameChunk, tuple.__new__  # (a named tuple made as the tuple it is)
        out: list[tuple[p.Message, Shows | None]] = [
            (new(chunk, (wire, *place)), None)
            for place in changed_chunks(self._base, image, chunk_size)]
        out.append((p.FrameShow(wire, p.crc32(image)), Shows(screen, image)))
        self._queued, self._base = screen, image
        return out

    def acked(self, shows: Shows) -> None:
        """The Pico acknowledged this FRAME_SHOW (the newest an ACK settled)."""
        self._acked = shows.image
        self.shown = max(self.shown, shows.screen)

    def handshake(self, same_boot: bool) -> None:
        """A handshake: nothing shown in it yet; the newest screen goes again, only what differs
        from the image the Pico acknowledged when it is the same boot, else whole."""
        self.shown = self._queued = 0
        self._base = self._acked if same_boot else None

    def refused(self) -> None:
        """The Pico refused a FRAME_SHOW: the next screen goes whole."""
        self._queued = 0
        self._base = self._acked = None
