"""The pictures of docs/conquest.md are the screens of a Conquest game played on the Gadget now."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageChops

from overseer.screens.render import render
from tools import conquest_tour

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_the_pictures_of_the_conquest_flow_are_the_screens_of_now():
    shots = conquest_tour.shots()
    text = (DOCS / "conquest.md").read_text()
    for shot in shots:
        name = f"conquest-{shot.name}.png"
        assert f"img/{name}" in text, f"docs/conquest.md does not show {name}"
        picture = Image.open(DOCS / "img" / name).convert("L")
        small = picture.resize((128, 64), Image.Resampling.NEAREST).convert("1")
        assert ImageChops.difference(small.convert("L"), render(shot.screen).convert("L")
                                     ).getbbox() is None, f"run scripts/conquest_pictures ({name})"
    drawn = {p.name for p in (DOCS / "img").glob("conquest-*.png")}
    assert drawn == {f"conquest-{s.name}.png" for s in shots}, "stale pictures in docs/img"
