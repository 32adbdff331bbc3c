"""The gadget in a terminal: press Enter for NEXT AI PIECE and answer what the rules ask.

Every input goes through the session (host/overseer/session/): it is durable in the game store
before the terminal shows its result, the last unfinished game is resumed at start, and any
step can be undone (``u``) or redone (``r``). Runs the demo battle in data/demo/ or a
scenario-shaped setup file; dice are seeded unless the table rolls its own (``--dice table``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, TextIO

from overseer import scenario as scenarios
from overseer.data import DATA_DIR
from overseer.rules.procedure import (
    AnswerError,
    ChooseOne,
    ChooseSome,
    DrawToken,
    EnterNumber,
    Pick,
    Question,
    Roll,
    RulesError,
    Token,
    YesNo,
    describe,
)
from overseer.session.paths import ConfigError, store_path
from overseer.session.session import LogError, Session, SessionError
from overseer.session.store import Store, StoreError

HELP = "Enter = NEXT AI PIECE, u = undo, r = redo, q = quit (the game is saved)."


def parse(question: Question, text: str) -> Any:
    """The typed answer as the question wants it; ValueError or IndexError if it does not fit."""
    text = text.strip().lower()
    if isinstance(question, YesNo):
        if text in ("y", "yes", "n", "no"):
            return text.startswith("y")
        raise ValueError(text)
    if isinstance(question, ChooseOne | Pick):
        return question.options[int(text) - 1]
    if isinstance(question, ChooseSome):
        return tuple(question.options[int(p) - 1] for p in text.replace(",", " ").split())
    if isinstance(question, DrawToken):
        return Token(int(text.rstrip("r")), text.endswith("r"))
    return int(text)


def names(state: Any) -> dict[str, str]:
    """Display names of the state's characters by id (Catacombs heroes and AI pieces)."""
    people = {**getattr(state, "heroes", {}), **getattr(state, "pieces", {})}
    return {k: f"{v.name} ({k})" for k, v in people.items() if getattr(v, "name", k) != k}


def hint(question: Question, shown: dict[str, str]) -> str:
    if isinstance(question, ChooseOne | ChooseSome | Pick):
        rows = [f"  {n}. {shown.get(option, option)}"
                for n, option in enumerate(question.options, 1)]
        many = "numbers, comma-separated" if isinstance(question, ChooseSome) else "number"
        return "\n".join(rows) + f"\n> ({many}) "
    if isinstance(question, YesNo):
        return "> (y/n) "
    if isinstance(question, EnterNumber):
        return f"> ({question.low}-{question.high}) "
    if isinstance(question, Roll):
        return f"> (1-{question.faces}) "
    return "> (value, with r after it for a reset icon: 2 or 2r) "


class Table:
    """The terminal's side of a session: shows new trace steps and asks questions."""

    def __init__(self, session: Session, read: TextIO, write: TextIO) -> None:
        self.session, self.read, self.write = session, read, write
        self.shown = len(session.runner.trace)

    def say(self, text: str) -> None:
        self.write.write(text)
        self.write.flush()

    def show_new_steps(self) -> None:
        trace = self.session.runner.trace
        for step in trace[self.shown:]:
            unverified = step.data.get("verified") is False and "unverified" not in step.text
            mark = "  (unverified data)" if unverified else ""
            self.say(f"  - {step.text}  [{step.rule}]{mark}\n")
        self.shown = len(trace)

    def line(self, prompt: str) -> str | None:
        self.say(prompt)
        text = self.read.readline()
        return None if not text else text.strip()

    def answer_pending(self) -> bool:
        """Ask until the action is done; False when input ends."""
        while (question := self.session.pending) is not None:
            self.say(describe(question) + "\n")
            text = self.line(hint(question, names(self.session.state)))
            if text is None or text.lower() == "q":
                return False
            if text.lower() == "u":
                self.undo()
                continue
            try:
                self.session.answer(parse(question, text))
            except (ValueError, IndexError) as err:
                if isinstance(err, AnswerError | SessionError):
                    self.say(f"! {err}\n")
                else:
                    self.say("That answer does not fit; try again.\n")
                continue
            self.show_new_steps()
        return True

    def undo(self) -> None:
        try:
            undone = self.session.undo()
        except SessionError as err:
            self.say(f"! {err}\n")
            return
        self.shown = len(self.session.runner.trace)
        seen = " (a roll the table saw is undone)" if undone.marked else ""
        self.say(f"undone: {len(undone.events)} event(s){seen}\n")

    def play(self) -> int:
        self.say(HELP + "\n")
        if not self.answer_pending():
            return 0
        while True:
            text = self.line("\n[NEXT AI PIECE] ")
            if text is None or text.lower() == "q":
                self.say("\nsaved; bye\n")
                return 0
            try:
                if text.lower() == "u":
                    self.undo()
                elif text.lower() == "r":
                    self.session.redo()
                    self.show_new_steps()
                else:
                    self.session.begin({"do": "next_ai_piece"})
                    self.show_new_steps()
            except (RulesError, SessionError) as err:
                self.say(f"! {err}\n")
            if not self.answer_pending():
                self.say("\nsaved; bye\n")
                return 0


def open_session(store: Store, setup_path: str, new: bool, seed: int | None, dice: str,
                 write: TextIO, physical: bool = False) -> Session:
    if not new:
        session = Session.resume_last(store, "catacombs")
        if session is not None:
            write.write(f"Resuming game #{session.id} ({session.head} events; --new starts "
                        "another).\n")
            return session
    setup = scenarios.load(setup_path)  # format 2, whatever the file's format
    setup = {k: v for k, v in setup.items() if k != "_path"}
    if physical:  # the table draws its own damage tokens and poison cards and types the value
        options = {**setup["setup"].get("options", {}), "physical_tokens": True,
                   "physical_poison": True}
        setup["setup"] = {**setup["setup"], "options": options}
    session = Session.new(store, setup["game"], setup, seed=seed, dice=dice)
    write.write(f"New game #{session.id}: {setup.get('title', 'a battle')}.\n")
    return session


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="overseer", description=__doc__)
    parser.add_argument("--setup", default=str(DATA_DIR / "demo" / "catacombs.json"),
                        help="a scenario-shaped setup file (default: the demo battle)")
    parser.add_argument("--new", action="store_true", help="start a new game, do not resume")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--dice", choices=("seeded", "table"), default="seeded",
                        help="who rolls: the gadget (seeded) or the table's own dice")
    parser.add_argument("--tokens", choices=("gadget", "physical"), default="gadget",
                        help="who draws damage tokens and poison cards: the gadget from its "
                             "(unverified) data, or the table from the real ones")
    parser.add_argument("--db", metavar="FILE", help="the game store (see docs/session.md)")
    args = parser.parse_args(argv)
    try:
        with Store(store_path(args.db)) as store:
            if store.notice:
                print(f"overseer: {store.notice}", file=sys.stderr)
            session = open_session(store, args.setup, args.new, args.seed, args.dice,
                                   sys.stdout, physical=args.tokens == "physical")
            return Table(session, sys.stdin, sys.stdout).play()
    except (scenarios.ScenarioError, StoreError, LogError, SessionError, ConfigError) as err:
        print(f"overseer: {err}", file=sys.stderr)
        return 2
