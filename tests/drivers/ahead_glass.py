"""An in-memory glass that takes NEXT's screen ahead (``GlassAhead``) as the Pico's face does,
keeping each image armed: the gadget draws NEXT AI PIECE ahead on it as on the real box."""

from __future__ import annotations

from PIL import Image

from overseer.app.sim import MemoryGlass
from overseer.ports.events import Button
from overseer.ports.ports import GlassAhead
from overseer.screens.render import frame_bytes


class AheadGlass(MemoryGlass, GlassAhead):
    def __init__(self) -> None:
        super().__init__()
        self.armed: list[tuple[bytes, Button]] = []

    def arm(self, image: Image.Image, button: Button) -> None:
        self.armed.append((frame_bytes(image), button))
