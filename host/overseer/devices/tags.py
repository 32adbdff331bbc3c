"""What a card's NFC tag says, and the cards a game has tags for.

A tag names a card in one of two ways (docs/hardware.md, "Card tags"):

- by the project's own NDEF record, written by ``overseer tags write``: an NFC Forum external
  type record of type ``overseer:card`` (``urn:nfc:ext:overseer:card``) whose payload is the
  ASCII text ``"<format> <game> <kind> <card>"``, format ``1``, e.g.
  ``1 catacombs room zothas-gatehouse``;
- or, for a tag not written by us, by its UID through the tag map, a TOML file beside the game
  store (``tags.toml``), written by ``overseer tags register``.

The record wins over the map. Anything else is an unknown tag.
"""

from __future__ import annotations

import os
import re
import tempfile
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import ndef

from overseer.core.shapes import suggestion

RECORD_TYPE = "urn:nfc:ext:overseer:card"
FORMAT = 1
TAG_MAP_NAME = "tags.toml"
_WORD = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_UID = re.compile(r"^(?:[0-9A-F]{2}){4,10}$")


class TagError(ValueError):
    """A tag, a card name or a tag map that cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class CardRef:
    """One card of one game: ``kind`` is the card's sort in that game (its record's ``cards``)
    and ``card`` its id in the game's data."""

    game: str
    kind: str
    card: str

    def __str__(self) -> str:
        return f"{self.game} {self.kind} {self.card}"


# --------------------------------------------------------------------------- the record


def card_record(ref: CardRef) -> ndef.Record:
    """The NDEF record that names ``ref``."""
    for name in ("game", "kind", "card"):
        value = getattr(ref, name)
        if not _WORD.match(value):
            raise TagError(f"a card's {name} is lower-case letters, digits and '-', not {value!r}")
    return ndef.Record(RECORD_TYPE, "", f"{FORMAT} {ref}".encode("ascii"))


def message_octets(records: Iterable[ndef.Record]) -> bytes:
    """The NDEF message of ``records``, as it goes on a tag."""
    return b"".join(cast(Iterable[bytes], ndef.message_encoder(records)))


def card_from_records(records: Iterable[ndef.Record]) -> CardRef | None:
    """The card the first ``overseer:card`` record names; None when there is no such record.
    A record of ours that cannot be read raises TagError saying what is wrong with it."""
    for record in records:
        if record.type == RECORD_TYPE:
            return _parse_payload(bytes(record.data))
    return None


def _parse_payload(payload: bytes) -> CardRef:
    try:
        text = payload.decode("ascii")
    except UnicodeDecodeError:
        raise TagError("the tag's card record is not ASCII text") from None
    fields = text.split(" ")
    if not fields[0].isdigit():
        raise TagError(f"the tag's card record has no format number: {text!r}")
    if int(fields[0]) != FORMAT:
        raise TagError(f"the tag's card record is format {fields[0]}; this Overseer reads format "
                       f"{FORMAT} (a newer Overseer wrote it?)")
    if len(fields) != 4 or not all(_WORD.match(f) for f in fields[1:]):
        raise TagError(f"the tag's card record should read '{FORMAT} game kind card', not "
                       f"{text!r}")
    return CardRef(*fields[1:])


def uid_text(uid: bytes) -> str:
    """A tag's UID as the gadget shows it: upper-case hex, no separators."""
    return uid.hex().upper()


# --------------------------------------------------------------------------- the cards


def catalogue(game: str) -> dict[str, dict[str, str]]:
    """The cards of ``game`` that get tags (its record's ``cards``): kind -> card id -> name,
    in data file order. A game with no cards gets no tags."""
    from overseer import games  # the games only when a game's tags are asked

    spec = games.GAMES.get(game)
    found = spec.cards() if spec is not None else {}
    if not found:
        raise TagError(f"no card tags for game {game!r}: {suggestion(game, tagged())}")
    return found


def tagged() -> list[str]:
    """The games whose cards get tags (their records name cards)."""
    from overseer import games

    return [name for name, spec in games.GAMES.items() if spec.cards()]


def cards(game: str) -> list[tuple[CardRef, str]]:
    """Every card of ``game`` that gets a tag, with its name, in the order ``tags write`` goes."""
    return [(CardRef(game, kind, card), name)
            for kind, table in catalogue(game).items() for card, name in table.items()]


def check_card(game: str, kind: str, card: str) -> CardRef:
    """The card named, checked against the game's data; TagError with a suggestion if not."""
    kinds = catalogue(game)
    if kind not in kinds:
        raise TagError(f"{game} has no {kind!r} cards: {suggestion(kind, kinds)}")
    if card not in kinds[kind]:
        raise TagError(f"{game} has no {kind} {card!r}: {suggestion(card, kinds[kind])}")
    return CardRef(game, kind, card)


# --------------------------------------------------------------------------- the tag map


def tag_map_path(store: Path) -> Path:
    """The tag map kept with the game store ``store`` (the same folder)."""
    return Path(store).with_name(TAG_MAP_NAME)


def check_uid(uid: str) -> str:
    """A UID as written in the tag map (upper-case hex of 4 to 10 bytes); TagError if not."""
    text = uid.strip().replace(":", "").replace(" ", "").upper()
    if not _UID.match(text):
        raise TagError(f"a tag UID is 4 to 10 bytes in hex (e.g. 04A1B2C3D4E5F6), not {uid!r}")
    return text


class TagMap:
    """UID -> card for tags that carry no record of ours, kept in a TOML file::

        [tags.04A1B2C3D4E5F6]
        game = "catacombs"
        kind = "room"
        card = "zothas-gatehouse"
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.cards: dict[str, CardRef] = {}
        self._stamp: tuple[int, int] | None = None
        self.reload()

    def reload(self) -> None:
        """Read the file again (a missing file is an empty map); TagError for a broken one."""
        self.cards = _read_map(self.path)
        self._stamp = _stamp(self.path)

    def refresh(self) -> bool:
        """Reload when the file changed on disk since it was read; True if it did."""
        if _stamp(self.path) == self._stamp:
            return False
        self.reload()
        return True

    def get(self, uid: str) -> CardRef | None:
        return self.cards.get(uid)

    def assign(self, uid: str, ref: CardRef) -> CardRef | None:
        """Map ``uid`` to ``ref`` and write the file (atomically); returns the card the UID
        named before, if any."""
        uid = check_uid(uid)
        self.refresh()
        before = self.cards.get(uid)
        self.cards[uid] = ref
        _write_map(self.path, self.cards)
        self._stamp = _stamp(self.path)
        return before


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_mtime_ns, st.st_size


def _read_map(path: Path) -> dict[str, CardRef]:
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise TagError(f"{path}: {err}") from None
    unknown = set(table) - {"tags"}
    if unknown:
        key = sorted(unknown)[0]
        raise TagError(f"{path}: unknown key {key!r}: {suggestion(key, ['tags'])}")
    found: dict[str, CardRef] = {}
    for uid, entry in table.get("tags", {}).items():
        if not isinstance(entry, dict) or set(entry) != {"game", "kind", "card"} or not all(
                isinstance(v, str) and _WORD.match(v) for v in entry.values()):
            raise TagError(f"{path}: tags.{uid} needs game, kind and card (lower-case ids) "
                           "and nothing else")
        try:
            found[check_uid(uid)] = CardRef(entry["game"], entry["kind"], entry["card"])
        except TagError as err:
            raise TagError(f"{path}: {err}") from None
    return found


def _write_map(path: Path, entries: dict[str, CardRef]) -> None:
    lines = ["# Tags that carry no Overseer record: UID -> card (`overseer tags register`)."]
    for uid in sorted(entries):
        ref = entries[uid]
        lines += ["", f"[tags.{uid}]", f'game = "{ref.game}"', f'kind = "{ref.kind}"',
                  f'card = "{ref.card}"']
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tags-", suffix=".toml", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
