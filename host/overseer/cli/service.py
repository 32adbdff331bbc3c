"""``overseer gadget``: the gadget with no terminal, as the systemd service runs it on the Pi.

The Pico on USB (its buttons, OLED and dice; the port from the config file, else found by its
USB vendor id), the Pi's NFC card reader, its seat LEDs and an optional Pi-side OLED, all from
the config file (overseer/config.py), joined by the Gadget (app/shell.py) on the game store. It
plays until SIGTERM or SIGINT; every step is durable, so a restart resumes the game.

Nothing the box lacks stops it: no Pico yet is said and waited for (the link keeps searching);
a reader that does not answer is said on the glass and tried again; LEDs or an OLED that cannot
be opened are said and left out. What does stop it, with a message and exit status 2: a bad
config file, the store in use by another overseer, a Pico that speaks another protocol.

Under systemd (``Type=notify``, ``WatchdogSec=``: hardware/overseer.service.in) it says
READY=1 once up and sends the watchdog's heartbeat from the loop that serves the inputs
(cli/notify.py): a loop that hangs is restarted.
"""

from __future__ import annotations

import argparse
import logging
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from overseer.cli.config import Config, ConfigError, load
from overseer.cli.doctor import seconds
from overseer.cli.notify import Notifier
from overseer.ports.events import Button, SetLeds
from overseer.ports.ports import Glass, GlassAhead, Leds, light_modes

log = logging.getLogger("overseer.gadget")

SEATS = (1, 2, 3, 4)
PICO_WAIT = 5.0  # seconds to wait for the Pico's first answer before saying it is missing


class Glasses(GlassAhead):
    """One Glass over several (the Pico's and a Pi-side OLED): each shows every image; an
    image armed goes to those that take one ahead (the Pico's)."""

    def __init__(self, *glasses: Glass) -> None:
        self.glasses = glasses

    def show(self, image: Image.Image) -> None:
        for glass in self.glasses:
            glass.show(image)

    def arm(self, image: Image.Image, button: Button) -> None:
        for glass in self.glasses:
            if isinstance(glass, GlassAhead):
                glass.arm(image, button)

    def close(self) -> None:
        for glass in self.glasses:
            glass.close()


class NoLeds:
    """A box without seat LEDs: lights are checked, and nothing lights."""

    def __init__(self, seats: tuple[int, ...] = SEATS) -> None:
        self.seats = seats

    def set(self, lights: SetLeds) -> None:
        light_modes(lights, self.seats)

    def close(self) -> None:
        pass


@dataclass
class Box:
    """The ports of a headless box, opened from a config (``open_box``); ``close`` closes them."""

    pico: Any  # devices.pico.Pico
    glass: Glasses
    leds: Leds
    tags: Any | None = None  # devices.nfc.NfcTags
    pin_factory: Any | None = None
    problems: list[str] = field(default_factory=list)  # what was left out, and why

    def close(self) -> None:
        for part in (self.tags, self.pico, self.leds, *self.glass.glasses[1:]):
            if part is None:
                continue
            try:
                part.close()
            except Exception as err:  # closing one part must not keep the others open
                log.warning("closing %s: %s", type(part).__name__, err)


def open_box(config: Config, store: Any, say: Callable[[str], None]) -> Box:
    """The Pico, the reader, the LEDs and the OLED as ``config`` has them; a part that cannot
    be opened is said (``say``) and left out."""
    from overseer.devices.pico import Pico

    pico = Pico(config.pico_port)
    glasses: list[Glass] = [pico]
    problems: list[str] = []

    def left_out(text: str) -> None:
        problems.append(text)
        say(text)

    if config.oled != "none":
        from overseer.devices.oled import open_oled

        try:
            glasses.append(open_oled(config.oled, config.oled_bus, config.oled_address,
                                     config.oled_rotate))
        except Exception as err:
            left_out(f"the Pi-side OLED ({config.oled} at {config.oled_address:#04x} on I2C "
                     f"bus {config.oled_bus}) cannot be opened: {err}; going on without it "
                     "(check the wiring, or [oled] driver = \"none\")")
    leds: Leds = NoLeds()
    factory = None
    if config.leds:
        from overseer.devices.leds import GpioLeds, pin_factory

        try:
            factory = pin_factory(config.pin_factory)
            leds = GpioLeds(config.seat_pins(), pin_factory=factory)
        except Exception as err:
            left_out(f"the seat LEDs cannot be driven ({config.pin_factory}: "
                     f"{type(err).__name__}: {err}); going on without them "
                     "(the user must be in the gpio group; or [leds] enabled = false)")
    tags = None
    if config.nfc:
        from overseer.devices.nfc import NfcTags
        from overseer.devices.tags import TagMap, tag_map_path

        tags = NfcTags(config.nfc_port, tag_map=TagMap(tag_map_path(store)))
    return Box(pico, Glasses(*glasses), leds, tags, factory, problems)


def open_gadget(store: Path, box: Box, sources: tuple[Any, ...],
                say: Callable[[str], None]) -> tuple[Any, str | None]:
    """The Gadget on ``store``, and what to tell the table first. A damaged store is recovered
    first, as ``overseer games recover`` does (the box has no keyboard to run it): the games
    that can be read saved into a new store, the damaged file kept aside byte for byte; the
    report goes to ``say`` (the journal) and a short account to the glass."""
    from overseer.app.shell import Gadget
    from overseer.session.recover import recover
    from overseer.session.store import StoreDamaged

    try:
        return Gadget(store, box.glass, box.leds, dice=box.pico, sources=sources), None
    except StoreDamaged as err:
        say(f"the game store {err.path} is damaged ({err.why}): saving what can be read "
            "into a new store, as `overseer games recover` does")
    report = recover(store)
    for line in report.lines():
        say(line)
    saved = len(report.saved)
    text = (f"The game store was damaged. {saved} game{'' if saved == 1 else 's'} saved"
            f"{f', {len(report.lost)} lost' if report.lost else ''}; the damaged file is "
            f"kept as {report.aside.name}.")
    return Gadget(store, box.glass, box.leds, dice=box.pico, sources=sources), text


def run(config: Config, db: str | None, stop: threading.Event,
        say: Callable[[str], None] = log.warning, pico_wait: float = PICO_WAIT,
        on_start: Callable[[Any], None] | None = None, web: bool = False,
        notifier: Notifier | None = None) -> int:
    """Play on the box until ``stop`` is set; the exit status (2: it could not start). A store
    the box cannot open (not a game store, from a newer Overseer, unreadable, cannot be made)
    does not stop it: the fault is said to the journal and shown on the glass until ``stop``
    (a restart would only fail the same way, for ever, with nothing shown). ``web``: serve the
    page for the table's phones even if the config's ``[web]`` is off. ``notifier`` tells
    systemd (cli/notify.py; by default from the environment the service gives): READY=1 once
    the box is up, a heartbeat from each turn of the loop that serves the inputs."""
    from overseer.devices.link_events import ProtocolMismatch
    from overseer.devices.usb import find_pico_ports
    from overseer.session.lock import LockError, StoreInUse
    from overseer.session.session import SessionError
    from overseer.session.store import StoreError

    notifier = notifier if notifier is not None else Notifier()
    store = config.store(db)
    if config.pico_port is None and not find_pico_ports():
        say("no Pico found on USB yet: plug it into the Pi with a data cable (a Pico "
            "without the firmware shows up as a drive: docs/hardware.md, Flashing); "
            "waiting for it")
    box = open_box(config, store, say)
    try:
        sources = (box.tags,) if box.tags is not None else ()
        try:
            gadget, repaired = open_gadget(store, box, sources, say)
        except StoreInUse as err:
            say(str(err))
            return 2
        except (LockError, StoreError, OSError) as err:
            say(str(err))
            return stand(box, stop, "No store", store_fault(err), say, notifier)
        page = None
        try:
            try:
                gadget.open()
            except (StoreError, SessionError, OSError) as err:
                say(str(err))
                return stand(box, stop, "No game", store_fault(err), say, notifier)
            if gadget.store.notice is not None:
                say(gadget.store.notice)
                gadget.tell("Store", store_notice(gadget.store))
            if repaired is not None:
                gadget.tell("Store repaired", repaired)
            from overseer import web as web_page

            page = web_page.from_config(gadget, config, say, forced=web)
            if on_start is not None:
                on_start(gadget)
            try:
                box.pico.wait_ready(pico_wait)
            except TimeoutError:
                say(f"no Pico answers{f' on {config.pico_port}' if config.pico_port else ''} "
                    f"after {pico_wait:g} s: waiting for it (overseer doctor says more)")
            if gadget.screen is not None:  # what the table sees first (a notice, if any)
                said_on_glass(say, gadget.screen)
            notifier.ready()
            while not stop.is_set():
                gadget.step(0.1)
                notifier.alive()  # a turn served: a loop that hangs stops the heartbeat
                error = box.pico.link.error
                if error is not None:
                    raise error
            notifier.stopping()
        except ProtocolMismatch as err:
            say(str(err))
            return 2
        finally:
            if page is not None:
                page.close()
            gadget.close()
    finally:
        box.close()
    return 0


def store_fault(err: BaseException) -> str:
    """What the glass says of a store the box cannot open (the path is the journal's)."""
    from overseer.session.store import NotAStore

    text = str(err)
    if isinstance(err, NotAStore):
        return ("The game store file is not an Overseer game store. It was left as it is. "
                "Give the box another file ([session] database in overseer.toml), then "
                "restart it.")
    if "newer Overseer" in text:
        return ("The game store was written by a newer Overseer. It was left as it is. "
                "Update this one, then restart the box.")
    if "cannot be made" in text or "Read-only" in text or "read-only" in text:
        return ("The game store cannot be made: its disk is read-only or full. Check the SD "
                "card, then restart the box.")
    return ("The game store cannot be opened. It was left as it is. The journal says why "
            "(journalctl -u overseer); fix that, then restart the box.")


def store_notice(store: Any) -> str:
    """What the glass says of a store that opened with a notice (the path is the journal's)."""
    if store.read_only:
        return ("The game store cannot be written: its games open, and no step can be saved. "
                "Check the SD card, then restart the box.")
    if "empty file" in (store.notice or ""):
        return ("The game store file was empty: it is a new store now. If it held games, "
                "they were lost before this start; a backup of the file brings them back.")
    return store.notice or ""


def said_on_glass(say: Callable[[str], None], screen: Any) -> None:
    """Tell the journal what the glass shows (a fault or a notice): its words, and a digest of
    the frame (what a test compares with the Pico's OLED)."""
    import hashlib

    from overseer.screens.render import frame_bytes, render

    frame = hashlib.sha256(frame_bytes(render(screen))).hexdigest()[:12]
    words = " ".join((*screen.lines, *screen.options))
    say(f"on the glass: {screen.key or screen.title}: {words} (frame {frame})")


def stand(box: Box, stop: threading.Event, key: str, text: str,
          say: Callable[[str], None] = log.warning, notifier: Notifier | None = None) -> int:
    """Show a fault on the glass until ``stop`` (any button shows its next page); the exit
    status is 0: the box stood, it did not fail. Standing is being up, for systemd: READY=1,
    and the heartbeat from this loop."""
    from overseer.ports.events import LinkChanged, Press
    from overseer.ports.inbox import Inbox
    from overseer.screens import pages
    from overseer.screens.render import render

    screens = pages.notice(key, text)
    inbox = Inbox()
    box.pico.start(inbox)
    at = 0
    box.glass.show(render(screens[at]))
    said_on_glass(say, screens[at])
    notifier = notifier if notifier is not None else Notifier()
    notifier.ready()
    while not stop.is_set():
        item = inbox.get(0.1)
        if isinstance(item, Press):  # a press: the next page
            at = (at + 1) % len(screens)
        if isinstance(item, Press | LinkChanged):  # a Pico that came (back) up shows it too
            box.glass.show(render(screens[at]))
        notifier.alive()
    notifier.stopping()
    return 0


def parser(web: bool = False) -> argparse.ArgumentParser:
    """``overseer gadget``'s options; ``web``: ``overseer web``'s (the same, the page on)."""
    about = (__doc__ or "").split("\n\n")[0].split(": ", 1)[1]
    if web:
        about = ("the gadget with no terminal and, beside it, the page for the table's phones "
                 "(docs/web.md: where it listens is the config's [web]); the same as "
                 "`overseer gadget --web`")
    p = argparse.ArgumentParser(prog="overseer web" if web else "overseer gadget",
                                description=about)
    p.add_argument("--db", metavar="FILE", help="the game store (default: $OVERSEER_DB, the "
                   "config file's, or the user's data folder)")
    p.add_argument("--pico-wait", type=seconds, default=PICO_WAIT, metavar="SECONDS",
                   help=f"how long to wait for the Pico before saying so (default {PICO_WAIT:g})")
    if not web:
        p.add_argument("--web", action="store_true", help="serve the page for the table's "
                       "phones (docs/web.md) even if the config's [web] enabled is false")
    return p


def main(argv: list[str], web: bool = False) -> int:
    """``overseer gadget`` (``web``: ``overseer web``, the page on whatever the config says):
    its messages go to stderr (the journal, under the service)."""
    args = parser(web).parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    try:
        config = load()
    except ConfigError as err:
        print(f"overseer gadget: {err}", file=sys.stderr)
        return 2
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())

    def say(text: str) -> None:  # one write: a line never mixed with another thread's
        sys.stderr.write(f"overseer gadget: {text}\n")
        sys.stderr.flush()

    say(f"starting ({config.path or 'no config file: the defaults'})")
    return run(config, args.db, stop, say, args.pico_wait, web=web or args.web)


def config_main(argv: list[str]) -> int:
    """``overseer config``: the settings in force, as TOML."""
    p = argparse.ArgumentParser(prog="overseer config",
                                description="print the config in force and where it is from")
    p.add_argument("--db", metavar="FILE", help="as the other commands take it")
    args = p.parse_args(argv)
    try:
        config = load()
    except ConfigError as err:
        print(f"overseer config: {err}", file=sys.stderr)
        return 2
    print("\n".join(config.lines(args.db)))
    return 0
