"""Step and question pages: every step and question of every scenario file fits the glass with
nothing cut off, and a step's whole sentence is on its pages."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from overseer import documents, games, scenario
from overseer.core.procedure import (
    ChooseOne,
    ChooseSome,
    Pick,
    Question,
    Runner,
    Step,
    YesNo,
    describe,
)
from overseer.screens import pages
from overseer.screens.render import (
    COLUMNS,
    HEIGHT,
    TOP,
    WIDTH,
    Screen,
    detail_rows,
    key_lines,
    option_face,
    plain,
    render,
)

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios").glob("*/*.json"))


def played(path: Path) -> tuple[str, list[Step], list[Question], dict[str, str]]:
    """A scenario's trace and every question it asked (the table's and chance's)."""
    scn = documents.load(path)
    spec = games.get(scn["game"])
    state = spec.build(scn["setup"])
    script = scenario.Script(scn)
    asked: list[Question] = []

    def chance(question):
        asked.append(question)
        return script.chance(question)

    answer = script.answer
    script.answer = lambda question: (asked.append(question), answer(question))[1]
    runner = Runner(spec, state, chance=chance)
    for action in scn["script"]["actions"]:
        for _ in range(int(action.get("times", 1))):
            scenario.play(runner, script, action)
    return scn["game"], runner.trace, asked, character_names(state)


def assert_fits(page: Screen) -> None:
    """Nothing on the page is cut: lines within the width and the rows the page has."""
    assert all(len(line) <= COLUMNS for line in page.lines), page
    assert len(page.lines) <= detail_rows(replace(page, lines=())), page
    size, rows = key_lines(page.key)
    assert "~" not in "".join(rows) or "~" in page.key, page


def words(text: str) -> str:
    return "".join(plain(text).split())


@pytest.mark.parametrize("path", SCENARIOS, ids=[f"{p.parent.name}/{p.stem}" for p in SCENARIOS])
def test_every_step_and_question_of_a_scenario_fits(path: Path) -> None:
    game, trace, asked, names = played(path)
    title = "Overseer"
    for step in trace:
        verified = step.data.get("verified") is not False
        shown, title = pages.step_pages(game, step, verified, names, title)
        for page in shown:
            assert_fits(page)
            assert page.mark == ("" if verified else "!")
        face = pages.step_face(game, step, pages.namer(names))
        assert words(" ".join(line for p in shown for line in p.lines)) == words(face.detail)
    for question in asked:
        short = pages.short_prompt(game, question)
        assert len(short) <= pages.TITLE_COLUMNS, short
        intro = pages.intro_pages(game, question)
        for page in intro:
            assert_fits(page)
        if intro:
            assert words(" ".join(line for p in intro for line in p.lines)) == \
                words(pages.full_prompt(question))
        if isinstance(question, ChooseOne | ChooseSome | Pick):
            labels = pages.option_labels(question, names)
            ticked = frozenset() if isinstance(question, ChooseSome) else None
            screen = pages.choice_screen(short, labels, 0, ticked)
            size, _ = option_face(screen)
            columns = (128 - 6 - (11 if ticked is not None else 0)) // int(size.split("x")[0])
            assert all(len(label) <= columns for label in labels), labels


@given(st.text(alphabet=st.sampled_from("abcdefgh ,.;()"), max_size=400),
       st.sampled_from(["", "Elf", "Scorched earth", "Scorched earth again"]))
def test_text_pages_keep_every_word_and_fit(text: str, key: str) -> None:
    shown = list(pages.text_pages("Title", key, text))
    count = len(shown)
    for n, page in enumerate(shown):
        assert_fits(page)
        assert page.page == ((n + 1, count) if count > 1 else None)
    assert words(" ".join(line for page in shown for line in page.lines)) == words(text)
    assert shown[0].key == key and all(page.key == "" for page in shown[1:])


def test_a_question_that_fits_its_title_has_no_page_before_it() -> None:
    assert pages.intro_pages("catacombs", YesNo("Reset?", "reset")) == ()
    long = YesNo("Place the Attack template over the Orc. Does it cover Elf?", "template")
    assert pages.short_prompt("catacombs", long) == "Template covers it?"
    (intro,) = pages.intro_pages("catacombs", long)
    assert intro.title == "Question" and intro.mark == "?"
    assert describe(long).startswith(intro.lines[0])


def test_a_game_without_faces_shows_each_step_by_its_kind() -> None:
    step = Step("first_player", "Runebound: Setup", "Ann goes first.", {})
    (page,), _ = pages.step_pages("runebound", step, True, {}, "Runebound")
    assert page.key == "First player" and page.lines == ("Ann goes first.",)


def test_screen_values_are_checked() -> None:
    with pytest.raises(ValueError, match="mark"):
        Screen("x", mark="*")
    with pytest.raises(ValueError, match="cursor 2 outside 2 rows"):
        Screen("x", options=("a", "b"), cursor=2)
    assert Screen("x", options=("a",), done="Done", cursor=1).rows == ("a", "Done")
    assert plain("Elf\u2019s \u2014 caf\u00e9") == "Elf's - caf?"


@pytest.mark.parametrize("count", [1, 2, 11])
def test_a_checklist_says_under_its_list_how_to_tick_and_finish(count: int) -> None:
    labels = tuple(f"D12 {n}" for n in range(2, 2 + count))
    screen = pages.choice_screen("Expansion playmats?", labels, 0, frozenset())
    assert screen.lines == (pages.TICK_KEYS,) and "NEXT: done" in pages.TICK_KEYS
    assert len(pages.TICK_KEYS) <= COLUMNS and detail_rows(screen) >= 1  # drawn, never cut
    assert option_face(screen) == ("8x16", 16)  # a row of the list still reads at 8x16
    image = render(screen)
    y = TOP + 16 * min(count + 1, 2)  # the hint's row, under the rows shown
    assert image.crop((0, y, WIDTH, y + 8)).getbbox() is not None
    assert image.crop((0, y + 9, WIDTH, HEIGHT)).getbbox() is None


def test_a_single_choice_list_has_no_hint_line() -> None:
    assert pages.choice_screen("Closest?", ("Elf", "Dwarf"), 0).lines == ()


def character_names(state) -> dict[str, str]:
    """Display names by id of a state's characters (Catacombs heroes and AI pieces)."""
    people = {**getattr(state, "heroes", {}), **getattr(state, "pieces", {})}
    return {k: v.name for k, v in people.items() if getattr(v, "name", None)}
