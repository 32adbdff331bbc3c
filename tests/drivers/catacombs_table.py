"""The Catacombs game the table plays in tests/app/test_gadget_game.py (the in-memory gadget,
``tools.table.Table``) and tests/e2e/test_gadget_pico.py (the virtual Pico, ``PicoTable``): its
moves and the stretches of it both check, written once on ``TableMoves`` so that the two play
the same presses with the same seed and answers. The gadget rolls the dice and draws the
tokens in this game: a Roll or a DrawToken on the glass is a failure."""

from __future__ import annotations

from overseer.core.procedure import ChooseSome, DrawToken, Roll
from overseer.screens.render import Screen
from tools.table import BACK, CHOICE, NEXT, OK, TableMoves

SEED = 11


def keys(pages: list[Screen]) -> list[str]:
    """The key words of ``pages``, those with one."""
    return [p.key for p in pages if p.key]


def answer(table: TableMoves) -> str:
    """The table's answer to the rules' question on the glass: the first option, yes, the
    number as it stands; returns the question's key."""
    question = table.session.pending
    assert question is not None and table.screen.mark == "?", table.screen
    if isinstance(question, ChooseSome):
        table.press(NEXT)
    elif isinstance(question, Roll | DrawToken):
        raise AssertionError(f"the gadget rolls and draws in this game: {question}")
    else:
        table.press(OK)
    return question.key


def answer_all(table: TableMoves) -> None:
    """Answer the question on the glass, then each question after its steps, until none."""
    answer(table)
    while table.session.pending is not None:
        table.read()
        answer(table)
    table.read()


def ai_turn(table: TableMoves) -> tuple[list[Screen], list[str]]:
    """NEXT AI PIECE and everything it shows and asks, until the heroes' turn: the pages and
    the keys of the questions answered."""
    table.press(NEXT)
    pages, asked = [], []
    while True:
        pages += table.read()
        if table.session.pending is None:
            return pages, asked
        asked.append(answer(table))


def heroes_side(table: TableMoves, *choices: str, amount: int | None = None) -> list[Screen]:
    """From the idle screen: the menu, then each choice in turn (and ``amount`` where a number
    is asked); the pages that follow."""
    table.press(OK)
    assert table.screen.title == "Menu", table.screen
    for label in choices:
        if table.screen.number is not None and amount is not None:
            table.number(amount)
        table.pick(label)
    if table.screen.number is not None and amount is not None:
        table.number(amount)  # the last question: how much
    return table.read()


def elf_joins(table: TableMoves) -> None:
    """From "Which game?": Catacombs, the Elf (its card tapped) on seat 1 with health 10."""
    table.choose_game()
    table.tap("hero", "elf")
    table.pick("Seat 1")
    table.number(10)


def party_of_two(table: TableMoves) -> None:
    """The Elf (tapped) on seat 1 and Hero 1 on seat 3."""
    elf_joins(table)
    table.pick("Hero 1")
    table.pick("Seat 3")
    table.number(8)
    table.pick("Done")


def new_campaign(table: TableMoves) -> list[Screen]:
    """A new game of the party of two and the Monstrosity campaign, the Hidden Cave on; the
    pages that begin it."""
    party_of_two(table)
    for _ in range(4):  # line of sight open, no advanced targeting, the gadget's tokens and
        table.press(OK)  # poison cards
    table.pick("The gadget's")  # dice (the Pico's are offered first on a box with a Pico)
    table.press(NEXT)  # no expansion playmat
    table.pick("On")  # the Hidden Cave
    table.pick("Monstrosity")
    return table.read()


def enter_room(table: TableMoves, room: str, monsters: list[tuple[str, str, int]], spell: str,
               gold: int) -> None:
    """Set up the campaign's stage room, its card entered monster by monster."""
    heroes_side(table, "Set up a room", f"{room} (enter)")
    for group, monster, count in monsters:
        table.pick(group)
        table.pick(monster)
        table.number(count)
    table.pick("Done")
    table.press(NEXT)  # no Suppresses box
    table.pick("None: roll")  # no playmat named on the card
    table.pick(spell)
    table.number(gold)


# ---------------------------------------------------------------------- the game's stretches
# (both tests play them as they are; what lies between them differs: the pictures of the
# board's OLED, the restart of each host)


def first_stage(table: TableMoves) -> None:
    """From the idle screen at the campaign's start: its first stage, Glaaoth, entered off the
    card (two Orcs and a Minotaur) and set up, up to its pieces' places."""
    assert keys(heroes_side(table, "Next stage")) == ["Glaaoth"]
    enter_room(table, "Glaaoth", [("Infernal .. Phantom", "Orc", 2),
                                  ("Infernal .. Phantom", "Minotaur", 1)], "No", 2)
    setup = table.read()
    assert {p.title for p in setup} == {"Setup"} and keys(setup)[0] == "Glaaoth"  # no prompt page
    assert table.screen.title == "Vacant runes?"  # vacant runes in the Monster Start Zone
    table.number(2)


def orc_b_asks(table: TableMoves) -> tuple[list[Screen], Screen]:
    """Orc A's turn, then Orc B's up to its first question: Orc B's pages before it, and the
    question's screen."""
    pages, asked = ai_turn(table)
    assert pages[0].title == "Orc A" and asked[0] == "first_by_direction"
    table.press(NEXT)
    before, question = table.read(), table.screen
    assert question.title == "Closest to Orc B?" and question.mark == "?"  # it names Orc B
    return before, question


def orc_a_destroyed_and_undone(table: TableMoves) -> None:
    """Hero 1 destroys Orc A (its gold goes to Hero 1); BACK held undoes it."""
    kill = heroes_side(table, "Hit an AI piece", "Orc A", "Hero 1", amount=1)
    assert keys(kill) == ["Orc A down"]  # the hit, the kill and its gold on one page
    assert kill[0].lines == ("-1: 0 left", "+1 gold to Hero 1")
    assert table.session.state.heroes["hero-1"].gold == 1
    table.press(BACK, long=True)
    assert table.screen.key == "Undone"
    assert table.session.state.pieces["orc-1"].alive
    assert table.session.state.heroes["hero-1"].gold == 0


def redone_and_round_2(table: TableMoves) -> None:
    """CHOICE redoes Orc A's end; the next NEXT AI PIECE begins round 2; the Elf's health
    two down by the hero form (its entry starts at the health as it stands)."""
    table.press(CHOICE)  # redo
    table.read()
    assert not table.session.state.pieces["orc-1"].alive
    assert table.session.state.heroes["hero-1"].gold == 1
    pages, _ = ai_turn(table)
    assert keys(pages)[0] == "Round 2"
    health = table.session.state.heroes["elf"].health
    table.press(OK)
    table.pick("Hero changed")
    table.tap("hero", "elf")
    table.pick(f"Health {health}")
    assert table.screen.number == health
    table.number(health - 2)
    assert keys(table.read()) == ["Elf"]
    assert table.session.state.heroes["elf"].health == health - 2


def first_room_won(table: TableMoves) -> None:
    """The Elf destroys Orc B and then the Minotaur, the last piece: the room is won."""
    heroes_side(table, "Hit an AI piece", "Orc B", "Elf", amount=1)
    end = heroes_side(table, "Hit an AI piece", "Elf", amount=1)  # no need to ask which
    assert keys(end)[-1] == "Room won" and end[-1].title == "Battle over"
    assert table.screen.key == "Room won"


def second_stage(table: TableMoves) -> None:
    """After the first room's reward: the campaign's second stage, Ehanostha (a Zombie), its
    battle won by the Elf and its reward, a Spell card, given to the Elf."""
    assert keys(heroes_side(table, "Next stage")) == ["Ehanostha"]
    enter_room(table, "Ehanostha", [("Venomous .. Zombie", "Zombie", 1)], "Yes", 0)
    assert keys([p for p in table.read() if p.title.startswith("Place")]) == ["Zombie"]
    pages, asked = ai_turn(table)
    assert pages[0].title == "Zombie" and asked
    end = heroes_side(table, "Hit an AI piece", "Elf", amount=1)
    assert keys(end)[-1] == "Room won"
    table.press(OK)
    table.pick("Room rewards")
    table.read()
    table.pick("Elf")  # the Spell card: which hero can use it
    assert keys(table.read()) == ["Spell card"]


def the_game_as_it_ended(table: TableMoves, summary: list[Screen]) -> None:
    """The summary's first line (the Elf's health and gold) and the game as it ended."""
    elf = table.session.state.heroes["elf"]
    assert summary[0].lines[0] == f"Health {elf.health}  Gold 6"
    state = table.session.state_dict()
    # Gold: the Elf destroyed Orc B (1), the Minotaur (2) and the Zombie (1) and took the
    # Glaaoth reward (2); Hero 1 destroyed Orc A (1) and took the reward (2).
    assert {h: v["gold"] for h, v in state["heroes"].items()} == {"elf": 6, "hero-1": 3}
    adventure = state["adventure"]
    assert adventure["stage"] == 2 and adventure["spells"] == {"elf": ["a Spell card"]}
    assert set(adventure["entered"]["rooms"]) == {"glaaoth", "ehanostha"}
    assert adventure["over"].startswith("the game is over")
