"""Screens: drawn with luma.core on its dummy device, packed for the Pico, built from facts."""

import os

from overseer import scenario
from overseer.rules.catacombs import scenario as catacombs
from overseer.rules.procedure import ChooseOne, Runner, YesNo
from overseer.screens.catacombs import activation_screen, question_screen
from overseer.screens.render import HEIGHT, WIDTH, Screen, draw, frame_bytes, from_frame_bytes

SCENARIOS = os.path.join(os.path.dirname(__file__), "..", "scenarios", "catacombs")


def test_frame_bytes_round_trip():
    frame = os.urandom(1024)
    assert frame_bytes(from_frame_bytes(frame)) == frame


def test_frame_layout_is_mono_vlsb():
    image = draw(Screen("", ()))
    frame = frame_bytes(image)
    # The title bar is white from row 0 to row 11: pages 0 (rows 0-7) fully lit at x=0,
    # page 1 (rows 8-15) lit on bits 0-3 (rows 8-11) only.
    assert frame[0] == 0xFF and frame[WIDTH] == 0x0F
    assert image.size == (WIDTH, HEIGHT) and image.mode == "1"


def test_activation_screen_from_a_real_run():
    scn = scenario.load(os.path.join(SCENARIOS, "red_box_shots.json"))
    game, state = catacombs.build(scn["setup"])
    script = scenario.Script(scn)
    runner = Runner(game, state, chance=script.chance)
    question = runner.begin({"do": "next_ai_piece"})
    while question is not None:
        question = runner.answer(script.answer(question))
    names = {k: v.name for k, v in {**state.heroes, **state.pieces}.items()}
    screen = activation_screen(runner.trace, names)
    assert screen == Screen("Wraith Commander", ("move R2 to Elf", "L2 token: 2",
                                                 "Elf -2 (10 left)", "push Elf 8h R3"), "!")


def test_question_screens_are_short():
    assert question_screen(YesNo("long prompt", "edge")).lines == ("At the edge?",)
    screen = question_screen(ChooseOne("p", ("elf", "dwarf"), "closest"),
                             {"elf": "Elf", "dwarf": "Dwarf"})
    assert screen.lines == ("Which is closest?", "Elf, Dwarf") and screen.mark == "?"
    assert all(len(line) <= 21 for line in screen.lines)
