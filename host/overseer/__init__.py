"""Overseer: the table gadget for the Catacombs family of games."""

__version__ = "0.1.0"

# The version of the rules a game log is folded through. Raise it whenever a change to the
# rules, the moves or the data could fold a stored log differently (another trace, another
# state, another question): the store records it with each game, a game saved under another
# version says so when it is resumed, and the session's snapshots are rebuilt.
RULES_VERSION = 2
