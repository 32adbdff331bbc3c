"""Exported games: one game and its whole log in a versioned JSON file.

``{"kind": "overseer-game", "format": 1, "game", "setup", "seed", "dice", "events", "head",
"finished", "retracted", "rules_version", "digest"}`` (``rules_version``: the rules version
that last wrote the log, null when unknown; optional on import, older exports lack it).
``digest`` is the SHA-256 of the events (``overseer.session.events.digest``): an edited or
damaged file is refused. A file is checked completely, and its log replayed through the rules,
before anything is stored; a bad file changes nothing. A file from a newer format is refused
with a message saying so.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import overseer
from overseer.core.shapes import BadInput, check_plain
from overseer.documents import read_json, read_limited, upgrade
from overseer.games import GAMES
from overseer.session.events import DICE_MODES, Event, digest, event_from_dict
from overseer.session.session import Fold, LogError, apply_event, auto_answered, fold, game_spec
from overseer.session.store import Store

KIND = "overseer-game"
FORMAT = 1


class ExportError(ValueError):
    """An export that cannot be written or read; the message says what and where."""


def export_game(store: Store, game_id: int) -> dict[str, Any]:
    """The game as an export document."""
    info = store.game(game_id)
    events = store.events(game_id)
    return {
        "kind": KIND,
        "format": FORMAT,
        "exported_by": f"overseer {overseer.__version__}",
        "game": info.game,
        "setup": info.setup,
        "seed": info.seed,
        "dice": info.dice,
        "created": info.created,
        "finished": info.finished,
        "rules_version": info.rules,
        "head": info.head,
        "events": [e.as_dict() for e in events],
        "retracted": store.retracted(game_id),
        "digest": digest(events),
    }


def write_export(store: Store, game_id: int, path: str | Path) -> Path:
    """Write the game to a new file (an existing file is never replaced)."""
    path = Path(path)
    text = json.dumps(export_game(store, game_id), indent=1, ensure_ascii=False) + "\n"
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "x", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.link(tmp, path)
    except FileExistsError as err:
        raise ExportError(f"{path} already exists; choose another file name") from err
    except OSError as err:
        raise ExportError(f"{path}: cannot write ({err.strerror})") from err
    finally:
        tmp.unlink(missing_ok=True)
    return path


def _require(doc: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in doc:
        raise ExportError(f"{where}: '{key}' is missing")
    value = doc[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise ExportError(f"{where}: '{key}' has the wrong type (got {value!r})")
    return value


def read_export(path: str | Path) -> dict[str, Any]:
    """Load and check an export: format, fields, digest, and a replay of its log."""
    path = Path(path)
    try:
        if not read_limited(path).strip():
            raise ExportError(f"{path}: the file is empty")
        doc = read_json(path)
    except ValueError as err:  # unreadable, not UTF-8, not JSON, nested beyond reason
        raise ExportError(str(err)) from None
    if not isinstance(doc, dict) or doc.get("kind") != KIND:
        raise ExportError(f"{path}: not an Overseer game export (no \"kind\": \"{KIND}\")")
    fmt = _require(doc, "format", int, str(path))
    if fmt > FORMAT:
        raise ExportError(f"{path}: written by a newer Overseer (export format {fmt}; this one "
                          f"reads up to format {FORMAT}). Update Overseer to import it")
    if fmt < 1:
        raise ExportError(f"{path}: 'format' must be 1 to {FORMAT} (got {fmt})")
    game = _require(doc, "game", str, str(path))
    if game not in GAMES:
        raise ExportError(f"{path}: 'game' must be one of {', '.join(GAMES)} (got {game!r})")
    setup = _require(doc, "setup", dict, str(path))
    try:
        upgrade(setup, game)  # the checks a new game's setup passes: keys, types, sizes
    except BadInput as err:
        raise ExportError(f"{path}: {err.under('setup')}") from err
    except (KeyError, TypeError, ValueError) as err:
        raise ExportError(f"{path}: setup: {err}") from err
    seed = _require(doc, "seed", int, str(path))
    if not 0 <= seed < 1 << 63:
        raise ExportError(f"{path}: 'seed' must be from 0 to 2**63 - 1 (got {seed})")
    if doc.get("dice") not in DICE_MODES:
        raise ExportError(f"{path}: 'dice' must be one of {', '.join(DICE_MODES)} "
                          f"(got {doc.get('dice')!r})")
    _require(doc, "finished", bool, str(path))
    rules = doc.setdefault("rules_version", None)
    if rules is not None and (not isinstance(rules, int) or isinstance(rules, bool)):
        raise ExportError(f"{path}: 'rules_version' must be a whole number or null "
                          f"(got {rules!r})")
    head = _require(doc, "head", int, str(path))
    raw = _require(doc, "events", list, str(path))
    try:
        check_plain(raw, "events")
        events = [event_from_dict(item, f"{path}: events[{n}]") for n, item in enumerate(raw)]
    except BadInput as err:
        raise ExportError(f"{path}: {err}") from err
    except ValueError as err:
        raise ExportError(str(err)) from err
    if not 0 <= head <= len(events):
        raise ExportError(f"{path}: 'head' must be from 0 to {len(events)} (got {head})")
    if _require(doc, "digest", str, str(path)) != digest(events):
        raise ExportError(f"{path}: the events do not match the file's digest: the file was "
                          f"edited or damaged")
    for n, item in enumerate(_require(doc, "retracted", list, str(path))):
        if not (isinstance(item, dict) and {"seq", "kind", "data", "retracted_at"} <= set(item)):
            raise ExportError(f"{path}: retracted[{n}] needs seq, kind, data and retracted_at")
    doc["events"] = events
    _check_log(doc, str(path))
    return doc


def _torn(result: Fold) -> bool:
    pending = result.runner.pending
    return pending is not None and auto_answered(pending, result.dice)


def _check_log(doc: dict[str, Any], where: str) -> None:
    """Replay every event (the undone tail too); the head and the end must fall between
    inputs, never inside one."""
    events: list[Event] = doc["events"]
    try:
        result = fold(game_spec(doc["game"]), doc["setup"], doc["dice"], [], doc["seed"])
        for n, event in enumerate(events):
            if n == doc["head"] and (not event.is_input or _torn(result)):
                raise LogError("'head' falls inside an input")
            try:
                apply_event(result, event)
            except (LogError, ValueError, KeyError, TypeError) as err:
                raise LogError(f"event #{n} ({event.kind}): {err}") from err
        if _torn(result):
            raise LogError("the log stops inside an input")
    except LogError as err:
        raise ExportError(f"{where}: the log does not replay: {err}") from err


def import_game(store: Store, path: str | Path) -> int:
    """Store an exported game as a new saved game; returns its id (the id it already has when
    the same game, log and head are in the store: it is not stored twice)."""
    return import_export(store, read_export(path))[0]


def import_export(store: Store, doc: dict[str, Any]) -> tuple[int, bool]:
    """Store a checked export (``read_export``): its id, and whether it was new."""
    fields = (doc["game"], doc["setup"], doc["seed"], doc["dice"], doc["events"], doc["head"])
    there = store.same_game(*fields)
    if there is not None:
        return there, False
    return store.create_game(*fields[:4], doc["events"], doc["head"], doc["finished"],
                             doc["retracted"], rules=doc["rules_version"]), True


def replay(path: str | Path) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The trace of an exported game up to its head, and its final state as a dict."""
    doc = read_export(path)
    spec = game_spec(doc["game"])
    result = fold(spec, doc["setup"], doc["dice"], doc["events"][:doc["head"]], doc["seed"])
    return ([step.as_dict() for step in result.runner.trace],
            spec.state_dict(result.runner.state))
