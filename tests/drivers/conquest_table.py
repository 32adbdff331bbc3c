"""A Conquest table at the gadget: the players' side of a game, for the tests that play one.

``Players`` drives a table (``tools.table.Table`` in memory, or ``tests/drivers/pico_table.PicoTable``
through the virtual Pico: both press, pick and tap) with a script shaped like a scenario's:
the cards drawn (tapped as each Pick comes), the cards played (tapped on the idle screen) and
the answers (by key, in order, given with the buttons: a choice is the option's label under
the cursor, several discs are ticked and NEXT answers). The players' ids are the wizard's
(``p1`` .. ``p4``); a scenario's own ids are mapped onto them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from overseer.core.procedure import ChooseOne, ChooseSome, Pick, YesNo
from overseer.screens import pages

GAME = "conquest"
# The Quick Tutorial (tests/scenarios/conquest/quick_tutorial.json): its players are seated
# Sword, Skull, Sword, Skull, the wizard's p1 .. p4.
TUTORIAL_PLAYERS = {"s1": "p1", "k1": "p2", "s2": "p3", "k2": "p4"}


def new_four_player_game(t: Any, draws: str = "Tap each draw", first: str = "Sword first",
                         health: int = 8) -> None:
    """The wizard: four players on seats 1 to 4, Sword, Skull, Sword, Skull."""
    t.choose_game("Conquest")
    t.pick("4 players")
    for n, team in enumerate(("Sword Team", "Skull Team", "Sword Team"), 1):
        t.pick(team)
        t.pick(f"Seat {n}")
    t.number(health)
    t.pick("Off")  # draw at the end of the turn
    t.pick("Off")  # last stand
    t.pick(draws)
    t.pick(first)


class Players:
    """The players at ``table``: ``draws`` are tapped as asked, ``answers`` given in order."""

    def __init__(self, table: Any, draws: Iterable[str] = (),
                 answers: Iterable[Mapping[str, Any]] = ()) -> None:
        self.t = table
        self.draws = list(draws)
        self.answers = list(answers)

    def tap(self, card: str, game: str = GAME) -> Any:
        return self.t.tap("card", card, game)

    def label(self, option: str) -> str:
        app = self.t.gadget.app
        question = app.view.question
        labels = pages.option_labels(question, app.view.names)
        return labels[question.options.index(option)]

    def answer(self, value: Any) -> None:
        """Answer the question on the glass with the buttons."""
        question = self.t.gadget.app.view.question
        if isinstance(question, YesNo):
            self.t.pick("Yes" if value else "No")
        elif isinstance(question, ChooseSome):
            for option in value:
                label = self.label(option)
                while self.t.screen.rows[self.t.screen.cursor] != label:
                    self.t.press("choice")
                self.t.press("ok")
            self.t.press("next_ai_piece")
        elif value in self.t.gadget.app.view.tap_answers:
            self.tap(value)  # a card of the hand: the glass does not list it
        elif isinstance(question, ChooseOne | Pick):
            self.t.pick(self.label(value))
        else:
            raise AssertionError(f"no way to answer {question}")

    def settle(self) -> None:
        """Read the steps; tap each card drawn and give each answer asked, until the glass
        waits for a card to be played (or the game is over, or the script has run out)."""
        while True:
            self.t.read()
            question = self.t.gadget.session.pending if self.t.gadget.playing.forms.local is None else None
            if isinstance(question, Pick) and question.physical and self.draws:
                self.tap(self.draws.pop(0))
            elif question is not None and self.answers:
                wanted = self.answers.pop(0)
                assert wanted["key"] == question.key, (wanted, question)
                self.answer(wanted["answer"])
            else:
                return

    def play(self, card: str) -> None:
        """Tap the card to play, then settle its questions."""
        self.tap(card)
        self.settle()


def tutorial_script(doc: Mapping[str, Any]) -> tuple[list[str], list[str], list[dict[str, Any]]]:
    """The tutorial scenario's draws, plays and answers, as the gadget's table gives them.
    The scenario fills in sword-05 in its setup, which the gadget asks of the table instead:
    it is played stunned, so nothing is asked."""
    plays = [a["card"] for a in doc["actions"] if a["do"] == "play"]
    return list(doc["picks"]), plays, [dict(a) for a in doc["answers"]]
