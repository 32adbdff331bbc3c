"""The session's command-line commands: ``overseer replay FILE`` and
``overseer games list|resume|delete|export|import`` (``--db`` picks the store file)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from overseer.games import GAMES
from overseer.rules.procedure import describe
from overseer.session.export import ExportError, import_game, replay, write_export
from overseer.session.paths import ConfigError, store_path
from overseer.session.session import LogError, Session, SessionError
from overseer.session.store import Store, StoreError

ERRORS = (StoreError, ExportError, LogError, SessionError, ConfigError)


def _fail(command: str, err: Exception) -> int:
    print(f"overseer {command}: {err}", file=sys.stderr)
    return 2


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        trace, final = replay(args.file)
    except ERRORS as err:
        return _fail("replay", err)
    for step in trace:
        print(json.dumps(step))
    print(json.dumps({"final": final}))
    return 0


def _with_store(action: Callable[[Store, argparse.Namespace], None]):
    def run(args: argparse.Namespace) -> int:
        try:
            with Store(store_path(args.db)) as store:
                if store.notice:
                    print(f"overseer games: {store.notice}", file=sys.stderr)
                action(store, args)
        except ERRORS as err:
            return _fail(f"games {args.games_command}", err)
        return 0
    return run


def _list(store: Store, args: argparse.Namespace) -> None:
    for info in store.games(args.game):
        print(json.dumps(info.as_dict()))


def _resume(store: Store, args: argparse.Namespace) -> None:
    if args.id is not None:
        session = Session.resume(store, args.id)
    else:
        session = Session.resume_last(store, args.game)
        if session is None:
            raise SessionError(f"no unfinished {args.game} game to resume")
    if session.notice:
        print(f"overseer games resume: {session.notice}", file=sys.stderr)
    pending = session.pending
    print(json.dumps({**store.game(session.id).as_dict(), "state": session.state_dict(),
                      "question": None if pending is None else describe(pending),
                      "can_undo": session.can_undo, "can_redo": session.can_redo}))


def _delete(store: Store, args: argparse.Namespace) -> None:
    store.delete_game(args.id)
    print(json.dumps({"deleted": args.id}))


def _export(store: Store, args: argparse.Namespace) -> None:
    path = write_export(store, args.id, args.file)
    print(json.dumps({"exported": args.id, "file": str(path)}))


def _import(store: Store, args: argparse.Namespace) -> None:
    print(json.dumps({"imported": import_game(store, args.file), "store": str(store.path)}))


def add(sub: argparse._SubParsersAction) -> None:
    """Add ``replay`` and ``games`` to the ``overseer`` command line."""
    p = sub.add_parser("replay", help="replay an exported game and print its trace as JSON lines")
    p.add_argument("file")
    p.set_defaults(func=cmd_replay)

    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", metavar="FILE",
                    help="the game store (default: $OVERSEER_DB, the config file, or the "
                         "user data directory)")
    games = sub.add_parser("games", help="saved games: list, resume, delete, export, import")
    gsub = games.add_subparsers(dest="games_command", required=True)
    p = gsub.add_parser("list", parents=[db], help="saved games, the last played first")
    p.add_argument("--game", choices=list(GAMES))
    p.set_defaults(func=_with_store(_list))
    p = gsub.add_parser("resume", parents=[db],
                        help="restore a game (by id, or the last unfinished of a type)")
    p.add_argument("id", type=int, nargs="?")
    p.add_argument("--game", choices=list(GAMES), default="catacombs")
    p.set_defaults(func=_with_store(_resume))
    p = gsub.add_parser("delete", parents=[db], help="delete a saved game")
    p.add_argument("id", type=int)
    p.set_defaults(func=_with_store(_delete))
    p = gsub.add_parser("export", parents=[db], help="write a game to a new JSON file")
    p.add_argument("id", type=int)
    p.add_argument("file")
    p.set_defaults(func=_with_store(_export))
    p = gsub.add_parser("import", parents=[db], help="store a game from an exported JSON file")
    p.add_argument("file")
    p.set_defaults(func=_with_store(_import))
