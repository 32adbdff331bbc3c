"""A Catacombs Conquest game begun at the table on the real Gadget: the screens of its flow, for
docs/conquest.md (``scripts/conquest_pictures`` draws them).

    python -m tools.conquest_tour [OUTDIR]    (docs/img)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from overseer.screens.render import Screen
from tools.shots import write_all
from tools.table import CHOICE, NEXT, OK, Shot, Table

# The Quick Tutorial's deal (seats 1 to 4: Sword, Skull, Sword, Skull) and Player 1's draw.
DEAL = ("salavi", "sword-05", "sword-06", "sword-07", "phalomoru", "formilus", "lenore",
        "skull-06", "serangan", "mayra", "sword-08", "sword-09", "ughurth", "skull-07",
        "skull-08", "skull-09", "sword-10")


def _tap(t: Table, card: str) -> Screen:
    return t.tap("card", card, "conquest")


def shots() -> tuple[Shot, ...]:
    """The tour's screens, in the order of a game."""
    out: list[Shot] = []
    with tempfile.TemporaryDirectory(prefix="overseer-conquest-tour-") as folder:
        t = Table(Path(folder) / "games.sqlite3")

        def add(name: str, caption: str, screen: Screen | None = None) -> None:
            out.append(Shot(name, caption, screen or t.screen))
        t.choose_game("Conquest")
        add("new-players", "A new game: how many players")
        t.pick("4 players")
        add("new-team", "Each player's team (forced when the other is full)")
        t.pick("Sword Team")
        add("new-seat", "Each player's seat: its LED pulses under the cursor")
        t.pick("Seat 1")
        for team, seat in (("Skull Team", "Seat 2"), ("Sword Team", "Seat 3")):
            t.pick(team)
            t.pick(seat)
        add("new-health", "Health per team (8 by default)")
        t.number(8)
        t.pick("Off")
        t.pick("Off")
        add("new-draws", "How the cards reach the box: each draw tapped, or only plays")
        t.pick("Tap each draw")
        add("new-first", "The first team: a D12 (the Pico's, the box's, your own) or chosen")
        t.pick("Sword first")
        t.read()
        add("draw", "Each card drawn: tap it (or choose it)")
        for card in DEAL:
            _tap(t, card)
            t.read()
        add("idle-turn", "The turn: the player, the disc; seat 1 lit, the Skull Team's next "
            "seat dim")
        _tap(t, "ughurth")
        add("bad-tap", "A card that cannot be played now: said, nothing changes")
        t.read()
        _tap(t, "salavi")
        t.read()
        add("play", "The card played: what it shows that the data lacks, asked once and kept")
        t.pick("None")
        t.read()
        t.pick("No")
        t.read()
        add("hits", "Which enemy discs each shot hit directly (CHOICE, OK ticks, NEXT: done)")
        t.press(NEXT)
        t.read()
        t.press(CHOICE)
        t.press(OK)
        t.press(NEXT)
        pages = t.read()
        add("damage", "The damage", next(p for p in pages if p.key.startswith("Skull -")))
        _tap(t, "skull-10")  # Player 2's draw
        t.read()
        add("next-turn", "The next turn: the Skull Team's Player 2 (seat 2 lit, seat 3 dim)")
        t.press(OK)
        t.pick("Party")
        party = t.read()
        add("party", "The party screen: the pools and the bank ...", party[0])
        add("party-team", "... each team's hands, deck, discards, retained armour", party[1])
        t.press(OK)
        t.pick("Correct the books")
        add("correct", "Correct the books: a pool, the bank, a hand (logged, undone by BACK "
            "held)")
        t.close()
    return tuple(out)


def main(argv: list[str]) -> int:
    """Write every screen of the tour as OUTDIR/conquest-NAME.png (4x, for docs/conquest.md)."""
    return write_all(shots, "conquest", argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
