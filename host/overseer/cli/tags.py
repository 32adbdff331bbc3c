"""``overseer tags write|register|read``: the card tags, from the command line.

- ``write GAME``: every card of the game, one tag after another, each read back to check it;
- ``register GAME KIND CARD``: name a tag that carries no record of ours by its UID (the tag
  map beside the game store), from the tag on the reader or ``--uid``;
- ``read``: what the tag on the reader names.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from overseer.devices.tags import CardRef, TagError, TagMap, tag_map_path, uid_text

Out = Callable[[str], None]


def _fail(command: str, message: object) -> int:
    print(f"overseer tags {command}: {message}", file=sys.stderr)
    return 2


def _tag_map(db: str | None) -> TagMap:
    from overseer.cli.paths import store_path

    return TagMap(tag_map_path(store_path(db)))


def wait_for_tag(reader: Any, *, skip: str | None = None, timeout: float | None = None,
                 poll: float = 0.05) -> Any | None:
    """The next tag on the reader other than the one with UID ``skip`` (it must leave first);
    None after ``timeout`` seconds (None: wait for ever)."""
    end = None if timeout is None else time.monotonic() + timeout
    while end is None or time.monotonic() < end:
        target = reader.sense()
        if target is None:
            skip = None
        elif uid_text(bytes(target.sdd_res)) != skip:
            return target
        time.sleep(poll)
    return None


def write_cards(reader: Any, todo: list[tuple[CardRef, str]], out: Out, *,
                overwrite: bool = False, first: int = 1) -> int:
    """Write each card of ``todo`` on the next tag held on the reader, reading it back; a tag
    that fails is said and the same card asked again. Returns how many were written."""
    from overseer.devices.nfc import ReadFailed

    last: str | None = None
    width = len(str(len(todo) + first - 1))
    for number, (ref, name) in enumerate(todo, first):
        ask = "take the last tag away and hold the next" if last else "hold a tag"
        out(f"[{number:>{width}}/{len(todo) + first - 1}] {ref.kind} {name} ({ref.card}): "
            f"{ask} on the reader")
        while True:
            target = wait_for_tag(reader, skip=last)
            assert target is not None  # no timeout: it waits until a tag comes
            uid = uid_text(bytes(target.sdd_res))
            try:
                last = reader.write(target, ref, overwrite)
            except ReadFailed as err:
                last = uid
                out(f"    tag {uid}: {err}")
                continue
            except OSError as err:
                if not reader.probe():
                    raise
                last = None  # a garbled answer: the same tag again
                out(f"    tag {uid}: the reader's answer was garbled ({err}): writing it again")
                continue
            out(f"    tag {last}: written and read back")
            break
    return len(todo)


def _todo(args: argparse.Namespace) -> list[tuple[CardRef, str]]:
    from overseer.devices.tags import cards

    todo = [(ref, name) for ref, name in cards(args.game) if args.kind in (None, ref.kind)]
    if not todo:
        kinds = sorted({ref.kind for ref, _ in cards(args.game)})
        raise TagError(f"{args.game} has no {args.kind!r} cards: the kinds are {', '.join(kinds)}")
    if not 1 <= args.start <= len(todo):
        raise TagError(f"--start must be 1 to {len(todo)}, not {args.start}")
    return todo[args.start - 1:]


def cmd_write(args: argparse.Namespace) -> int:
    from overseer.devices.nfc import Reader, ReaderLost

    try:
        todo = _todo(args)
        reader = Reader.open(args.port)
    except (TagError, ReaderLost) as err:
        return _fail("write", err)
    print(f"writing {len(todo)} {args.game} card tags with {reader.name} (Ctrl-C stops; "
          "--start N goes on from card N)", flush=True)
    try:
        done = write_cards(reader, todo, lambda text: print(text, flush=True),
                           overwrite=args.overwrite, first=args.start)
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
        return 130
    except OSError as err:
        return _fail("write", f"the reader failed ({err}); --start picks up where it stopped")
    finally:
        reader.close()
    print(f"all {done} tags written and checked")
    return 0


def cmd_register(args: argparse.Namespace) -> int:
    from overseer.devices.nfc import ReadFailed
    from overseer.devices.tags import check_card, check_uid

    try:
        ref = check_card(args.game, args.kind, args.card)
        tag_map = _tag_map(args.db)
        uid = check_uid(args.uid) if args.uid else _uid_from_reader(args)
    except (TagError, ReadFailed, OSError) as err:
        return _fail("register", err)
    if uid is None:
        return _fail("register", f"no tag came to the reader in {args.wait:g} s")
    try:
        before = tag_map.assign(uid, ref)
    except (TagError, OSError) as err:
        return _fail("register", err)
    was = f" (it named {before} before)" if before and before != ref else ""
    print(f"tag {uid} names {ref}{was}: {tag_map.path}")
    return 0


def _uid_from_reader(args: argparse.Namespace) -> str | None:
    from overseer.devices.nfc import Reader

    reader = Reader.open(args.port)
    try:
        print(f"hold the tag for {args.game} {args.kind} {args.card} on the reader", flush=True)
        target = wait_for_tag(reader, timeout=args.wait)
        if target is None:
            return None
        found = reader.read(target)
    finally:
        reader.close()
    if found.card is not None:
        raise TagError(f"the tag {found.uid} names {found.card} by its own record, which wins "
                       "over the tag map: write it again (overseer tags write) instead")
    return found.uid


def cmd_read(args: argparse.Namespace) -> int:
    from overseer.devices.nfc import Reader, ReadFailed

    try:
        tag_map = _tag_map(args.db)
        reader = Reader.open(args.port)
    except (TagError, OSError) as err:
        return _fail("read", err)
    try:
        print("hold a tag on the reader", file=sys.stderr, flush=True)
        target = wait_for_tag(reader, timeout=args.wait)
        if target is None:
            return _fail("read", f"no tag came to the reader in {args.wait:g} s")
        found = reader.read(target)
    except (ReadFailed, OSError) as err:
        return _fail("read", err)
    finally:
        reader.close()
    card, by = found.card, "record" if found.card else None
    if card is None and tag_map.get(found.uid):
        card, by = tag_map.get(found.uid), "tag map"
    print(json.dumps({"uid": found.uid, "card": None if card is None else str(card), "by": by,
                      "problem": found.problem}))
    return 0


def add(sub: argparse._SubParsersAction, about: str) -> None:
    """Add ``tags`` to the ``overseer`` command line (``about``: its line in the list)."""
    from overseer.devices.nfc import DEFAULT_PORT, PORT_ENV, default_port

    reader = argparse.ArgumentParser(add_help=False)
    reader.add_argument("--port", default=default_port(),
                        help=f"the NFC reader's serial port (default: ${PORT_ENV} or "
                             f"{DEFAULT_PORT})")
    db = argparse.ArgumentParser(add_help=False)
    db.add_argument("--db", metavar="FILE",
                    help="the game store; the tag map is tags.toml beside it")
    wait = argparse.ArgumentParser(add_help=False)
    wait.add_argument("--wait", type=float, default=30.0, metavar="SECONDS",
                      help="how long to wait for a tag (default 30)")
    tags = sub.add_parser("tags", help=about)
    tsub = tags.add_subparsers(dest="tags_command", required=True)
    p = tsub.add_parser("write", parents=[reader],
                        help="write every card of a game on tags, one after another")
    p.add_argument("game", help="a game whose cards get tags")
    p.add_argument("--kind", help="only the cards of this kind (e.g. room, hero)")
    p.add_argument("--start", type=int, default=1, metavar="N", help="begin at card N")
    p.add_argument("--overwrite", action="store_true",
                   help="also write over tags that name another card or hold other data")
    p.set_defaults(func=cmd_write)
    p = tsub.add_parser("register", parents=[reader, db, wait],
                        help="name a tag by its UID (a tag not written by Overseer)")
    p.add_argument("game", help="a game whose cards get tags")
    p.add_argument("kind")
    p.add_argument("card")
    p.add_argument("--uid", help="the tag's UID in hex (as the screen shows it), instead of "
                                 "holding the tag on the reader")
    p.set_defaults(func=cmd_register)
    p = tsub.add_parser("read", parents=[reader, db, wait],
                        help="print what the tag on the reader names")
    p.set_defaults(func=cmd_read)

