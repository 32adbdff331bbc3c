"""`overseer --plain`: the same gadget and controller, driven by words, through a battle."""

import io

import pytest

from overseer.cli import main
from overseer.core.records import DATA_DIR
from overseer.session.session import Session
from overseer.session.store import Store

DEMO = str(DATA_DIR / "demo" / "catacombs.json")


def plain(monkeypatch, capsys, db, lines, *options):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["--plain", "--db", str(db), *options])
    out, err = capsys.readouterr()
    return code, out, err


def refusals(out: str) -> list[str]:
    """The refused lines (after the prompt; a glass line marked "! ", a step on unprinted
    data, is indented and no refusal)."""
    return [line.split("! ", 1)[1] for line in out.splitlines()
            if "! " in line and not line.startswith("  ")]


@pytest.fixture
def db(tmp_path):
    return tmp_path / "games.sqlite3"


NEW = ("--new", "--setup", DEMO, "--seed", "3", "--dice", "seeded", "--tokens", "physical")
READ = [""] * 2  # the two pages of the Sewer Rat's steps (its questions carry their prompt)


def test_a_battle_round_in_words(monkeypatch, capsys, db):
    lines = ["next", *READ, "yes", "10", "-1", "2r", *[""] * 6, "quit"]
    code, out, err = plain(monkeypatch, capsys, db, lines, *NEW)
    assert code == 0, err
    assert "  - Sewer Rat acts: Level 1 monsters tile, brown monster tile  [Red Box: AI Player Behaviour, step 1]" in out
    assert refusals(out) == ["a token's value is 0 to 9 here, not 10",
                             "a token's value is 0 to 9 here, not -1"]
    assert "level 2 damage token: 2 (reset)" in out
    with Store(db) as store:
        session = Session.resume(store, store.games()[0].id)
        assert session.state_dict()["heroes"]["elf"]["health"] == 6  # the token's 2
    assert out.rstrip().endswith(f"Game #1 is saved; `overseer --plain --db {db}` goes on with "
                                 "it.")  # not the store a bare `overseer` opens


def test_bad_words_press_nothing(monkeypatch, capsys, db):
    lines = ["", "0", "-2", "9", "nxt", "hold", "hold ok please", "yes", "tap orcc", "2r",
             "quit"]
    code, out, _ = plain(monkeypatch, capsys, db, lines, *NEW)
    assert code == 0
    assert refusals(out) == [
        "the rows are numbered 1 to 8, not 0",  # the menu: five moves, Party, Dice, New game
        "the rows are numbered 1 to 8, not -2",
        "the rows are numbered 1 to 8, not 9",
        "unknown word 'nxt'; did you mean 'next'? (help lists the words)",
        "hold which button? next, ok, choice, back, roll",
        "hold which button? next, ok, choice, back, roll",
        "the glass asks no yes/no question now",
        "no card 'orcc' in data/; did you mean 'monster: Orc (catacombs orc)'",
        "nothing on the glass takes a number now",
    ]
    with Store(db) as store:
        assert store.games()[0].head == 0  # the menu was opened; nothing reached the game


def test_undo_and_resume_by_id(monkeypatch, capsys, db):
    plain(monkeypatch, capsys, db, ["next", "quit"], *NEW)
    with Store(db) as store:
        first = store.games()[0]
        other = Session.new(store, "catacombs", store.game(first.id).setup, seed=4)
        assert first.head > 0
    code, out, err = plain(monkeypatch, capsys, db, ["quit"], "--new", "--dice", "table")
    assert code == 2 and "--dice table need --setup FILE" in err  # the gadget asks it itself
    monkeypatch.setattr("sys.stdin", io.StringIO("undo\nquit\n"))
    assert main(["games", "resume", str(first.id), "--plain", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert f"Game #{first.id}" in out and "Undone" in out
    assert "  (taken back) " in out and "back to step" not in out
    with Store(db) as store:
        assert store.game(first.id).head == 0
        assert store.game(other.id).head == 0


def test_new_asks_which_game_with_an_unfinished_game_in_the_store(monkeypatch, capsys, db):
    """`--plain --new` (no --setup): the gadget asks a new game's questions, not the last
    unfinished game (a Conquest game here) resumed."""
    conquest = {"format": 2, "game": "conquest",
                "setup": {"players": {"a": "sword", "b": "skull"}, "first": "sword"}}
    with Store(db) as store:
        Session.new(store, "conquest", conquest, seed=1).begin({"do": "start"})
    code, out, err = plain(monkeypatch, capsys, db, ["quit"], "--new")
    assert code == 0, err
    assert "Which game?" in out
    with Store(db) as store:
        assert len(store.games()) == 1  # nothing stored before the questions are answered


def test_a_number_answers_a_roll_behind_the_step_pages(monkeypatch, capsys, db):
    """A number typed on a step page reads on to the question waiting behind it (the steps
    are printed in full above), and on a roll's page it sets the face of the table's own die
    (CHOICE, then OK): the Rune Die's 3 chooses the playmat."""
    wizard = [""] * 13 + ["next", "", ""]  # two heroes, every default, no expansion playmat
    room = ["", "", "", ""]  # the menu, Set up a room, the first group, The Armoury
    lines = [*wizard, *room, "3", "quit"]
    code, out, err = plain(monkeypatch, capsys, db, lines, "--new", "--seed", "1")
    assert code == 0, err
    assert "  - Rune Die 3: the Rune Die 3 playmat (unnamed in the book)" in out
    assert refusals(out) == []
