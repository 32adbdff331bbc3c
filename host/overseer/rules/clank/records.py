"""The Clank! data as one value: the safe tiles, the lost chambers and lairs with their cube
spaces, the monster tokens, the TROPHY cards the book names and the look-up topics.

Loaded and validated once, outside the rules (``overseer.loaders.clank.load``), and carried by the
state (``ClankState.data``): the rules read it, never a file. The value is shared by every game
built from it (a copy of a game shares it too), so nothing changes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Room kinds, and where a player stands to place a cube in a room's spaces.
LOST_CHAMBER = "lost_chamber"
LAIR = "lair"
ROOM_KINDS = (LOST_CHAMBER, LAIR)
CUBES_FROM = ("room", "wayside_shrine", "none")

# The rooms and monsters the rules name (their records are data; what they do is the rules').
AEGIS_SHRINE = "aegis-shrine"
SPIRIT_ALTAR = "spirit-altar"
MAD_BAZAAR = "mad-bazaar"
TEMPLE_OF_GOLD = "temple-of-gold"
UMBROKA_VESSNA = "umbroka-vessna"
LIVING_STATUE_LAIR = "living-statue-lair"
MEDUSAS_LAIR = "medusas-lair"
SPHINXS_LAIR = "sphinxs-lair"
ROOMS = (AEGIS_SHRINE, SPIRIT_ALTAR, MAD_BAZAAR, TEMPLE_OF_GOLD, UMBROKA_VESSNA,
         LIVING_STATUE_LAIR, MEDUSAS_LAIR, SPHINXS_LAIR)
LIVING_STATUE = "living-statue"
MEDUSA = "medusa"
SPHINX = "sphinx"
MONSTERS = (LIVING_STATUE, MEDUSA, SPHINX)

# The parts a Temple of Gold reward may have (Lost Chambers, Temple of Gold), as the table reads
# them; each part may be refused.
REWARD_PARTS = {
    "heal-1": "restore 1 health",
    "heal-2": "restore 2 health",
    "lockpick": "take a lockpick token from the treasury",
    "big-secret": "take a random big secret from the treasury",
    "artifact": "take an artifact from any room of the dungeon",
}


@dataclass(frozen=True, slots=True)
class SafeTile:
    id: str
    name: str
    set: str  # "base" or "expansion"
    find: str  # how the table picks it out face up
    verified: bool
    source: str


@dataclass(frozen=True, slots=True)
class Room:
    """A lost chamber or a lair: a unique room on one of the new tiles."""

    id: str
    name: str
    kind: str  # LOST_CHAMBER or LAIR
    cubes_from: str  # one of CUBES_FROM
    section: str  # the rulebook section its rules come from
    rules: tuple[str, ...]  # the look-up text
    verified: bool
    source: str


@dataclass(frozen=True, slots=True)
class Space:
    """One cube space of a lost chamber: a Temple column, a Bazaar stall, the altar ..."""

    id: str
    room: str
    name: str
    offering: int | None  # the Temple of Gold: the gold given there
    reward: tuple[str, ...]  # the Temple of Gold: the parts of the reward (REWARD_PARTS)
    effect: tuple[str, ...]  # a Mad Bazaar stall: its wonder
    verified: bool
    source: str


@dataclass(frozen=True, slots=True)
class Monster:
    """A kind of monster token: its lair, its fight and its card's effects."""

    id: str
    name: str
    tokens: int
    lair: str
    swords: int
    skills: int | None  # another way to beat it (the Sphinx's riddle)
    secret_tome: bool  # a Secret Tome must be played this turn to fight it
    defeat: str
    trophy: str
    vp: int
    ignores_tunnel_monsters: bool
    section: str
    verified: bool
    source: str

    def token_ids(self) -> tuple[str, ...]:
        """The ids of its tokens: ``medusa``; ``living-statue-1`` .. ``-3`` for several."""
        if self.tokens == 1:
            return (self.id,)
        return tuple(f"{self.id}-{n}" for n in range(1, self.tokens + 1))


@dataclass(frozen=True, slots=True)
class Card:
    """A dungeon card with a TROPHY effect."""

    id: str
    name: str
    kind: str  # "monster" (defeated) or "device" (used)
    swords: int | None
    defeat: str | None  # a monster's DEFEAT effect, when printed
    trophy: str
    vp: int | None  # fixed victory points; None with vp_per_gold, or not printed
    vp_per_gold: int | None  # one victory point for every that many gold at the end
    section: str
    verified: bool
    source: str


@dataclass(frozen=True, slots=True)
class Topic:
    """A look-up that is not a room: a tile feature or a rule of the expansion."""

    id: str
    name: str
    section: str
    rules: tuple[str, ...]
    verified: bool
    source: str


@dataclass(frozen=True, eq=False)
class ClankData:
    """Everything data/clank/ holds, checked. Compared and hashed by identity."""

    safe_tiles: dict[str, SafeTile]
    rooms: dict[str, Room]
    spaces: dict[str, Space]
    monsters: dict[str, Monster]
    cards: dict[str, Card]
    topics: dict[str, Topic]

    def __copy__(self) -> ClankData:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ClankData:
        return self  # shared, never changed: a copied game reads the same data

    def base_safe_tiles(self) -> list[SafeTile]:
        return [t for t in self.safe_tiles.values() if t.set == "base"]

    def new_safe_tiles(self) -> list[SafeTile]:
        return [t for t in self.safe_tiles.values() if t.set == "expansion"]

    def spaces_of(self, room: str) -> list[Space]:
        return [s for s in self.spaces.values() if s.room == room]

    def token_ids(self) -> list[str]:
        """Every monster token, in file order: what setup puts in the treasury."""
        return [t for m in self.monsters.values() for t in m.token_ids()]

    def monster_of(self, token: str) -> Monster:
        return next(m for m in self.monsters.values() if token in m.token_ids())
