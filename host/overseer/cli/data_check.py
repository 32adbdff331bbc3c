"""``overseer data check [FOLDER]``: load every game's data files of a data folder (the one the
gadget uses by default, ``overseer.core.records.DATA_DIR``) as the games load them, and say for each
game that it is sound or what is wrong, naming the file, line, record and field."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path


def _catacombs(folder: Path) -> None:
    from overseer.loaders import catacombs as catacombs_data

    catacombs_data.load(folder)
    catacombs_data.heroes(folder)  # not games' cached value: the file as it is now


def _clank(folder: Path) -> None:
    from overseer.loaders import clank as clank_data

    clank_data.load(folder)


def _conquest(folder: Path) -> None:
    from overseer.loaders.conquest import load_cards

    load_cards(folder / "cards.toml")


def _runebound(folder: Path) -> None:
    from overseer.loaders import runebound as runebound_data

    runebound_data.load(folder)


GAMES: dict[str, Callable[[Path], None]] = {
    "catacombs": _catacombs, "clank": _clank, "conquest": _conquest, "runebound": _runebound,
}


def check(root: Path) -> dict[str, str | None]:
    """Each game's problem in ``root`` (its ``<game>/`` folder), None where its data loads."""
    from overseer.core.records import DataError

    problems: dict[str, str | None] = {}
    for game, load in GAMES.items():
        try:
            load(root / game)
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
