"""The test suite, a package: every module imports by its full name (``tests.drivers...``,
``tests.app.test_pack_games``), with the repository's root and the firmware's folders on the
path from pyproject.toml's pytest ``pythonpath`` (never a ``sys.path`` edit here)."""
