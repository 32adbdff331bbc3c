"""A scripted table for the session tests, the crash loop and the benchmark: it plays real
games through a ``Session`` with choices drawn from its own seeded ``random.Random``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from overseer.core.procedure import (
    ChooseOne,
    ChooseSome,
    DrawToken,
    EnterNumber,
    Question,
    Roll,
    RulesError,
    Token,
    YesNo,
)
from overseer.session.session import Session

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
NOT_SETUP = ("format", "dice", "tokens", "picks", "answers", "actions", "expect", "expect_state",
             "strict", "title", "description")


def setup_of(name: str) -> tuple[str, dict[str, Any]]:
    """(game type, setup) from a scenario file, e.g. ``catacombs/shot_choice``: the file without
    its script and expectations (format 1 shaped, as games were stored before format 2), or
    for a format 2 file its setup part."""
    scenario = json.loads((SCENARIOS / f"{name}.json").read_text())
    if scenario["format"] == 2:
        return scenario["game"], {k: scenario[k] for k in ("format", "game", "setup")}
    return scenario["game"], {k: v for k, v in scenario.items() if k not in NOT_SETUP}


def answer_for(question: Question, rng: random.Random) -> Any:
    if isinstance(question, ChooseOne):
        return rng.choice(question.options)
    if isinstance(question, ChooseSome):
        return [o for o in question.options if rng.random() < 0.5]
    if isinstance(question, YesNo):
        return rng.random() < 0.5
    if isinstance(question, EnterNumber):
        return rng.randint(question.low, min(question.high, question.low + 4))
    if isinstance(question, Roll):
        return rng.randint(1, question.faces)
    if isinstance(question, DrawToken):
        return Token(rng.randint(0, 3), rng.random() < 0.1)
    raise AssertionError(f"no scripted answer for {question!r}")


def actions_for(session: Session, rng: random.Random) -> list[dict[str, Any]]:
    """The actions to try next, in order, when no question is waiting."""
    if session.game == "catacombs":
        return [{"do": "next_ai_piece"}]
    state = session.state
    if not state.started:
        return [{"do": "start"}]
    player = state.acting_player()
    cards = list(state.hands[player])
    rng.shuffle(cards)
    return [{"do": "play", "player": player, "card": card} for card in cards]


def step(session: Session, rng: random.Random) -> str:
    """One player input; returns what it was. A game that ended is undone a step, to play on."""
    if session.finished:
        session.undo()
        return "undo"
    if session.pending is not None:
        session.answer(answer_for(session.pending, rng))
        return "answer"
    for action in actions_for(session, rng):
        try:
            session.begin(action)
            return "action"
        except RulesError:
            continue
    raise AssertionError(f"no action the rules accept in game #{session.id}")
