"""A Clank! game and a Runebound game at the table, played on the real Gadget by pressing its
buttons, from the new game's questions to the end: the screens for docs/gadget-packs.md
(``scripts/gadget_pictures`` draws them), and the scripted games the tests play (through the
in-memory gadget, and the Clank! game through the virtual Pico too).

Each game has an undo (BACK held), a restart in the middle (the gadget closed and opened again
on the same store: the game is resumed) and the bad input the table may give (a cube in an
occupied space, a second Temple offering; a town with a figure, a destroyed town, a second
Level I card from one deck, a Level III card without a card of its deck): each gets its
message on the glass and changes nothing (``refused`` checks both).

``play_clank(table, album, reopen)`` and ``play_runebound(...)`` take a table with the
interface of ``tools.table.Table`` (press, tap, pick, number, read, choose_game, screen,
session), an album for the pictures and ``reopen()``, which closes the table's gadget and
returns a new table on the same store. They return the table at the game's end.

    python -m tools.pack_tour [OUTDIR]    (scripts/gadget_pictures: docs/img)
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from overseer.rules.runebound.state import CURSED, DESTROYED
from overseer.screens.render import Screen
from tools.shots import write_all
from tools.table import BACK, CHOICE, OK, Album, Shot, Table

SEED = 11
Reopen = Callable[[], Any]


def menu(t: Any, label: str) -> Screen:
    """From the idle screen: OK opens the menu, then ``label``."""
    t.read()
    t.press(OK)
    return t.pick(label)


def refused(t: Any, before: dict[str, Any], album: Album | None = None, name: str = "",
            caption: str = "") -> str:
    """The glass says the input was not taken, and the game is as it was; the message."""
    screen = t.screen
    if screen.key != "Not taken":
        raise AssertionError(f"no refusal on the glass: {screen}")
    if t.session.state_dict() != before:
        raise AssertionError("a refused input changed the game")
    if album is not None:
        album.add(name, caption)
    return " ".join(" ".join(page.lines) for page in t.read())


def tick(t: Any, labels: tuple[str, ...]) -> Screen:
    """On a ChooseSome list: tick each of ``labels``, then Done."""
    for label in labels:
        t.pick(label)
    return t.pick("Done")


# --------------------------------------------------------------------------- Clank!


def play_clank(t: Any, album: Album, reopen: Reopen) -> Any:
    """Two players: the setup, a Temple offering each (a second one refused, an occupied
    column left by the table's reading), Medusa fought on entering (undone and answered
    again), the gadget restarted, the Sphinx's riddle, a TROPHY card the data lacks, a look-up
    by a tapped card, the end of the game and its trophy tally."""
    t.choose_game("Clank!")
    album.add("clank-players", "Clank!: how many players (each at the next seat LED)")
    t.number(2)
    t.pick("Off")
    album.add("clank-base-tiles", "The setup asks what the book does not print: the base box's "
              "safe tiles")
    pages = t.read()
    t.pick("Yes")
    pages = t.read()
    album.first(pages, "Safe tiles", "clank-safe-tiles", "The safe tiles drawn blind: positions "
                "in a face-down row")
    album.add("clank-idle", "Between reports: whose turn, where they are, their trophies")
    menu(t, "Tile placed")
    t.read()
    album.add("clank-reveal", "A new tile's lost chamber or lair (long names shortened)")
    t.pick("Temple of Gold")
    menu(t, "Enter a room")
    t.pick("A wayside shrine")
    menu(t, "Place a cube")
    album.add("clank-space", "A cube: every space of the chamber; \"!\" marks a space the "
              "book does not print")
    t.pick("5 gold!")
    t.read()
    t.pick("Yes")
    t.read()
    album.add("clank-reward", "The reward's parts, each optional (OK ticks, Done answers)")
    tick(t, ("Heal 1",))
    pages = t.read()
    album.first(pages, "5 gold", "clank-offering", "The offering: \"!\" marks a step on "
                "unprinted data")
    before = t.session.state_dict()
    menu(t, "Place a cube")
    t.pick("3 gold!")
    refused(t, before, album, "clank-second-offering", "A second Temple offering: the reason, "
            "and nothing changes")
    t.press(BACK)  # leave the form
    menu(t, "Tile placed")
    t.read()
    t.pick("Medusa's Lair")
    menu(t, "End the turn")
    t.read()
    # P2
    menu(t, "Enter a room")
    t.pick("A wayside shrine")
    menu(t, "Place a cube")
    album.add("clank-space-taken", "A taken space shows its owner...")
    t.pick("5 gold! (P1)")
    t.read()
    t.pick("Yes")  # a cube in the supply
    album.add("clank-column-shared", "... a second offering of its size is the table's call")
    t.read()
    t.pick("No")  # the table reads a column as one cube's (the book does not say)
    t.read()
    menu(t, "Place a cube")
    t.pick("3 gold!")
    t.read()
    t.pick("Yes")
    t.read()
    tick(t, ())
    menu(t, "Enter a room")
    t.pick("Medusa's Lair")
    t.read()
    album.add("clank-medusa", "Medusa's gaze on entering: fight her, or turn to stone")
    t.pick("Fight her")
    t.read()
    t.pick("No")
    t.read()
    t.press(BACK, long=True)
    album.add("clank-undone", "BACK held takes the last answer back")
    t.press(OK)
    t.read()
    t.pick("Yes")
    pages = t.read()
    album.first(pages, "Medusa", "clank-trophy", "A monster beaten: its DEFEAT, then a trophy")
    t = reopen()
    album.table = t
    t.read()
    album.add("clank-resumed", "After a restart the game is where it was")
    menu(t, "End the turn")
    t.read()
    # P1 again
    menu(t, "Tile placed")
    t.read()
    t.pick("Sphinx's Lair")
    menu(t, "Enter a room")
    t.pick("Sphinx's Lair")
    menu(t, "Fight monster")
    album.add("clank-sphinx", "The Sphinx: 4 swords, or the riddle (7 skills)")
    t.pick("The riddle")
    t.read()
    menu(t, "Other TROPHY")
    album.add("clank-other-trophy", "A TROPHY card the data lacks: its points off the card")
    t.number(2)
    pages = t.read()
    album.add("clank-entered", "... kept as \"TROPHY card 1\", marked unverified",
              next(p for p in pages if p.mark == "!"))
    t.tap("room", "temple-of-gold", game="clank")
    pages = t.read()
    album.first(pages, "Temple of Gold", "clank-look-up", "A tapped room card: its rules in a "
                "few lines")
    menu(t, "Players")
    party = t.read()
    album.add("clank-players-page", "The players' pages: where, trophies, cubes, offering",
              party[0])
    menu(t, "End the game")
    pages = t.read()
    album.first(pages, "P1: 3 VP", "clank-tally", "The end: each player's trophy points, "
                "itemised")
    album.add("clank-over", "The game is over")
    return t


# --------------------------------------------------------------------------- Runebound


def _towns(t: Any, status: str) -> list[str]:
    return [name for name, town in t.session.state_dict()["towns"].items()
            if town["status"] == status]


def _label(t: Any, town: str) -> str:
    from overseer.app.runebound import town_label
    return town_label(t.session.state, town)


def _turn(t: Any) -> tuple[str, str]:
    turn = t.session.state_dict()["turn"]
    return turn["hero"], turn["step"]


def _end_turn(t: Any) -> None:
    menu(t, "End the turn")
    t.read()


def _row(t: Any, start: str) -> str:
    """The row on the glass that begins with ``start`` (a town with a figure or a comet)."""
    return next(r for r in t.screen.rows if r == start or r.startswith(f"{start} ("))


def _travel(t: Any, town: str) -> None:
    """The hero whose turn it is goes to ``town`` (unless there already)."""
    hero, _ = _turn(t)
    if t.session.state_dict()["heroes"][hero]["town"] == town:
        return
    menu(t, "Travel")
    t.pick("A town")
    t.pick(_row(t, _label(t, town)))
    t.read()


def _level_one(t: Any, claim_quest: bool = True) -> None:
    menu(t, "Level I card")
    t.read()
    t.pick("Yes")
    t.read()
    if claim_quest:
        menu(t, "Claim a quest")
        t.read()


def _level_three(t: Any, spent: int = 0) -> None:
    menu(t, "Level III card")
    t.read()
    t.pick("Yes")
    t.read()
    t.number(spent)
    t.read()


def play_runebound(t: Any, album: Album, reopen: Reopen) -> Any:
    """Two heroes: the setup (a town with a figure refused), the trading pool, the Curse
    cards (a second Level I card and a Level III card without a card of its deck refused), a
    town freed with its immediate Market step, a destroyed town refused, an undo, the gadget
    restarted, a knockout, and Hero 1's victory."""
    t.choose_game("Runebound")
    album.add("rb-heroes", "Runebound: how many heroes (each at the next seat LED)")
    t.number(2)
    pages = t.read()
    album.add("rb-counters", "Who deals the counters: the gadget's mix is a guess, marked !",
              pages[0] if pages else None)
    t.pick("The gadget")
    t.read()
    t.pick("Our own dice")
    pages = t.read()
    album.first(pages, "Curse decks", "rb-decks", "The start: the five Curse decks, in order")
    album.add("rb-idle-place", "The heroes are placed from the last player to the first")
    menu(t, "Place a hero")
    album.add("rb-place", "A town: \"!\" marks a town the book does not name")
    t.pick("Tamalir")
    t.read()
    before = t.session.state_dict()
    menu(t, "Place a hero")
    t.pick("Tamalir (Hero 2)")
    refused(t, before, album, "rb-figure", "A town with a figure: refused, nothing changes")
    t.pick("Riverwatch")
    pages = t.read()
    album.first(pages, _label(t, next(iter(t.session.state_dict()["towns"]))), "rb-reveal",
                "The reveal: destroyed and cursed towns")
    menu(t, "Quest counter")
    album.add("rb-quest-counter", "Setup, step 5: who takes a quest counter...")
    t.pick("Hero 1")
    album.add("rb-token", "... which token (placeholders: marked !)")
    t.press(OK)
    t.read()
    menu(t, "Quest counter")  # Hero 2, the one left
    t.press(OK)
    t.read()
    album.add("rb-idle", "A hero's turn: the step, where, victory points")
    cursed = _towns(t, CURSED)
    first, second, third = cursed[0], cursed[1], cursed[2]
    # Hero 1, turn 1: the trading pool, then a Level I card of the first cursed town.
    menu(t, "Trading pool")
    t.number(2)
    t.number(0)
    t.read()
    album.add("rb-matches", "Our own trading dice: how many match the terrain")
    t.number(1)
    t.read()
    t.pick("Market draw")
    t.read()
    t.number(0)  # nothing sold
    t.read()
    _travel(t, first)
    menu(t, "Level I card")
    pages = t.read()
    album.add("rb-challenge", "The card's challenge is the table's: passed or not")
    t.pick("Yes")
    pages = t.read()
    album.first(pages, "+1 VP", "rb-claim", "A Curse card claimed: XP, gold, victory points")
    menu(t, "Claim a quest")
    t.read()
    _end_turn(t)
    # Hero 2, turn 2: a Level III card without a card of its deck.
    destroyed = _towns(t, DESTROYED)
    if destroyed:
        before = t.session.state_dict()
        menu(t, "Travel")
        t.pick("A town")
        t.pick(_row(t, _label(t, destroyed[0])))
        refused(t, before, album, "rb-destroyed", "A destroyed town cannot be entered")
        t.press(BACK)
    _travel(t, first)
    before = t.session.state_dict()
    menu(t, "Level III card")
    refused(t, before, album, "rb-no-claim", "A Level III card without a card of its deck")
    _end_turn(t)
    # Hero 1, turn 3: a second Level I card of the deck, then its Level III card.
    before = t.session.state_dict()
    menu(t, "Level I card")
    refused(t, before, album, "rb-second-level-one", "A second Level I card from one deck")
    menu(t, "Level III card")
    t.read()
    t.pick("Yes")
    pages = t.read()
    album.first(pages, f"{_label(t, first)} freed", "rb-freed", "A town freed by its Level "
                "III card")
    album.add("rb-market", "Its immediate Market step: the price before the discount")
    t.number(5)
    pages = t.read()
    album.first(pages, "Pay 2", "rb-discount", "One gold off for each card of the town "
                "claimed")
    _end_turn(t)
    # Hero 2, turn 4: onto a space, knocked out there, to the free town; the end of the turn
    # undone and redone.
    menu(t, "Travel")
    t.pick("A space")
    album.add("rb-terrain", "A space's terrain: every one a placeholder (!)")
    t.pick("Plains!")
    t.read()
    menu(t, "Knocked out")
    t.pick("Hero 2")
    t.read()
    album.add("rb-knockout", "Knocked out: stay, or the nearest free town")
    t.pick("Yes")
    t.read()
    _end_turn(t)
    t.press(BACK, long=True)
    album.add("rb-undone", "BACK held: the end of the turn taken back (CHOICE redoes it)")
    t.press(CHOICE)
    t.read()
    t = reopen()
    album.table = t
    t.read()
    album.add("rb-resumed", "After a restart the game is where it was")
    # Hero 1: the second cursed town, Level I and its quest, then Level III.
    _travel(t, second)
    _level_one(t)
    _end_turn(t)
    _end_turn(t)
    _level_three(t, 0)
    _end_turn(t)
    _end_turn(t)
    menu(t, "Heroes")
    party = t.read()
    album.add("rb-heroes-page", "The heroes' pages: where, points, cards claimed", party[0])
    album.add("rb-towns-page", "... and the towns", next(p for p in party if p.title == "Towns"))
    # Hero 1: a Level I card of the third cursed town wins.
    _travel(t, third)
    menu(t, "Level I card")
    t.read()
    t.pick("Yes")
    pages = t.read()
    album.first(pages, "Winner", "rb-winner", "Hero 1 wins: a town freed and 13 victory "
                "points")
    album.add("rb-over", "The game is over")
    return t


# --------------------------------------------------------------------------- pictures


def _play(play: Callable[[Any, Album, Reopen], Any]) -> tuple[Shot, ...]:
    with tempfile.TemporaryDirectory(prefix="overseer-pack-tour-") as folder:
        store = Path(folder) / "games.sqlite3"
        holder = [Table(store, seed=SEED)]

        def reopen() -> Table:
            holder[0].close()
            holder[0] = Table(store, seed=SEED)
            return holder[0]
        album = Album(holder[0])
        play(holder[0], album, reopen)
        holder[0].close()
    return tuple(album.shots)


def shots() -> tuple[Shot, ...]:
    """The screens of both games, in the order of play."""
    return (*_play(play_clank), *_play(play_runebound))


def main(argv: list[str]) -> int:
    """Write every screen as OUTDIR/pack-NAME.png (4x, for docs/gadget-packs.md)."""
    return write_all(shots, "pack", argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
