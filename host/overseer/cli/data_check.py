"""``overseer data check [FOLDER]``: load every game's data files of a data folder (the one the
gadget uses by default, ``overseer.core.records.DATA_DIR``) as the games load them, and say for each
game that it is sound or what is wrong, naming the file, line, record and field."""

from __future__ import annotations

import argparse
from pathlib import Path


def check(root: Path) -> dict[str, str | None]:
    """Each game's problem in ``root`` (its ``<game>/`` folder, read by its record's
    ``data.load``: the files as they are now), None where its data loads; by name."""
    from overseer import games
    from overseer.core.records import DataError

    problems: dict[str, str | None] = {}
    for game in sorted(games.GAMES):
        try:
            games.GAMES[game].data.load(root / game)
            problems[game] = None
        except DataError as err:
            problems[game] = str(err)
        except OSError as err:
            problems[game] = f"{err.filename or root / game}: {err.strerror or err}"
    return problems


def add(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("data", help="the game data files: `overseer data check [FOLDER]`")
    what = p.add_subparsers(dest="data_command", required=True)
    c = what.add_parser("check", help="load every game's data files and say what is wrong")
    c.add_argument("folder", nargs="?", type=Path,
                   help="a data folder (default: the one the gadget uses, OVERSEER_DATA)")
    c.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from overseer.core.records import DATA_DIR

    root = args.folder if args.folder is not None else DATA_DIR
    if not root.is_dir():
        print(f"overseer data check: {root} is not a folder")
        return 2
    problems = check(root)
    for game, problem in problems.items():
        print(f"{root / game}: " + ("ok" if problem is None else f"BAD: {problem}"))
    return 1 if any(problems.values()) else 0
