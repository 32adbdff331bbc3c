"""What a game's screens add to the generic ones (screens/pages.py): the screens facet of its
record (``GameSpec.screens``), made by the game's screens module (``SCREENS`` in
screens/catacombs.py, ...).

- ``face(step, name)``: a step's key word over its sentence (None: its kind over it);
- ``short``: the questions' short forms for the title bar, by key;
- ``question_title(key, piece, target)``: a question's title naming the piece acting or the
  hero aimed at, when it fits (None: the short form);
- ``reel``: the pages of new steps when the game groups them (``pages.reel_pages``'
  arguments and result; Catacombs: who acts, the move and shot, the result, a page); None: a
  step a page;
- ``asks_inline``: its questions carry their prompt on their own screen (no page before it);
- ``all_likely``: the question keys whose likely answer is every row ticked;
- ``untitled``: step kinds whose face never sets a title (``pages.title_before`` passes
  over them without making their faces).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from overseer import games
from overseer.core.procedure import Step
from overseer.screens.render import Face

Namer = Callable[[str], str]


def _no_face(step: Step, name: Namer) -> Face | None:
    return None


def _no_title(key: str, piece: str | None, target: str | None) -> str | None:
    return None


@dataclass(frozen=True)
class Screens:
    face: Callable[[Step, Namer], Face | None] = _no_face
    short: Mapping[str, str] = field(default_factory=dict)
    question_title: Callable[[str, str | None, str | None], str | None] = _no_title
    reel: Callable[..., Any] | None = None
    asks_inline: bool = False
    all_likely: frozenset[str] = frozenset()
    untitled: frozenset[str] = frozenset()


PLAIN = Screens()  # a game without screens of its own: every step keyed by its kind


def of(game: str) -> Screens:
    """The screens facet of a registered game (the plain one for a name no game has: a new
    game's questions are asked before there is one)."""
    spec = games.GAMES.get(game)
    facet = None if spec is None else spec.screens
    return facet if isinstance(facet, Screens) else PLAIN


def every() -> list[Screens]:
    """Every registered game's facet, in the registry's order."""
    return [of(game) for game in games.GAMES]
