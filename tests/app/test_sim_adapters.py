"""The terminal simulator's adapters of the ports: what they keep and what they put in the inbox."""

from __future__ import annotations

import pytest
from PIL import Image

from overseer.app.sim import MemoryGlass, SeededDice, SimLeds, SimTags, TableDice
from overseer.core.chance import SeededChance
from overseer.core.procedure import Roll
from overseer.ports.events import Die, Rolled, SeatLight, SetLeds, Tap, UnknownTap
from overseer.ports.inbox import Inbox
from overseer.ports.ports import Dice, Glass, Leds, Tags
from overseer.screens.render import Screen, draw


def drain(inbox: Inbox) -> list[object]:
    items = []
    while (item := inbox.get(0)) is not None:
        items.append(item)
    return items


def test_memory_glass_keeps_every_image_as_shown() -> None:
    glass: Glass = MemoryGlass()
    first = draw(Screen("NEXT AI PIECE"))
    glass.show(first)
    grey = Image.new("L", (128, 64), 255)
    glass.show(grey)
    assert isinstance(glass, MemoryGlass)
    assert [im.mode for im in glass.shown] == ["1", "1"]
    assert glass.shown[0].tobytes() == first.tobytes()
    was = first.tobytes()
    first.putpixel((0, 0), 0 if first.getpixel((0, 0)) else 1)
    assert glass.shown[0].tobytes() == was  # a later change to the caller's image is not shown
    last = glass.image
    assert last is not None and last is glass.shown[-1] and last.getpixel((5, 5))
    with pytest.raises(ValueError, match="the glass is 128x64 pixels, not 64x48"):
        glass.show(Image.new("1", (64, 48)))
    assert len(glass.shown) == 2


def test_sim_leds_keep_each_seat_and_refuse_bad_lights() -> None:
    leds: Leds = SimLeds()
    leds.set(SetLeds((SeatLight(1, "pulse"), SeatLight(4, "dim"))))
    assert isinstance(leds, SimLeds)
    assert leds.modes == {1: "pulse", 2: "off", 3: "off", 4: "dim"}
    with pytest.raises(ValueError, match="unknown light mode 'blink': the modes are off, on, dim, pulse"):
        leds.set(SetLeds((SeatLight(2, "blink"),)))
    with pytest.raises(ValueError, match="no seat 0"):
        leds.set(SetLeds((SeatLight(0, "on"),)))
    assert leds.modes == {1: "pulse", 2: "off", 3: "off", 4: "dim"}
    leds.close()
    assert set(leds.modes.values()) == {"off"}


def test_sim_tags_put_taps_once_started() -> None:
    tags: Tags = SimTags()
    inbox = Inbox()
    assert isinstance(tags, SimTags)
    with pytest.raises(RuntimeError, match="SimTags is not started"):
        tags.tap("catacombs", "hero", "elf")
    tags.start(inbox)
    tags.tap("catacombs", "hero", "elf")
    tags.unknown("04a1b2c3")
    with pytest.raises(ValueError, match="needs its card"):
        tags.tap("catacombs", "hero", "")
    assert drain(inbox) == [Tap("catacombs", "hero", "elf"), UnknownTap("04a1b2c3")]
    tags.close()
    with pytest.raises(RuntimeError):
        tags.unknown("04")


def seeded_faces(seed: int, dice: tuple[str, ...]) -> list[int]:
    chance = SeededChance(seed)
    faces = [chance(Roll(die, "")) for die in dice]
    return [face for face in faces if isinstance(face, int)]


def test_seeded_dice_answer_at_once_as_seeded_chance_rolls() -> None:
    dice: Dice = SeededDice(seed=42)
    inbox = Inbox()
    dice.start(inbox)
    dice.request(Die.D12, 1)
    dice.request(Die.LOCATION, 2)
    assert isinstance(dice, SeededDice)
    dice.roll(Die.RUNE)
    faces = seeded_faces(42, ("d12", "location", "rune"))
    assert drain(inbox) == [
        Rolled(Die.D12, faces[0], 1), Rolled(Die.LOCATION, faces[1], 2), Rolled(Die.RUNE, faces[2], 0)
    ]
    again = SeededDice(seed=42)  # the same seed rolls the same
    again.start(inbox)
    again.request(Die.D12, 9)
    assert drain(inbox) == [Rolled(Die.D12, faces[0], 9)]
    with pytest.raises(ValueError, match="unknown die 'd6': the dice are d12, rune, location"):
        again.request("d6", 3)  # type: ignore[arg-type]


def test_table_dice_wait_for_the_face_the_table_rolled() -> None:
    dice: Dice = TableDice()
    inbox = Inbox()
    dice.start(inbox)
    dice.request(Die.RUNE, 5)
    dice.request(Die.D12, 6)
    assert isinstance(dice, TableDice)
    assert dice.waiting == [(Die.RUNE, 5), (Die.D12, 6)]
    assert drain(inbox) == []
    with pytest.raises(ValueError, match="the rune die has faces 1 to 6, not 7"):
        dice.answer(7)
    assert dice.waiting == [(Die.RUNE, 5), (Die.D12, 6)]  # a bad face changes nothing
    dice.answer(6)
    dice.answer(12)
    dice.roll(Die.LOCATION, 2)
    assert drain(inbox) == [Rolled(Die.RUNE, 6, 5), Rolled(Die.D12, 12, 6), Rolled(Die.LOCATION, 2, 0)]
    with pytest.raises(ValueError, match="no roll was asked for"):
        dice.answer(1)
    with pytest.raises(ValueError, match="not True"):
        dice.roll(Die.D12, True)
