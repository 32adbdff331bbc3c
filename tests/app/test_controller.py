"""The pure controller: every question kind on the five buttons, cards, dice, steps, undo.

Views are made by hand (the shapes of the Catacombs rules' own steps and questions); the
controller's effects are checked exactly. tests/app/test_controller_session.py drives a real
session with the same controller.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from overseer.app import controller as c
from overseer.app.view import GameView, MenuItem
from overseer.core.procedure import ChooseOne, EnterNumber, Pick, Roll, Step, Token, YesNo
from overseer.ports.events import (
    Button,
    Die,
    LinkChanged,
    Press,
    RequestRoll,
    Rolled,
    RollRefused,
    SeatLight,
    SetLeds,
    Tap,
    UnknownTap,
)
from overseer.screens.render import Screen
from tools.gallery import (
    CLOCK,
    CLOSEST,
    MENU,
    NEXT,
    POISON,
    STEPS,
    TEMPLATE,
    TOKEN,
    UNDER,
    view,
)

OK, CHOICE, NEXT_BUTTON, BACK, ROLL = (Button.OK, Button.CHOICE, Button.NEXT, Button.BACK,
                                       Button.ROLL)


def run(app: c.App, *events) -> tuple[c.App, list[c.Effect]]:
    """Feed inputs one by one (a Button is a short press); every effect, in order."""
    effects: list[c.Effect] = []
    for event in events:
        app, more = c.handle(app, Press(event) if isinstance(event, Button) else event)
        effects += more
    return app, effects


def calls(effects) -> list:
    return [e for e in effects if isinstance(e, c.Begin | c.Answer | c.Undo | c.Redo | c.Cancel)]


def glass(app: c.App) -> Screen:
    return c.screen(app)


def asked(question, **fields) -> c.App:
    """The question on the glass, its prompt page (if any) read."""
    app, _ = c.start(view(question, can_undo=True, **fields))
    while app.reading:
        app, _ = run(app, OK)
    return app


def answered(app: c.App, *buttons) -> list:
    """The session calls the buttons make."""
    return calls(run(app, *buttons)[1])


# --------------------------------------------------------------------------- idle, NEXT


def test_start_shows_the_idle_screen_and_lights_nothing():
    app, effects = c.start(view())
    assert effects == (c.Hold(frozenset({BACK, CHOICE, ROLL})), c.Show(glass(app)), SetLeds(()))
    assert glass(app).key == "Ready" and glass(app).lines[0] == "NEXT: next AI piece"


def test_next_begins_the_main_action_then_waits_for_the_new_view():
    app, effects = run(c.start(view())[0], NEXT_BUTTON)
    # the table adds nothing to NEXT: its commit may reach the disk after the screen moves
    assert effects == [c.Begin(NEXT, synced=False)] and app.waiting == effects[0]
    # inputs while the call is out are not taken
    assert run(app, OK, CHOICE, NEXT_BUTTON) == (app, [])
    app, effects = c.refresh(app, view(TEMPLATE, STEPS, can_undo=True))
    assert app.waiting is None and glass(app).title == "Wraith Commander"
    assert glass(app).key == "Elf"  # who acts (the title) at whom (the key word)
    assert c.Show(glass(app)) in effects


def test_next_when_it_is_not_legal_says_why_and_changes_nothing():
    app, _ = c.start(view(next_action=None, next_refusal="Setup first: tap the Room card"))
    after, effects = run(app, NEXT_BUTTON)
    assert calls(effects) == [] and glass(after).key == "Not now"
    assert "Setup first" in " ".join(glass(after).lines)
    back, _ = run(after, OK)
    assert glass(back) == glass(app) and back.view == app.view


def test_next_when_the_game_is_over_says_so():
    app, _ = c.start(view(over=True, result="The heroes won"))
    assert glass(app).key == "Game over"
    after, effects = run(app, NEXT_BUTTON)
    assert calls(effects) == [] and glass(after).lines == ("The heroes won",)


# --------------------------------------------------------------------------- steps


def page_steps(app: c.App) -> list[list[int]]:
    """Press OK through the reel; the trace steps of every page shown."""
    seen = []
    while app.reading:
        seen.append(list(app.reel[app.at].steps))
        app, _ = run(app, OK)
    return seen


def test_every_new_step_is_shown_before_the_question():
    """The four steps of who acts, at whom, the shot and the move share a page (its move
    sentence, read whole the first time this game, runs onto a second); no prompt page:
    the question carries it."""
    app, _ = c.start(view(TEMPLATE, STEPS, can_undo=True))
    seen = page_steps(app)
    assert seen == [[0, 1, 2, 3], [0, 1, 2, 3]]
    assert glass(app).key == "Elf" and glass(app).page == (1, 2)


def test_a_sentence_seen_this_game_is_short_the_next_time():
    app, _ = c.start(view(TEMPLATE, STEPS, can_undo=True))
    assert "reposition for sword" in glass(app).lines  # the whole sentence, on two pages
    assert "passing through" in glass(run(app, OK)[0]).lines
    app, _ = run(app, OK, OK, OK)  # read on, answer
    app, _ = c.refresh(app, view(TEMPLATE, STEPS, 4, can_undo=True))
    # one line now: the question's screen carries it (no page to read on before it)
    assert not app.reading and list(app.reel[-1].steps) == [4, 5, 6, 7]
    assert glass(app).title == "Template on Elf?"
    assert glass(app).lines == ("Sword, move R2 to Elf", "Place the Attack templat~")
    app, _ = run(app, BACK)  # BACK still shows the page itself
    assert glass(app).key == "Elf" and "Sword, move R2 to Elf" in glass(app).lines
    app, _ = run(app, OK)  # and OK goes past it to the question again
    assert glass(app).title == "Template on Elf?"


def test_paging_with_next_back_and_the_question_after():
    app, _ = c.start(view(TEMPLATE, STEPS, can_undo=True))
    app, _ = run(app, NEXT_BUTTON)
    assert glass(app).page == (2, 2)
    app, _ = run(app, BACK)
    assert glass(app).key == "Elf"
    app, _ = run(app, BACK, BACK, BACK)  # not before the first
    assert app.at == 0
    app, _ = run(app, OK, OK)
    assert glass(app).title == "Template on Elf?" and glass(app).options == ("Yes", "No")
    assert glass(app).lines[0] == "Place the Attack template"  # the prompt under the list
    app, _ = run(app, BACK)  # from the question: back to the last page of its steps
    assert glass(app).page == (2, 2)


def test_choice_on_a_page_opens_its_details_and_roll_says_read_on():
    app, _ = c.start(view(TEMPLATE, STEPS, can_undo=True))
    after, effects = run(app, CHOICE)
    assert calls(effects) == [] and glass(after).title == "Details" and after.at == 0
    text = " ".join(p for page in after.notice for p in page.lines)
    assert "acts: level-1 tile" in text and "[" not in text
    assert "(Red Box: AI Player Behaviour, step 1)" in text  # each step's rule
    after, _ = run(after, *(OK,) * len(after.notice))  # read: the same page
    assert glass(after) == glass(app)
    after, _ = run(app, ROLL)
    assert glass(after).key == "Read on" and after.at == 0


def test_steps_of_an_answer_form_a_new_reel_and_back_reaches_them():
    app = asked(TEMPLATE)
    app, effects = run(app, OK)
    assert calls(effects) == [c.Answer(True)]
    token = Step("token", "r", "level 2 damage token: 2", {"level": 2, "value": 2,
                                                          "reset": False, "verified": False})
    app, _ = c.refresh(app, view(None, (token,), 4, can_undo=True))
    assert glass(app).key == "Token 2" and glass(app).mark == "!"
    app, _ = run(app, OK)
    assert glass(app).key == "Ready"
    app, _ = run(app, BACK)
    assert glass(app).key == "Token 2"


def test_only_a_step_on_unprinted_data_is_marked():
    app, _ = c.start(view(TEMPLATE, STEPS, can_undo=True))
    marks = []
    while app.reading:
        marks.append((app.reel[app.at].index, glass(app).mark))
        app, _ = run(app, OK)
    assert {m for i, m in marks} == {""}  # STEPS are all printed; no prompt page
    assert glass(app).mark == "?"  # the question


def test_an_undo_while_reading_drops_the_steps_it_took_back():
    app, _ = c.start(view(TEMPLATE, STEPS, can_undo=True))
    app, effects = run(app, OK, Press(BACK, long=True))
    assert calls(effects) == [c.Undo()]
    app, _ = c.refresh(app, view(None, (), can_redo=True))
    assert app.reel == () and glass(app).key == "Undone"
    app, effects = run(app, CHOICE)  # redo
    assert calls(effects) == [c.Redo()]
    app, _ = c.refresh(app, view(TEMPLATE, STEPS, can_undo=True))
    # the steps back (their long sentence read already: one line the question carries)
    assert [list(p.steps) for p in app.reel] == [[0, 1, 2, 3]] and app.carried


# --------------------------------------------------------------------------- questions


def test_choose_one_choice_cycles_and_ok_picks():
    app = asked(CLOSEST)
    assert glass(app).options == ("Elf", "Dwarf", "Barbarian") and glass(app).mark == "?"
    assert answered(app, OK) == [c.Answer("elf")]
    assert answered(app, CHOICE, CHOICE, OK) == [c.Answer("barbarian")]
    assert answered(app, CHOICE, CHOICE, CHOICE, OK) == [c.Answer("elf")]  # wraps
    assert answered(app, Press(CHOICE, long=True), OK) == [c.Answer("barbarian")]  # back


def test_pick_a_blind_draw_of_real_cards():
    pick = Pick("Death card deck", "death card for Elf", ("plague", "curse"))
    app = asked(pick, names={"plague": "Plague", "curse": "Curse"})
    assert glass(app).title == "Which was drawn?" and glass(app).options == ("Plague", "Curse")
    assert answered(app, CHOICE, OK) == [c.Answer("curse", "table")]


def test_choose_some_choice_moves_ok_ticks_next_answers():
    app = asked(UNDER)
    app, _ = run(app, OK, CHOICE, CHOICE, OK)
    assert glass(app).selected == frozenset({0, 2})
    app, _ = run(app, OK)  # untick
    assert glass(app).selected == frozenset({0})
    assert answered(app, NEXT_BUTTON) == [c.Answer(("elf",))]
    assert answered(app, CHOICE, OK) == [c.Answer(("elf",))]  # OK on Done
    assert answered(asked(UNDER), NEXT_BUTTON) == [c.Answer(())]  # none under the ruler


def test_yes_no_choice_toggles_ok_answers():
    app = asked(TEMPLATE)
    assert glass(app).cursor == 0
    assert answered(app, OK) == [c.Answer(True)]
    assert answered(app, CHOICE, OK) == [c.Answer(False)]
    assert answered(app, CHOICE, CHOICE, OK) == [c.Answer(True)]


def test_next_on_a_question_shows_its_whole_prompt():
    app = asked(CLOSEST)
    after, effects = run(app, NEXT_BUTTON)
    assert calls(effects) == [] and glass(after).key == "Question"
    assert "Which is closest to Wraith Commander?" in " ".join(glass(after).lines)
    after, _ = run(after, OK)
    assert glass(after) == glass(app)


def test_enter_number_steps_up_wrapping_and_by_five():
    app = asked(POISON)  # 0 to 20
    assert glass(app).number == 0
    assert answered(app, CHOICE, CHOICE, OK) == [c.Answer(2)]
    assert answered(app, Press(CHOICE, long=True), CHOICE, OK) == [c.Answer(6)]
    app, _ = run(app, *(Press(CHOICE, long=True),) * 4)
    assert glass(app).number == 20
    assert answered(app, CHOICE, OK) == [c.Answer(0)]  # wraps to the low end
    app, _ = run(app, Press(CHOICE, long=True), Press(CHOICE, long=True), CHOICE)
    assert glass(app).number == 10  # 20 +5 wraps to 4, then 9, then 10


@given(st.lists(st.booleans(), max_size=60), st.integers(0, 5), st.integers(0, 30))
def test_a_number_never_leaves_its_range(presses, low, span):
    question = EnterNumber("How many?", "n", low, low + span)
    app = asked(question)
    for long in presses:
        app, _ = run(app, Press(CHOICE, long=long))
        assert low <= glass(app).number <= low + span
    answer = answered(app, OK)
    assert answer == [c.Answer(glass(app).number)]
    question.check(answer[0].value)  # never refused as out of range


def test_a_drawn_token_is_its_value_then_its_reset_icon():
    app = asked(TOKEN)
    app, _ = run(app, CHOICE, CHOICE, CHOICE)
    assert glass(app).title == "Token value?" and glass(app).number == 3
    app, _ = run(app, OK)
    assert glass(app).title == "Reset icon on it?" and glass(app).cursor == 1  # No first
    assert answered(app, OK) == [c.Answer(Token(3, False))]
    assert answered(app, CHOICE, OK) == [c.Answer(Token(3, True))]
    app, _ = run(app, BACK)  # back to the value, kept
    assert glass(app).number == 3
    assert answered(app, CHOICE, OK, CHOICE, OK) == [c.Answer(Token(4, True))]


def test_a_refused_answer_is_shown_with_why_and_changes_nothing():
    app = asked(TOKEN)
    app, _ = run(app, CHOICE, OK)
    before = app
    app, effects = run(app, OK)
    assert calls(effects) == [c.Answer(Token(1, False))]
    reason = ("Draw a token from the level 2 damage token bag (sword) [token]: got "
              "Token(value=1, reset=False), wanted a token still in the level 2 damage token bag")
    app, effects = c.handle(app, c.Refused(reason))
    assert calls(effects) == [] and glass(app).key == "Not taken"
    assert " ".join(glass(app).lines) == ("It wants a token still in the level 2 damage token "
                                          "bag; nothing changed.")
    app, _ = run(app, OK)
    assert glass(app) == glass(before) and app.entry == before.entry


# --------------------------------------------------------------------------- dice


def test_roll_on_the_pico():
    app = asked(CLOCK)
    assert glass(app).key == "ROLL"
    app, effects = run(app, ROLL)
    assert effects[0] == RequestRoll(Die.D12, 1) and glass(app).key == "Rolling"
    assert run(app, Rolled(Die.D12, 5, request=7))[1] == []  # not this request's: ignored
    assert answered(app, Rolled(Die.D12, 9, request=1)) == [c.Answer(9, "pico")]


def test_the_pico_roll_button_answers_a_roll_of_its_die():
    app = asked(CLOCK)
    assert answered(app, Rolled(Die.D12, 4)) == [c.Answer(4, "pico")]
    rune = asked(Roll("rune", "move to random rune"))
    app, effects = run(rune, Rolled(Die.D12, 11))  # the button rolled the D12: ask for the rune
    assert calls(effects) == [] and RequestRoll(Die.RUNE, 1) in effects
    assert answered(app, Rolled(Die.RUNE, 3, request=1)) == [c.Answer(3, "pico")]


def test_a_refused_roll_is_said_and_the_table_rolls_its_own_die():
    app = asked(CLOCK)
    app, _ = run(app, ROLL)
    app, effects = run(app, RollRefused(1, "busy"))
    assert calls(effects) == [] and glass(app).key == "No roll"
    assert "busy" in " ".join(glass(app).lines)
    assert run(app, RollRefused(1, "busy"))[1] == []  # said once
    app, _ = run(app, *(CHOICE,) * 7)  # CHOICE closes the notice and steps the face
    assert glass(app).number == 7
    assert answered(app, OK) == [c.Answer(7, "table")]


def test_the_table_die_without_a_face_is_not_taken():
    app = asked(CLOCK)
    app, effects = run(app, OK)
    assert calls(effects) == [] and glass(app).key == "No face yet"
    app, _ = run(app, OK, *(CHOICE,) * 14)
    assert glass(app).number == 2  # 1..12, wrapping
    assert answered(app, OK) == [c.Answer(2, "table")]


def test_roll_and_dice_where_no_roll_is_asked():
    app = asked(TEMPLATE)
    after, effects = run(app, ROLL)
    assert effects == [c.Show(glass(after))] and glass(after).key == "No roll"
    assert run(app, Rolled(Die.D12, 3)) == (app, [])  # the table's own roll: nothing to do


# --------------------------------------------------------------------------- cards


def test_a_tapped_card_answers_the_question_it_fits():
    question = ChooseOne("Who is in sight?", ("elf", "dwarf"), "los")
    app = asked(question, cards={("hero", "elf-card"): "elf"})
    assert answered(app, Tap("catacombs", "hero", "elf-card")) == [c.Answer("elf")]
    assert answered(app, Tap("catacombs", "hero", "dwarf")) == [c.Answer("dwarf")]


def test_a_tap_that_fits_nothing_says_so_and_changes_nothing():
    app = asked(CLOSEST)
    for tap in (Tap("catacombs", "monster", "orc"), Tap("conquest", "card", "elf"),
                UnknownTap("04:a2:19")):
        after, effects = run(app, tap)
        assert calls(effects) == [] and glass(after).inverse_key
        after, _ = run(after, OK)
        assert glass(after) == glass(app) and after.entry == app.entry
    assert glass(run(app, Tap("catacombs", "monster", "orc"))[0]).key == "Not an answer"
    refused = glass(run(app, Tap("catacombs", "room", "bholoth-cemetery"))[0])
    assert " ".join(refused.lines).startswith("Bholoth Cemetery is not one of the answers")
    refused = glass(run(app, Tap("catacombs", "room", "no-such-room"))[0])
    assert " ".join(refused.lines).startswith("That room card is not one of the answers")
    assert glass(run(app, Tap("conquest", "card", "elf"))[0]).key == "Wrong game"
    yes_no, effects = run(asked(TEMPLATE), Tap("catacombs", "hero", "elf"))
    assert calls(effects) == [] and glass(yes_no).key == "Not a card"


def test_a_tap_ticks_a_choose_some_option_and_waits_for_next():
    app, effects = run(asked(UNDER), Tap("catacombs", "hero", "dwarf"))
    assert calls(effects) == [] and glass(app).selected == frozenset({1})
    assert answered(app, NEXT_BUTTON) == [c.Answer(("dwarf",))]


def test_a_tap_before_the_steps_are_read_is_not_taken():
    app, _ = c.start(view(CLOSEST, STEPS, can_undo=True))
    after, effects = run(app, Tap("catacombs", "hero", "elf"))
    assert calls(effects) == [] and glass(after).key == "Read on"


# --------------------------------------------------------------------------- BACK, undo, menu


def test_back_held_with_nothing_to_undo_says_so():
    app, _ = c.start(view())
    after, effects = run(app, Press(BACK, long=True))
    assert calls(effects) == [] and glass(after).key == "No undo"
    after, _ = run(after, BACK)
    assert glass(after) == glass(app)


def test_an_undo_names_what_it_took_back_as_the_glass_showed_it():
    app, _ = c.start(view(TEMPLATE, STEPS, can_undo=True))
    shown = []
    while app.reading:
        shown.append(glass(app).key)
        app, _ = run(app, OK)
    app, _ = run(app, Press(BACK, long=True))
    app, _ = c.refresh(app, view(None, STEPS[:1], can_undo=True, can_redo=True))
    text = " ".join(glass(app).lines)
    gone = [k for k in dict.fromkeys(shown) if k]  # their page shows the first step too
    assert glass(app).key == "Undone" and gone[0] in text and "step" not in text
    assert text.startswith("Taken back: " + ", ".join(gone[:c.UNDONE_SHOWN]))


def test_no_undo_says_why_as_the_view_tells_it():
    app, _ = c.start(view(CLOSEST, undo_refusal="nothing has been entered yet"))
    after, effects = run(app, Press(BACK, long=True))
    assert calls(effects) == [] and glass(after).key == "No undo"
    assert "nothing has been entered yet" in " ".join(glass(after).lines)


def test_undo_then_redo_from_its_notice():
    app = asked(TEMPLATE)
    app, effects = run(app, Press(BACK, long=True))
    assert calls(effects) == [c.Undo()]
    app, _ = c.refresh(app, view(CLOSEST, can_undo=True, can_redo=True))
    assert glass(app).key == "Undone" and "CHOICE: redo" in " ".join(glass(app).lines)
    assert answered(app, CHOICE) == [c.Redo()]
    app, _ = run(app, OK)  # goes on: the question, its prompt in its title
    assert glass(app).title == "Which is closest?"


def test_the_menu_begins_a_legal_action_or_redoes():
    menu = (MenuItem("Hero turn done", {"do": "hero_turn"}),)
    app, _ = c.start(view(menu=menu, can_redo=True))
    app, _ = run(app, CHOICE)
    assert glass(app).options == ("Hero turn done", "Redo")
    assert answered(app, OK) == [c.Begin({"do": "hero_turn"})]
    assert answered(app, CHOICE, OK) == [c.Redo()]
    closed, _ = run(app, BACK)
    assert glass(closed).key == "Ready"
    assert answered(app, NEXT_BUTTON) == [c.Begin(NEXT, synced=False)]


def test_no_menu_says_so():
    app, _ = c.start(GameView("catacombs", next_action=NEXT))
    after, effects = run(app, OK)
    assert calls(effects) == [] and glass(after).key == "No menu"


# --------------------------------------------------------------------------- lights, link


def test_the_target_seat_lights_and_the_cursor_hero_pulses():
    app, effects = c.start(view(CLOSEST, STEPS, can_undo=True))
    assert SetLeds((SeatLight(1, "on"),)) in effects  # the page of the target: Elf (seat 1)
    while app.reading:
        app, _ = run(app, OK)
    app, effects = run(app, CHOICE)  # the cursor on Dwarf (seat 2)
    assert SetLeds((SeatLight(1, "on"), SeatLight(2, "pulse"))) in effects
    app, effects = run(app, CHOICE)
    assert SetLeds((SeatLight(1, "on"), SeatLight(3, "pulse"))) in effects
    app, effects = run(app, CHOICE)  # on Elf: its own seat pulses
    assert SetLeds((SeatLight(1, "pulse"),)) in effects


def test_a_new_active_character_puts_the_target_light_out():
    app, _ = c.start(view(None, STEPS[:2]))
    app, _ = run(app, OK, OK)
    assert app.lights == (SeatLight(1, "on"),)
    app, _ = run(app, NEXT_BUTTON)
    app, effects = c.refresh(app, view(None, STEPS[:1], 2))
    assert SetLeds(()) in effects


def test_the_link_coming_back_gets_the_screen_again():
    app = asked(TEMPLATE)
    assert run(app, LinkChanged(False))[1] == []
    assert run(app, LinkChanged(True))[1] == [c.Show(glass(app))]


def test_a_refresh_with_nothing_new_keeps_the_answer_being_made():
    app, _ = run(asked(CLOSEST), CHOICE)
    again, effects = c.refresh(app, app.view)
    assert again.entry.cursor == 1 and effects == ()


def test_yes_no_prompt_that_fits_needs_no_page_before_it():
    app, _ = c.start(view(YesNo("Reset?", "r")))
    assert not app.reading and glass(app).title == "Reset?"


# --------------------------------------------------------------------------- for the shell


def test_a_number_starts_where_the_view_says_and_next_steps_it_down():
    app = asked(POISON, number_start=7)  # 0 to 20
    assert glass(app).number == 7
    assert answered(app, NEXT_BUTTON, NEXT_BUTTON, OK) == [c.Answer(5)]
    assert answered(app, Press(NEXT_BUTTON, long=True), OK) == [c.Answer(2)]
    below = asked(POISON)  # no start: the lowest, and down from it wraps to the highest
    assert answered(below, NEXT_BUTTON, OK) == [c.Answer(20)]
    assert asked(POISON, number_start=21).entry.number == 0  # a start out of range: ignored


def test_back_on_a_form_question_leaves_it():
    app = asked(CLOSEST, back_leaves=True)
    after, effects = run(app, BACK)
    assert effects == [c.Cancel()] and after.waiting == c.Cancel()
    app, _ = c.start(view(TEMPLATE, back_leaves=True))  # its prompt page first
    assert app.reading and calls(run(app, BACK)[1]) == [c.Cancel()]


def test_told_pages_show_over_the_screen_and_go_with_ok():
    app, _ = c.start(view())
    app, _ = run(app, OK, OK)  # the menu, its first item
    assert app.waiting == c.Begin(MENU[0].action)
    pages = (Screen("Party", ("Health 7",), key="Elf", page=(1, 2)),
             Screen("Party", ("Health 5",), key="Dwarf", page=(2, 2)))
    app, effects = c.handle(app, c.Told(pages))
    assert app.waiting is None and glass(app) == pages[0] and c.Show(pages[0]) in effects
    app, _ = run(app, OK)
    assert glass(app) == pages[1]
    app, _ = run(app, OK)
    assert glass(app).key == "Ready"


def test_a_card_with_no_question_begins_its_action_or_says_why():
    room = {"do": "setup_room", "room": "moghath"}
    taps = {("room", "moghath"): room, ("room", "krhlot"): "Krhlot needs the Lord first"}
    app, _ = c.start(view(tap_actions=taps))
    after, effects = run(app, Tap("catacombs", "room", "moghath"))
    assert effects == [c.Begin(room)]
    after, effects = run(app, Tap("catacombs", "room", "krhlot"))
    assert calls(effects) == [] and glass(after).key == "Not now"
    assert "Lord first" in " ".join(glass(after).lines)
    after, _ = run(app, Tap("catacombs", "hero", "elf"))
    assert glass(after).key == "No question"


def test_on_a_question_the_target_seat_pulses_unless_the_cursor_is_on_a_hero():
    app, _ = c.start(view(TEMPLATE, STEPS, can_undo=True))
    while app.reading:
        app, effects = run(app, OK)
    assert glass(app).title == "Template on Elf?"
    assert app.lights == (SeatLight(1, "pulse"),)  # the Elf, targeted, answers
    app, _ = c.start(view(CLOSEST, STEPS, can_undo=True))
    while app.reading:
        app, _ = run(app, OK)
    app, _ = run(app, CHOICE)  # the cursor on the Dwarf
    assert app.lights == (SeatLight(1, "on"), SeatLight(2, "pulse"))


def test_the_shell_may_say_a_message():
    app, _ = c.start(view())
    app, effects = c.say(app, "Not taken", "no such card. Nothing changed.")
    assert glass(app).key == "Not taken" and glass(app).lines == ("no such card. Nothing",
                                                                   "changed.")
