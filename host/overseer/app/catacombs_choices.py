"""The lists a Catacombs form chooses from (app/catacombs.py and the forms beside it): a long
list in two steps (its group, then the item), a move's options now, the cards whose tap
answers (a hero's card, a monster's card: its pieces), names short enough for the glass."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from overseer import games
from overseer.app.local import Ask, LocalProcedure
from overseer.core.params import ask_of, fields
from overseer.core.procedure import ChooseOne
from overseer.rules.catacombs.carddata import CatacombsData
from overseer.rules.catacombs.moves import MOVES
from overseer.rules.catacombs.state import Battle
from overseer.screens.pages import TITLE_COLUMNS

GAME = "catacombs"
GROUP_ABOVE = 10  # a list longer than this is chosen in two steps: its group, then the item
GROUP_SIZE = 8


def monster_of(battle: Battle, piece_id: str) -> str | None:
    """The monster card (its id in the card data) a piece is one of."""
    piece = battle.pieces.get(piece_id)
    return None if piece is None else _monster_cards(battle.data).get(piece.name)


@lru_cache(maxsize=8)
def _monster_cards(data: CatacombsData) -> dict[str, str]:
    """Each monster's name -> its card, the first of the data by that name (kept by the data,
    one loaded value per folder: every view asks it of every piece)."""
    cards: dict[str, str] = {}
    for monster, record in data.monsters.items():
        cards.setdefault(record["name"], monster)
    return cards


def monster_pieces(battle: Battle) -> dict[tuple[str, str], tuple[str, ...]]:
    """A tapped monster card -> its pieces on the playmat (it answers a question whose
    options include one of them)."""
    cards = _monster_cards(battle.data)
    out: dict[tuple[str, str], list[str]] = {}
    for pid, piece in battle.pieces.items():
        monster = cards.get(piece.name)
        if monster is not None and piece.alive:
            out.setdefault(("monster", monster), []).append(pid)
    return {card: tuple(ids) for card, ids in out.items()}


def hero_cards(battle: Battle) -> dict[tuple[str, str], str]:
    """A tapped hero card (one of the game's cards: its record's ``cards``) -> the party
    member it names (heroes joined from the list keep the card's id)."""
    known = games.get(GAME).cards()["hero"]
    return {("hero", h): h for h in battle.heroes if h in known}


def _sort_key(label: str) -> str:
    return label.lower().removeprefix("the ")


def choose(prompt: str, options: tuple[str, ...], key: str, names: Mapping[str, str],
           cards_: Mapping[tuple[str, str], str] | None = None, first: tuple[str, ...] = ()
           ) -> LocalProcedure:
    """One of ``first`` or ``options``; when ``options`` is long, in two steps (``first`` and
    the groups of ``options`` in name order, then the group's options). A tapped card
    answers at either step."""
    taps = dict(cards_ or {})
    if len(options) <= GROUP_ABOVE:
        return (yield Ask(ChooseOne(prompt, (*first, *options), key), names=names, cards=taps))
    ordered = sorted(options, key=lambda o: _sort_key(names.get(o, o)))
    groups = [ordered[n:n + GROUP_SIZE] for n in range(0, len(ordered), GROUP_SIZE)]
    group_names = {f"group-{n}": _group_label(g, names) for n, g in enumerate(groups)}
    picked = yield Ask(ChooseOne(prompt, (*first, *group_names), key),
                       names={**names, **group_names}, cards=taps)
    if picked in options or picked in first:
        return picked  # one of the first, or a tapped card
    group = tuple(groups[int(picked.removeprefix("group-"))])
    return (yield Ask(ChooseOne(prompt, group, key), names=names, cards=taps))


def _group_label(group: list[str], names: Mapping[str, str]) -> str:
    def word(o: str) -> str:
        label = names.get(o, o)
        return (label[4:] if label.lower().startswith("the ") else label).split()[0]
    return f"{word(group[0])} .. {word(group[-1])}"


def options(move: str, name: str, battle: Battle) -> tuple[str, ...]:
    """What the move table offers for one parameter of a move now."""
    ask = next(ask_of(f) for f in fields(MOVES.moves[move].params) if f.name == name)
    assert ask.options is not None
    return tuple(ask.options(battle))


def fit(prompt: str, shorter: str) -> str:
    """The prompt when the title bar holds it (else a page comes before the question)."""
    return prompt if len(prompt) <= TITLE_COLUMNS else shorter


def short_name(name: str) -> str:
    """A name for a crowded line: whole when short ("Hero 1"), else its first word."""
    return name if len(name) <= 7 else name.split()[0]
