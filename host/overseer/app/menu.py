"""What a game's table offers beside its rules' questions: a menu item, and what a tapped card
begins (``GameView.menu``, ``GameView.tap_actions``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class OpensForm:
    """What a tapped card begins when it gives the first answers of its action's form, by
    question key (a hero card at the idle screen: "Hero changed" with that hero chosen)."""

    action: Mapping[str, Any]
    answered: Mapping[str, Any]
    card: tuple[str, str] | None = None  # the card, tapped on the form's first question


@dataclass(frozen=True)
class MenuItem:
    """One legal action the table may begin from the menu: its label and the action itself
    (``{"do": ...}``, as ``Session.begin`` takes it)."""

    label: str
    action: Mapping[str, Any]
