"""Every card the virtual reader can be shown, as the reader reports them (``Tap(game, kind,
card)``): each registered game's cards (its record's ``cards``: the ones ``overseer tags
write`` puts on tags), in the registry's order. A card is found by its label, its id or its
name; anything else is refused with the closest labels.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass

from overseer import games


@dataclass(frozen=True, slots=True)
class Card:
    game: str
    kind: str
    id: str
    name: str

    @property
    def label(self) -> str:
        """What the picker lists: ``monster: Orc (catacombs orc)``."""
        return f"{self.kind}: {self.name} ({self.game} {self.id})"


class UnknownCard(ValueError):
    """No card by that text; the message names the closest ones."""


def catalogue() -> list[Card]:
    """Every registered game's cards, game by game, each in its record's order."""
    return [Card(spec.name, kind, card, name) for spec in games.GAMES.values()
            for kind, table in spec.cards().items() for card, name in table.items()]


def find(text: str, cards: Iterable[Card]) -> Card:
    """The card ``text`` names: its label, or (when only one card answers) its id or name,
    case and spaces aside. UnknownCard otherwise."""
    wanted = " ".join(text.split()).lower()
    if not wanted:
        raise UnknownCard("type a card's name (Tab completes it)")
    cards = list(cards)
    for card in cards:
        if card.label.lower() == wanted:
            return card
    named = [c for c in cards if wanted in (c.id.lower(), c.name.lower())]
    if len(named) == 1:
        return named[0]
    if named:
        raise UnknownCard(f"{text!r} names {len(named)} cards: "
                          + "; ".join(c.label for c in named))
    close = difflib.get_close_matches(wanted, [c.label.lower() for c in cards]
                                      + [c.name.lower() for c in cards], n=3, cutoff=0.5)
    by_text = {c.label.lower(): c for c in cards} | {c.name.lower(): c for c in cards}
    hint = "; did you mean " + " or ".join(repr(by_text[t].label) for t in close) if close else ""
    raise UnknownCard(f"no card {text!r} in data/{hint}")
