"""What the web page's story shows of a game (web/story.py draws it): the rounds, each hero's
health and gold at the end of every round, the AI pieces each hero destroyed, the damage each
took, how it ended. A game's table tells it (``Table.story``); a game without one has none."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Story:
    rounds: int = 0
    heroes: dict[str, str] = field(default_factory=dict)  # id -> name
    health: dict[str, list[int]] = field(default_factory=dict)  # by round, from round 1
    gold: dict[str, list[int]] = field(default_factory=dict)
    kills: dict[str, int] = field(default_factory=dict)
    damage: dict[str, int] = field(default_factory=dict)
    over: str | None = None
