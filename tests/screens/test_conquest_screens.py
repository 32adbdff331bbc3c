"""Conquest on the glass: the key words of the steps the table must not miss, and the end of
the game as the table reads it (who won, why, the tie break)."""

from __future__ import annotations

from overseer.core.procedure import Step
from overseer.rules.conquest.end import result
from overseer.rules.conquest.kinds import StepKind
from overseer.rules.conquest.state import Over
from overseer.screens import conquest


def key(kind: str, **data: object) -> str:
    face = conquest.face(Step(kind, "rule", "text", dict(data)), lambda i: i.capitalize())
    assert face is not None
    return face.key


def test_a_draw_from_an_empty_deck_is_said() -> None:
    assert key(StepKind.DRAW, player="p1", card=None, deck=0) == "Deck empty"
    assert key(StepKind.DRAW, player="p1", card=None, deck=3, counted=True) == "A card drawn"
    # the card drawn went into a hand: never named on the glass
    assert key(StepKind.DRAW, player="p1", card="salavi", deck=3) == "A card drawn"


def test_health_shots_and_the_turn() -> None:
    assert key(StepKind.HEALTH, team="sword", lost=1, captured=1) == "Sword -1 capt."
    assert key(StepKind.HEALTH, team="skull", healed=2) == "Skull +2"
    assert key(StepKind.SHOT, shot="target_fireball", hits=[]) == "Target Fireball: miss"
    assert key(StepKind.SHOT, shot="critical_melee", hits=["sword1"], damage=2) == \
        "Critical Melee: 2 dmg"
    face = conquest.face(Step(StepKind.TURN, "r", "t", {"number": 3, "player": "p3",
                                                        "disc": "sword2"}), str.upper)
    assert face is not None and (face.key, face.title) == ("P3", "Turn 3: SWORD2")


class _State:
    def __init__(self, over: Over | None) -> None:
        self.over = over


def test_the_end_says_the_winner_why_and_the_tie_break() -> None:
    assert result(_State(None)) is None  # type: ignore[arg-type]
    won = Over("pool_empty", "skull", {"sword": 0, "skull": 6}, {"sword": 4, "skull": 5})
    assert result(_State(won)) == \
        "Skull Team wins: a team has lost all its Health Tokens."  # type: ignore[arg-type]
    tie = Over("bank_empty", "sword", {"sword": 12, "skull": 12}, {"sword": 4, "skull": 3})
    assert result(_State(tie)) == ("Sword Team wins, the tie on tokens broken by cards in "
                                   "hand: the Health Bank is used up.")  # type: ignore[arg-type]
    draw = Over("cannot_play", None, {"sword": 3, "skull": 3}, {"sword": 0, "skull": 0})
    assert result(_State(draw)) == ("A draw, tied on tokens and cards in hand: a player "
                                    "cannot play a card from their hand.")  # type: ignore
