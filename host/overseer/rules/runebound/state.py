"""The state of a Runebound: The Cataclysm game: what the box keeps for the table.

The heroes (the town or terrain each stands on, their quest counter, the Curse cards they
claimed and the towns they freed), the towns (the cataclysm counter dealt, destroyed, cursed
or freed, the Curse deck on the market stack and the revealed quests), whose turn it is and at
which step, the cards returned to the box, and how the game ended. Positions on the map are
not modelled: a hero is in a town, or on a space of some terrain.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from overseer.rules.runebound.components import ROMAN, RuneboundData

# The phases of a game, in order.
SETUP = "setup"  # before the start action
PLACEMENT = "placement"  # Setup, step 3
QUEST_COUNTERS = "quest_counters"  # Setup, step 5
PLAY = "play"
OVER = "over"

# A town's status.
FACE_DOWN = "face_down"  # its counter dealt, comet up (or none dealt yet)
DESTROYED = "destroyed"
CURSED = "cursed"
FREED = "freed"

# The steps of a hero's turn the rules follow (Gameplay: Step 2, 3, 4).
MOVEMENT = "movement"
ADVENTURE = "adventure"
MARKET = "market"

# Cataclysm: Winning the Game - the victory points a hero needs: 15 minus the players.
VICTORY_BASE = 15


@dataclass(frozen=True)
class Options:
    counters: str = "gadget"  # who deals the cataclysm counters: "gadget" or "table"
    trading_dice: str = "table"  # who rolls the trading pool: "table" or "gadget"


@dataclass
class Hero:
    id: str
    name: str
    town: str | None = None  # the town the figure stands in, None on a space outside towns
    terrain: str | None = None  # the terrain the figure stands on (the town's, in a town)
    quest_counter: str | None = None  # the encounter token taken (Setup, step 5)
    claimed: list[str] = field(default_factory=list)  # Curse cards, in the order claimed
    freed: list[str] = field(default_factory=list)  # towns freed by this hero
    xp: int = 0  # experience the Curse cards gave
    gold: int = 0  # gold the Curse cards gave


@dataclass
class TownState:
    id: str
    counter: str | None = None  # the counter the gadget dealt (hidden until the reveal)
    status: str = FACE_DOWN
    curse: str | None = None  # the Curse deck on its market stack
    stack: list[str] = field(default_factory=list)  # the Curse cards left, top first
    quests: list[str] = field(default_factory=list)  # revealed Level II cards, face up
    freed_by: str | None = None


@dataclass
class Turn:
    number: int
    hero: str
    step: str = MOVEMENT
    traded: bool = False  # the trading pool was rolled this movement
    attempted: bool = False  # a Curse card was attempted this Adventure step
    marketed: bool = False  # the Market step was taken


@dataclass
class Over:
    reason: str  # "victory" or "no_curses_left"
    winner: str | None
    points: dict[str, int]


@dataclass
class RuneboundState:
    data: RuneboundData
    options: Options
    players: list[str]  # hero ids in seat order: the first player first
    heroes: dict[str, Hero]
    towns: dict[str, TownState]  # in the data's order
    phase: str = SETUP
    turn: Turn | None = None
    returned: list[str] = field(default_factory=list)  # Curse cards returned to the box
    over: Over | None = None

    # ----------------------------------------------------------------- reading

    def threshold(self) -> int:
        return VICTORY_BASE - len(self.players)

    def points(self, hero: str) -> int:
        """Cataclysm: Winning the Game - each claimed Curse card is worth its level."""
        return sum(self.data.cards[c].level for c in self.heroes[hero].claimed)

    def figures(self, town: str) -> list[str]:
        return [h.id for h in self.heroes.values() if h.town == town]

    def towns_with(self, status: str) -> list[str]:
        return [t.id for t in self.towns.values() if t.status == status]

    def placing_order(self) -> list[str]:
        """Cataclysm: Setup, step 3 - from the last player to the first."""
        return list(reversed(self.players))

    def next_to_place(self) -> str | None:
        return next((h for h in self.placing_order() if self.heroes[h].town is None), None)

    def current(self) -> str | None:
        return None if self.turn is None or self.over is not None else self.turn.hero

    def claimed_of(self, hero: str, curse: str, level: int | None = None) -> list[str]:
        """The Curse cards of ``curse`` that ``hero`` has claimed (of one level, if given)."""
        return [c for c in self.heroes[hero].claimed if self.data.cards[c].curse == curse
                and (level is None or self.data.cards[c].level == level)]

    def town_of_curse(self, curse: str) -> str | None:
        return next((t.id for t in self.towns.values() if t.curse == curse), None)

    def place_name(self, hero: Hero) -> str:
        if hero.town is not None:
            return self.data.towns[hero.town].name
        return self.data.terrain[hero.terrain].name if hero.terrain else "no space yet"


def _town_dict(state: RuneboundState, town: TownState) -> dict[str, Any]:
    record = state.data.towns[town.id]
    shown = town.status != FACE_DOWN
    return {
        "name": record.name, "terrain": record.terrain, "status": town.status,
        # a counter the gadget dealt stays hidden until the reveal (Setup, step 4)
        "counter": town.counter if shown else None,
        "curse": town.curse, "stack": list(town.stack),
        "stack_levels": [ROMAN[state.data.cards[c].level] for c in town.stack],
        "quests": list(town.quests), "freed_by": town.freed_by,
        "figures": state.figures(town.id),
    }


def state_dict(state: RuneboundState) -> dict[str, Any]:
    """The state as JSON-able data (what the screens and scenario checks read)."""
    turn = state.turn
    return {
        "options": {"counters": state.options.counters,
                    "trading_dice": state.options.trading_dice},
        "phase": state.phase,
        "players": list(state.players),
        "threshold": state.threshold(),
        "placing": state.next_to_place() if state.phase == PLACEMENT else None,
        "turn": None if turn is None or state.over is not None else {
            "number": turn.number, "hero": turn.hero, "step": turn.step,
            "traded": turn.traded, "attempted": turn.attempted, "marketed": turn.marketed},
        "heroes": {h.id: {"name": h.name, "town": h.town, "terrain": h.terrain,
                          "quest_counter": h.quest_counter, "claimed": list(h.claimed),
                          "points": state.points(h.id), "freed": list(h.freed),
                          "xp": h.xp, "gold": h.gold}
                   for h in state.heroes.values()},
        "towns": {t.id: _town_dict(state, t) for t in state.towns.values()},
        "returned": list(state.returned),
        "over": None if state.over is None else {
            "reason": state.over.reason, "winner": state.over.winner,
            "points": dict(state.over.points)},
    }
