# The OLED: host frames (assembled from chunks, shown only when FRAME_SHOW's CRC matches) and the
# Pico's own screens (boot, die tumble and result, waiting for host, link lost).
# A host image goes to the panel as the chunks (half pages) that changed since the panel last
# showed a host image; anything else (an own screen, the first host image, a failed write) whole.
import framebuf
import micropython
from dice import NAMES
from link import crc32
from ssd1306 import ALL, CHUNK

SIZE = 1024  # 128 x 64, 1 bit per pixel, MONO_VLSB


class Display:
    def __init__(self, oled) -> None:
        self.oled = oled  # an SSD1306 driver: a FrameBuffer with .buffer and .show()
        self.shown = bytearray(SIZE)  # the last host image that passed its CRC check
        self.shown_id = 0  # its screen id (0 = none yet)
        self.back = bytearray(SIZE)  # the host image being assembled
        self.back_id = -1
        # chunk masks (bit i: bytes 64 i .. 64 i + 63): where back may differ from shown, and
        # where shown may differ from the panel's RAM while it holds a host image
        self.back_dirty = 0
        # [image, screen id, CRC, half pages where it differs from the image shown when armed]
        # of the last good FRAME_ARM, kept past the screens after it: a FRAME_ARM of its id and
        # CRC arms it again, no chunk sent (docs/protocol.md, Armed images). None until the
        # first (a board never armed keeps its 1 KB)
        self.kept = None
        self.dirty = ALL
        self.host_on_glass = False
        self._text = bytearray(32)  # a 32 x 8 scratch canvas for large text
        self._text_fb = framebuf.FrameBuffer(self._text, 32, 8, framebuf.MONO_VLSB)

    # Host frames (docs/protocol.md, Frames)

    def _start(self, screen_id):
        if screen_id != self.back_id:
            self.back[:] = self.shown
            self.back_id = screen_id
            self.back_dirty = 0

    @micropython.native
    def chunk(self, screen_id: int, offset: int, data) -> bool:
        """Copy data into the back buffer; False (nothing changed) if it does not fit."""
        end = offset + len(data)
        if end > SIZE:
            return False
        if screen_id != self.back_id:
            self._start(screen_id)
        self.back[offset:end] = data
        if end > offset:
            first = offset // CHUNK
            self.back_dirty |= (2 << ((end - 1) // CHUNK)) - (1 << first)
        return True

    def check(self, screen_id: int, crc: int) -> bool:
        """The back buffer for screen_id (started if it is a new one) has this CRC."""
        self._start(screen_id)
        return crc32(self.back) == crc

    def take(self) -> None:
        """The back buffer, its CRC checked, becomes the host image shown. An image equal to
        the one shown marks nothing dirty: showing it again writes nothing to the panel."""
        if self.back_dirty and self.back != self.shown:  # (no chunk since: back is shown)
            self.shown[:] = self.back
            self.dirty |= self.back_dirty
        self.shown_id = self.back_id
        self.back_dirty = 0

    def keep(self, crc: int) -> None:
        """FRAME_ARM's back buffer, its CRC checked: kept as the armed image (``arm_kept``)."""
        kept = self.kept
        if kept is None:
            self.kept = [bytearray(self.back), self.back_id, crc, 0]
        else:
            kept[0][:] = self.back
            kept[1], kept[2] = self.back_id, crc
        self.arm_kept()

    def is_kept(self, screen_id: int, crc: int) -> bool:
        """The image kept is that of screen_id, with this CRC."""
        kept = self.kept
        return kept is not None and kept[1] == screen_id and kept[2] == crc

    def arm_kept(self) -> None:
        """The kept image is armed over the image shown now (a FRAME_SHOW ends the arm, so that
        is still the one shown when the arm fires): the half pages where they differ, found
        now rather than at the press."""
        kept, shown = self.kept, self.shown
        if kept is None:
            return
        image, mask = kept[0], 0
        if image != shown:
            for i in range(SIZE // CHUNK):
                at = i * CHUNK
                if image[at : at + CHUNK] != shown[at : at + CHUNK]:
                    mask |= 1 << i
        kept[3] = mask

    def take_kept(self) -> None:
        """The kept image (its arm fired) becomes the host image shown, as ``take`` does the
        back buffer: only the half pages where it differs are marked dirty."""
        kept = self.kept
        if kept is None:
            return
        if kept[3]:
            self.shown[:] = kept[0]
            self.dirty |= kept[3]
        self.shown_id = kept[1]

    def accept(self, screen_id: int, crc: int) -> bool:
        """FRAME_SHOW: take the back buffer as the host image if its CRC matches."""
        if not self.check(screen_id, crc):
            return False
        self.take()
        return True

    def show_host(self) -> bool:
        """Put the last accepted host image on the glass (False if there is none)."""
        if not self.shown_id:
            return False
        oled = self.oled
        oled.buffer[:] = self.shown
        failures = oled.failures
        oled.show_chunks(self.dirty if self.host_on_glass else ALL)
        # a write that failed leaves the panel unknown: the next host image goes whole
        self.dirty = ALL if oled.failures != failures else 0
        self.host_on_glass = True
        return True

    def on_glass(self) -> int:
        """The host screen id on the glass now, 0 while the Pico shows its own screen."""
        return self.shown_id if self.host_on_glass else 0

    # The Pico's own screens

    def _own(self):
        self.host_on_glass = False
        self.oled.fill(0)

    def _big(self, text, x, y, scale):
        t = self._text_fb
        t.fill(0)
        t.text(text, 0, 0, 1)
        rect = self.oled.fill_rect
        for py in range(8):
            for px in range(8 * len(text)):
                if t.pixel(px, py):
                    rect(x + px * scale, y + py * scale, scale, scale, 1)

    def _centre(self, text, y):
        self.oled.text(text, (128 - 8 * len(text)) // 2, y, 1)

    def boot(self, version: str) -> None:
        self._own()
        self._centre("OVERSEER", 16)
        self._centre(version, 36)
        self.oled.show()

    def waiting(self) -> None:
        self._own()
        self._centre("waiting for", 20)
        self._centre("host", 34)
        self.oled.show()

    def link_lost(self) -> None:
        self._own()
        self.oled.rect(0, 0, 128, 64, 1)
        self._centre("link lost", 20)
        self._centre("reconnecting", 36)
        self.oled.show()

    def die(self, die: int, face: int, frame: int) -> None:
        """A die face: tumbling (frame 1, 2, ...: jittered, thin border) or settled (frame 0)."""
        self._own()
        self._centre(NAMES[die], 0)
        text = str(face)
        dx = (frame % 3 - 1) * 6 if frame else 0
        dy = (frame % 2) * 4 if frame else 0
        x = (128 - 32 * len(text)) // 2 + dx
        self.oled.rect(x - 6, 12 + dy, 32 * len(text) + 12, 46, 1)
        if not frame:
            self.oled.rect(x - 8, 10, 32 * len(text) + 16, 50, 1)
        self._big(text, x, 19 + dy, 4)
        self.oled.show()
