"""A whole Catacombs game at the table, through the Gadget's inbox with the five buttons and
card taps (MemoryGlass, SimLeds, the gadget's seeded dice and tokens): a new game of two heroes
and the Monstrosity campaign, its first room entered off the card, set up and placed, two
rounds with questions and the heroes' side (a hit, kills paying gold), undo and redo, a restart
in the middle that shows the last screen again, the end of the battle, rewards, the
campaign's second room, the end of the game. Then bad input at the table.

The game's moves and the stretches of it that tests/e2e/test_gadget_pico.py plays too (through
the virtual Pico) are in tests/drivers/catacombs_table.py."""

from __future__ import annotations

from overseer.core.procedure import DrawToken, Roll
from overseer.ports.events import Button, Die, Rolled
from overseer.screens.render import Screen
from tests.drivers import catacombs_table as play
from tests.drivers.catacombs_table import (
    SEED,
    ai_turn,
    answer_all,
    elf_joins,
    heroes_side,
    keys,
    new_campaign,
)
from tools.table import Table as Driver

OK, CHOICE, NEXT, BACK = Button.OK, Button.CHOICE, Button.NEXT, Button.BACK
IDLE_KEYS = {"Set up", "Battle", "Heroes' turn", "Room won", "Game over"}


def kind(screen: Screen) -> str:
    """What a screen is: a question, the menu, a message, the idle screen, or a step."""
    if screen.mark == "?":
        return "question"
    if screen.title == "Menu":
        return "menu"
    if screen.inverse_key:
        return "notice"
    if screen.key in IDLE_KEYS and screen.page is None and (
            screen.lines[:1] in (("NEXT: next AI piece",), ("OK: the menu",))
            or screen.key == "Game over"):
        return "idle"
    return "step"


def test_a_whole_campaign_game_at_the_table(tmp_path):
    db = tmp_path / "games.db"
    table = Driver(db, seed=SEED)

    # A new game: the Hidden Cave and the campaign begin it.
    assert keys(new_campaign(table)) == ["Hidden Cave", "Hidden Cave", "Monstrosity",
                                         "Campaign Lord"]
    assert table.screen.key == "Set up"
    assert table.session.state.adventure.campaign == "monstrosity"

    # The first stage; its room entered off the card; the setup rolls, lays, places.
    play.first_stage(table)
    placed = [p for p in table.read() if p.title.startswith("Place piece")]
    assert keys(placed) == ["Minotaur", "Orc A", "Orc B"]  # identical monsters lettered
    assert all(p.mark == "!" for p in placed if p.key)  # the spots are Overseer's reading
    assert table.screen.key == "Battle" and table.screen.title == "Glaaoth"

    # Round 1, the Minotaur: it targets the Elf (seat 1 lights), the table answers.
    pages, asked = ai_turn(table)
    assert pages[0].title == "Minotaur" and asked == ["closest", "template"]
    assert "Elf" in keys(pages)
    assert table.screen.key == "Heroes' turn" and table.leds.modes[1] == "on"
    # The heroes' side: the Elf hits the Minotaur (health 2) for 1.
    hit = heroes_side(table, "Hit an AI piece", "Minotaur", amount=1)  # no kill: no "whose shot"
    assert keys(hit) == ["Minotaur -1"]
    assert table.screen.key == "Heroes' turn"  # still: the heroes' side goes on
    assert table.session.state.pieces["minotaur-1"].health == 1

    # Orc A; then Orc B: the gadget restarts while its question is on the glass.
    before, question = play.orc_b_asks(table)
    table.close()
    table = Driver(db, seed=SEED)
    assert table.screen == question and table.read() == []  # the last screen, as it was
    answer_all(table)

    # Hero 1 destroys Orc A: its gold; undone (long BACK) and redone (CHOICE).
    play.orc_a_destroyed_and_undone(table)
    assert " ".join(table.screen.lines).startswith("Taken back: Orc A down.")
    # Round 2 begins with the next NEXT AI PIECE; the Elf's health, by the form: two presses
    # down from where it stands.
    play.redone_and_round_2(table)

    # The party screen.
    party = heroes_side(table, "Party")
    assert keys(party) == ["Elf", "Hero 1"] and party[-1].title == "AI pieces: health"
    assert party[-1].lines == ("Minotaur: 1", "Orc B: 1")

    # The Elf destroys the rest: the room is won.
    play.first_room_won(table)
    menu = heroes_side(table, "Room rewards")
    assert keys(menu) == ["+2 gold"]

    # The campaign's second room.
    play.second_stage(table)

    # The end of the game, and its summary.
    over = heroes_side(table, "End the game", "Yes")  # asked to be sure
    assert keys(over) == ["Game over"]
    assert table.screen.key == "Game over" and table.session.finished
    summary = heroes_side(table, "Summary")
    assert [p.title for p in summary][:2] == ["Summary", "Summary"]
    play.the_game_as_it_ended(table, summary)
    # Every screen was of a known kind, and no message but the undo's came up.
    assert {kind(s) for s in table.shown} <= {"question", "menu", "notice", "idle", "step"}
    assert [s.key for s in table.shown if kind(s) == "notice"] == ["Undone"]  # since restart
    table.close()


def to_playmats(tmp_path, dice: str = "Our own dice") -> Driver:
    """A new game of the Elf alone, the default options and ``dice``: at the expansion
    playmats' checklist."""
    table = Driver(tmp_path / "games.db", seed=SEED)
    elf_joins(table)
    table.pick("Done")
    for _ in range(4):
        table.press(OK)
    table.pick(dice)
    return table


def battle(tmp_path, dice: str = "Our own dice") -> Driver:
    """A single-room game with the table's own dice, its room tapped: the playmat's roll
    waits on the glass."""
    table = to_playmats(tmp_path, dice)
    table.press(NEXT)
    table.pick("Off")
    table.pick("A single room")
    table.read()
    return table


def test_back_held_before_any_game_says_nothing_was_entered(tmp_path):
    table = Driver(tmp_path / "games.db", seed=SEED)
    first = table.screen
    table.press(BACK, long=True)
    said = " ".join(table.screen.lines)
    assert table.screen.key == "No undo" and "nothing has been entered yet" in said
    assert "game" not in said and table.gadget.session is None
    assert table.press(OK) == first


def test_the_playmats_checklist_says_that_next_finishes_it(tmp_path):
    table = to_playmats(tmp_path)
    assert table.screen.title == "Expansion playmats?"
    assert table.screen.lines == ("OK ticks, NEXT: done",)
    table.press(CHOICE)  # from Done (the likely answer) round to the first playmat
    table.press(OK)  # ticks it
    assert table.screen.selected == frozenset({0}) and table.screen.lines
    assert table.press(NEXT).title == "Hidden Cave?"  # NEXT answered, as the line says
    assert table.gadget.playing.forms.local is not None and table.gadget.playing.forms.local.answers[-1] == ("d12-2",)


def test_the_playmats_checklist_starts_on_done_so_one_ok_owns_none(tmp_path):
    table = to_playmats(tmp_path)
    options = table.gadget.playing.forms.local.ask.question.options
    assert len(options) == 11  # D12 chart faces 2 to 12
    assert table.screen.cursor == len(options) and table.screen.selected == frozenset()
    assert table.press(OK).title == "Hidden Cave?"  # one press: no expansion playmat
    assert table.gadget.playing.forms.local.answers[-1] == ()


def test_bad_input_at_the_table_changes_nothing_and_says_why(tmp_path):
    table = battle(tmp_path)
    head = table.session.head
    table.press(BACK, long=True)
    assert table.screen.key == "No undo" and table.session.head == head
    assert "the game is at its start" in " ".join(table.screen.lines)
    table.press(OK)
    assert table.tap("monster", "orc").key == "No question"  # a monster card begins nothing
    table.press(OK)
    # A hero card with no question: what changed for that hero (BACK leaves it, unchanged).
    assert table.tap("hero", "elf").title == "Elf: what changed?"
    assert table.press(BACK).key == "Set up" and table.session.head == head
    assert table.tap("room", "bholoth-cemetery", game="conquest").key == "Wrong game"
    table.press(OK)
    table.tap("room", "bholoth-cemetery")
    table.read()
    assert isinstance(table.session.pending, Roll) and table.session.pending.die == "rune"
    head = table.session.head
    # A face the Rune Die has not, from the Pico: refused, said, nothing changed.
    table.gadget.inbox.put(Rolled(Die.RUNE, 7, 0))
    table.gadget.step(0)
    assert table.screen.key == "Not taken" and "rune face, 1 to 6" in " ".join(
        table.screen.lines)
    assert table.session.head == head
    table.press(OK)
    # The table's own die: the face starts at the middle (any face within three presses);
    # NEXT down, CHOICE held up by three, CHOICE wraps past the highest to 1.
    assert table.screen.number == 3 and table.press(NEXT).number == 2
    assert table.press(CHOICE, long=True).number == 5
    assert table.press(CHOICE).number == 6 and table.press(CHOICE).number == 1
    table.press(OK)
    rolled = table.session.events[head]
    assert rolled.kind == "answer" and rolled.data == {"key": "roll", "value": 1,
                                                        "source": "table"}
    table.read()
    while table.session.pending is not None:
        answer_setup(table)
    # A Room card in the middle of a battle: not now, and why.
    refused = table.tap("room", "bholoth-cemetery")
    assert refused.key == "Not now" and "battle goes on" in " ".join(refused.lines)
    table.close()


def answer_setup(table: Driver) -> None:
    """A setup question: a die face (3) or the first answer."""
    if isinstance(table.session.pending, Roll):
        table.number(3)
    else:
        table.press(OK)
    table.read()


def test_a_token_value_cannot_leave_its_range(tmp_path):
    """The table's own damage tokens: the value wraps inside 0 .. 9 and the reset icon is
    asked next; nothing reaches the session before both."""
    table = Driver(tmp_path / "games.db", seed=SEED)
    elf_joins(table)
    table.pick("Done")
    table.press(OK, times=2)
    table.pick("Our own")  # damage tokens
    table.press(OK, times=2)
    table.press(NEXT)
    table.pick("Off")
    table.pick("A single room")
    table.read()
    table.tap("room", "bholoth-cemetery")
    table.read()
    while table.session.pending is not None:
        answer_setup(table)
    table.press(NEXT)
    while not isinstance(table.session.pending, DrawToken):
        table.read()
        table.press(OK)
    table.read()
    head = table.session.head
    assert table.press(NEXT).number == 9 and table.press(CHOICE).number == 0  # wraps
    table.press(OK)
    assert table.screen.title == "Reset icon on it?" and table.session.head == head
    table.close()


def test_the_first_of_three_skeletons_the_box_placed_is_asked_between_two(tmp_path):
    """Bholoth Cemetery with the gadget's dice (seed 0): the box places Skeleton Warriors A and
    B on the Monster Start Zone's runes 1 and 2, C behind obstacle 1, the green tile read
    first. B is after A by the scan (Overseer's ruling: placed in the tiles' order); A against
    C is where the rune and the obstacle lie: the table is asked that, and only that."""
    table = Driver(tmp_path / "games.db", seed=0)
    elf_joins(table)
    table.pick("Done")
    table.press(OK, times=4)
    table.pick("The gadget's")
    table.press(OK)  # no expansion playmat
    table.pick("Off")
    table.pick("A single room")
    table.read()
    table.tap("room", "bholoth-cemetery")
    table.read()
    while table.session.pending is not None:
        answer_setup(table)
    battle = table.session.state
    assert battle.adventure.placement[:3] == [("skeleton-warrior-1", "rune-1"),
                                              ("skeleton-warrior-2", "rune-2"),
                                              ("skeleton-warrior-3", "obstacle-1")]
    assert battle.direction[0] == "left-to-right"  # green
    asked = table.press(NEXT)
    assert asked.title == "Which comes first?"
    assert asked.options == ("Skeleton Warrior A", "Skeleton Warrior C")
    table.press(CHOICE)
    table.press(OK)  # C, behind obstacle 1, is the first scanning left to right
    steps = [s for s in table.session.runner.trace if s.kind == "active_character"]
    assert steps[-1].data["piece"] == "skeleton-warrior-3"
    while table.session.pending is not None:
        table.read()
        table.press(OK)
    table.read()
    # Then A and B, both still on their runes: A, as placed, without a question.
    table.press(NEXT)
    steps = [s for s in table.session.runner.trace if s.kind == "active_character"]
    assert steps[-1].data == {"piece": "skeleton-warrior-1", "why": "placement",
                              "character_tile": "level-1", "monster_tile": battle.pieces[
                                  "skeleton-warrior-1"].type}
    table.close()
