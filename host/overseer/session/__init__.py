"""The game session: a durable event log per game, its fold through the rules, undo/redo,
resume, and JSON export/import/replay. See docs/session.md."""

from overseer.session.export import ExportError, import_game, read_export, replay, write_export
from overseer.session.paths import ConfigError, store_path
from overseer.session.session import LogError, Session, SessionError, Undone, fold
from overseer.session.store import GameInfo, Store, StoreError

__all__ = [
    "ConfigError", "ExportError", "GameInfo", "LogError", "Session", "SessionError", "Store",
    "StoreError", "Undone", "fold", "import_game", "read_export", "replay", "store_path",
    "write_export",
]
