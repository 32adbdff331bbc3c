"""The game session: a durable event log per game, its fold through the rules, undo/redo,
resume, and JSON export/import/replay. See docs/session.md.

Import what you need from its modules (``session.session``, ``session.store``,
``session.export``...): the package itself imports nothing, so that a small module of it
(``session.lock``) comes without the rules, the screens, Pillow and SQLite
(``overseer --help`` needs none of them)."""
