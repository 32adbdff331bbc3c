"""The NFC card reader: a PN532 on the Pi's UART (HSU), driven by nfcpy.

- ``Reader``: one opened PN532 (nfcpy's ``pn532`` driver on its ``TTY`` transport, built
  directly: nfcpy's ``tty:`` path search cannot name every port). It senses one NFC-A tag at a
  time, reads the card a tag names, writes a card record and reads it back.
- ``TagWatcher``: the table's reader, one ``poll`` at a time: a tag held on the reader counts
  once; the same card again within ``repeat_window`` seconds is ignored (and said so); a read
  that fails is tried again, then reported; a reader that stops answering is closed and
  reopened until it answers. Cards go out as ``Tap``, other tags as ``UnknownTap``.
- ``NfcTags``: the ``Tags`` port (``start(inbox)``, ``close()``): a ``TagWatcher`` polled in a
  thread, its inputs put into the app's inbox.

What the reader cannot put into a card input (a tag ignored, a read that failed, the reader
lost or back) is a notice: a plain sentence logged on the ``overseer.nfc`` logger, given to
``notify``, and put into the inbox as a ``ReaderNotice`` (its key word and the sentence), which
the gadget shows over its screen.
"""

from __future__ import annotations

import errno
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ndef

from overseer.devices.tags import (
    CardRef,
    TagError,
    TagMap,
    card_from_records,
    card_record,
    message_octets,
    uid_text,
)
from overseer.ports.events import ReaderNotice, Tap, UnknownTap
from overseer.ports.inbox import Inbox

log = logging.getLogger("overseer.nfc")

DEFAULT_PORT = "/dev/serial0"  # the Pi's primary UART (GPIO 14/15), see hardware/wiring.md
PORT_ENV = "OVERSEER_NFC_PORT"
TARGET = "106A"  # NFC-A at 106 kbps: NTAG21x stickers


def default_port(env: dict[str, str] | None = None) -> str:
    """The reader's serial port: ``$OVERSEER_NFC_PORT``, else the Pi's ``/dev/serial0``."""
    env = dict(os.environ) if env is None else env
    return env.get(PORT_ENV) or DEFAULT_PORT


def load_nfcpy() -> None:
    """Import nfcpy, or raise ReaderLost saying what is missing (nfcpy loads libusb-1.0 even
    for a serial reader: Debian's ``libusb-1.0-0``)."""
    try:
        import nfc.clf.pn532  # noqa: F401
        import nfc.clf.transport  # noqa: F401
    except ImportError as err:
        raise ReaderLost(f"the NFC library nfcpy is not installed ({err}): reinstall Overseer "
                         "(scripts/_venv.sh)") from None
    except OSError as err:
        raise ReaderLost(f"the NFC library cannot load libusb-1.0 ({err}): "
                         "sudo apt-get install libusb-1.0-0") from None


class ReadFailed(Exception):
    """A tag was seen but could not be read (or written) as asked; the message says why."""


class Unreadable(ReadFailed):
    """A tag that answers but whose bytes do not decode (a malformed NDEF record): reading it
    again gives the same, so it is not tried again."""


class ReaderLost(OSError):
    """The reader does not answer (or cannot be opened); the message says where and why."""


@dataclass(frozen=True, slots=True)
class TagRead:
    """What one tag said: its UID (hex) and the card it names (None: no card of ours)."""

    uid: str
    card: CardRef | None
    problem: str | None = None  # why a record of ours could not be used


# --------------------------------------------------------------------------- the reader


class Reader:
    """An opened PN532. ``Reader.open(port)`` on a serial port; ``Reader.on(transport)`` on an
    nfcpy TTY transport (the tests give one wired to the emulator)."""

    def __init__(self, device: Any, transport: Any) -> None:
        import nfc

        self.transport = transport
        self.clf = nfc.ContactlessFrontend()
        self.clf.device = device
        self.name = str(device)

    @classmethod
    def open(cls, port: str, tries: int = 3) -> Reader:
        """The PN532 on serial port ``port`` (a symlink such as /dev/serial0 is followed, so that
        nfcpy sees the Pi's mini UART by its name); ReaderLost when it cannot be opened or does
        not answer as a PN532 in ``tries`` starts (a PN532 just powered up may miss the
        first; a busy machine may miss a start's timeouts)."""
        load_nfcpy()
        from nfc.clf.transport import TTY

        path = os.path.realpath(port)
        for attempt in range(tries):
            try:
                transport = TTY(path)
            except OSError as err:  # pyserial's SerialException is an OSError too
                raise ReaderLost(f"cannot open the NFC reader's port {port}: "
                                 f"{_why(err)}") from None
            try:
                return cls.on(transport, port)
            except ReaderLost:
                if attempt == tries - 1:
                    raise
        raise ReaderLost(f"the NFC reader on {port} was not tried")  # tries < 1

    @classmethod
    def on(cls, transport: Any, port: str | None = None) -> Reader:
        """Initialise a PN532 behind an nfcpy TTY ``transport``."""
        from nfc.clf import pn532

        port = port or transport.port
        try:
            device = pn532.init(transport)
        except OSError as err:
            transport.close()
            if err.errno == errno.ENODEV:
                raise ReaderLost(f"no PN532 answers on {port}: check the wiring, its HSU mode "
                                 "switches and that the serial console is off") from None
            raise ReaderLost(f"the NFC reader on {port} failed to start: {_why(err)}") from None
        except BaseException:
            transport.close()
            raise
        device._path = port  # type: ignore[attr-defined]  # as nfcpy's own device search does
        return cls(device, transport)

    def close(self) -> None:
        """Release the reader (power it down when it still answers) and its port."""
        try:
            self.clf.close()
        except Exception as err:  # a dead reader fails its power-down: the port still closes
            log.debug("closing the reader: %s", err)
        try:
            self.transport.close()
        except Exception as err:
            log.debug("closing the reader's port: %s", err)

    def probe(self) -> bool:
        """Does the reader still answer (GetFirmwareVersion)?"""
        device = self.clf.device
        if device is None:
            return False
        try:
            device.chipset.get_firmware_version()
        except OSError:
            return False
        return True

    def sense(self, uid: bytes | None = None) -> Any | None:
        """The tag on the reader (nfcpy's RemoteTarget; ``uid``: only that one), or None."""
        from nfc.clf import RemoteTarget

        wanted = {} if uid is None else {"sel_req": bytearray(uid)}
        target = RemoteTarget(TARGET, **wanted)
        return self.clf.sense(target, iterations=1)

    def _tag(self, target: Any) -> Any:
        import nfc.tag

        tag = nfc.tag.activate(self.clf, target)
        if tag is None:
            raise ReadFailed("the tag did not answer")
        return tag

    def read(self, target: Any) -> TagRead:
        """What the tag ``target`` names. ReadFailed when it cannot be read (gone, garbled);
        OSError when the reader itself fails."""
        import nfc.tag

        uid = uid_text(bytes(target.sdd_res))
        try:
            tag = self._tag(target)
            records = _records(tag)
        except nfc.tag.TagCommandError as err:
            raise ReadFailed(f"the tag did not answer ({err})") from None
        except (OSError, ReadFailed):
            raise
        except Exception as err:  # noqa: BLE001 - whatever a tag's bytes make the decoders raise
            raise Unreadable(f"card not readable: its data does not decode ({_what(err)})") \
                from None
        try:
            return TagRead(uid, card_from_records(records))
        except TagError as err:
            return TagRead(uid, None, str(err))
        except Exception as err:  # noqa: BLE001 - a record the decoder let through, unusable
            raise Unreadable(f"card not readable: its record does not decode ({_what(err)})") \
                from None

    def write(self, target: Any, ref: CardRef, overwrite: bool = False) -> str:
        """Write ``ref``'s record on the tag ``target`` and read it back; the tag's UID.

        A tag that already names another card, or holds other data, is left alone unless
        ``overwrite``; ReadFailed says why a tag was not written or did not read back right."""
        import nfc.tag

        uid = bytes(target.sdd_res)
        record = card_record(ref)
        try:
            tag = self._tag(target)
            try:
                current = _records(tag)
            except (OSError, ReadFailed, nfc.tag.TagCommandError):
                raise
            except Exception as err:  # noqa: BLE001 - what a tag's bytes make the decoders raise
                if not overwrite:
                    raise Unreadable(f"the tag holds data that is not readable ({_what(err)}): "
                                     "use another tag, or --overwrite") from None
                current = []
            if not _same_card(current, ref):
                _check_writable(tag, current, record, overwrite)
                tag.ndef.records = [record]
        except nfc.tag.TagCommandError as err:
            raise ReadFailed(f"writing failed ({err}); the tag may be half written: "
                             "write it again") from None
        back = self.sense(uid)
        if back is None:
            raise ReadFailed("the tag was taken away before it could be read back: "
                             "write it again")
        found = self.read(back)
        if found.card != ref:
            raise ReadFailed(f"the tag reads back as {found.card or 'no card'}, not {ref}: "
                             "write it again")
        return found.uid


def _records(tag: Any) -> list[ndef.Record]:
    """The tag's NDEF records ([] for a tag without NDEF data); ReadFailed when the data is
    there but could not be read."""
    import nfc.tag.tt2

    data = tag.ndef
    if data is not None:
        return list(data.records)
    if isinstance(tag, nfc.tag.tt2.Type2Tag):
        # nfcpy gives None both for "no NDEF here" and for a read that broke off: the
        # capability container (page 3) tells them apart
        header = tag.read(0)
        if header[12] == 0xE1:
            raise ReadFailed("the tag's data could not be read to the end")
    return []


def _same_card(records: list[ndef.Record], ref: CardRef) -> bool:
    try:
        return card_from_records(records) == ref
    except Exception:  # noqa: BLE001 - a record that cannot be read is not this card
        return False


def _what(err: BaseException) -> str:
    """A decoder's error in a few words (a tag's bytes may make it say a lot)."""
    text = str(err)
    text = text if len(text) <= 80 else text[:79] + "~"
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _check_writable(tag: Any, current: list[ndef.Record], record: ndef.Record,
                    overwrite: bool) -> None:
    if tag.ndef is None:
        raise ReadFailed("the tag is not NDEF formatted: use another tag, or name this one by "
                         "its UID (overseer tags register)")
    if not tag.ndef.is_writeable:
        raise ReadFailed("the tag is read-only: use another tag, or name this one by its UID "
                         "(overseer tags register)")
    size = len(message_octets([record]))
    if size > tag.ndef.capacity:
        raise ReadFailed(f"the tag holds {tag.ndef.capacity} bytes; the card needs {size}")
    if current and not overwrite:
        try:
            named = card_from_records(current)
        except Exception:  # noqa: BLE001 - a record of ours that cannot be read: other data
            named = None
        what = f"names {named}" if named else "holds other data"
        raise ReadFailed(f"the tag already {what}: use another tag, or --overwrite")


def glass_text(text: str) -> str:
    """A notice as the glass says it: a sentence."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _why(err: BaseException) -> str:
    if isinstance(err, OSError) and err.errno:
        return os.strerror(err.errno)
    return str(err) or type(err).__name__


# --------------------------------------------------------------------------- at the table

Opener = Callable[[], Reader]
Put = Callable[[Tap | UnknownTap], None]
Notify = Callable[[str], None]
Say = Callable[[ReaderNotice], None]

# The key words of the notices on the glass
IGNORED = "Ignored"
NOT_READ = "Tag not read"
TAG_PROBLEM = "Tag problem"
READER_LOST = "Reader lost"
READER_BACK = "Reader back"
PATIENCE = 3.0  # seconds a reader may fail to open or answer before the table is told


class TagWatcher:
    """The table's reader, one ``poll()`` at a time (``NfcTags`` polls it in a thread).

    ``open_reader`` opens the reader (again, after it stopped answering); ``tag_map`` names
    tags without a record of ours; ``put`` takes the inputs; ``notify`` the notices' sentences
    and ``say`` the notices for the glass (``ReaderNotice``; ``NfcTags`` gives the inbox).
    """

    def __init__(self, open_reader: Opener, put: Put, *, tag_map: TagMap | None = None,
                 notify: Notify | None = None, say: Say | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 repeat_window: float = 2.0, attempts: int = 3, reopen_after: float = 1.0,
                 patience: float = PATIENCE, where: str = "the NFC reader") -> None:
        self._open_reader = open_reader
        self._put = put
        self._notify = notify
        self._say = say
        self.tag_map = tag_map
        self.clock = clock
        self.repeat_window = repeat_window
        self.attempts = attempts
        self.reopen_after = reopen_after
        self.patience = patience
        self.where = where
        self.reader: Reader | None = None
        self._next_open = 0.0
        self._lost = False  # said that the reader is lost, not yet that it is back
        self._failing: tuple[float, str] | None = None  # since when, and the first failure
        self._held: str | None = None  # the UID on the reader, already counted (or failed)
        self._held_key: object | None = None  # what the tag on the reader counted as
        self._last: tuple[object, float] | None = None  # the last thing counted, last seen
        self.faults = 0  # tags that raised what no reading path expected (a bug: logged)

    def notify(self, text: str, key: str | None = None) -> None:
        """Log ``text`` and give it to ``notify``; with a ``key``, also to ``say`` for the
        glass, as a sentence."""
        log.info("%s", text)
        if self._notify is not None:
            self._notify(text)
        if key is not None and self._say is not None:
            self._say(ReaderNotice(key, glass_text(text)))

    def poll(self) -> None:
        """Look once: open the reader if needed, sense a tag, read a new one, put what it is."""
        reader = self._reader()
        if reader is None:
            return
        try:
            target = reader.sense()
        except OSError as err:
            self._trouble(reader, err)
            return
        now = self.clock()
        if target is None:
            self._held = None
            return
        uid = uid_text(bytes(target.sdd_res))
        if uid == self._held:  # still on the reader: it counted when it came
            self._seen(now)
            return
        self._held, self._held_key = uid, None
        try:
            found = self._read(reader, target, uid)
        except OSError as err:
            self._held = None
            self._trouble(reader, err)
            return
        except Exception as err:  # noqa: BLE001 - a tag no path above expected: said, reader kept
            self.faults += 1
            log.exception("reading the tag %s", uid)
            self.notify(f"the tag {uid}: card not readable ({_what(err)}); use another tag",
                        NOT_READ)
            return
        if found is not None:
            self._count(found, self.clock())

    def close(self) -> None:
        if self.reader is not None:
            self.reader.close()
            self.reader = None

    # ----------------------------------------------------------------------- inside

    def _reader(self) -> Reader | None:
        if self.reader is not None:
            return self.reader
        if self.clock() < self._next_open:
            return None
        try:
            self.reader = self._open_reader()
        except OSError as err:
            self._failed(f"{err}; trying again every {self.reopen_after:g} s")
            return None
        self._failing = None
        if self._lost:
            self._lost = False
            self.notify(f"{self.where} answers again", READER_BACK)
        return self.reader

    def _trouble(self, reader: Reader, err: OSError) -> None:
        """An I/O error: a garbled answer if the reader still answers; else it is closed and
        opened again at once, quietly (a missed beat, as on a busy machine); only when that
        fails too is the reader lost (said; ``poll`` reopens it)."""
        if reader.probe():
            log.debug("a garbled answer from the reader: %s", err)
            return
        self.close()
        self._held = None
        try:
            self.reader = self._open_reader()
        except OSError as again:
            log.debug("opening the reader again at once: %s", again)
        else:
            log.info("%s missed an answer (%s); opened again", self.where, _why(err))
            return
        self._failed(f"{self.where} stopped answering ({_why(err)}); reopening it")

    def _failed(self, text: str) -> None:
        """The reader cannot be used now: tried again in ``reopen_after`` seconds, and said
        (the first failure's ``text``) once it has failed for ``patience`` seconds in a row; a
        reader slow to start or missing a beat on a busy machine is not news."""
        now = self.clock()
        if self._failing is None:
            self._failing = (now, text)
        self._next_open = now + self.reopen_after
        since, first = self._failing
        if not self._lost and now - since >= self.patience:
            self._lost = True
            self.notify(first, READER_LOST)

    def _read(self, reader: Reader, target: Any, uid: str) -> TagRead | None:
        """Read the tag, trying ``attempts`` times; None (and a notice) when it failed."""
        problem = "no answer"
        for attempt in range(self.attempts):
            if attempt:
                target = reader.sense(bytes.fromhex(uid))
                if target is None:
                    self._held = None
                    self.notify(f"the tag {uid} was taken away before it could be read: "
                                "hold it still on the reader", NOT_READ)
                    return None
            try:
                return reader.read(target)
            except Unreadable as err:
                self.notify(f"the tag {uid}: {err}; use another tag, or write this one again "
                            "(overseer tags write)", NOT_READ)
                return None
            except ReadFailed as err:
                problem = str(err)
            except OSError as err:
                if not reader.probe():
                    raise
                problem = f"a garbled answer from the reader ({_why(err)})"
            log.debug("reading tag %s, try %d: %s", uid, attempt + 1, problem)
        self.notify(f"the tag {uid} could not be read ({self.attempts} tries: {problem}); "
                    "lift it and hold it on the reader again", NOT_READ)
        return None

    def _count(self, found: TagRead, now: float) -> None:
        card = found.card
        if card is None:
            card = self._mapped(found.uid)
        # a record of ours that cannot be used: said after the tap, so that the glass keeps
        # the reason, unless the tag map names the card all the same
        problem = f"the tag {found.uid}: {found.problem}" if found.problem else None
        if problem is not None and card is not None:
            self.notify(problem)
            problem = None
        key: object = card if card is not None else ("uid", found.uid)
        self._held_key = key
        if self._last is not None and self._last[0] == key and \
                now - self._last[1] < self.repeat_window:
            what = f"the card {card}" if card is not None else f"the tag {found.uid}"
            self.notify(f"{what} again within {self.repeat_window:g} s: ignored", IGNORED)
            self._last = (key, now)
            return
        self._last = (key, now)
        if card is None:
            self._put(UnknownTap(found.uid))
        else:
            self._put(Tap(card.game, card.kind, card.card))
        if problem is not None:
            self.notify(problem, TAG_PROBLEM)

    def _seen(self, now: float) -> None:
        """The tag on the reader is still there: what it counted as was last seen now."""
        if self._last is not None and self._last[0] == self._held_key:
            self._last = (self._last[0], now)

    def _mapped(self, uid: str) -> CardRef | None:
        if self.tag_map is None:
            return None
        try:
            self.tag_map.refresh()
        except TagError as err:
            self.notify(f"the tag map cannot be read: {err}", TAG_PROBLEM)
            return None
        return self.tag_map.get(uid)


class NfcTags:
    """The ``Tags`` port on a PN532: ``start(inbox)`` polls the reader in a thread every
    ``interval`` seconds until ``close()``. The reader is opened in the thread (a missing
    reader is a notice, tried again), so starting never blocks or fails."""

    def __init__(self, port: str | None = None, *, tag_map: TagMap | None = None,
                 notify: Notify | None = None, interval: float = 0.1,
                 open_reader: Opener | None = None, **watcher: Any) -> None:
        self.port = port or default_port()
        self.interval = interval
        self._tag_map = tag_map
        self._notify = notify
        self._open_reader = open_reader or (lambda: Reader.open(self.port))
        self._watcher_options = watcher
        self.watcher: TagWatcher | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, inbox: Inbox) -> None:
        if self._thread is not None:
            raise RuntimeError("the NFC reader is started already")
        self.watcher = TagWatcher(self._open_reader, inbox.put, tag_map=self._tag_map,
                                  notify=self._notify, say=inbox.put,
                                  where=f"the NFC reader on {self.port}",
                                  **self._watcher_options)
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="nfc-reader", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        watcher = self.watcher
        assert watcher is not None
        while not self._stop.is_set():
            try:
                watcher.poll()
            except Exception:  # never let the reader thread die: say it and go on
                log.exception("the NFC reader loop failed; going on")
                watcher.close()
            self._stop.wait(self.interval)
        watcher.close()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
