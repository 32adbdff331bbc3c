"""Faster than the paper: each question answered in one press when its likely answer holds,
the die's face within three presses, a monster's card answering which piece, NEXT and cards
acting from the result's page, and a restart on the last screen the table saw. The figures
are bench/presses.py's."""

from __future__ import annotations

from collections import deque
from dataclasses import replace
from pathlib import Path

from overseer.app import controller as c
from overseer.app.catacombs import TABLE
from overseer.core.procedure import ChooseOne, ChooseSome, Step
from overseer.ports.events import Button, Press, RequestRoll, Rolled, Tap
from overseer.rules.catacombs import rulebook
from overseer.rules.catacombs.kinds import Key, StepKind
from overseer.session.session import Session
from overseer.session.store import Store
from tools.gallery import CLOCK, CLOSEST, NEXT, RESULT, STEPS, TEMPLATE, view
from tools.table import Table

OK, CHOICE, NEXT_BUTTON, BACK = Button.OK, Button.CHOICE, Button.NEXT, Button.BACK
LOS = ChooseSome("LOS check for Wraith Commander: which enemies are in its line of sight?",
                 ("elf", "dwarf", "barbarian"), Key.LOS)


def run(app: c.App, *events) -> tuple[c.App, list[c.Effect]]:
    effects: list[c.Effect] = []
    for event in events:
        app, more = c.handle(app, Press(event) if isinstance(event, Button) else event)
        effects += more
    return app, effects


def asked(question, **fields) -> c.App:
    app, _ = c.start(view(question, can_undo=True, **fields))
    while app.reading:
        app, _ = run(app, OK)
    return app


def answers(effects) -> list[c.Answer]:
    return [e for e in effects if isinstance(e, c.Answer)]


# --------------------------------------------------------------------------- one press


def test_yes_no_is_one_press_on_yes():
    assert answers(run(asked(TEMPLATE), OK)[1]) == [c.Answer(True)]


def test_who_is_in_sight_is_one_press_when_every_hero_is():
    app = asked(LOS)
    assert c.screen(app).selected == frozenset({0, 1, 2})
    assert c.screen(app).cursor == len(LOS.options)  # on Done
    assert answers(run(app, OK)[1]) == [c.Answer(("elf", "dwarf", "barbarian"))]


def test_closest_is_one_press_on_the_first_candidate_then_on_the_hero_last_named():
    app = asked(CLOSEST)
    assert answers(run(app, OK)[1]) == [c.Answer("elf")]  # the rules' first candidate
    app, effects = run(app, CHOICE, OK)  # the Dwarf, this time
    assert answers(effects) == [c.Answer("dwarf")]
    app, _ = c.refresh(app, view(CLOSEST, (), 0, can_undo=True))  # asked again
    assert c.screen(app).rows[c.screen(app).cursor] == "Dwarf"
    assert answers(run(app, OK)[1]) == [c.Answer("dwarf")]


def test_the_closest_in_sight_is_one_press_on_the_first_candidate():
    """LOS blocked, a closest-first piece: one question for both facts; OK on the first."""
    nearest = ChooseOne("LOS check for Wraith Commander: which enemy in its line of sight is "
                        "closest to it?", ("elf", "dwarf", "tie", "none_in_sight"),
                        Key.CLOSEST_IN_SIGHT)
    app = asked(nearest)
    assert c.screen(app).options[-1] == "none in sight"
    assert answers(run(app, OK)[1]) == [c.Answer("elf")]


def test_the_tables_own_die_starts_at_its_middle_and_any_face_is_three_presses_away():
    app = asked(CLOCK, own_dice=True)
    assert c.screen(app).number == 6
    assert answers(run(app, OK)[1]) == [c.Answer(6, "table")]
    presses = [Press(CHOICE), Press(NEXT_BUTTON), Press(CHOICE, True), Press(NEXT_BUTTON, True)]
    far: dict[int, int] = {6: 0}
    queue = deque([(app, 0)])
    while queue:  # every face the buttons reach, by the fewest presses
        now, n = queue.popleft()
        for press in presses:
            after, _ = c.handle(now, press)
            face = after.entry.number
            if face is not None and face not in far:
                far[face] = n + 1
                queue.append((after, n + 1))
    assert sorted(far) == list(range(1, 13)) and max(far.values()) <= 3
    assert sum(far.values()) / 12 + 1 <= 3  # with OK: under three presses on average


# --------------------------------------------------------------------------- a roll in one press

DAMAGE = RESULT[:2]  # the token and the damage of a hit with no zero token: a push follows


def rolled(effects) -> list[RequestRoll]:
    return [e for e in effects if isinstance(e, RequestRoll)]


def test_a_push_with_the_picos_dice_is_one_press_the_damage_on_the_roll_screen():
    """The damage page's line is on the ROLL screen (no page to read first): ROLL rolls,
    the face answers, source pico."""
    app, _ = c.start(view(CLOCK, DAMAGE, can_undo=True))
    shown = c.screen(app)
    assert not app.reading and shown.key == "ROLL"
    assert shown.lines[0] == "! Elf -2, token 2, 8 left"  # unprinted token values: marked
    app, effects = run(app, Button.ROLL)  # the one press
    assert rolled(effects) == [RequestRoll(CLOCK.die, 1)]
    assert answers(run(app, Rolled(CLOCK.die, 8, 1))[1]) == [c.Answer(8, "pico")]


def test_roll_on_the_last_page_before_a_roll_rolls_and_the_picos_own_button_answers():
    """A page too long to carry: ROLL on its last page rolls (on a page before it: read on),
    and the Pico's own ROLL button there answers the roll."""
    app, _ = c.start(view(CLOCK, STEPS, can_undo=True))
    assert app.reading and app.at < len(app.reel) - 1
    early, effects = run(app, Button.ROLL)
    assert rolled(effects) == [] and c.screen(early).key == "Read on"
    app, _ = run(app, OK)
    assert app.reading and app.at == len(app.reel) - 1
    _, effects = run(app, Button.ROLL)
    assert rolled(effects) == [RequestRoll(CLOCK.die, 1)]
    assert answers(run(app, Rolled(CLOCK.die, 5))[1]) == [c.Answer(5, "pico")]


def test_a_push_with_the_tables_own_die_carries_the_damage_over_the_number():
    app, _ = c.start(view(CLOCK, DAMAGE, can_undo=True, own_dice=True))
    shown = c.screen(app)
    assert not app.reading and shown.number == 6
    assert shown.lines == ("! Elf -2, token 2, 8 left", "CHOICE +1, NEXT -1")
    assert answers(run(app, OK)[1]) == [c.Answer(6, "table")]


# --------------------------------------------------------------------------- cards


def test_a_monster_card_answers_which_piece():
    which = ChooseOne("Which AI piece was hit?", ("orc-2", "minotaur-1"), "piece")
    card = {("monster", "orc"): ("orc-1", "orc-2")}
    app = asked(which, card_options=card)
    assert answers(run(app, Tap("catacombs", "monster", "orc"))[1]) == [c.Answer("orc-2")]
    both = ChooseOne("Which AI piece was hit?", ("minotaur-1", "orc-1", "orc-2"), "piece")
    app, effects = run(asked(both, card_options=card), Tap("catacombs", "monster", "orc"))
    assert answers(effects) == [] and c.screen(app).cursor == 1  # of two, the first: OK


def test_from_the_last_page_next_begins_the_next_piece_and_a_card_its_action():
    app, _ = c.start(view(None, STEPS, tap_actions={("monster", "orc"): {"do": "hit"}}))
    app, _ = run(app, OK)
    assert app.settled and app.reading  # the last page, nothing asked
    assert [e for e in run(app, NEXT_BUTTON)[1] if isinstance(e, c.Begin)] == [c.Begin(NEXT, synced=False)]
    begun = run(app, Tap("catacombs", "monster", "orc"))[1]
    assert [e for e in begun if isinstance(e, c.Begin)] == [c.Begin({"do": "hit"})]
    assert c.screen(run(app, OK)[0]).key == "Ready"  # OK reads on to the idle screen


KILL = (Step(StepKind.PIECE_DAMAGED, rulebook.PIECE_DAMAGE, "Orc A loses 3 health: 0 left",
              {"piece": "orc-1", "amount": 3, "health": 0}),
         Step(StepKind.PIECE_DOWN, rulebook.PIECE_DAMAGE, "Orc A is destroyed", {"piece": "orc-1"}),
         Step(StepKind.GOLD, rulebook.GOLD_FOR_KILLS, "Elf takes 2 gold: 5",
              {"hero": "elf", "gold": 5, "reward": 2}))
ORC_HIT = {"tap_actions": {("monster", "orc"): {"do": "hit"}}, "taps_skip": TABLE.taps_skip}


def test_a_card_tapped_over_a_hits_result_enters_the_next_hit():
    """A hit's result is the table's own entry: the next monster's card is taken on any of its
    pages; an AI piece's steps are still read first."""
    app, _ = c.start(view(None, KILL, **ORC_HIT))
    app = replace(app, at=0, reel=(*app.reel[:1], *app.reel))  # the result on two pages
    assert app.reading and not app.settled
    begun = run(app, Tap("catacombs", "monster", "orc"))[1]
    assert [e for e in begun if isinstance(e, c.Begin)] == [c.Begin({"do": "hit"})]
    app, _ = c.start(view(None, (*STEPS, *RESULT), **ORC_HIT))
    after, effects = run(app, Tap("catacombs", "monster", "orc"))
    assert [e for e in effects if isinstance(e, c.Begin)] == [] and \
        c.screen(after).key == "Read on"


# --------------------------------------------------------------------------- the gadget


def room(tmp_path: Path) -> Table:
    """Bholoth Cemetery (three Skeleton Warriors, two Orcs) for the Elf and Ulom, set up by
    its card; its setup's questions answered with OK."""
    path = tmp_path / "games.db"
    setup = {"heroes": [{"id": "elf", "name": "Elf", "health": 20},
                        {"id": "ulom", "name": "Ulom the Merman", "health": 20}]}
    with Store(path) as store:
        session = Session.new(store, "catacombs", {"format": 2, "game": "catacombs",
                                                   "setup": setup}, seed=5)
        store.set_gadget(session.id, {"seats": {"elf": 1, "ulom": 2}})
    table = Table(path, seed=5, game_id=session.id)
    table.tap("room", "bholoth-cemetery")
    while table.gadget.session is not None and (
            table.gadget.app.reading or table.session.pending is not None):
        table.press(OK)
    return table


def test_a_monster_card_enters_a_hit_and_asks_which_only_among_its_pieces(tmp_path):
    table = room(tmp_path)
    try:
        assert table.tap("monster", "orc").title == "Which of them?"
        assert table.screen.options == ("Orc A", "Orc B")
        table.press(OK)
        assert table.screen.title == "Orc A: damage?" and table.screen.number == 1
        table.press(CHOICE)
        table.press(OK)  # 2: Orc A (health 2) is destroyed: whose shot?
        assert table.screen.title == "Orc A: whose shot?"
        table.press(OK)
        assert table.screen.key == "Orc A down"
        # One Orc left: its card goes straight to how much, from the last amount (2).
        assert table.tap("monster", "orc").title == "Orc B: damage?"
        assert table.screen.number == 2
    finally:
        table.close()


def test_how_much_damage_names_a_piece_whose_name_is_long(tmp_path):
    """ "Skeleton Warrior A: damage?" is longer than the title bar: the question names the
    piece by its first word and letter, not as "How much damage?"."""
    table = room(tmp_path)
    try:
        assert table.tap("monster", "skeleton-warrior").title == "Which of them?"
        assert table.screen.options == ("Skeleton Warrior A", "Skeleton Warrior B",
                                        "Skeleton Warrior C")
        table.press(OK)
        assert table.screen.title == "Skeleton A: damage?"
    finally:
        table.close()


def test_a_hit_that_kills_is_four_presses_and_a_health_change_four(tmp_path):
    table = room(tmp_path)
    try:
        head = table.session.head
        table.gadget.playing.forms.remembered["form_amount"] = 2  # the last hit entered was for 2
        table.tap("monster", "orc")  # 1
        table.press(OK)  # 2: Orc A
        assert table.screen.number == 2
        table.press(OK)  # 3: 2, its health: destroyed
        table.press(OK)  # 4: the Elf's shot
        assert table.session.head == head + 1 and table.screen.key == "Orc A down"
        assert c.screen(table.gadget.app) == table.screen and table.gadget.app.settled
        table.tap("hero", "elf")  # 1
        assert table.screen.rows[table.screen.cursor] == "Health 20"
        table.press(OK)  # 2
        table.press(NEXT_BUTTON)  # 3
        table.press(OK)  # 4
        assert table.session.state.heroes["elf"].health == 19
    finally:
        table.close()


def test_a_restart_shows_the_last_screen_the_table_saw(tmp_path):
    table = room(tmp_path)
    table.press(NEXT_BUTTON)
    while table.session.pending is not None:
        if table.gadget.app.reading:
            table.press(OK)
        else:
            table.press(OK)  # the likely answer
        if table.gadget.app.reading and len(table.gadget.app.reel) - table.gadget.app.at > 1:
            break  # two pages or more to read: stop on the first
    seen, at = table.screen, table.gadget.app.at
    assert table.gadget.app.reading
    table.close()
    again = Table(tmp_path / "games.db", seed=5)
    try:
        assert again.screen == seen and again.gadget.app.at == at  # not the pages before
        if at:
            again.press(BACK)
            assert again.gadget.app.at == at - 1  # BACK still pages back
    finally:
        again.close()
