"""The terminal gadget: plays through the session, undoes, quits, resumes where it stopped."""

import io

from overseer.data import DATA_DIR
from overseer.rules.procedure import ChooseOne, DrawToken, Token, YesNo
from overseer.session.session import Session
from overseer.session.store import Store
from overseer.terminal import Table, open_session, parse

DEMO = str(DATA_DIR / "demo" / "catacombs.json")


def play(store: Store, typed: str, new: bool = False) -> tuple[Session, str]:
    out = io.StringIO()
    session = open_session(store, DEMO, new, 3, "seeded", out)
    Table(session, io.StringIO(typed), out).play()
    return session, out.getvalue()


def test_play_undo_and_resume(tmp_path):
    with Store(tmp_path / "games.sqlite3") as store:
        session, out = play(store, "\ny\nn\nq\n", new=True)
        assert "Sewer Rat (rat-1) acts" in out and "saved; bye" in out
        played = session.state_dict()
        assert played["heroes"]["elf"]["health"] < 8  # the template covered the Elf
        head = session.head
    with Store(tmp_path / "games.sqlite3") as store:
        session, out = play(store, "u\nq\n")
        assert out.startswith(f"Resuming game #{session.id} ({head} events")
        assert "undone:" in out
        assert session.head < head
        assert session.state_dict()["heroes"]["elf"]["health"] < 8  # only the edge answer undone


def test_bad_typing_changes_nothing(tmp_path):
    with Store(tmp_path / "games.sqlite3") as store:
        session, out = play(store, "\nmaybe\nq\n", new=True)
        assert "That answer does not fit" in out
        assert session.pending == YesNo(session.pending.prompt, "template")


def test_parse():
    assert parse(ChooseOne("p", ("a", "b"), "k"), "2") == "b"
    assert parse(YesNo("p", "k"), "Yes") is True
    assert parse(DrawToken("bag", "p"), "2r") == Token(2, True)
    assert parse(DrawToken("bag", "p"), "0") == Token(0, False)


def test_physical_tokens_are_typed_in(tmp_path):
    with Store(tmp_path / "games.sqlite3") as store:
        out = io.StringIO()
        session = open_session(store, DEMO, True, 3, "seeded", out, physical=True)
        Table(session, io.StringIO("\ny\n2r\n1\nn\nq\n"), out).play()
        elf = session.state_dict()["heroes"]["elf"]
        assert (elf["health"], elf["poison"]) == (6, [1])
        assert "level 2 damage token: 2 (reset)" in out.getvalue()
