"""``overseer --help`` loads no game rules, no Pillow and no SQLite (docs/benchmarks.md, Cold
start): the command line is built from small modules, the rest loads when a command runs."""

from __future__ import annotations

import json
import subprocess
import sys

from overseer.cli.store import GAME_NAMES
from overseer.games import GAMES

HEAVY = ("PIL", "sqlite3", "_sqlite3", "overseer.rules", "overseer.games", "overseer.screens",
         "overseer.session.session", "overseer.session.store", "ndef", "nfc")


def modules_after(argv: list[str]) -> list[str]:
    code = ("import contextlib, io, json, sys\n"
            "from overseer.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
            f"    main({argv!r})\n"
            "print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def test_the_help_imports_no_rules_pillow_or_sqlite() -> None:
    loaded = modules_after(["--help"])
    assert "overseer.cli" in loaded
    heavy = [m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY)]
    assert heavy == []


def test_the_command_line_names_every_game() -> None:
    assert list(GAME_NAMES) == list(GAMES)
