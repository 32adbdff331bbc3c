"""Where the game store lives: the command line's ``--db``, else ``$OVERSEER_DB``, else
``[session] database`` in the config file (``$OVERSEER_CONFIG``, default ``overseer.toml`` in
the user's config directory), else ``games.sqlite3`` in the user's data directory."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from pathlib import Path

import platformdirs

from overseer.cli.config import default_store, named_store, parse
from overseer.core.shapes import BadInput

APP = "overseer"


class ConfigError(ValueError):
    """A config file that cannot be read; the message names the file."""


def config_path(env: Mapping[str, str] = os.environ) -> Path:
    if env.get("OVERSEER_CONFIG"):
        return Path(env["OVERSEER_CONFIG"])
    return platformdirs.user_config_path(APP, appauthor=False) / "overseer.toml"


def store_path(cli: str | None = None, env: Mapping[str, str] = os.environ) -> Path:
    """The store file to open, by the precedence above."""
    named = named_store(cli, env)
    if named is not None:
        return named
    config = config_path(env)
    if config.is_file():
        try:
            with open(config, "rb") as f:
                table = tomllib.load(f)
        except (OSError, tomllib.TOMLDecodeError) as err:
            raise ConfigError(f"{config}: {err}") from err
        _check(config, table)
        section = table.get("session", {})
        database = section.get("database") if isinstance(section, dict) else None
        if database is not None:
            if not isinstance(database, str) or not database:
                raise ConfigError(f"{config}: [session] database must be a file path")
            return (config.parent / Path(database).expanduser()).resolve()
    return default_store()


def store_option(store: Path, env: Mapping[str, str] = os.environ) -> str:
    """`` --db FILE`` when ``store`` is not the store a bare command would open, else ``""``:
    what to add to a command that goes on with a game of ``store``."""
    try:
        default = store_path(None, env)
    except ConfigError:
        default = None
    return "" if default is not None and Path(store).resolve() == default.resolve() \
        else f" --db {store}"


def _check(config: Path, table: dict) -> None:
    """The whole file checked as the gadget checks it (overseer/config.py): a key it refuses
    (a typo) stops every command alike, never the gadget alone."""
    try:
        parse(table, config)
    except BadInput as err:
        raise ConfigError(f"{config}: {err}") from None
