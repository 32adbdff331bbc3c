"""Setting up a Clank! game with the expansion (Clank! Lairs and Lost Chambers: Setup).

The setup dict (a scenario's ``"setup"``, or what the session stores)::

    {"players": ["ann", "bo", "cy"],  # 1 to 4, seat order: the first player first
     "first_game": false,             # optional: the Setup sidebar's first-game variant
     "base_safe_tiles": 4}            # optional: how many safe tiles the base box holds

The setup action then draws the safe tiles. The gadget cannot see the tiles' faces and the
players must not, so it draws positions: the table lays the safe tiles face down in a row and
takes the tiles at the positions drawn, counted from the left. In the first-game variant the two
new safe tiles are taken by their watermark and two base tiles are drawn the same way.
"""

from __future__ import annotations

from typing import Any

from overseer.core.procedure import EnterNumber, Pick, Procedure, Step, YesNo
from overseer.core.shapes import check_keys
from overseer.rules.clank import rulebook
from overseer.rules.clank.kinds import Key, StepKind
from overseer.rules.clank.records import ClankData
from overseer.rules.clank.state import ClankState, Options, Player

SETUP_KEYS = ("players", "first_game", "base_safe_tiles")
# Clank! Lairs and Lost Chambers: Components - 50 dungeon cards, 10 depth tiles, 2 safe tiles.
NEW_CARDS = 50
NEW_DEPTH_TILES = 10
NEW_SAFE_TILES = 2
# Setup - 4 safe tiles are used in each game.
SAFE_TILES_USED = 4
# Ruling: the book names no player count; the base game's, 1 to 4, is taken.
MAX_PLAYERS = 4
# A row must hold more than the 4 drawn: at least 2 base tiles beside the 2 new ones (ruling).
MIN_BASE_SAFE = 2
MAX_BASE_SAFE = 20


class SetupError(ValueError):
    """A setup the rules cannot start from; the message says which field and why."""


def build_state(setup: dict[str, Any], data: ClankData) -> ClankState:
    """The state before the setup action: checked, nothing drawn yet. An unknown key raises
    ``BadInput`` with its path."""
    if not isinstance(setup, dict):
        raise SetupError(f"setup must be an object (got {setup!r})")
    check_keys(setup, SETUP_KEYS, "")
    players = setup.get("players")
    if not isinstance(players, list) or not 1 <= len(players) <= MAX_PLAYERS or \
            not all(isinstance(p, str) and p for p in players):
        raise SetupError(f"setup 'players' must list 1 to {MAX_PLAYERS} player names, the "
                         f"first player first (got {players!r})")
    if len(set(players)) != len(players):
        raise SetupError(f"setup 'players': each name once (got {players!r})")
    first_game = setup.get("first_game", False)
    if not isinstance(first_game, bool):
        raise SetupError(f"setup 'first_game' must be true or false (got {first_game!r})")
    base = setup.get("base_safe_tiles")
    if base is not None and (isinstance(base, bool) or not isinstance(base, int)
                             or not MIN_BASE_SAFE <= base <= MAX_BASE_SAFE):
        raise SetupError(f"setup 'base_safe_tiles' must be a whole number {MIN_BASE_SAFE} to "
                         f"{MAX_BASE_SAFE} (got {base!r})")
    return ClankState(data=data, options=Options(first_game=first_game, base_safe_tiles=base),
                      players={p: Player(p) for p in players})


def base_safe_count(state: ClankState) -> Procedure:
    """How many safe tiles the base box holds: the setup's, or the data's confirmed by the
    table, or the table's own (the book does not print it)."""
    if state.options.base_safe_tiles is not None:
        return state.options.base_safe_tiles, "setup"
    known = len(state.data.base_safe_tiles())
    if (yield YesNo(prompt=f"The book does not print the base game's safe tiles; the data "
                           f"counts {known}. Does your base box hold {known} safe tiles?",
                    key=Key.BASE_SAFE_TILES)):
        return known, "confirmed"
    count = yield EnterNumber(prompt="How many safe tiles does your base box hold?",
                              key=Key.BASE_SAFE_COUNT, low=MIN_BASE_SAFE, high=MAX_BASE_SAFE)
    return count, "entered"


def draw_positions(row: int, count: int) -> Procedure:
    """``count`` different positions of a face-down row of ``row`` tiles, drawn blind."""
    left = [str(n) for n in range(1, row + 1)]
    drawn: list[int] = []
    for n in range(1, count + 1):
        pick = yield Pick(pool="face-down safe tiles", purpose=f"safe tile {n} of {count}: a "
                          f"position in the row of {row}", options=tuple(left), key=Key.SAFE_TILE)
        left.remove(pick)
        drawn.append(int(pick))
    return sorted(drawn)


def _safe_tiles(state: ClankState) -> Procedure:
    base, how = yield from base_safe_count(state)
    state.base_safe_count = base
    new = state.data.new_safe_tiles()
    if state.options.first_game:
        # Setup, Sidebar - the new tiles into the top half. Ruling: both new safe tiles are
        # among the 4 (the top half of 6 is 3, all drawn), and the other 2 are drawn from the
        # base tiles.
        state.safe_new = [t.id for t in new]
        state.safe_row = base
        positions = yield from draw_positions(base, SAFE_TILES_USED - len(new))
        text = (f"First game: take the {len(new)} new safe tiles ({new[0].find}). Lay the "
                f"{base} base safe tiles face down in a row and take those at positions "
                f"{_listed(positions)} from the left, unseen (Overseer's ruling: the new safe "
                "tiles are sure to be used).")
    else:
        state.safe_row = base + len(new)
        positions = yield from draw_positions(state.safe_row, SAFE_TILES_USED)
        text = (f"Shuffle the {len(new)} new safe tiles with the {base} base ones and lay all "
                f"{state.safe_row} face down in a row. Take the tiles at positions "
                f"{_listed(positions)} from the left without looking; put the other "
                f"{state.safe_row - SAFE_TILES_USED} back in the box unseen.")
    state.safe_positions = positions
    yield Step(StepKind.SAFE_TILES, rulebook.FIRST_GAME if state.options.first_game
               else rulebook.SETUP, text,
               {"base": base, "base_how": how, "row": state.safe_row, "positions": list(positions),
                "new": list(state.safe_new), "ruling": state.options.first_game})


def _listed(numbers: list[int]) -> str:
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def setup_game(state: ClankState) -> Procedure:
    """The setup action: the safe tiles, the depth stack, the treasury, the dungeon deck."""
    yield from _safe_tiles(state)
    first = state.options.first_game
    half = " into the top half of the stack" if first else ""
    yield Step(StepKind.DEPTH_TILES, rulebook.FIRST_GAME if first else rulebook.SETUP,
               f"Shuffle the {NEW_DEPTH_TILES} new depth tiles{half} with the base depth tiles; "
               f"stack the {SAFE_TILES_USED} safe tiles face down on top.",
               {"new_depth_tiles": NEW_DEPTH_TILES, "top_half": first})
    state.treasury = state.data.token_ids()
    monsters = ", ".join(f"{m.tokens} {m.name}" for m in state.data.monsters.values())
    yield Step(StepKind.TREASURY, rulebook.SETUP,
               f"Put the {len(state.treasury)} monster tokens in the treasury: {monsters}.",
               {"treasury": list(state.treasury)})
    yield Step(StepKind.DUNGEON_DECK, rulebook.FIRST_GAME if first else rulebook.SETUP,
               f"Shuffle the {NEW_CARDS} new cards{' into the top half of' if first else ' into'}"
               " the dungeon deck and lay out the dungeon row.",
               {"new_cards": NEW_CARDS, "top_half": first})
    state.started = True
    state.turn_number = 1
    player = state.turn_player()
    yield Step(StepKind.BASE_SETUP, rulebook.SETUP,
               f"Finish the setup by the base game's rules. {player} plays first (the first "
               "player listed: Overseer's ruling, the base game decides who starts).",
               {"player": player, "ruling": True})
