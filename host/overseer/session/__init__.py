"""The game session: a durable event log per game, its fold through the rules, undo/redo,
resume, and JSON export/import/replay. See docs/session.md.

The names below load with their module when first asked for (PEP 562), so importing one
small module of the package (``session.lock``, ``session.paths``) does not load the rules,
the screens, Pillow and SQLite with it (``overseer --help`` needs none of them)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_HOMES = {
    "ExportError": "export", "import_game": "export", "read_export": "export",
    "replay": "export", "write_export": "export",
    "ConfigError": "paths", "store_path": "paths",
    "LogError": "session", "Session": "session", "SessionError": "session", "Undone": "session",
    "fold": "session",
    "GameInfo": "store", "Store": "store", "StoreError": "store",
}

__all__ = sorted(_HOMES)

if TYPE_CHECKING:
    from overseer.session.export import (ExportError, import_game, read_export, replay,
                                         write_export)
    from overseer.session.paths import ConfigError, store_path
    from overseer.session.session import LogError, Session, SessionError, Undone, fold
    from overseer.session.store import GameInfo, Store, StoreError


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"overseer.session.{home}"), name)
