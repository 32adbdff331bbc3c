"""The `overseer` command line. With no command (or `play`) it plays in the terminal."""

from __future__ import annotations

import argparse
import json
import sys


def cmd_scenario(args: argparse.Namespace) -> int:
    from overseer import scenario as scenarios

    try:
        scn = scenarios.load(args.file)
        if args.upgrade:
            sys.stdout.write(scenarios.dumps(scn))
            return 0
        trace, final = scenarios.run(scn)
    except scenarios.ScenarioError as err:
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="overseer", description=__doc__)
    sub = parser.add_subparsers(dest="command")
    p = sub.add_parser("scenario", help="run a scenario file and print its trace as JSON lines")
    p.add_argument("file")
    how = p.add_mutually_exclusive_group()
    how.add_argument("--check", action="store_true", help="also check the file's expectations")
    how.add_argument("--upgrade", action="store_true",
                     help="print the file as format 2 (checked, not run)")
    p.set_defaults(func=cmd_scenario)
    from overseer.session import commands as session_commands

    session_commands.add(sub)
    add_tags(sub)
    add_doctor(sub)
    sub.add_parser("play", help="play in the terminal (the default; `overseer play --help`)",
                   add_help=False)
    return parser


def add_tags(sub: argparse._SubParsersAction) -> None:
    from overseer.devices import tag_commands

    tag_commands.add(sub)


def add_doctor(sub: argparse._SubParsersAction) -> None:
    sub.add_parser("doctor", help="check what the gadget needs (`overseer doctor --help`)",
                   add_help=False)


def run_doctor(argv: list[str]) -> int:
    """``overseer doctor``: before the parser is built, so that it imports only its checks."""
    from overseer.doctor import main as doctor_main

    return doctor_main(argv)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["doctor"]:
        return run_doctor(argv[1:])
    if not argv or argv[0] == "play" or (argv[0].startswith("-") and argv[0] not in
                                         ("-h", "--help")):
        from overseer.terminal import main as terminal_main
        return terminal_main(argv[1:] if argv and argv[0] == "play" else argv)
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
