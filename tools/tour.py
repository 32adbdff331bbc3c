"""A Catacombs game at the table, played on the real Gadget by pressing its buttons (through
``tools.table.Table``): the screens of every stage of the flow, for docs/gadget.md
(``scripts/gadget_pictures`` draws them).

    python -m tools.tour [OUTDIR]    (scripts/gadget_pictures: docs/img)
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tools.shots import write_all
from tools.table import BACK, CHOICE, NEXT, OK, Album, Shot, Table


def _new_game(t: Table, album: Album) -> None:
    if t.screen.title == "Which game?":
        album.add("new-game", "A new game: which game (when the box plays more than one)")
        t.choose_game()
    album.add("new-who", "A new game: who joins the party (or tap a hero's card)")
    t.tap("hero", "elf")
    album.add("new-seat", "Each hero's seat: its LED pulses under the cursor")
    t.pick("Seat 1")
    album.add("new-health", "Its health, off its card (CHOICE up, NEXT down)")
    t.number(10)
    t.pick("Hero 1")
    t.pick("Seat 3")
    t.number(8)
    album.add("new-done", "Heroes not in the list join as Hero 1 .. Hero 4; two joined, the "
              "cursor is on Done")
    t.press(OK)
    album.add("new-los", "The options: line of sight, advanced targeting, tokens, poison")
    t.press(OK, times=4)
    album.add("new-dice", "Who rolls the dice: the Pico, the gadget, or the table")
    t.press(OK)
    album.add("new-playmats", "The expansion playmats owned (the cursor on Done: OK, none)")
    t.press(OK)
    t.pick("On")
    album.add("new-play", "A single room, or a campaign")
    t.pick("Monstrosity")
    pages = t.read()
    album.first(pages, "Monstrosity", "campaign",
                "The campaign begins (its path, the book's order)")
    album.add("idle-setup", "Between rooms: OK opens the menu")
    t.press(OK)
    album.add("menu-setup", "The menu: the moves the rules allow now, the party, a new game")
    t.pick("Next stage")
    album.first(t.read(), "Glaaoth", "stage", "The campaign's stage: its room")


def _room(t: Table, album: Album) -> None:
    t.press(OK)
    t.pick("Set up a room")
    album.add("room-which", "Which Room card: tap it, or choose (long lists in groups)")
    t.pick("Glaaoth (enter)")
    album.add("room-enter", "A card the data lacks is entered off the card, monster by monster")
    t.pick("Infernal .. Phantom")
    t.pick("Orc")
    t.number(2)
    t.pick("Infernal .. Phantom")
    t.pick("Minotaur")
    t.number(1)
    t.pick("Done")
    album.add("room-suppresses", "... its Suppresses box (NEXT: none) ...")
    t.press(NEXT)
    album.add("room-playmat", "... the playmat it names (none: the setup rolls it) ...")
    t.pick("None: roll")
    t.pick("No")
    t.number(2)
    pages = t.read()
    album.first(pages, "Glaaoth", "setup-room", "The setup: the room...")
    album.first(pages, "Rune Die 4", "setup-playmat", "... the playmat it rolled ...")
    album.first(pages, "Elf", "setup-target", "... the Hero Target tiles ...")
    t.number(2)
    pages = t.read()
    album.first(pages, "Orc A", "place", "... and each piece's spot: identical monsters "
                "lettered (Orc A, Orc B) here and on every later screen")
    album.add("idle-battle", "The battle: NEXT AI PIECE")


def _battle(t: Table, album: Album) -> None:
    t.press(NEXT)
    album.add("question", "NEXT AI PIECE: a question the state cannot answer names the piece "
              "(the seat that answers pulses; the cursor on the likely answer)")
    t.press(OK)
    album.add("target", "Who acts at whom (the Elf's seat LED lights), its shots and its move, "
              "on one page")
    album.add("details", "CHOICE: the steps whole, each with its rule", t.press(CHOICE))
    t.press(OK, times=len(t.gadget.app.notice) if t.gadget.app else 1)
    t.read()
    album.add("question-2", "The next fact only the table sees: its prompt under the answers")
    t.press(OK)
    album.add("result", "The result: NEXT goes on to the next AI piece from here, a card "
              "enters the heroes' side")
    album.add("hit-tap", "The heroes' side: the Minotaur's card tapped (the only one: no "
              "'which'), how much", t.tap("monster", "minotaur"))
    t.press(OK)
    album.first(t.read(), "Minotaur -1", "hit", "The hit (no kill: no 'whose shot')")
    t.tap("hero", "elf")
    album.add("hero-what", "A hero's card: what changed, the cursor on its health")
    t.press(OK)
    t.press(NEXT, times=2)
    album.add("hero-health", "The new value starts at the current one: health -2 is NEXT NEXT")
    t.press(OK)
    t.read()
    t.press(OK)
    t.pick("Party")
    party = t.read()
    album.add("party", "The party screen: each hero's health, gold, poison...", party[0])
    album.add("party-ai", "... and the AI pieces left", party[-1])


def _end(t: Table, album: Album, store: Path) -> None:
    t.tap("monster", "orc")
    album.add("hit-which", "An Orc's card: which of the Orcs (its pieces only)")
    t.pick("Orc A")
    t.number(1)
    album.add("hit-by", "A hit that destroys: whose shot (its gold, the Hidden Cave)")
    t.pick("Hero 1")
    t.read()
    t.press(OK)
    t.pick("Hit an AI piece")  # or from the menu
    t.pick("Orc B")
    t.number(1)
    t.pick("Elf")
    kill = t.read()
    album.first(kill, "Orc B down", "kill", "A kill and its gold, on one page")
    t.press(BACK, long=True)
    album.add("undone", "BACK held undoes the last press (CHOICE puts it back)")
    t.press(CHOICE)
    t.read()
    t.press(NEXT)
    t.read()
    album.add("resume-before", "A question on the glass when the power goes...")
    t.close()
    t = Table(store)
    album.table = t
    t.read()
    album.add("resume-after", "... is on the glass again after the restart (BACK: its steps)")
    while t.session.pending is not None:
        t.press(OK)
        t.read()
    room = t.tap("room", "bholoth-cemetery")
    album.add("bad-tap", "A card that makes no sense now: said, and nothing changes", room)
    t.read()
    t.press(OK)
    t.pick("Hit an AI piece")  # the Minotaur, the last piece: no need to ask which
    t.number(1)
    t.pick("Elf")
    album.first(t.read(), "Room won", "room-won", "The room is won")
    t.press(OK)
    album.add("menu-after", "After the battle: rewards, the next stage, the end")
    t.pick("Room rewards")
    album.first(t.read(), "+2 gold", "reward", "The room's reward")
    _lord(t, album)
    t.press(OK)
    t.pick("End the game")
    album.add("end-sure", "Ending the game is asked to be sure (No first)")
    t.pick("Yes")
    t.read()
    album.add("game-over", "The game is over")
    t.press(OK)
    t.pick("Summary")
    album.add("summary", "Its summary")
    t.close()


def _lord(t: Table, album: Album) -> None:
    """The campaign's Lord, not in the card data, entered off its card; the dice changed."""
    t.press(OK)
    t.pick("Choose the Lord")
    album.add("lord-health", "The campaign's Lord (the data lacks it) off its card: health...")
    t.number(12)
    album.add("lord-shot", "... each shot sequence, shot by shot ...")
    t.pick("Melee")
    album.add("lord-modifiers", "... each shot's modifiers ...")
    t.press(NEXT)
    t.pick("Sequence done")
    t.pick("No more")
    album.add("lord-mercenary", "... its mercenary ...")
    t.pick("Infernal .. Phantom")
    t.pick("Orc")
    t.pick("None")  # no second mercenary
    album.add("lord-minions", "... and its Minions box")
    t.pick("Infernal .. Phantom")
    t.pick("Orc")
    t.number(2)
    t.pick("Done")
    album.first(t.read(), "Orc", "lord-kept", "Kept with the game, unverified")
    t.press(OK)
    t.pick("Dice")
    album.add("dice", "Who rolls, changed in the game (the mode now first)")
    t.pick("The gadget's (now)")


def shots() -> tuple[Shot, ...]:
    """The tour's screens, in the order of a game."""
    with tempfile.TemporaryDirectory(prefix="overseer-tour-") as folder:
        store = Path(folder) / "games.sqlite3"
        table = Table(store)
        album = Album(table)
        _new_game(table, album)
        _room(table, album)
        _battle(table, album)
        _end(table, album, store)
    return tuple(album.shots)


def main(argv: list[str]) -> int:
    """Write every screen of the tour as OUTDIR/gadget-NAME.png (4x, for docs/gadget.md)."""
    return write_all(shots, "gadget", argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
