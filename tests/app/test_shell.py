"""The shell: the Gadget joins the inbox, the controller, the ports and the session. A new
game's questions end in a stored game with its seats; one gadget a store; a restart resumes."""

from __future__ import annotations

import pytest

from overseer import games
from overseer.app.sim import SeededDice
from overseer.core.procedure import ChooseSome
from overseer.ports.events import Button
from overseer.session.lock import StoreInUse
from overseer.session.store import Store
from tests.drivers.catacombs_table import ai_turn, elf_joins, heroes_side, keys
from tools.table import Table as Driver


def new_game(table: Driver) -> None:
    """Two heroes (the Elf by its card, seat 1; Hero 1 on seat 3, health 8), the defaults,
    a single room."""
    table.choose_game()
    assert table.screen.title == "Who joins the party?"
    table.tap("hero", "elf")
    assert table.screen.title == "Seat for Elf?"
    table.pick("Seat 1")
    table.number(10)
    table.pick("Hero 1")
    table.pick("Seat 3")
    table.number(8)
    table.pick("Done")
    for _ in range(5):  # line of sight, advanced targeting, tokens, poison, dice: the first
        table.press(Button.OK)
    table.press(Button.NEXT)  # no expansion playmat
    table.pick("Off")  # no Hidden Cave
    table.pick("A single room")


def test_a_new_game_is_stored_with_its_party_and_seats(tmp_path):
    table = Driver(tmp_path / "games.db")
    new_game(table)
    session = table.session
    assert session is not None and session.dice == "seeded"
    heroes = session.state.heroes
    assert [(h.id, h.name, h.health) for h in heroes.values()] == [
        ("elf", "Elf", 10), ("hero-1", "Hero 1", 8)]
    kept = table.gadget.store.gadget(session.id)
    assert kept.pop("place")["step"] == 0  # where the table is in the pages (below)
    assert kept == {"seats": {"elf": 1, "hero-1": 3}, "first": 0, "hidden": ["campaign_start"]}
    assert table.screen.key == "Set up" and table.screen.lines[0] == "OK: the menu"
    menu = table.press(Button.OK).rows  # a single room's menu: no campaign, before a room too
    assert "Set up a room" in menu and "Start campaign" not in menu
    table.press(Button.BACK)
    table.close()
    table = Driver(tmp_path / "games.db")  # nor after a restart (kept beside the game)
    assert "Start campaign" not in table.press(Button.OK).rows
    table.close()


def test_a_second_gadget_on_the_same_store_is_refused(tmp_path):
    table = Driver(tmp_path / "games.db")
    with pytest.raises(StoreInUse, match="in use by another overseer"):
        Driver(tmp_path / "games.db")
    table.close()
    Driver(tmp_path / "games.db").close()  # released on close


def test_a_restarted_gadget_resumes_the_game(tmp_path):
    table = Driver(tmp_path / "games.db")
    new_game(table)
    game = table.session.id
    table.close()
    again = Driver(tmp_path / "games.db")
    assert again.session is not None and again.session.id == game
    assert again.gadget.playing.seats == {"elf": 1, "hero-1": 3}
    assert again.screen.key == "Set up"
    again.close()


def test_back_goes_back_a_question_of_the_new_game(tmp_path):
    table = Driver(tmp_path / "games.db")
    table.choose_game()
    table.tap("hero", "elf")
    table.press(Button.BACK)
    assert table.screen.title == "Who joins the party?"
    first = "Which game?" if len(games.GAMES) > 1 else "Who joins the party?"
    if first != table.screen.title:
        table.press(Button.BACK)
        assert table.screen.title == first
    table.press(Button.BACK)  # nothing before it
    assert table.screen.key == "Not taken"
    table.press(Button.OK)
    assert table.screen.title == first
    table.close()


def campaign_stage(table: Driver) -> None:
    """A new game of the Monstrosity campaign, at its first stage (Glaaoth, not in the data)."""
    elf_joins(table)
    table.pick("Done")
    table.press(Button.OK, times=5)
    table.press(Button.NEXT)
    table.pick("Off")
    table.pick("Monstrosity")
    table.read()
    table.press(Button.OK)
    table.pick("Next stage")
    table.read()


def test_an_action_the_rules_refuse_leaves_its_form_at_the_last_question(tmp_path):
    table = Driver(tmp_path / "games.db")
    campaign_stage(table)
    head = table.session.head
    table.press(Button.OK)
    table.pick("Set up a room")
    table.pick("Glaaoth (enter)")
    table.pick("Infernal .. Phantom")
    table.pick("Orc")
    table.number(10)
    table.pick("Infernal .. Phantom")
    table.pick("Minotaur")
    table.number(1)
    table.pick("Done")
    table.press(Button.NEXT)  # no Suppresses box
    table.pick("None: roll")  # no playmat named on the card
    table.pick("No")
    table.number(0)  # the gold: the form is complete, the rules refuse eleven pieces
    assert table.screen.key == "Not taken"
    assert "at most 10" in " ".join(table.screen.lines)
    assert table.session.head == head
    table.read()
    assert table.screen.title == "Gold icon (0: none)?"  # the form's last question, again
    table.press(Button.BACK)  # leaves the form
    assert table.screen.key == "Set up" and table.session.head == head
    table.close()


def test_roll_with_no_pico_dice_says_so(tmp_path):
    table = Driver(tmp_path / "games.db")
    elf_joins(table)
    table.pick("Done")
    table.press(Button.OK, times=4)
    table.pick("Our own dice")
    table.press(Button.NEXT)
    table.pick("Off")
    table.pick("A single room")
    table.tap("room", "bholoth-cemetery")
    table.read()
    assert table.press(Button.ROLL).key == "No roll"
    assert "no Pico dice" in " ".join(table.screen.lines)
    table.close()


def test_the_pico_dice_answer_a_roll(tmp_path):
    dice = SeededDice(5)
    table = Driver(tmp_path / "games.db", dice=dice)
    elf_joins(table)
    table.pick("Done")
    table.press(Button.OK, times=4)
    assert table.screen.rows[0] == "The Pico's"  # a box with dice offers them first
    table.pick("The Pico's")
    table.press(Button.NEXT)
    table.pick("Off")
    table.pick("A single room")
    table.tap("room", "bholoth-cemetery")
    table.read()
    head = table.session.head
    table.press(Button.ROLL)
    rolled = table.session.events[head]
    assert rolled.data["key"] == "roll" and rolled.data["source"] == "pico"
    table.close()


def test_a_form_under_way_survives_a_power_cut_at_the_question_it_was_on(tmp_path):
    table = Driver(tmp_path / "games.db")
    campaign_stage(table)
    table.press(Button.OK)
    table.pick("Set up a room")
    table.pick("Glaaoth (enter)")
    table.pick("Infernal .. Phantom")
    table.pick("Orc")
    table.number(2)  # one entry given; the next monster is asked
    game, question = table.session.id, table.screen
    kept = table.gadget.store.gadget(game)["form"]
    assert kept == {"do": "setup_room", "answers": ["stage-room", "group-2", "Orc", 2]}
    head = table.session.head
    table.gadget.close()  # the power cut: nothing is closed in order, the store is as it was

    again = Driver(tmp_path / "games.db")
    assert again.session.id == game and again.session.head == head  # nothing reached the log
    assert again.screen == question and again.gadget.playing.forms.local is not None
    again.pick("Done")
    again.press(Button.NEXT)  # no Suppresses box
    again.pick("None: roll")
    again.pick("No")
    again.number(0)
    assert again.session.state.adventure.entered_rooms["glaaoth"]["level1"] == ["2 x Orc"]
    assert "form" not in again.gadget.store.gadget(game)  # done: nothing kept
    assert again.gadget.store.gadget(game)["seats"] == {"elf": 1}
    again.close()


def killed(table: Driver) -> None:
    """The gadget's process gone without a clean stop (a kill, a power cut after the OS wrote
    what it had): what its transactions committed stays, what it held in memory is lost."""
    table.gadget.store.db.close()
    table.gadget.lock.release()


def test_a_restart_shows_the_page_on_the_glass_and_a_kill_loses_only_the_pages_turned(
        tmp_path):
    """Which page is on the glass is written with the next step's transaction (not one of its
    own): a clean stop keeps the page read last; a kill loses only the pages turned since the
    last step was saved, and the restart shows the page that was on the glass then."""
    table = Driver(tmp_path / "games.db")
    new_game(table)
    table.tap("room", "bholoth-cemetery")  # a step saved: its pages on the glass
    first = table.screen
    table.press(Button.OK, times=2)  # two pages turned: nothing saved for them
    third = table.screen
    assert table.gadget.app.reading and third != first
    table.close()
    again = Driver(tmp_path / "games.db")
    assert again.screen == third  # a clean stop: the page read last
    again.press(Button.BACK)
    again.press(Button.BACK)
    assert again.screen == first  # BACK still pages back
    killed(again)
    once_more = Driver(tmp_path / "games.db")
    assert once_more.screen == third  # the pages turned back were not kept: the last kept
    once_more.press(Button.OK)
    fourth = once_more.screen
    killed(once_more)
    last = Driver(tmp_path / "games.db")
    assert last.screen == third and fourth != third  # the turn since the last save is lost
    last.close()


def test_a_restart_on_a_long_steps_second_page_shows_that_page(tmp_path):
    """A step too long for one page: the store keeps which of its pages was on the glass
    (``Place.page``), so a clean stop on its second page comes back on its second page, and
    BACK pages back to its first."""
    table = Driver(tmp_path / "games.db")
    new_game(table)
    table.tap("room", "bholoth-cemetery")
    for _ in range(20):  # the room's setup steps, read on to a long one's second page
        app = table.gadget.app
        assert app.reading
        if app.at > 0 and app.reel[app.at].index == app.reel[app.at - 1].index:
            break
        table.press(Button.OK)
    second, step = table.screen, table.gadget.app.reel[table.gadget.app.at].index
    game = table.session.id
    table.close()
    again = Driver(tmp_path / "games.db")
    assert again.gadget.store.gadget(game)["place"]["step"] == step
    assert again.gadget.store.gadget(game)["place"]["page"] == 1
    assert again.screen == second
    again.press(Button.BACK)
    assert again.gadget.app.reel[again.gadget.app.at].index == step  # its first page
    assert again.screen != second
    again.press(Button.OK)
    assert again.screen == second
    again.press(Button.OK)  # the page after it: the next step's first
    assert again.gadget.store.gadget(game)["place"]["page"] == 0
    again.close()


def _room_to_its_end(path, restart: bool) -> tuple[list, int]:
    """A single room played to its end, the first option of each question, with (``restart``)
    a clean stop and a start again at every screen: the screens (each with the hero whose
    seat is lit as targeted), and how many restarts came back on another screen than the one
    they left."""
    table = Driver(path, seed=1)
    new_game(table)
    table.tap("room", "bholoth-cemetery")
    screens, other = [], 0
    for _ in range(400):
        if restart:
            left = table.screen
            table.close()
            table = Driver(path, seed=1)
            other += table.screen != left
        app, session = table.gadget.app, table.session
        screens.append((table.screen, app.target))
        if session.finished:
            break
        if app.reading or app.notice:
            table.press(Button.OK)
        elif isinstance(session.pending, ChooseSome) or session.pending is None:
            table.press(Button.NEXT)
        else:
            table.press(Button.OK)
    table.close()
    assert session.finished
    return screens, other


def test_a_restart_at_any_screen_shows_it_and_the_room_plays_on_as_it_would_have(tmp_path):
    """Where the table is in the pages is kept (``controller.Place``): a restart lays out the
    same pages from the same step (after an answer the reel holds only its new steps), with
    the same sentences read and questions answered, the same piece acting, cursor and hero
    targeted, and shows the page that was on the glass. Stopped and started again at every
    screen, a room shows exactly the screens it shows played straight through."""
    straight, _ = _room_to_its_end(tmp_path / "straight.db", restart=False)
    restarted, other = _room_to_its_end(tmp_path / "restarted.db", restart=True)
    assert other == 0
    assert restarted == straight and len(straight) > 80


def test_a_store_that_kept_only_the_step_shown_resumes_on_it(tmp_path):
    """A store from before places were kept (``shown``: the step alone), or a place that does
    not fit: the glass comes back on that step's first page, or at the action's start."""
    table = Driver(tmp_path / "games.db")
    new_game(table)
    table.tap("room", "bholoth-cemetery")
    table.press(Button.OK, times=2)
    third, game = table.screen, table.session.id
    step = table.gadget.playing.kept_place.step
    table.close()
    store = Store(tmp_path / "games.db")
    kept = store.gadget(game)
    store.set_gadget(game, {**{k: v for k, v in kept.items() if k != "place"}, "shown": step})
    store.close()
    again = Driver(tmp_path / "games.db")
    assert again.screen == third  # (each of these steps fits one page)
    assert "shown" not in again.gadget.store.gadget(game)  # its place kept from now on
    again.close()
    store = Store(tmp_path / "games.db")
    store.set_gadget(game, {**store.gadget(game), "place": {"step": "third"}})
    store.close()
    once_more = Driver(tmp_path / "games.db")
    assert once_more.screen.title == "Setup"  # the action's first page: nothing lost
    once_more.close()


def test_the_page_shown_is_kept_without_reading_the_gadgets_object_back(tmp_path):
    """The store keeps the gadget's object it last wrote for the game (``Store.gadget``):
    a step's COMMIT (which writes the page shown with it) does not have the row read back
    at the next page turned, and the object it answers is the one on disk."""
    table = Driver(tmp_path / "games.db")
    new_game(table)
    table.tap("room", "bholoth-cemetery")  # a step saved (its COMMIT): then pages turned
    store, game = table.gadget.store, table.session.id
    reads = []
    store.db.set_trace_callback(lambda sql: reads.append(sql) if "FROM gadget" in sql else None)
    table.press(Button.OK, times=2)
    store.db.set_trace_callback(None)
    assert reads == []
    place = table.gadget.playing.kept_place
    assert place is not None and store.gadget(game)["place"] == place.as_json()
    table.close()
    again = Driver(tmp_path / "games.db")
    assert again.gadget.store.gadget(game) == {"seats": {"elf": 1, "hero-1": 3}, "first": 0,
                                               "place": place.as_json(),
                                               "hidden": ["campaign_start"]}
    again.close()


def test_a_kept_form_the_game_no_longer_allows_is_dropped(tmp_path):
    table = Driver(tmp_path / "games.db")
    new_game(table)
    game = table.session.id
    table.gadget.store.set_gadget(game, {"seats": {"elf": 1, "hero-1": 3},
                                         "form": {"do": "damage_piece", "answers": []}})
    table.close()
    again = Driver(tmp_path / "games.db")  # no battle: no piece to hit
    assert again.gadget.playing.forms.local is None and again.screen.key == "Set up"
    assert "form" not in again.gadget.store.gadget(game)
    again.close()


def test_the_dice_mode_changes_from_the_menu_and_stays_changed(tmp_path):
    table = Driver(tmp_path / "games.db")
    new_game(table)
    assert table.session.dice == "seeded"
    table.press(Button.OK)
    table.pick("Dice")
    assert table.screen.rows[table.screen.cursor] == "The gadget's (now)"  # OK keeps it
    table.pick("Our own dice")
    assert table.session.dice == "table"
    game = table.session.id
    table.close()
    again = Driver(tmp_path / "games.db")
    assert again.session.id == game and again.session.dice == "table"  # a logged setting
    again.tap("room", "bholoth-cemetery")
    again.read()
    assert again.session.pending is not None and again.session.pending.chance  # ours to roll
    again.press(Button.BACK, long=True)  # undo the room: back to the menu's change
    again.press(Button.BACK, long=True)  # and the change itself
    assert again.session.dice == "seeded"
    again.close()


def test_a_card_tapped_over_a_message_answers_the_question_under_it(tmp_path):
    """The Room card question comes in groups; a card that is no answer puts a message up,
    and the right card tapped on it answers the question under it."""
    table = Driver(tmp_path / "games.db")
    new_game(table)
    table.read()
    table.press(Button.OK)  # the menu
    table.pick("Set up a room")
    assert table.screen.title == "Which Room card?"
    assert table.tap("hero", "elf").key == "Not an answer"
    assert table.tap("room", "bholoth-cemetery").key == "Bholoth Cemetery"
    table.close()


def test_steps_redone_after_an_undone_heroes_side_keep_the_acting_pieces_title(tmp_path):
    """The heroes' side entered after an AI piece's turn, then both undone (BACK held twice:
    the hit, the turn's last answer) and the answer redone: its steps are the piece's, titled
    by it again, not by the heroes' side undone in between."""
    table = Driver(tmp_path / "games.db")
    new_game(table)
    table.tap("room", "bholoth-cemetery")
    while table.session.pending is not None or table.gadget.app.reading:
        table.read()
        if table.session.pending is not None:
            table.press(Button.OK)
    pages, asked = ai_turn(table)
    acting = pages[0].title  # its pages are titled by it
    assert asked and acting.startswith(("Skeleton Warrior", "Orc"))
    answered = [p for p in pages if p.title == acting]
    hit = heroes_side(table, "Hit an AI piece", "Orc A", "Elf", amount=1)
    assert keys(hit)[0] == "Orc A down" and hit[0].title == "Heroes' side"
    table.press(Button.BACK, long=True)
    table.press(Button.OK)
    table.press(Button.BACK, long=True)  # the turn's last answer
    assert table.screen.key == "Undone"
    table.press(Button.CHOICE)  # redo
    redone = table.read()
    assert redone and {p.title for p in redone} == {acting}
    assert keys(redone) == keys(answered)[-len(keys(redone)):]
    table.close()
