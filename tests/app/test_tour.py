"""The pictures of docs/gadget.md are the screens of a game played on the Gadget now."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

from overseer.screens.render import render
from tools import tour

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_pictures_of_the_screen_flow_are_the_screens_of_now():
    shots = tour.shots()
    text = (DOCS / "gadget.md").read_text()
    for shot in shots:
        name = f"gadget-{shot.name}.png"
        assert f"img/{name}" in text, f"docs/gadget.md does not show {name}"
        picture = Image.open(DOCS / "img" / name).convert("L")
        small = picture.resize((128, 64), Image.Resampling.NEAREST).convert("1")
        assert ImageChops.difference(small.convert("L"), render(shot.screen).convert("L")
                                     ).getbbox() is None, f"run scripts/gadget_pictures ({name})"
    drawn = {p.name for p in (DOCS / "img").glob("gadget-*.png")}
    assert drawn == {f"gadget-{s.name}.png" for s in shots}, "stale pictures in docs/img"
