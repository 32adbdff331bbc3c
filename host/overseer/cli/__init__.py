"""The ``overseer`` command line and its commands (the store, the tags, the data check, the
doctor, the headless gadget's service) and the config file they read."""

from overseer.cli.command import main

__all__ = ["main"]
