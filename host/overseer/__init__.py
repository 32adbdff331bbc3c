"""Overseer: the table gadget for the Catacombs family of games."""

__version__ = "0.1.0"
