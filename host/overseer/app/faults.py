"""The inbox loop's guard (app/shell.py, ``Gadget.feed``): what the glass says of a fault it
caught, and every fault it caught (tests look at them)."""

from __future__ import annotations

from overseer.session.store import SaveError, StoreError

faults: list[BaseException] = []  # every fault the loop's guard caught


def fault_text(err: BaseException) -> str:
    """What the glass says of a fault the loop caught: what happened, in words the table can
    act on (the store's path and the traceback are the journal's)."""
    if isinstance(err, SaveError):
        return err.short
    if isinstance(err, StoreError | OSError):
        return ("The game store could not be used for that. Nothing was changed: the game is "
                "at its last saved step. Check the SD card; the journal says more.")
    return (f"That did not work: a fault inside Overseer ({type(err).__name__}). Nothing was "
            "changed: the game is at its last saved step. The journal has the details.")
