"""Load the Conquest card list from data/conquest/cards.toml, validated.

The only module of the Conquest rules that reads a file; the rules themselves get the cards
as values.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from overseer.core.records import DATA_DIR, DataError, Field, list_of, load_table, one_of
from overseer.rules.conquest.cards import (
    ABILITY_VALUES,
    ARMOUR_VALUES,
    DECK_SIZE,
    ROLES,
    SHOTS,
    STAR_SIGNS,
    Card,
)

CARDS_FILE = DATA_DIR / "conquest" / "cards.toml"


FIELDS = {
    "id": Field(str),
    "team": Field(str, check=one_of("sword", "skull")),
    "name": Field(str),
    "class": Field(str),
    "role": Field(str, check=one_of(*ROLES)),
    "star_sign": Field(str, check=one_of(*STAR_SIGNS)),
    "shots": Field(list, check=list_of(str, choices=SHOTS)),
    "ability": Field(str, check=one_of(*ABILITY_VALUES)),
    "armour": Field(str, check=one_of(*ARMOUR_VALUES)),
    "note": Field(str, required=False),
}


def load_cards(path: Path = CARDS_FILE) -> dict[str, Card]:
    """All 56 cards by id, in file order. Raises ``DataError`` (file, line, record, field) on a
    bad file or a deck that is not 28 cards."""
    records = load_table(path, "card", FIELDS)
    cards: dict[str, Card] = {}
    for rec in records:
        cards[rec["id"]] = Card(
            id=rec["id"], team=rec["team"], name=rec["name"],
            char_class=rec["class"], role=rec["role"], star_sign=rec["star_sign"],
            shots=tuple(rec["shots"]), ability=rec["ability"], armour=rec["armour"],
            verified=rec["verified"], source=rec["source"])
    for team in ("sword", "skull"):
        count = sum(1 for c in cards.values() if c.team == team)
        if count != DECK_SIZE:
            raise DataError(path, None, None, "team",
                            f"the {team} deck has {count} cards, wanted {DECK_SIZE}")
    return cards


def _toml(value: object) -> str:
    """A string or a list of strings as TOML (its basic strings are JSON's)."""
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def card_records(cards: Iterable[Card]) -> str:
    """Cards as ``[[card]]`` records of cards.toml (the fields in the file's order; its
    ``verified`` and ``source`` as each card has them): what ``load_cards`` reads back."""
    out = []
    for card in cards:
        fields = {"id": card.id, "team": card.team, "name": card.name,
                  "class": card.char_class, "role": card.role, "star_sign": card.star_sign,
                  "shots": list(card.shots), "ability": card.ability, "armour": card.armour}
        lines = ["[[card]]", *(f"{k} = {_toml(v)}" for k, v in fields.items()),
                 f"verified = {'true' if card.verified else 'false'}",
                 f"source = {_toml(card.source)}"]
        out.append("\n".join(lines) + "\n")
    return "\n".join(out)


def load(folder: Path) -> dict[str, Card]:
    """The card list of a data folder's conquest/ (its cards.toml)."""
    return load_cards(folder / "cards.toml")


@cache
def default() -> dict[str, Card]:
    """data/conquest/cards.toml, loaded and validated once."""
    return load_cards()
