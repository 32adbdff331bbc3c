"""The battle as the AI player's rules see it: the party, the AI pieces, the tiles, the bags.

Plain mutable values. The rules procedures change them; the session refolds them from the log.
Positions on the playmat are not modelled: what depends on them is asked of the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from overseer.rules.catacombs.adventure import Adventure
from overseer.rules.procedure import Token

if TYPE_CHECKING:
    from overseer.rules.catacombs.tables import Tables

# The kinds of member of the Heroic Forces (Red Box: AI Player Behaviour, step 3).
ENEMY_KINDS = ("hero", "familiar", "ally", "mount", "assistant")


@dataclass(frozen=True, slots=True)
class Shot:
    """One shot icon of a sequence: ``melee``, ``missile``, ``summon`` ...; modifiers such as
    ``poison``, ``critical``, ``capture_coin``, ``death_card``; ``summons`` names the monster a
    summon shot brings in; ``must`` is the condition (Ice Box: Conditional Shot Operators) this
    shot must meet before the next one is attempted: ``damage`` or ``hit``."""

    kind: str
    modifiers: tuple[str, ...] = ()
    summons: str | None = None
    must: str | None = None
    text: str = field(init=False, compare=False, repr=False)  # the label, made once

    @classmethod
    def parse(cls, text: str) -> Shot:
        """``"Melee"``, ``"Melee+Poison"``, ``"Missile+Target"``, ``"Summon:Fire Spirit"``."""
        if text.lower().startswith("summon:"):
            return cls("summon", (), text.split(":", 1)[1].strip())
        kind, *mods = (part.strip() for part in text.split("+"))
        return cls(_norm(kind), tuple(_norm(m) for m in mods))

    def __post_init__(self) -> None:
        if self.summons:
            text = f"summon {self.summons}"
        else:
            text = " + ".join(w.replace("_", " ") for w in (self.kind, *self.modifiers))
        object.__setattr__(self, "text", text)

    def label(self) -> str:
        return self.text


# Connectors between shots. The AI reads Elastic as Then (Red Box: AI Player Behaviour, step 5).
CONNECTORS = frozenset({"then", "elastic"})
# Condition words after a shot (Ice Box: Conditional Shot Operators): the burst, the shot must
# inflict damage; the outlined burst, it must hit an opposing character.
CONDITIONS = {"if_damage": "damage", "if_hit": "hit"}


def parse_sequence(texts: list[str]) -> list[Shot]:
    """A card's shot sequence, connectors dropped: ``["Rush", "Elastic", "Missile"]``; a
    condition word marks the shot before it: ``["Melee", "If Damage", "Rush"]``. A condition
    with no shot before it or none after it raises ``ValueError``."""
    shots: list[Shot] = []
    for text in texts:
        word = _norm(text)
        if word in CONNECTORS:
            continue
        if word in CONDITIONS:
            if not shots or shots[-1].must:
                raise ValueError(f"{text!r} must follow a shot (one condition a shot)")
            shots[-1] = replace(shots[-1], must=CONDITIONS[word])
            continue
        shots.append(Shot.parse(text))
    if shots and shots[-1].must:
        raise ValueError(f"the condition on {shots[-1].label()!r} needs a shot after it")
    return shots


def _norm(word: str) -> str:
    return word.strip().lower().replace(" ", "_").replace("-", "_")


@dataclass(slots=True)
class Hero:
    """A member of the Heroic Forces: a hero, or a familiar, ally, mount or assistant."""

    id: str
    name: str
    kind: str = "hero"
    health: int = 10
    gold: int = 0
    poison: list[int] = field(default_factory=list)  # values of the poison cards held
    items: list[str] = field(default_factory=list)
    target_tile: str | None = None  # the Hero Target tile dealt to this hero
    frozen: bool = False
    reckless: bool = False
    stunned: bool = False
    riding: str | None = None  # the wyvern or mount ridden
    away: str | None = None  # "hidden_cave", "teleported": off the playmat for now

    @property
    def alive(self) -> bool:
        return self.health > 0

    @property
    def poison_total(self) -> int:
        return sum(self.poison)


@dataclass(slots=True)
class Piece:
    """A character under the AI player's control."""

    id: str
    name: str
    type: str  # a row of the behaviour table: brown, blue, ..., lord, antient
    order_tile: str  # its Character Order tile: level-1 .. level-4, antient, lord
    sequences: list[list[Shot]]
    health: int = 1
    reward: int = 0  # gold for the hero who destroys it
    flying: bool = False
    frozen: bool = False  # hit by the heroes' ice shot
    teleported: bool = False  # on the Teleported! card, back on a random rune when it acts
    riding: str | None = None  # the wyvern or mount (a piece id) it rides
    reactive: Shot | None = None  # Ice Box: Reactive Health: the shot it performs when damaged
    mount: bool = False  # a Mount (Ice Box: Mounts): invulnerable, damage passes to its rider
    yilleph: str | None = None  # a Yilleph piece's colour face up: white or black

    @property
    def invulnerable(self) -> bool:
        """Takes no damage: an Antient, a Mount (Ice Box: Mounts), a white Yilleph (Red Box:
        Special Heroes)."""
        return self.is_antient or self.mount or self.yilleph == "white"

    @property
    def alive(self) -> bool:
        return self.health > 0

    @property
    def is_lord(self) -> bool:
        return self.type == "lord"

    @property
    def is_antient(self) -> bool:
        return self.type == "antient"


@dataclass(slots=True)
class Bag:
    """A bag of tokens or a deck of cards drawn blind: what is in it and what was discarded."""

    name: str
    contents: list[Token]
    discards: list[Token] = field(default_factory=list)

    def take(self, token: Token) -> None:
        self.contents.remove(token)
        self.discards.append(token)

    def reshuffle(self) -> None:
        self.contents.extend(self.discards)
        self.discards.clear()


@dataclass(slots=True)
class Options:
    los_blocked: bool = False  # LOS checks blocked by obstacles (Red Box: AI Player Behaviour)
    advanced_targeting: bool = False
    physical_tokens: bool = False  # the table draws real damage tokens and enters the value
    physical_poison: bool = False
    playmat: str = ""  # the playmat in play, for the playmat-specific rules
    stone_traps: bool = False  # the stone trap pieces are on the obstacles (Ice Box)


@dataclass(slots=True)
class Battle:
    heroes: dict[str, Hero]
    pieces: dict[str, Piece]
    character_order: list[str]  # Character Order tile ids, left to right
    monster_order: list[str]  # Monster Order tile ids (family colours), left to right
    direction: list[str]  # the two Direction tiles: first (green), second (blue)
    options: Options = field(default_factory=Options)
    damage: dict[int, Bag] = field(default_factory=dict)  # damage token bags by level
    poison_deck: list[int] = field(default_factory=list)
    wyverns: list[str] = field(default_factory=list)  # wild wyverns on the playmat
    antients: dict[str, Piece] = field(default_factory=dict)  # unused Antients, off the playmat
    round: int = 1
    acted: list[str] = field(default_factory=list)  # pieces that acted this round
    tables: Tables | None = None  # the rules' data, loaded by whoever built the battle
    adventure: Adventure = field(default_factory=Adventure)  # beyond one battle: setup, campaign

    def enemies(self) -> list[Hero]:
        """The Heroic Forces on the playmat (alive, not away)."""
        return [h for h in self.heroes.values() if h.alive and h.away is None]

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "acted": list(self.acted),
            "heroes": {
                h.id: {"health": h.health, "gold": h.gold, "poison": list(h.poison),
                       "items": list(h.items), "frozen": h.frozen, "reckless": h.reckless,
                       "stunned": h.stunned, "riding": h.riding, "away": h.away,
                       "alive": h.alive}
                for h in self.heroes.values()
            },
            "pieces": {
                p.id: {"name": p.name, "type": p.type, "health": p.health, "alive": p.alive,
                       "teleported": p.teleported, "riding": p.riding,
                       **({"yilleph": p.yilleph} if p.yilleph else {})}
                for p in self.pieces.values()
            },
            "antients": sorted(self.antients),
            "wyverns": list(self.wyverns),
            "damage": {str(level): {"left": len(bag.contents), "discards": len(bag.discards)}
                       for level, bag in sorted(self.damage.items())},
            "adventure": self.adventure.as_dict(self),
        }
