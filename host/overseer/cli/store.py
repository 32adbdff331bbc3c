"""The session's command-line commands: ``overseer replay FILE`` and
``overseer games list|resume|delete|export|import|cards|recover`` (``--db`` picks the store
file).

``games list`` prints a table a person reads (``--json``: one object a line, for scripts);
``games resume ID`` plays game ID on (the simulator, or ``--plain`` the line mode; ``--json``
prints where it stands instead). ``games delete ID`` asks first (``--yes`` does not) and
refuses while a gadget plays from the store; ``games import`` does not store a game twice;
``games recover`` saves a damaged store's readable games into a new one (session/recover.py);
``games cards`` prints the cards read off the card at this table as card data (Conquest's).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from overseer import RULES_VERSION
from overseer.app import registry
from overseer.session import lock

if TYPE_CHECKING:
    from overseer.session.session import Session
    from overseer.session.store import GameInfo, Store

# The rules, the session and the store (SQLite) are imported when a command runs, not to build
# the command line: ``overseer --help`` loads none of them (docs/benchmarks.md, Cold start).
GAME_NAMES = tuple(registry.GAMES)  # every game, by name


def errors() -> tuple[type[Exception], ...]:
    """What a command reports as a message."""
    from overseer.cli.paths import ConfigError
    from overseer.session.export import ExportError
    from overseer.session.session import LogError, SessionError
    from overseer.session.store import StoreError

    return (StoreError, ExportError, LogError, SessionError, ConfigError, lock.LockError)


def _fail(command: str, err: Exception) -> int:
    print(f"overseer {command}: {err}", file=sys.stderr)
    return 2


def cmd_replay(args: argparse.Namespace) -> int:
    from overseer.session.export import replay

    try:
        trace, final = replay(args.file)
    except errors() as err:
        return _fail("replay", err)
    for step in trace:
        print(json.dumps(step))
    print(json.dumps({"final": final}))
    return 0


def _with_store(action: Callable[[Store, argparse.Namespace], None], create: bool = True):
    """The command ``action`` on the store; ``create``: make the store when there is none
    (else ``NoStore``, which a command may take as "no games")."""
    def run(args: argparse.Namespace) -> int:
        from overseer.cli.paths import store_path
        from overseer.session.store import NoStore, Store

        try:
            with Store(store_path(args.db), create=create) as store:
                if store.notice:
                    print(f"overseer games: {store.notice}", file=sys.stderr)
                action(store, args)
        except NoStore as err:
            if args.games_command != "list":
                return _fail(f"games {args.games_command}", err)
            if not args.json:
                print(f"No saved games: {err}.")
        except errors() as err:
            return _fail(f"games {args.games_command}", err)
        return getattr(args, "exit_code", 0)
    return run


COLUMNS: tuple[str, ...] = ("id", "game", "title", "heroes", "round", "last played", "")


def summary(store: Store, info: GameInfo) -> dict[str, Any]:
    """What ``games list`` shows of a game: its title, heroes (or players) and round, from
    its setup and its log folded; a log that no longer folds says so instead."""
    from overseer.session.session import LogError, Session, SessionError

    title = info.setup.get("title") or ""
    try:
        session = Session(store, info)
        session.verify()  # the whole log, not only what follows the last snapshot
        state = session.state
    except (LogError, SessionError) as err:
        return {"title": title, "heroes": [], "round": None, "problem": str(err)}
    people = getattr(state, "heroes", None) or getattr(state, "players", None) or {}
    names = [getattr(v, "name", k) for k, v in people.items()]
    return {"title": title, "room": _room(info, state), "heroes": names,
            "round": getattr(state, "round", None)}


def _room(info: GameInfo, state: Any) -> str:
    """Where the game is (its table's ``where``: a Catacombs room; "" for none): a game begun
    on the gadget has no title, its room names it in the table."""
    from overseer.app.flow import table

    return table(info.game).where(state)


def _when(stamp: str) -> str:
    """A store time (UTC) as local time, to the minute."""
    try:
        moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return stamp
    return moment.astimezone().strftime("%Y-%m-%d %H:%M")


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "~"


def table(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows as aligned columns (the last one free), the header first."""
    widths = [max(len(row[n]) for row in rows) for n in range(len(rows[0]) - 1)]
    return ["  ".join([*(cell.ljust(w) for cell, w in zip(row[:-1], widths, strict=True)),
                       row[-1]]).rstrip() for row in rows]


def _list(store: Store, args: argparse.Namespace) -> None:
    infos = store.games(args.game)
    if args.json:
        for info in infos:
            print(json.dumps({**info.as_dict(), **summary(store, info)}))
        return
    if not infos:
        print("No saved games." + ("" if args.game else " `overseer` starts one."))
        return
    rows: list[tuple[str, ...]] = [COLUMNS]
    for info in infos:
        about = summary(store, info)
        state = "finished" if info.finished else "in play"
        if "problem" in about:
            state = "does not replay: " + about["problem"]
        elif info.rules != RULES_VERSION:
            written = "before rules versions" if info.rules is None else \
                f"rules version {info.rules}"
            state += f" ({written}, this Overseer's is {RULES_VERSION})"
        title = about["title"] or (f"room: {about['room']}" if about.get("room") else "")
        rows.append((str(info.id), info.game, _cut(title, 32),
                     _cut(", ".join(about["heroes"]), 24),
                     "-" if about["round"] is None else str(about["round"]),
                     _when(info.updated), state))
    print("\n".join(table(rows)))


def resumed(store: Store, game_id: int | None, game: str) -> Session:
    """Game ``game_id``, or the last unfinished game of type ``game``, restored."""
    from overseer.session.session import Session, SessionError

    if game_id is not None:
        return Session.resume(store, game_id)
    session = Session.resume_last(store, game)
    if session is None:
        raise SessionError(f"no unfinished {game} game to resume")
    return session


def _resume(store: Store, args: argparse.Namespace) -> None:
    from overseer.core.procedure import describe

    session = resumed(store, args.id, args.game)
    session.verify()
    if session.notice:
        print(f"overseer games resume: {session.notice}", file=sys.stderr)
    if not args.json:
        args.exit_code = args.play(session, args)  # the simulator, or the line mode
        return
    pending = session.pending
    print(json.dumps({**store.game(session.id).as_dict(), "state": session.state_dict(),
                      "question": None if pending is None else describe(pending),
                      "can_undo": session.can_undo, "can_redo": session.can_redo}))


def _delete(store: Store, args: argparse.Namespace) -> None:
    info = store.game(args.id)  # StoreError when there is no such game
    try:
        held = lock.acquire(store.path)
    except lock.StoreInUse as err:
        raise lock.StoreInUse(f"game #{args.id} was not deleted: a gadget is playing from this "
                              f"store ({err})") from None
    with held:
        if not args.yes and not _confirmed(store, info):
            print(f"overseer games delete: game #{args.id} was not deleted", file=sys.stderr)
            args.exit_code = 1
            return
        store.delete_game(args.id)
    print(json.dumps({"deleted": args.id}))


def _confirmed(store: Store, info: GameInfo) -> bool:
    """Ask on the terminal (stderr, so that stdout stays the command's answer)."""
    about = summary(store, info)
    what = ", ".join(part for part in (
        info.game, about["title"], ", ".join(about["heroes"]),
        "" if about["round"] is None else f"round {about['round']}",
        f"last played {_when(info.updated)}") if part)
    sys.stderr.write(f"Delete game #{info.id} ({what})? It cannot be undone. [y/N] ")
    sys.stderr.flush()
    answer = sys.stdin.readline()
    if not answer:
        sys.stderr.write("\n(no answer: add --yes to delete without being asked)\n")
    return answer.strip().lower() in ("y", "yes")


def _export(store: Store, args: argparse.Namespace) -> None:
    from overseer.session.export import write_export

    path = write_export(store, args.id, args.file)
    print(json.dumps({"exported": args.id, "file": str(path)}))


def _import(store: Store, args: argparse.Namespace) -> None:
    from overseer.session.export import import_export, read_export

    game_id, new = import_export(store, read_export(args.file))
    if not new:
        print(f"overseer games import: {args.file} is already in the store as game #{game_id};"
              " nothing was imported", file=sys.stderr)
    print(json.dumps({"imported" if new else "already_stored": game_id,
                      "store": str(store.path)}))


def _cards(store: Store, args: argparse.Namespace) -> None:
    """The cards the table read off the physical cards at this store, as card data records,
    for each game that keeps them (``Table.cards_read``: Conquest's)."""
    from overseer.app.flow import table

    said = [text for game in GAME_NAMES if (text := table(game).cards_read(store, _when))]
    if not said:
        print("overseer games cards: no card has been read off the card in this store yet",
              file=sys.stderr)
        return
    print("\n".join(said), end="")


def cmd_recover(args: argparse.Namespace) -> int:
    from overseer.cli.paths import store_path
    from overseer.session.recover import NothingToRecover, recover

    try:
        done = recover(store_path(args.db))
    except NothingToRecover as err:
        print(f"overseer games recover: {err}")
        return 0
    except errors() as err:
        return _fail("games recover", err)
    print("\n".join(done.lines()))
    return 0


Play = Callable[["Session", argparse.Namespace], int]


def add(sub: argparse._SubParsersAction, play: Play) -> None:
    """Add ``replay`` and ``games`` to the ``overseer`` command line; ``play`` plays a game
    on (``games resume``) and returns the exit status."""
    p = sub.add_parser("replay", help="replay an exported game and print its trace as JSON lines")
    p.add_argument("file")
    p.set_defaults(func=cmd_replay)

    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", metavar="FILE",
                    help="the game store (default: $OVERSEER_DB, the config file, or the "
                         "user data directory)")
    games = sub.add_parser("games", help="saved games: list, resume, delete, export, import, "
                                         "cards, recover")
    gsub = games.add_subparsers(dest="games_command", required=True)
    p = gsub.add_parser("list", parents=[db], help="saved games, the last played first")
    p.add_argument("--game", choices=GAME_NAMES)
    p.add_argument("--json", action="store_true", help="one JSON object a line, for scripts")
    p.set_defaults(func=_with_store(_list, create=False))
    p = gsub.add_parser("resume", parents=[db],
                        help="play a saved game on (by id, or the last unfinished of a type)")
    p.add_argument("id", type=int, nargs="?")
    p.add_argument("--game", choices=GAME_NAMES, default=GAME_NAMES[0])
    p.add_argument("--plain", action="store_true",
                   help="play in the line mode (for scripts and screen readers)")
    p.add_argument("--json", action="store_true",
                   help="print where the game stands as JSON instead of playing it")
    p.set_defaults(func=_with_store(_resume, create=False), play=play)
    p = gsub.add_parser("delete", parents=[db], help="delete a saved game (it asks first)")
    p.add_argument("id", type=int)
    p.add_argument("--yes", action="store_true", help="delete without asking")
    p.set_defaults(func=_with_store(_delete, create=False))
    p = gsub.add_parser("export", parents=[db], help="write a game to a new JSON file")
    p.add_argument("id", type=int)
    p.add_argument("file")
    p.set_defaults(func=_with_store(_export, create=False))
    p = gsub.add_parser("import", parents=[db], help="store a game from an exported JSON file")
    p.add_argument("file")
    p.set_defaults(func=_with_store(_import))
    p = gsub.add_parser("cards", parents=[db],
                        help="the cards read off the card at this table, as records of the "
                             "game's card data")
    p.set_defaults(func=_with_store(_cards, create=False))
    p = gsub.add_parser("recover", parents=[db],
                        help="save what can be read of a damaged store into a new one (the "
                             "damaged file is kept aside)")
    p.set_defaults(func=cmd_recover)
