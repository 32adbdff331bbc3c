"""A campaign's Lord room played to its end on the buttons: the Monstrosity is not in the card
data, so the table enters its card (health, a shot sequence, the mercenary, the Minions box),
then the Lair is set up (the rules ask the setup card's playmat), fought, won and rewarded, the
campaign's last stage follows and the game ends."""

from __future__ import annotations

from pathlib import Path

from overseer.app import catacombs as flow
from overseer.core.procedure import ChooseOne, ChooseSome, EnterNumber, YesNo
from overseer.ports.events import Button
from overseer.session.session import Session
from overseer.session.store import Store
from tools.table import Table

OK, NEXT = Button.OK, Button.NEXT
SETUP = {"format": 2, "game": "catacombs", "setup": {"heroes": [
    {"id": "elf", "name": "Elf", "kind": "hero", "health": 30},
    {"id": "hero-1", "name": "Hero 1", "kind": "hero", "health": 30}]}}


def campaign_before_the_lair(path: Path) -> int:
    """A stored Monstrosity game whose stages up to the Lair are done (its setup starts after
    the eighth stage: a campaign moves on only once a stage's room is played)."""
    store = Store(path)
    try:
        setup = {**SETUP, "setup": {**SETUP["setup"], "campaign": "monstrosity", "stage": 8}}
        return Session.new(store, "catacombs", setup, seed=11, dice="seeded").id
    finally:
        store.close()


def pick_grouped(table: Table, label: str) -> None:
    """``label`` from a list that may come in groups of names in order ("Fire .. Giant"):
    the group that holds it by name, then it."""
    if label not in table.screen.rows:
        word = label.split()[0].lower()
        group = next(g for g in table.screen.rows if " .. " in g
                     and word <= g.split(" .. ")[1].lower())
        table.pick(group)
    table.pick(label)


def answer_rules(table: Table) -> None:
    """The rules' questions, each as the first option, no one, or the number as it stands."""
    while table.session.pending is not None:
        question = table.session.pending
        table.read()
        if table.session.pending is not question:
            continue
        if isinstance(question, ChooseSome):
            table.press(NEXT)
        elif isinstance(question, ChooseOne | YesNo | EnterNumber):
            table.press(OK)
        else:
            raise AssertionError(f"the gadget rolls and draws in this game: {question}")
    table.read()


def test_the_campaign_lord_is_entered_on_the_buttons_and_its_lair_played_to_the_end(tmp_path):
    path = tmp_path / "games.db"
    game_id = campaign_before_the_lair(path)
    table = Table(path)
    try:
        table.read()  # a stored game, resumed
        assert table.session.id == game_id and table.screen.key == "Set up"
        # The Monstrosity's card, entered: health 12, one sequence (Melee), the Orc as its
        # mercenary, two Orcs as minions.
        table.press(OK)
        table.pick("Choose the Lord")
        assert table.screen.title == "Monstrosity: health?" and table.screen.number == 8
        table.number(12)
        table.pick("Melee")
        table.press(NEXT)  # no modifier
        table.pick("Sequence done")
        table.pick("No more")
        pick_grouped(table, "Orc")  # the mercenary
        table.pick("None")  # no second one
        pick_grouped(table, "Orc")  # a minion entry
        table.number(2)
        table.pick("Done")
        steps = table.read()
        assert [s.key for s in steps if s.key] == ["Orc"]  # the mercenary for the game
        adventure = table.session.state.adventure
        assert adventure.lord == "monstrosity" and adventure.mercenary == "Orc"
        assert adventure.entered_lords["monstrosity"]["verified"] is False

        # The Lair: the stage, then the Lord's room (its playmat asked: the card shows it).
        table.press(OK)
        table.pick("Next stage")
        if table.screen.title.startswith("Skip"):  # the stage's room not played: sure?
            table.pick("Yes")
        table.read()
        table.press(OK)
        table.pick("The Lord's room")
        lord_steps = [s for s in table.shown if s.key == "Monstrosity"]
        answer_rules(table)
        while table.gadget.app is not None and table.gadget.app.reading:
            table.press(OK)  # the placement, one piece a screen
        state = table.session.state
        assert state.adventure.room == "lord"
        assert sorted(p.name for p in state.pieces.values()) == ["Monstrosity", "Orc", "Orc"]
        lord_steps = [s for s in table.shown[len(lord_steps):] if "Monstrosity" in s.key]
        assert lord_steps and lord_steps[0].mark == "!"  # an entered card: unverified

        # A round of the AI, then the heroes destroy every piece: the Lair is won.
        for _ in range(3):
            table.press(NEXT)
            answer_rules(table)
        while any(p.alive for p in table.session.state.pieces.values()):
            piece = next(p for p in table.session.state.pieces.values() if p.alive)
            table.press(OK)
            table.pick("Hit an AI piece")
            if table.screen.number is None:  # asked only when there is a choice
                pick_grouped(table, flow.labels(table.session.state)[piece.id])
            table.number(piece.health)
            table.pick("Elf")
            table.read()
        assert table.screen.key == "Room won"
        table.press(OK)
        table.pick("Room rewards")
        answer_rules(table)

        # The campaign's last stage (Althea the Healer), then the end of the game.
        table.press(OK)
        table.pick("Next stage")
        if table.screen.title.startswith("Skip"):  # the stage's room not played: sure?
            table.pick("Yes")
        table.read()
        assert table.session.state.adventure.stage == 10
        table.press(OK)
        table.pick("End the game")
        table.pick("Yes")  # asked to be sure
        table.read()
        assert table.session.finished and table.screen.key == "Game over"
        assert table.session.state.adventure.over.startswith("the game is over")
    finally:
        table.close()
