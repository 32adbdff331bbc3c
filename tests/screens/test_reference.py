"""The key screens, pixel for pixel, against the reference images in tests/screens/ref/.

The screens are the gallery's (tools/gallery.py: the real controller over example
views) and the README's activation summary. A change to how screens look fails here; look at the
new pictures, and when they are right write them as the new references:

    OVERSEER_REGEN_SCREENS=1 scripts/test tests/screens/test_reference.py

(the images are 128x64, one bit a pixel; a failing test leaves the picture it drew beside the
reference as NAME.actual.png, which git ignores, to compare).
"""

import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from overseer.core.procedure import Step
from overseer.screens.catacombs import activation_screen
from overseer.screens.render import Screen, render
from tools import gallery

REF = Path(__file__).parent / "ref"
REGEN = os.environ.get("OVERSEER_REGEN_SCREENS") == "1"


def summary() -> Screen:
    steps = [Step("active_character", "", "", {"piece": "wc"}),
             Step("move", "", "", {"ruler": 2, "toward": "elf"}),
             Step("token", "", "", {"level": 2, "value": 2, "reset": False, "verified": False}),
             Step("damage", "", "", {"target": "elf", "amount": 2, "health": 10}),
             Step("clock", "", "", {"who": "elf", "face": 8, "ruler": 3})]
    return activation_screen(steps, gallery.NAMES)


SCREENS = {**{shot.name: shot.screen for shot in gallery.shots()}, "summary": summary()}


def assert_same_pixels(image: Image.Image, path: Path) -> None:
    """Exactly the reference's pixels (luma.core's tests compare the same way)."""
    reference = Image.open(path).convert("1")
    actual = path.with_suffix(".actual.png")
    if image.size != reference.size or ImageChops.difference(
            image.convert("L"), reference.convert("L")).getbbox() is not None:
        image.save(actual)
        pytest.fail(f"{path.name} differs from the screen drawn now ({actual.name} beside it)")
    actual.unlink(missing_ok=True)


@pytest.mark.parametrize("name", sorted(SCREENS))
def test_screen_matches_its_reference(name: str) -> None:
    image = render(SCREENS[name])
    path = REF / f"{name}.png"
    if REGEN:
        image.save(path)
    assert image.mode == "1" and image.size == (128, 64)
    assert_same_pixels(image, path)


def test_the_pictures_in_the_docs_are_the_screens_of_now() -> None:
    """docs/buttons.md shows docs/img/buttons-*.png: scripts/button_pictures redraws them."""
    docs = REF.parents[2] / "docs" / "img"
    for shot in gallery.shots():
        picture = Image.open(docs / f"buttons-{shot.name}.png").convert("L")
        small = picture.resize((128, 64), Image.Resampling.NEAREST).convert("1")
        assert ImageChops.difference(small.convert("L"), render(shot.screen).convert("L")
                                     ).getbbox() is None, f"run scripts/button_pictures ({shot.name})"


def test_every_reference_has_its_screen() -> None:
    stale = {p.stem for p in REF.glob("*.png") if not p.stem.endswith(".actual")} - set(SCREENS)
    assert not stale, f"references with no screen: {sorted(stale)} (delete them)"
