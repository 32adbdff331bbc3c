"""The `overseer` command line. With no command (or `play`) it plays: the virtual gadget in this
terminal (the real firmware on a virtual Pico), or with `--plain` the line mode."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from overseer.app.shell import Gadget
    from overseer.session.session import Session
    from overseer.sim.box import VirtualBox
    from overseer.sim.running import Running
    from overseer.web import Page

# The modules are imported where they are needed: the simulator powers its virtual Pico on
# first, so that the firmware boots while the rest loads.


def play_errors() -> tuple[type[Exception], ...]:
    """What a play command reports as a message (the game stays as it was)."""
    from overseer.cli.paths import ConfigError
    from overseer.documents import ScenarioError
    from overseer.session.lock import StoreInUse
    from overseer.session.session import LogError, SessionError
    from overseer.session.store import StoreError
    from overseer.sim.box import BoardError
    from overseer.sim.opening import OptionError
    return (ScenarioError, StoreError, LogError, SessionError, ConfigError, StoreInUse,
            OptionError, BoardError, NoTerminal)


class NoTerminal(Exception):
    """The simulator was started without a terminal."""


def cmd_scenario(args: argparse.Namespace) -> int:
    from overseer import documents
    from overseer import scenario as scenarios

    try:
        scn = documents.load(args.file)
        if args.upgrade:
            sys.stdout.write(documents.dumps(scn))
            return 0
        trace, final = scenarios.run(scn)
    except documents.ScenarioError as err:
        print(f"overseer scenario: {err}", file=sys.stderr)
        return 2
    for step in trace:
        print(json.dumps(step))
    print(json.dumps({"final": final}))
    if args.check:
        problems = scenarios.check(scn, trace, final)
        for problem in problems:
            print(f"overseer scenario: {problem}", file=sys.stderr)
        return 1 if problems else 0
    return 0


# --------------------------------------------------------------------------- play


def play_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="overseer play", description="Play the gadget: the last unfinished game, or a new "
        "one (its questions on the glass). The options marked 'new game' apply only with "
        "--new or when there is no game to go on with.")
    parser.add_argument("--new", action="store_true", help="start a new game, do not resume")
    parser.add_argument("--setup", metavar="FILE",
                        help="new game: from a scenario-shaped setup file (docs/scenarios.md)")
    parser.add_argument("--seed", type=int, help="new game: the seed of the gadget's chance")
    parser.add_argument("--dice", choices=("pico", "seeded", "table"),
                        help="new game with --setup: who rolls, the Pico on ROLL (the "
                             "default), the gadget unseen (seeded), or the table's own dice")
    parser.add_argument("--tokens", choices=("gadget", "physical"),
                        help="new game with --setup: who draws damage tokens and poison "
                             "cards, the gadget from its (unverified) data, or the table")
    parser.add_argument("--plain", action="store_true",
                        help="the line mode, for scripts and screen readers")
    parser.add_argument("--db", metavar="FILE", help="the game store (see docs/session.md)")
    parser.add_argument("--web", action="store_true",
                        help="serve the page for the table's phones (docs/web.md; the config's "
                             "[web] says where)")
    parser.add_argument("--board", choices=("unix", "rp2040"), default="unix",
                        help="the virtual Pico: the firmware on MicroPython's Unix port (the "
                             "default, fast), or on its rp2 port on an emulated RP2040 "
                             "(slower, the real port; docs/hardware.md)")
    return parser


def cmd_play(argv: list[str]) -> int:
    args = play_parser().parse_args(argv)
    args.game_id = None
    box = None
    try:
        box = None if args.plain else power_on(args.board)
        from overseer.cli.paths import store_path
        from overseer.session.store import Store
        from overseer.sim import opening

        path = store_path(args.db)
        with Store(path) as store:
            if store.notice:
                print(f"overseer: {store.notice}", file=sys.stderr)
            game_id = opening.choose_game(store, args)
        code, box = play(path, game_id, args, box), None
        return code
    except play_errors() as err:
        print(f"overseer: {err}", file=sys.stderr)
        return 2
    finally:
        if box is not None:
            box.close()


def power_on(board: str = "unix") -> VirtualBox:
    """The virtual Pico (``board``: "unix" or "rp2040"), booting (NoTerminal when there is no
    terminal to play in)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise NoTerminal("the simulator needs a terminal; --plain plays line by line (for "
                         "scripts and screen readers)")
    from overseer.sim.box import VirtualBox

    box = VirtualBox(board=board)
    box.power_on()
    return box


def play_session(session: Session, args: argparse.Namespace) -> int:
    """``games resume``: play that game on."""
    session.store.close()  # the gadget opens it again, under its lock
    try:
        box = None if args.plain else power_on(getattr(args, "board", "unix"))
        return play(session.store.path, session.id, args, box)
    except play_errors() as err:
        print(f"overseer: {err}", file=sys.stderr)
        return 2


def play(path: Path, game_id: int | None, args: argparse.Namespace,
         box: VirtualBox | None) -> int:
    """Game ``game_id`` (None: the gadget asks a new game's questions) in the simulator on
    ``box``, or in the line mode (no box)."""
    seed = getattr(args, "seed", None)
    new = game_id is None and bool(getattr(args, "new", False))  # --new: the questions
    from overseer.cli.paths import store_option
    if box is None:
        from overseer.sim.plain import run_plain
        return run_plain(path, game_id, seed, sys.stdin, sys.stdout, new=new,
                         again=store_option(path))
    from overseer.sim.app import run
    running = simulator(path, game_id, seed, box, new=new)
    page = web_page(running.gadget, args)
    try:
        return run(running, again=store_option(path))
    finally:
        if page is not None:
            page.close()


def web_page(gadget: Gadget, args: argparse.Namespace) -> Page | None:
    """With ``--web``: the page for the table's phones, following ``gadget`` (before its loop
    starts); where it listens, or why it cannot, is said on the glass."""
    if not getattr(args, "web", False):
        return None
    from overseer import web
    from overseer.cli.config import load

    said: list[str] = []
    page = web.from_config(gadget, load(), said.append, forced=True)
    if said and (page is None or not page.watcher.told):  # told: the code and the address
        gadget.tell("Web page", said[-1])
    return page


def simulator(path: Path, game_id: int | None, seed: int | None,
              box: VirtualBox | None = None, new: bool = False) -> Running:
    """The gadget on the virtual box (powered on here when ``box`` is None); the box is
    closed if the gadget cannot start."""
    if box is None:
        from overseer.sim.box import VirtualBox
        box = VirtualBox()
        box.power_on()
    try:
        from overseer.sim.running import Running
        return Running(path, game_id, seed, box, new=new)
    except BaseException:
        box.close()
        raise


# --------------------------------------------------------------------------- the command


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line; ``tags`` whole only when ``command`` is it (its reader's defaults
    load the NFC modules, which ``overseer --help`` and the other commands do without)."""
    parser = argparse.ArgumentParser(prog="overseer", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    p = sub.add_parser("scenario", help="run a scenario file and print its trace as JSON lines")
    p.add_argument("file")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--check", action="store_true", help="also check the file's expectations")
    how.add_argument("--upgrade", action="store_true",
                     help="print the file as format 2 (checked, not run)")
    p.set_defaults(func=cmd_scenario)
    from overseer.cli import store as session_commands

    session_commands.add(sub, play_session)
    if command == "tags":
        add_tags(sub)
    else:
        sub.add_parser("tags", help=TAGS_HELP, add_help=False)
    add_doctor(sub)
    add_gadget(sub)
    from overseer.cli import data_check

    data_check.add(sub)
    sub.add_parser("play", help="play the gadget (the default; `overseer play --help`)",
                   add_help=False)
    return parser


TAGS_HELP = "NFC card tags: write a game's cards, register or read a tag"


def add_tags(sub: argparse._SubParsersAction) -> None:
    from overseer.cli import tags as tag_commands

    tag_commands.add(sub, TAGS_HELP)


def add_doctor(sub: argparse._SubParsersAction) -> None:
    sub.add_parser("doctor", help="check what the gadget needs (`overseer doctor --help`)",
                   add_help=False)


def run_doctor(argv: list[str]) -> int:
    """``overseer doctor``: before the parser is built, so that it imports only its checks."""
    from overseer.cli.doctor import main as doctor_main

    return doctor_main(argv)


# `overseer gadget` (the headless gadget the service runs) and `overseer config`: service.py
GADGET_COMMANDS = {"gadget": "play with no terminal, as the service does (`overseer gadget "
                   "--help`)", "config": "print the config in force (overseer/config.py)",
                   "web": "the gadget with no terminal and its page for the table's phones "
                   "(`overseer gadget --web`, docs/web.md)"}


def add_gadget(sub: argparse._SubParsersAction) -> None:
    for name, about in GADGET_COMMANDS.items():
        sub.add_parser(name, help=about, add_help=False)


def run_gadget(argv: list[str]) -> int:
    from overseer.cli import service

    if argv[0] == "web":
        return service.main(argv[1:], web=True)
    return (service.main if argv[0] == "gadget" else service.config_main)(argv[1:])


def dispatch(argv: list[str]) -> int:
    from overseer.app import registry  # the games' names only; install() when a command runs

    if argv[:1] == ["doctor"]:  # its data check installs the games (the rest needs none)
        return run_doctor(argv[1:])
    if argv[:1] and argv[0] in GADGET_COMMANDS:
        registry.install()
        return run_gadget(argv)
    if not argv or argv[0] == "play" or (argv[0].startswith("-") and argv[0] not in
                                         ("-h", "--help")):
        registry.install()
        return cmd_play(argv[1:] if argv and argv[0] == "play" else argv)
    args = build_parser(argv[0] if argv else None).parse_args(argv)
    registry.install()
    return args.func(args)


def _quiet_stdout() -> None:
    """After a broken pipe (``| head``): no second error when Python flushes at exit."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        return dispatch(argv)
    except KeyboardInterrupt:
        print("\noverseer: stopped; every step taken is saved", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except NoTerminal as err:
        print(f"overseer: {err}", file=sys.stderr)
        return 2
    except Exception as err:
        # A data file that does not load; only once overseer.core.records was imported can it be one
        # (not imported here: the data module's tomllib and dataclasses cost --help its time)
        data = sys.modules.get("overseer.core.records")
        if data is None or not isinstance(err, data.DataError):
            raise
        print(f"overseer: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
