"""Scenario-shaped documents: a scenario file, a session's setup and an export all share this
shape: a game's name, its setup and a script (the actions, the dice results, token draws,
blind picks and the players' answers). The format is described in docs/scenarios.md.

Format 2 puts the setup under ``"setup"`` and the script under ``"script"`` for every game.
Format 1 (still read, and run the same) kept the script at the top level, and the Catacombs
setup too. ``upgrade`` checks a document of either format and returns it as format 2; every
key and type is checked and an unknown key is refused with a suggestion (``overseer.core.shapes``).
``load`` reads a scenario file, ``dumps`` writes a document as the files are laid out.

A game comes from the registry (``overseer.games``): its ``build(setup)`` (the setup object
alone), ``state_dict``, its move table (each action's typed parameters) and where a format 1
document keeps the setup (``format1_keys``, ``format1_setup``). The runner that plays a
document's script through the rules is ``overseer.scenario``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from overseer import games
from overseer.core.params import ParamError, fields
from overseer.core.shapes import (
    BadInput,
    at,
    check_choice,
    check_fields,
    check_keys,
    check_list,
    check_plain,
    check_type,
    suggestion,
)
from overseer.games import GAMES, GameSpec

FORMAT = 2
FORMATS = (1, 2)
MAX_TIMES = 1000  # an action taken more often than this in one scenario is a mistake

SCRIPT_KEYS = ("actions", "dice", "tokens", "picks", "answers")
TOP_FIELDS: dict[str, Any] = {
    "format": int, "game": str, "title": str, "description": str, "setup": dict,
    "script": dict, "expect": list, "expect_state": dict, "strict": bool,
}
FORMAT1_FIELDS: dict[str, Any] = {
    **{k: v for k, v in TOP_FIELDS.items() if k not in ("setup", "script")},
    **dict.fromkeys(SCRIPT_KEYS, list),
}
TOKEN_FIELDS = {"value": int, "reset": bool, "pool": str}
ANSWER_FIELDS = {"key": str, "answer": object}


class ScenarioError(ValueError):
    """A scenario that cannot run: the message says what and where."""


def _game(name: str) -> GameSpec:
    """A game, by name (one of ``GAMES``)."""
    return games.get(name)


# --------------------------------------------------------------------------- checking


def _format(doc: dict[str, Any], session_game: str | None) -> int:
    fmt = doc.get("format", 1 if session_game else None)
    if isinstance(fmt, bool) or fmt not in FORMATS:
        raise BadInput("format", f"wanted 1 or 2, got {json.dumps(fmt)}")
    return fmt


def _game_name(doc: dict[str, Any], session_game: str | None) -> str:
    name = check_choice(doc.get("game", session_game), GAMES, "game", "a game")
    if session_game is not None and name != session_game:
        raise BadInput("game", f"{name!r} in a {session_game} setup")
    return name


def _check_action(action: Any, path: str, spec: GameSpec) -> None:
    """The action's name and parameters, by the game's move table (``times`` is the
    scenario's: how often to take it)."""
    check_type(action, dict, path)
    if "do" not in action:
        raise BadInput(at(path, "do"), "missing")
    check_choice(action["do"], spec.moves.names(), at(path, "do"),
                 f"a {spec.name.capitalize()} action")
    if not 1 <= check_type(action.get("times", 1), int, at(path, "times")) <= MAX_TIMES:
        raise BadInput(at(path, "times"), f"wanted 1 to {MAX_TIMES}")
    try:
        move, _ = spec.moves.parse({k: v for k, v in action.items() if k != "times"})
    except ParamError as err:
        problem = err.problem
        if problem.startswith("unknown key"):
            move = spec.moves.moves[action["do"]]
            known = [*(f.name for f in fields(move.params)), "times"]
            problem = f"unknown key; {suggestion(err.field, known)}"
        raise BadInput(at(path, err.field) if err.field else path, problem) from err


def _check_script(script: dict[str, Any], path: str, spec: GameSpec) -> None:
    for n, action in enumerate(check_list(script.get("actions", []), dict, at(path, "actions"))):
        _check_action(action, at(at(path, "actions"), n), spec)
    check_list(script.get("dice", []), int, at(path, "dice"))
    tokens = check_list(script.get("tokens", []), (int, dict), at(path, "tokens"))
    for n, token in enumerate(tokens):
        if isinstance(token, dict):
            check_fields(token, TOKEN_FIELDS, at(at(path, "tokens"), n), required=("value",))
    check_list(script.get("picks", []), str, at(path, "picks"))
    answers = check_list(script.get("answers", []), dict, at(path, "answers"))
    for n, answer in enumerate(answers):
        check_fields(answer, ANSWER_FIELDS, at(at(path, "answers"), n),
                     required=("key", "answer"))


def _misplaced(doc: dict[str, Any], fmt: int, module: GameSpec) -> None:
    """A key of the other format, named as such."""
    for key in doc:
        if fmt == 1 and key in ("setup", "script") and key not in module.format1_keys:
            raise BadInput(key, "a format 2 key, but the file says \"format\": 1")
        if fmt == 2 and key in SCRIPT_KEYS:
            raise BadInput(key, "goes in 'script' in format 2")
        if fmt == 2 and key in module.format1_keys and key != "setup":
            raise BadInput(key, "goes in 'setup' in format 2")


def checked(doc: Any, session_game: str | None = None
             ) -> tuple[dict[str, Any], GameSpec, Any]:
    """(the document as format 2, the game, its state as built): every key and type checked,
    paths as written in ``doc``. Raises ``BadInput``, or the game's own ``ValueError``."""
    if not isinstance(doc, dict):
        raise BadInput("", "a scenario is a JSON object")
    check_plain(doc)
    fmt = _format(doc, session_game)
    name = _game_name(doc, session_game)
    module = _game(name)
    _misplaced(doc, fmt, module)
    if fmt == 1:
        check_fields(doc, {**FORMAT1_FIELDS, **dict.fromkeys(module.format1_keys, object)}, "")
        setup, setup_at = module.format1_setup(doc)
        script, script_at = {k: doc[k] for k in SCRIPT_KEYS if k in doc}, ""
    else:
        check_fields(doc, TOP_FIELDS, "", required=("setup",))
        setup, setup_at = doc["setup"], "setup"
        script, script_at = check_keys(doc.get("script", {}), SCRIPT_KEYS, "script"), "script"
    _check_script(script, script_at, module)
    check_list(doc.get("expect", []), dict, "expect")
    try:
        state = module.build(setup)
    except BadInput as err:
        raise err.under(setup_at) from err
    upgraded: dict[str, Any] = {"format": FORMAT, "game": name}
    upgraded.update({k: doc[k] for k in ("title", "description") if k in doc})
    upgraded.update(setup=setup, script=script)
    upgraded.update({k: doc[k] for k in ("expect", "expect_state", "strict") if k in doc})
    return upgraded, module, state


def failure(where: str, err: Exception) -> ScenarioError:
    text = err.args[0] if isinstance(err, KeyError) and err.args else str(err)
    return ScenarioError(f"{where}: {text}")


def upgrade(doc: Any, session_game: str | None = None) -> dict[str, Any]:
    """A scenario of either format, checked (its setup built), as format 2. Given
    ``session_game``, ``doc`` is a session setup: ``format`` (1 when absent) and ``game`` may be
    left out. Raises ``BadInput`` (paths as written in ``doc``) or the game's ``ValueError``."""
    return checked(doc, session_game)[0]


def setup_of(doc: dict[str, Any], module: GameSpec) -> Any:
    """The setup object of a scenario or a stored session setup, as it stands (unchecked):
    format 2 keeps it under ``"setup"``; any other document is format 1 shaped."""
    if doc.get("format") == FORMAT:
        return doc.get("setup")
    return module.format1_setup(doc)[0]


def script_of(doc: dict[str, Any]) -> dict[str, Any]:
    """The script of a scenario of either format (unchecked)."""
    return doc.get("script", {}) if doc.get("format") == FORMAT else doc


MAX_FILE = 64 << 20  # bytes: the largest file read (an export of a long game is a few MB)


def read_limited(path: Path, limit: int = MAX_FILE) -> bytes:
    """A file's bytes, at most ``limit`` of them: ``ValueError`` for a longer one (or an
    endless one: /dev/zero, a pipe) and for one that cannot be read."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as err:
        raise ValueError(f"{path}: cannot read ({err.strerror or err})") from err
    if len(data) > limit:
        raise ValueError(f"{path}: larger than {limit >> 20} MB: not a file Overseer reads")
    return data


def read_json(path: Path) -> Any:
    """A JSON file's document; ``ValueError`` with one plain sentence for a file that cannot
    be read, is not UTF-8, is not JSON, or is nested or numbered beyond reason."""
    data = read_limited(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{path}: not UTF-8 text (byte 0x{data[err.start]:02x} at offset "
                         f"{err.start}); save the file as UTF-8") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        early = err.pos >= len(text.rstrip()) or err.msg.startswith("Unterminated string")
        hint = " - the file ends early: truncated?" if early else ""
        raise ValueError(f"{path}:{err.lineno}:{err.colno}: not valid JSON ({err.msg})"
                         f"{hint}") from None
    except RecursionError:
        raise ValueError(f"{path}: nested too deeply to read (lists or objects inside each "
                         f"other thousands of times)") from None
    except ValueError:  # Python refuses an integer of more than 4,300 digits
        raise ValueError(f"{path}: not valid JSON (a number thousands of digits long)") \
            from None


def load(path: str | Path) -> dict[str, Any]:
    """A scenario file, checked, as format 2 (with ``"_path"``, the file it came from)."""
    path = Path(path)
    try:
        doc = read_json(path)
    except ValueError as err:
        raise ScenarioError(str(err)) from None
    try:
        scenario = upgrade(doc)
    except (KeyError, TypeError, ValueError) as err:
        raise failure(str(path), err) from err
    scenario["_path"] = str(path)
    return scenario


def dumps(doc: dict[str, Any], width: int = 100) -> str:
    """A scenario as JSON laid out like the repository's files: one key a line at the top and
    in the setup and the script; below that a value on one line while it fits in ``width``,
    else a list of objects one a line, and other items packed into lines."""
    return _layout({k: v for k, v in doc.items() if not k.startswith("_")}, 0, width, 2) + "\n"


def _layout(value: Any, indent: int, width: int, expand: int = 0, lead: int = 0) -> str:
    """``value`` as JSON at ``indent`` after ``lead`` characters (its key); the first
    ``expand`` levels one item a line."""
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or not value or (
            not expand and indent + lead + len(flat) <= width):
        return flat
    inner = indent + 2
    below = max(expand - 1, 0) if isinstance(value, dict) else 0
    if isinstance(value, dict):
        parts = [f"{json.dumps(k)}: " + _layout(v, inner, width, below, len(json.dumps(k)) + 2)
                 for k, v in value.items()]
    else:
        parts = [_layout(v, inner, width) for v in value]
    pack = not expand and (isinstance(value, dict) or
                           not any(isinstance(v, dict | list) for v in value))
    lines: list[str] = []
    for part in parts:
        if lines and pack and "\n" not in part and "\n" not in lines[-1] and \
                inner + len(lines[-1]) + len(part) + 2 <= width:
            lines[-1] += ", " + part
        else:
            lines.append(part)
    pad = " " * inner
    opening, closing = "{}" if isinstance(value, dict) else "[]"
    return f"{opening}\n{pad}" + f",\n{pad}".join(lines) + f"\n{' ' * indent}{closing}"
