"""The `overseer` command line."""

from __future__ import annotations

import argparse
import json
import sys

from overseer import scenario as scenarios
from overseer.session import commands as session_commands


def cmd_scenario(args: argparse.Namespace) -> int:
    try:
        scn = scenarios.load(args.file)
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
    p.add_argument("--check", action="store_true", help="also check the file's expectations")
    p.set_defaults(func=cmd_scenario)
    session_commands.add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        from overseer.terminal import main as terminal_main
        return terminal_main()
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
