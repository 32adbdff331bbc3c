"""The state of a Clank! game as the helper pack keeps it: what the expansion adds to the base
game and the box needs for its rules.

Each player's place (only what matters here: a lost chamber or lair, a wayside shrine, or
anywhere else), trophies kept, Temple of Gold offering, and whether they must enter the Aegis
Shrine again before placing a new cube there. The dungeon's side: the safe tiles drawn, the
monster tokens in the treasury and in each lair placed, the lost chambers and lairs placed, the
cubes in their spaces, whose turn it is and who fell into a trap pit this turn. The base game's
own books (health, gold, cards, Clank!) stay on the table: the rules ask when they need them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from overseer.core.procedure import RulesError
from overseer.rules.clank.records import ClankData

WAYSIDE_SHRINE = "wayside-shrine"  # any wayside shrine of the dungeon
ELSEWHERE = "elsewhere"  # a room that is neither a lost chamber, a lair nor a wayside shrine
PLACES = {WAYSIDE_SHRINE: "a wayside shrine", ELSEWHERE: "another room"}


@dataclass
class Trophy:
    """A card or monster token face up in a player's personal supply (Trophies)."""

    id: str  # unique in the player's supply: the token id, or the card id (-2, -3 for copies)
    of: str  # the monster kind or the card id
    name: str
    kind: str  # "token" or "card"
    vp: int | None  # fixed victory points; None: by gold (vp_per_gold) or asked at the end
    vp_per_gold: int | None
    effect: str
    verified: bool
    entered: bool = False  # a card the data lacks, entered by the table

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "of": self.of, "name": self.name, "kind": self.kind,
                "vp": self.vp, "vp_per_gold": self.vp_per_gold, "effect": self.effect,
                "verified": self.verified, "entered": self.entered}


@dataclass
class Player:
    id: str
    where: str = ELSEWHERE  # a room id, WAYSIDE_SHRINE or ELSEWHERE
    trophies: list[Trophy] = field(default_factory=list)
    offering: int | None = None  # the gold offered in the Temple of Gold (once)
    aegis_reenter: bool = False  # spent the Aegis cube: enter the shrine again to place one

    def trophy(self, trophy_id: str) -> Trophy:
        return next(t for t in self.trophies if t.id == trophy_id)


@dataclass(frozen=True)
class Options:
    first_game: bool = False  # Setup, Sidebar: new tiles and cards into the top half
    base_safe_tiles: int | None = None  # the base box's safe tiles, when the setup gives them


@dataclass
class ClankState:
    data: ClankData
    options: Options
    players: dict[str, Player]  # in seat order, the first player first
    started: bool = False
    safe_row: int = 0  # safe tiles laid face down in the row the positions are read from
    safe_positions: list[int] = field(default_factory=list)  # drawn, left to right from 1
    safe_new: list[str] = field(default_factory=list)  # first game: the new tiles taken
    base_safe_count: int | None = None
    treasury: list[str] = field(default_factory=list)  # monster tokens
    placed: list[str] = field(default_factory=list)  # lost chambers and lairs, in order
    lairs: dict[str, list[str]] = field(default_factory=dict)  # tokens in each placed lair
    cubes: dict[str, str] = field(default_factory=dict)  # space id -> player id
    turn: int = 0  # index into players
    turn_number: int = 0
    fell: list[str] = field(default_factory=list)  # fell into a trap pit this turn: no boots
    set_aside: list[str] = field(default_factory=list)  # trophies given up ("ann: Sphinx")
    over: dict[str, Any] | None = None  # the trophy tally, once the game is over

    # ----------------------------------------------------------------- reading

    @property
    def playing(self) -> bool:
        return self.started and self.over is None

    def turn_player(self) -> str | None:
        return list(self.players)[self.turn] if self.playing else None

    def room_name(self, room: str) -> str:
        return PLACES[room] if room in PLACES else self.data.rooms[room].name

    def cubes_of(self, player: str) -> list[str]:
        return [s for s, p in self.cubes.items() if p == player]

    def free_spaces(self) -> list[str]:
        """The empty spaces of the lost chambers placed."""
        return [s.id for r in self.placed for s in self.data.spaces_of(r) if s.id not in self.cubes]

    def lair_tokens(self) -> list[str]:
        """The monster kinds with a token in a placed lair."""
        kinds = {self.data.monster_of(t).id for tokens in self.lairs.values() for t in tokens}
        return [m for m in self.data.monsters if m in kinds]

    def ignores_tunnel_monsters(self, player: str) -> bool:
        """Lairs, Medusa's Lair: while Medusa is one's trophy, tunnel monsters are ignored."""
        return any(t.kind == "token" and self.data.monsters[t.of].ignores_tunnel_monsters
                   for t in self.players[player].trophies)

    # ----------------------------------------------------------------- checks

    def check_turn(self, player: str) -> None:
        """``player`` is a player, and it is their turn. Reads only."""
        if not self.started:
            raise RulesError('the game is not set up yet: the first action is {"do": "setup"}')
        if self.over is not None:
            raise RulesError("the game is over")
        if player not in self.players:
            raise RulesError(f"'player' must be one of {', '.join(self.players)} "
                             f"(got {player!r})")
        if player != self.turn_player():
            raise RulesError(f"it is {self.turn_player()}'s turn, not {player}'s")


def state_dict(state: ClankState) -> dict[str, Any]:
    """The state as JSON-able data (what the screens and scenario checks read)."""
    player = state.turn_player()
    return {
        "options": {"first_game": state.options.first_game,
                    "base_safe_tiles": state.options.base_safe_tiles},
        "started": state.started,
        "turn": None if player is None else {"number": state.turn_number, "player": player},
        "players": {p.id: {"where": p.where, "trophies": [t.as_dict() for t in p.trophies],
                           "offering": p.offering, "cubes": state.cubes_of(p.id),
                           "aegis_reenter": p.aegis_reenter,
                           "no_boots": p.id in state.fell,
                           "ignores_tunnel_monsters": state.ignores_tunnel_monsters(p.id)}
                    for p in state.players.values()},
        "safe_tiles": {"base": state.base_safe_count, "row": state.safe_row,
                       "positions": list(state.safe_positions), "new": list(state.safe_new)},
        "treasury": list(state.treasury),
        "placed": list(state.placed),
        "lairs": {r: list(t) for r, t in state.lairs.items()},
        "cubes": dict(state.cubes),
        "set_aside": list(state.set_aside),
        "over": state.over,
    }


def names(state: ClankState) -> dict[str, str]:
    """Id -> display name, for screens and menus."""
    data = state.data
    out = dict(PLACES)
    out.update((p, p) for p in state.players)
    out.update((r.id, r.name) for r in data.rooms.values())
    out.update((s.id, s.name) for s in data.spaces.values())
    for monster in data.monsters.values():
        out[monster.id] = monster.name
        ids = monster.token_ids()
        out.update((t, f"{monster.name} {n}" if len(ids) > 1 else monster.name)
                   for n, t in enumerate(ids, 1))
    out.update((c.id, c.name) for c in data.cards.values())
    out.update((t.id, t.name) for t in data.topics.values())
    for p in state.players.values():  # cards entered by the table
        out.update((t.id, t.name) for t in p.trophies if t.id not in out)
    return out


def result(state: ClankState) -> str | None:
    if state.over is None:
        return None
    totals = ", ".join(f"{p} {v}" for p, v in state.over["totals"].items())
    return f"trophy victory points: {totals} (add them to each player's base game score)"


def on_turn(state: ClankState) -> list[str]:
    """The player whose turn it is, as a parameter's options (none before the setup)."""
    player = state.turn_player()
    return [] if player is None else [player]
