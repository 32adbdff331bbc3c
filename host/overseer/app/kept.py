"""What the gadget keeps beside each game in the store's gadget table (``Store.gadget``): the
seats, how many first actions the gadget began, where the table is in the pages (``place``,
``controller.Place``; an older store's ``shown``, the step alone: written with the next step's
transaction, see ``Playing.keep_place``), the form
under way (``form``, app/form_host.py), that the table read the end (``end_read``), and why a
game was set aside (``aside``); and the game the gadget opens at start.

Only the game's log is the game: what is kept here is the gadget's. A store that cannot be
written (read-only) is journalled and the table goes on; a restart reads it again.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from overseer.session.session import LogError, Session, SessionError
from overseer.session.store import Store, StoreError

log = logging.getLogger("overseer.gadget")


def update(store: Store, game_id: int, what: str, later: bool = False, **fields: Any) -> bool:
    """Keep ``fields`` beside the game (a None one is removed); False (journalled, ``what``
    names it) when the store cannot be written. ``later``: written with the store's next
    write, not now (``Store.set_gadget_later``: lost if the power goes first)."""
    data = store.gadget(game_id)  # (a new object: the store keeps the one it last wrote)
    for key, value in fields.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    if later:
        store.set_gadget_later(game_id, data)
        return True
    try:
        store.set_gadget(game_id, data)
    except StoreError as err:
        log.warning("game #%d: %s: %s", game_id, what, err)
        return False
    return True


def last_played(store: Store, labels: Mapping[str, str], aside: list[str]) -> Session | None:
    """The game to open at start: the one of a game the gadget plays (``labels``: their
    names) that was played last, if it is unfinished or its end is unread; else the last
    unfinished one. A game that does not replay is set aside (``aside`` gets what the glass
    says of it)."""
    infos = [i for i in store.games() if i.game in labels]
    for n, info in enumerate(infos):
        kept = store.gadget(info.id)
        if kept.get("aside") or (info.finished and (n > 0 or kept.get("end_read"))):
            continue
        try:
            return Session.resume(store, info.id)
        except (LogError, SessionError, StoreError) as err:
            # its log stays as it is, out of the way of the start (read-only: set aside again
            # at the next start)
            log.warning("game #%d set aside: %s", info.id, err)
            update(store, info.id, "could not be marked as set aside", aside=str(err)[:500])
            aside.append(f"Game #{info.id} ({labels[info.game]}) no longer replays under these "
                         f"rules, so it was set aside. It is kept: `overseer games export "
                         f"{info.id} FILE` saves it.")
    return None


def unset_aside(store: Store, game_id: int) -> None:
    """A game set aside that was asked for by its id and replays: back in the start's
    choice."""
    if store.gadget(game_id).get("aside") is not None:
        update(store, game_id, "could not be put back", aside=None)
