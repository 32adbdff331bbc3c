"""The battle as the AI player's rules see it: the party, the AI pieces, the tiles, the bags.

Plain mutable values. The rules procedures change them; the session refolds them from the log.
Positions on the playmat are not modelled: what depends on them is asked of the table.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from overseer.core.procedure import Ref, Token
from overseer.rules.catacombs.adventure import Adventure
from overseer.rules.catacombs.carddata import CatacombsData

# The kinds of member of the Heroic Forces (Red Box: AI Player Behaviour, step 3).
ENEMY_KINDS = ("hero", "familiar", "ally", "mount", "assistant")


# The shot vocabulary of the AI rules, in one place. A card or scenario piece naming a shot or a
# modifier outside these sets is refused when it is read (``Shot.parse``).
# Character shots that inflict damage: reposition as a rush, then the Attack template (Red Box:
# AI Player Behaviour, step 5; the sword: New Character Shots).
CHARACTER_DAMAGE = frozenset({"melee", "bite", "roll", "devour", "sword", "crush", "claw"})
# Ranged shots (Red Box: step 5, New Ranged Shots; Ice Box: Ranged Shots).
RANGED = frozenset({
    "missile", "fireball", "giant_fireball", "boulder", "ice", "ice_boulder", "lightning",
    "dagger", "boomerang", "scorched_earth", "portal_trap", "vortex", "web", "stone_trap",
    "hook", "heal", "summon_antient",
})
# Shots that move or bring in characters (Red Box: step 5; New Character Shots; Clock Template).
MOVES = frozenset({"rush", "open_portal", "move_to_rune", "runic_shift", "teleport", "summon",
                   "repeat"})
# Shots on the fan cards the AI rules do not describe: named for the table to perform by hand.
BY_HAND = frozenset({"shield", "see_card", "target"})
SHOT_KINDS = CHARACTER_DAMAGE | RANGED | MOVES | BY_HAND

# Modifiers the rules apply: poison, capture coin (Red Box: New Capture Coin Modifier), stun,
# death card (Ice Box: Death Cards), reckless (Ice Box: Reckless Shot Modifier) on the hero hit;
# critical picks the damage token level; chain is ignored by the AI; target picks a ranged
# shot's target (a melee one is ignored); fear moves the character hit (Clock Template).
APPLIED_MODIFIERS = frozenset({"poison", "capture_coin", "stun", "death_card", "reckless",
                               "critical", "chain", "target", "fear"})
# Modifiers on the fan cards the AI rules do not describe: an instruction for the table.
BY_HAND_MODIFIERS = frozenset({"regeneration", "petrify", "corrosion", "transform"})
MODIFIERS = APPLIED_MODIFIERS | BY_HAND_MODIFIERS
# Modifiers that may carry a number, as the fan data writes ``Poison (2)``.
COUNTED_MODIFIERS = frozenset({"poison"})

_COUNT = re.compile(r"^(.*?)\s*\(\s*(\d+)\s*\)$")


@dataclass(frozen=True, slots=True)
class Shot:
    """One shot icon of a sequence: ``melee``, ``missile``, ``summon`` ...; modifiers such as
    ``poison``, ``critical``, ``capture_coin``, ``death_card``; ``summons`` names the monster a
    summon shot brings in; ``amounts`` holds a modifier's number (``Poison (2)``); ``must`` is
    the condition (Ice Box: Conditional Shot Operators) this shot must meet before the next one
    is attempted: ``damage`` or ``hit``."""

    kind: str
    modifiers: tuple[str, ...] = ()
    summons: str | None = None
    amounts: tuple[tuple[str, int], ...] = ()
    must: str | None = None
    label: str = field(init=False, compare=False, repr=False)  # as the trace names it: made once

    @classmethod
    def parse(cls, text: str) -> Shot:
        """``"Melee"``, ``"Melee+Poison"``, ``"Melee+Poison (2)"``, ``"Missile+Target"``,
        ``"Summon:Fire Spirit"``. A name the rules do not know raises ValueError."""
        if not isinstance(text, str):
            raise ValueError(f"a shot is written as text, such as 'Melee+Poison' (got {text!r})")
        if text.lower().startswith("summon:"):
            name = text.split(":", 1)[1].strip()
            if not name:
                raise ValueError(f"{text!r}: a summon shot names its monster ('Summon:Orc')")
            return cls("summon", (), name)
        kind_text, *mod_texts = (part.strip() for part in text.split("+"))
        kind = _norm(kind_text)
        if kind not in SHOT_KINDS:
            raise ValueError(_unknown("shot", kind_text, kind, SHOT_KINDS, text))
        if kind == "summon":
            raise ValueError(f"{text!r}: a summon shot names its monster ('Summon:Orc')")
        mods = [_modifier(m, text) for m in mod_texts]
        return cls(kind, tuple(m for m, _ in mods), None,
                   tuple((m, n) for m, n in mods if n is not None))

    def __post_init__(self) -> None:
        if self.summons:
            text = f"summon {self.summons}"
        else:
            counts = dict(self.amounts)
            text = " + ".join(
                w.replace("_", " ") + (f" ({counts[w]})" if w in counts else "")
                for w in (self.kind, *self.modifiers))
        object.__setattr__(self, "label", text)

    def amount(self, modifier: str) -> int:
        """The number a modifier carries: 1 unless the card writes one (``Poison (2)``)."""
        return dict(self.amounts).get(modifier, 1)


# Connectors between shots. The AI reads Elastic as Then (Red Box: AI Player Behaviour, step 5).
CONNECTORS = frozenset({"then", "elastic"})
# Condition words after a shot (Ice Box: Conditional Shot Operators): the burst, the shot must
# inflict damage; the outlined burst, it must hit an opposing character.
CONDITIONS = {"if_damage": "damage", "if_hit": "hit"}


def parse_sequence(texts: list[str]) -> list[Shot]:
    """A card's shot sequence, connectors dropped: ``["Rush", "Elastic", "Missile"]``; a
    condition word marks the shot before it: ``["Melee", "If Damage", "Rush"]``. A shot or
    modifier the rules do not know, or a condition with no shot before it or none after it,
    raises ``ValueError`` naming it."""
    if not isinstance(texts, list):
        raise ValueError(f"a shot sequence is a list of shots (got {texts!r})")
    shots: list[Shot] = []
    for text in texts:
        word = _norm(text) if isinstance(text, str) else ""
        if word in CONNECTORS:
            continue
        if word in CONDITIONS:
            if not shots or shots[-1].must:
                raise ValueError(f"{text!r} must follow a shot (one condition a shot)")
            shots[-1] = replace(shots[-1], must=CONDITIONS[word])
            continue
        shots.append(Shot.parse(text))
    if shots and shots[-1].must:
        raise ValueError(f"the condition on {shots[-1].label!r} needs a shot after it")
    return shots


def _norm(word: str) -> str:
    return word.strip().lower().replace(" ", "_").replace("-", "_")


def _modifier(written: str, text: str) -> tuple[str, int | None]:
    """One modifier of ``text``, and the number it carries if the card writes one."""
    counted = _COUNT.match(written)
    mod = _norm(counted.group(1) if counted else written)
    if mod not in MODIFIERS:
        raise ValueError(_unknown("modifier", written, mod, MODIFIERS, text))
    if counted is None:
        return mod, None
    if mod not in COUNTED_MODIFIERS:
        raise ValueError(f"{text!r}: the {mod.replace('_', ' ')} modifier takes no number "
                         f"(only {', '.join(sorted(COUNTED_MODIFIERS))})")
    number = int(counted.group(2))
    if number < 1:
        raise ValueError(f"{text!r}: a modifier's number is at least 1")
    return mod, number


def _unknown(what: str, written: str, name: str, known: frozenset[str], text: str) -> str:
    """The refusal of an unknown name, with the closest known one (or all of them)."""
    close = difflib.get_close_matches(name, sorted(known), n=1)
    hint = (f"did you mean {close[0].replace('_', ' ')!r}?" if close else
            "known: " + ", ".join(sorted(k.replace("_", " ") for k in known)))
    return f"{text!r}: {written!r} is not a {what} the AI rules know ({hint})"


def _refs(one: Hero | Piece) -> None:
    """Set ``one``'s facts of the rules' sentences: ``ref`` by its name, as the table names it
    (a piece of several of one monster by its letter, "Orc A"), ``ref_id`` with its id ("Orc
    (orc-1)"). Made once, when it is made, as its id and name are kept (a step reads them at
    every hit; a change of name is a new value, ``dataclasses.replace``)."""
    one.ref = (one.id, one.name)
    one.ref_id = (one.id, f"{one.name} ({one.id})")


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
    start_health: int = 0  # its starting health (poison kills at it: Catacombs 3E)
    owner: str | None = None  # the hero a familiar, ally or mount belongs to
    # As a fact of the rules' sentences, by its name and with its id (``_refs``): made once.
    ref: Ref = field(init=False, compare=False, repr=False)
    ref_id: Ref = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.start_health:
            self.start_health = self.health
        _refs(self)

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
    # As a fact of the rules' sentences, by its name and with its id (``_refs``): made once.
    ref: Ref = field(init=False, compare=False, repr=False)
    ref_id: Ref = field(init=False, compare=False, repr=False)
    # A repeat shot is in one of its sequences (Advanced Target Selection, 2, asks at every
    # activation): made once, as its sequences are kept (a new value: ``dataclasses.replace``).
    repeats: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        _refs(self)
        self.repeats = any(shot.kind == "repeat" for sequence in self.sequences
                           for shot in sequence)

    @property
    def invulnerable(self) -> bool:
        """Takes no damage: an Antient, a Mount (Ice Box: Mounts), a white Yilleph (Red Box:
        Special Heroes)."""
        return self.is_antient or self.mount or self.yilleph == "white"

    @property
    def alive(self) -> bool:
        return self.health > 0

    @property
    def holds_room(self) -> bool:
        """Keeps the room from being complete: a monster or the Catacomb Lord on the playmat,
        not frozen (a frozen Lord still holds it). An Antient stays only for the rest of the
        room and a Mount cannot be destroyed: neither holds it (Catacombs 3E: Battle Phase;
        Antients)."""
        return self.health > 0 and self.type != "antient" and not self.mount and (
            not self.frozen or self.type == "lord")

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
    data: CatacombsData  # the cards and tables, loaded once by whoever built the battle
    options: Options = field(default_factory=Options)
    damage: dict[int, Bag] = field(default_factory=dict)  # damage token bags by level
    poison_deck: list[int] = field(default_factory=list)
    wyverns: list[str] = field(default_factory=list)  # wild wyverns on the playmat
    antients: dict[str, Piece] = field(default_factory=dict)  # unused Antients, off the playmat
    round: int = 1
    acted: list[str] = field(default_factory=list)  # pieces that acted this round
    adventure: Adventure = field(default_factory=Adventure)  # beyond one battle: setup, campaign
    # The pieces the setup placed that stand where it placed them: none has acted since (a
    # piece that acts may move; Overseer's ruling, order.may_come_first). Not in ``as_dict``:
    # it follows from the log as the rest does.
    unmoved: list[str] = field(default_factory=list)

    def enemies(self) -> list[Hero]:
        """The Heroic Forces on the playmat (alive, not away)."""
        enemies: list[Hero] = []
        for hero in self.heroes.values():  # a loop, not a list comprehension (a function made
            # and called): this runs at every activation
            if hero.health > 0 and hero.away is None:  # alive
                enemies.append(hero)
        return enemies

    def suppressed_shots(self) -> list[str]:
        """Shots the heroes may not use now: the room's, and those of every suppressing
        monster still alive (Ice Box: Monster Suppression)."""
        shots = list(self.adventure.room_suppresses)
        for piece_id, listed in self.adventure.suppression.items():
            piece = self.pieces.get(piece_id)
            if piece is not None and piece.alive:
                shots.extend(s for s in listed if s not in shots)
        return shots

    def table_dict(self) -> dict[str, Any]:
        """The pieces as laid: the playmat, the orders, the Hero Target and order tiles."""
        return {"playmat": self.options.playmat,
                "character_order": list(self.character_order),
                "monster_order": list(self.monster_order),
                "direction": list(self.direction),
                "target_tiles": {h.id: h.target_tile for h in self.heroes.values()
                                 if h.target_tile is not None},
                "pieces": {p.id: p.order_tile for p in self.pieces.values()}}

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "acted": list(self.acted),
            "heroes": {
                h.id: {"health": h.health, "gold": h.gold, "poison": list(h.poison),
                       "items": list(h.items), "frozen": h.frozen, "reckless": h.reckless,
                       "stunned": h.stunned, "riding": h.riding, "away": h.away,
                       "alive": h.alive, **({"owner": h.owner} if h.owner else {})}
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
            "adventure": self.adventure.as_dict(self.table_dict(), self.suppressed_shots()),
        }


def ids_of(ones: list[Hero]) -> list[str]:
    """The ids of ``ones``, in order. A loop, not a list comprehension (a function made and
    called each time): the targeting makes these at every activation."""
    ids: list[str] = []
    for one in ones:
        ids.append(one.id)
    return ids


def heroes_of(battle: Battle, ids: Sequence[str]) -> list[Hero]:
    """The heroes of ``ids``, in order: a loop, as ``ids_of``."""
    heroes = battle.heroes
    found: list[Hero] = []
    for hero_id in ids:
        found.append(heroes[hero_id])
    return found


def hero_ids(battle: Battle) -> list[str]:
    """The heroes (not their familiars, allies, mounts or assistants)."""
    return [h.id for h in battle.heroes.values() if h.kind == "hero"]


def living_hero_ids(battle: Battle) -> list[str]:
    return [h.id for h in battle.heroes.values() if h.kind == "hero" and h.alive]


def played(battle: Battle) -> bool:
    """A room is set up, or was: its pieces are on the playmat (a scenario may start in a
    battle), or a Room card was set up."""
    return bool(battle.pieces) or battle.adventure.room is not None


def room_holders(battle: Battle) -> list[str]:
    """The AI pieces that keep the room from being complete (``Piece.holds_room``)."""
    return [p.id for p in battle.pieces.values() if p.holds_room]


def alive_piece_ids(battle: Battle) -> list[str]:
    """The AI pieces on the playmat."""
    return [p.id for p in battle.pieces.values() if p.alive]
