"""Screens: drawn with luma.core on its dummy device, packed for the Pico, built from facts."""

import os
import pickle
import random
import textwrap

import pytest
from PIL import Image

from overseer import documents, games, scenario
from overseer.core.procedure import ChooseOne, Runner, YesNo
from overseer.screens.catacombs import activation_screen, question_screen
from overseer.screens.render import (
    HEIGHT,
    WIDTH,
    Screen,
    draw,
    frame,
    frame_bytes,
    from_frame_bytes,
    render,
)

SCENARIOS = os.path.join(os.path.dirname(__file__), "..", "scenarios", "catacombs")


def test_frame_bytes_round_trip():
    frame = os.urandom(1024)
    assert frame_bytes(from_frame_bytes(frame)) == frame


def test_frame_layout_is_mono_vlsb():
    image = draw(Screen("", ()))
    frame = frame_bytes(image)
    # The title bar is white from row 0 to row 8: page 0 (rows 0-7) fully lit at x=0,
    # page 1 (rows 8-15) lit on bit 0 (row 8) only.
    assert frame[0] == 0xFF and frame[WIDTH] == 0x01
    assert image.size == (WIDTH, HEIGHT) and image.mode == "1"


def test_frame_bytes_puts_each_pixel_in_its_page_and_bit():
    for x, y in [(0, 0), (127, 0), (0, 63), (5, 9), (127, 63), (64, 31)]:
        image = Image.new("1", (WIDTH, HEIGHT))
        image.putpixel((x, y), 1)
        frame = frame_bytes(image)
        lit = [(n, byte) for n, byte in enumerate(frame) if byte]
        assert lit == [((y // 8) * WIDTH + x, 1 << (y % 8))]
        assert from_frame_bytes(frame).getpixel((x, y)) and from_frame_bytes(frame).getbbox() == (x, y, x + 1, y + 1)


def test_frame_bytes_of_any_picture_hold_its_pixels_page_by_page():
    rng = random.Random(24)
    for mode in ("1", "L"):
        for _ in range(5):
            image = Image.frombytes(mode, (WIDTH, HEIGHT), rng.randbytes(
                WIDTH * HEIGHT // (8 if mode == "1" else 1)))
            lit = image.convert("1").load()
            want = bytes(sum(1 << bit for bit in range(8) if lit[x, 8 * page + bit])
                         for page in range(HEIGHT // 8) for x in range(WIDTH))
            assert frame_bytes(image) == want


def test_a_rendered_picture_carries_its_frame_kept_with_the_drawing():
    screens = [Screen("Who joins the party?", options=("Elf", "Ulom", "Yilleph", "Done"),
                      cursor=n) for n in range(4)]
    for screen in screens * 2:  # the second time from the kept drawings and frames
        image = render(screen)
        assert image.mono_vlsb() == frame(screen) == frame_bytes(image)
    assert not hasattr(render(screens[0]).copy(), "mono_vlsb")


def test_frame_bytes_refuses_a_wrong_size():
    with pytest.raises(ValueError, match="1024 bytes, not 3"):
        from_frame_bytes(b"abc")
    with pytest.raises(ValueError, match="128x64"):
        frame_bytes(Image.new("1", (64, 64)))


def test_activation_screen_from_a_real_run():
    scn = documents.load(os.path.join(SCENARIOS, "red_box_shots.json"))
    state = games.CATACOMBS.build(scn["setup"])
    script = scenario.Script(scn)
    runner = Runner(games.CATACOMBS, state, chance=script.chance)
    question = runner.begin({"do": "next_ai_piece"})
    while question is not None:
        question = runner.answer(script.answer(question))
    names = {k: v.name for k, v in {**state.heroes, **state.pieces}.items()}
    screen = activation_screen(runner.trace, names)
    assert screen == Screen("Wraith Commander", ("move R2 to Elf", "L2 token: 2",
                                                 "Elf -2 (10 left)", "push Elf 8h R3"), "!")


def test_question_screens_are_short():
    assert question_screen(YesNo("long prompt", "template")).lines == ("Template covers it?",)
    screen = question_screen(ChooseOne("p", ("elf", "dwarf"), "closest"),
                             {"elf": "Elf", "dwarf": "Dwarf"})
    assert screen.lines == ("Which is closest?", "Elf, Dwarf") and screen.mark == "?"
    assert all(len(line) <= 21 for line in screen.lines)


def test_draw_shows_the_rendered_screen_on_a_luma_device():
    from luma.core.device import dummy

    device = dummy(width=WIDTH, height=HEIGHT, mode="1")
    screen = Screen("Wraith Commander", ("target: primary column",), key="Elf")
    image = draw(screen, device)
    assert device.image is not None
    assert frame_bytes(device.image) == frame_bytes(image) == frame_bytes(render(screen))
    assert image.getbbox() is not None


@pytest.mark.parametrize("size", ["5x8", "8x16", "12x24"])
def test_a_line_is_drawn_with_the_pixels_pillows_getmask_gives(size):
    """A text on the canvas (its integer of columns) is lit, or cleared, where Pillow draws
    the face's mask, over what was drawn before, and cut at the screen's edges."""
    from PIL import ImageDraw

    from overseer.screens.render import Canvas, face

    rng = random.Random(size)
    printable = [chr(c) for c in range(32, 127)]
    texts = ["".join(printable), "~", " ", "a b", *("".join(rng.choices(printable, k=n))
                                                    for n in range(1, 30))]
    for text in texts:
        for xy in ((1, 0), (0, 10), (37, 23), (120, 58), (3, 63), (5, 70)):
            ink = rng.randint(0, 1)
            ours = Canvas()
            ours.draw_rectangle((8, 0, 40, 127), 1, 1)  # (x and y swapped, as Pillow's)
            ours.text(xy, text, size, ink)
            theirs = Image.new("1", (WIDTH, HEIGHT))
            pen = ImageDraw.Draw(theirs)
            pen.rectangle((0, 8, 127, 40), fill=1)
            pen.draw.draw_bitmap(xy, face(size).font.getmask(text, "1"), ink)
            got = Image.frombytes("1", (HEIGHT, WIDTH), ours.columns(), "raw", "1;R")
            assert got.transpose(Image.Transpose.TRANSPOSE).tobytes() == theirs.tobytes(), \
                (text, xy)


def test_lines_are_wrapped_as_textwrap_wraps_them():
    from overseer.screens.render import wrap

    rng = random.Random(7)
    words = ["a", "Orc", "Sewer", "Rat", "x" * 30, "two-step", "--", "-", "end.", "(3)", "hits:"]
    for _ in range(500):
        text = " ".join(rng.choices(words, k=rng.randint(0, 14)))
        for width in (10, 16, 25):
            assert wrap(text, width) == (textwrap.wrap(text, width) or [""]), text


def test_plain_texts_are_cut_where_textwrap_cuts_them():
    """The words cut at their spaces without textwrap's loop (``render._wrap``), and every
    other text (runs of spaces, a space first or last, a word wider than the line, a hyphen)
    as textwrap cuts it: the same lines at every width."""
    from overseer.screens.render import _wrap

    rng = random.Random(11)
    words = ["a", "Orc", "Sewer", "Rat", "end.", "(3)", "hits:", "two-step", "-", "ab", ""]
    for _ in range(3000):
        picked = [w if w != "ab" else "x" * rng.randint(1, 28) for w in
                  rng.choices(words, k=rng.randint(0, 12))]
        text = "".join(w + rng.choice((" ", " ", " ", "  ")) for w in picked)
        text = rng.choice((text, text.strip(), text.rstrip(), " " + text.strip()))
        for width in (1, 3, 5, 10, 16, 25, 26):
            assert _wrap(text, width) == textwrap.wrap(text, width), (text, width)


def test_the_kinds_a_title_is_not_looked_for_in_set_no_title():
    """``pages.title_before`` passes over the kinds of ``UNTITLED`` without their faces: none
    of them sets a title, whatever its data."""
    from overseer.core.procedure import Step
    from overseer.screens.catacombs import UNTITLED, step_face

    data = {"target": "elf", "shots": ["melee"], "shot": "melee", "ruler": 2, "rune": 1,
            "value": 2, "reset": True, "amount": 1, "face": 3, "piece": "orc-1",
            "who": "elf", "toward": "elf", "implemented": False}
    for kind in UNTITLED:
        for given in (data, {k: v for k, v in data.items() if k not in ("shots", "implemented")}):
            found = step_face(Step(kind, "rule", "Orc A (orc-1): to Elf", given), str.upper)
            assert found is None or found.title is None, kind


def test_the_title_before_a_step_is_the_last_one_its_steps_faces_set():
    """Over every Catacombs scenario's trace: the title ``title_before`` finds for each step
    is the one the faces before it set (every face made, none passed over)."""
    from overseer.screens import facet, pages

    catacombs = facet.of("catacombs")
    steps = 0
    for path in sorted(os.listdir(SCENARIOS)):
        scn = documents.load(os.path.join(SCENARIOS, path))
        doc, game, state = scenario.checked({k: v for k, v in scn.items() if k != "_path"})
        script = scenario.Script(doc)
        runner = Runner(game, state, chance=script.chance)
        for action in doc["script"]["actions"]:
            for _ in range(action.get("times", 1)):
                scenario.play(runner, script, action)
        names = {k: v.name for k, v in {**state.heroes, **state.pieces}.items()}
        trace, name = runner.trace, pages.namer(names)
        for index in range(len(trace) + 1):
            faces = (catacombs.face(step, name) for step in reversed(trace[:index]))
            titled = next((f.title for f in faces if f is not None and f.title), "none")
            assert pages.title_before("catacombs", trace, index, names, "none") == titled
        steps += len(trace)
    assert steps > 500  # the scenarios played


def test_the_kinds_given_a_setup_or_heroes_face_are_those_the_faces_match():
    """``step_face`` asks ``_setup_face`` only of ``SETUP_FACES`` and ``_heroes_face`` only of
    ``HEROES_FACES``: of every step kind, those two give a face to exactly these."""
    from overseer.core.procedure import Step
    from overseer.rules.catacombs.kinds import StepKind
    from overseer.screens.catacombs import HEROES_FACES, SETUP_FACES, _heroes_face, _setup_face

    data = {"hero": "elf", "monster": "Orc", "chosen": "Orc", "mercenary": "Orc",
            "piece": "orc-1", "order": 1, "campaign": "pharaoh", "stage": 1,
            "rooms": ["a", "b"], "reward": 2, "amount": 1, "gold": 3, "health": 4}
    for kind in StepKind:
        step = Step(kind, "rule", "Setup: Bholoth Cemetery (bholoth-cemetery)", data)
        assert (_setup_face(step, str.upper) is not None) == (kind in SETUP_FACES), kind
        assert (_heroes_face(step, str.upper) is not None) == (kind in HEROES_FACES), kind


def test_a_pictures_pixels_are_made_when_first_read_and_its_frame_without_them():
    """``render``'s picture (``Picture``): a glass that takes its frame (the Pico's) never
    makes its pixels; read, they are the screen's, and drawing on them changes no other
    picture of it."""
    from PIL import ImageDraw

    from overseer.ports.ports import kept_frame

    screen = Screen("Wraith Commander", ("target: primary column",), key="Elf", page=(1, 2))
    picture = render(screen)
    frame = kept_frame(picture)
    assert picture._pixels is None and frame is not None  # type: ignore[attr-defined]
    assert frame_bytes(picture) == frame and picture.getbbox() is not None
    ImageDraw.Draw(picture).rectangle((0, 0, 127, 63), fill=0)
    assert picture.getbbox() is None and render(screen).tobytes() != picture.tobytes()
    assert frame_bytes(render(screen)) == frame and kept_frame(picture.copy()) is None
    again = pickle.loads(pickle.dumps(render(screen)))
    assert again.tobytes() == render(screen).tobytes() and frame_bytes(again) == frame
