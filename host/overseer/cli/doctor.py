"""``overseer doctor``: is everything the gadget needs there? One line per part, in plain words,
with what to do about a problem; exit status 1 when a needed part is missing.

It imports only what each check needs (no rules, no screens), so it answers fast on a Pi Zero,
and it never prints a traceback: a check that breaks is reported as that check's problem.
Checks: the Python version, the config file, the Pico on USB and its firmware version (from
its IDENT), the NFC reader answering, each seat LED blinked in turn (pins from the config or the
pin map), the Pi's own OLED on I2C (optional), the card data and the tag map's cards, the game
store writable and sound, the store's lock free, the tag map readable. The ports, pins and OLED
come from the config file (overseer/config.py) unless given on the command line.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PARTS = ("pico", "nfc", "leds", "oled", "data")  # what --without may leave out
I2C_SLAVE = 0x0703  # linux/i2c-dev.h
MIN_PYTHON = (3, 11)  # as pyproject.toml's requires-python
PICO_WAIT = 3.0  # seconds for the Pico's IDENT
BLINK = 0.4  # seconds each seat LED is lit


@dataclass(frozen=True)
class Finding:
    part: str
    ok: bool
    text: str
    fix: str | None = None
    needed: bool = True


Check = Callable[[argparse.Namespace], Finding]


# --------------------------------------------------------------------------- the checks


def check_python(args: argparse.Namespace, running: tuple[int, ...] = sys.version_info[:3]
                 ) -> Finding:
    version = ".".join(map(str, running))
    if tuple(running) >= MIN_PYTHON:
        return Finding("python", True, f"Python {version}")
    return Finding("python", False, f"Python {version} is too old: Overseer needs "
                   f"{'.'.join(map(str, MIN_PYTHON))} or newer",
                   "install Raspberry Pi OS Bookworm (Python 3.11) or newer")


def check_config(args: argparse.Namespace) -> Finding:
    from overseer.cli.config import ConfigError, config_file, load

    try:
        load()
    except ConfigError as err:
        return Finding("config", False, f"the config file cannot be used: {err}",
                       "fix the key it names, or remove the file (overseer/config.py lists "
                       "every key)")
    where = config_file()
    if where is None:
        return Finding("config", True, "no config file: the defaults (overseer config prints "
                       "them)", needed=False)
    return Finding("config", True, f"the config file {where} is readable")


def expected_firmware(app: Path | None = None) -> str | None:
    """The firmware version this Overseer flashes (``FIRMWARE`` in the app.py of the firmware
    it ships, core/shipped.py: in a checkout, the repository's firmware/)."""
    import re

    if app is None:
        from overseer.core.shipped import shipped

        app = shipped("firmware") / "app.py"
    try:
        found = re.search(r'^FIRMWARE = "([^"]*)"', app.read_text(), re.M)
    except OSError:
        return None
    return found.group(1) if found else None


def check_pico(args: argparse.Namespace) -> Finding:
    from overseer.devices.usb import find_pico_ports

    ports = [args.pico_port] if args.pico_port else find_pico_ports()
    if not ports:
        return Finding("pico", False, "no Pico found on USB",
                       "plug the Pico into the Pi with a data (not charge-only) cable; a Pico "
                       "without MicroPython shows up as a drive instead: flash it "
                       "(docs/hardware.md, Flashing)")
    return _pico_ident(ports[0], args.pico_wait)


def _pico_ident(port: str, wait: float) -> Finding:
    """Handshake with the Pico on ``port``: its IDENT names its protocol and firmware."""
    from overseer.devices.link_events import ProtocolMismatch
    from overseer.devices.pico_link import PicoLink

    flash = "flash this checkout's firmware: scripts/flash (docs/hardware.md, Flashing)"
    link = PicoLink(port, lambda event: None)  # a press meanwhile is nobody's
    try:
        link.start()
        ident = link.wait_ready(wait)
    except ProtocolMismatch as err:
        return Finding("pico", False, f"the Pico on {port}: {err}", flash)
    except TimeoutError:
        return Finding("pico", False, f"the Pico on {port} does not answer within {wait:g} s",
                       "is the overseer service holding it (sudo systemctl stop overseer)? "
                       f"else unplug it and plug it in again; if it still says nothing, {flash}")
    finally:
        link.close()
    wanted = expected_firmware()
    if wanted is not None and ident.firmware != wanted:
        return Finding("pico", False, f"the Pico on {port} runs {ident.firmware}; this "
                       f"checkout's firmware is {wanted}", flash)
    return Finding("pico", True, f"the Pico on {port} runs {ident.firmware} (protocol "
                   f"{ident.protocol})")


def check_nfc(args: argparse.Namespace) -> Finding:
    from overseer.devices.nfc import Reader, ReaderLost, load_nfcpy

    try:
        load_nfcpy()
        reader = Reader.open(args.port)
    except ReaderLost as err:
        return Finding("nfc", False, f"the NFC reader does not answer: {err}", _nfc_fix(args))
    try:
        return Finding("nfc", True, f"the NFC reader answers on {args.port}: {reader.name}")
    finally:
        reader.close()


def _nfc_fix(args: argparse.Namespace) -> str:
    port = args.port
    if not os.path.exists(port):
        return (f"{port} does not exist: turn the serial port on and its console off "
                "(sudo raspi-config nonint do_serial_hw 0; sudo raspi-config nonint "
                "do_serial_cons 1; reboot), or give the reader's port with --port")
    if not os.access(port, os.R_OK | os.W_OK):
        return f"no permission on {port}: add the user to the dialout group"
    return ("check the wiring (hardware/wiring.md: TX to RX, RX to TX), the PN532's mode "
            "switches (both off: HSU) and that nothing else holds the port (is the overseer "
            "service running? sudo systemctl stop overseer)")


def check_leds(args: argparse.Namespace) -> Finding:
    """Light each seat LED in turn (``BLINK`` s each): the table sees whether each lights."""
    if not args.leds:
        return Finding("leds", True, "no seat LEDs ([leds] enabled = false)", needed=False)
    from overseer.devices.leds import GpioLeds, pin_factory
    from overseer.ports.events import SeatLight, SetLeds

    pins = args.pins
    named = ", ".join(f"seat {seat} BCM {bcm}" for seat, bcm in pins.items())
    try:
        leds = GpioLeds(pins, pin_factory=args.pin_factory or pin_factory(args.factory))
    except ImportError as err:
        return Finding("leds", False, f"the seat LEDs ({named}) need {args.factory}'s "
                       f"library: {err}", f"install it in the venv (.venv/bin/pip install "
                       f"{args.factory}), or another [leds] factory; --without leds on a box "
                       "without LEDs")
    except Exception as err:
        return Finding("leds", False, f"the seat LEDs ({named}) cannot be driven with "
                       f"{args.factory}: {type(err).__name__}: {err}",
                       "add the user to the gpio group; check [leds] factory (lgpio on "
                       "Raspberry Pi OS Bookworm) and pins; --without leds on a box without")
    try:
        for seat in pins:
            leds.set(SetLeds((SeatLight(seat, "on"),)))
            args.sleep(BLINK)
            leds.set(SetLeds(()))
    finally:
        leds.close()
    return Finding("leds", True, f"each seat LED was lit in turn ({named}): did each light? "
                   "if one did not, check its polarity (long leg to the GPIO) and resistor",
                   needed=False)


def check_data(args: argparse.Namespace) -> Finding:
    """The card data of every game with tags loads, and the tag map names real cards."""
    from overseer.app import registry
    from overseer.core.records import DataError
    from overseer.devices.tags import TagError, TagMap, cards, check_card, tag_map_path, tagged

    registry.install()

    counts = []
    try:
        for game in tagged():
            counts.append(f"{len(cards(game))} {game}")
    except (DataError, TagError, OSError) as err:
        return Finding("data", False, f"the card data does not load: {err}",
                       "the data files under data/ are damaged: restore them (git checkout "
                       "data/) or reinstall Overseer")
    text = f"the card data loads ({', '.join(counts)} cards with tags)"
    try:
        mapped = TagMap(tag_map_path(_store(args))).cards
        for uid, ref in mapped.items():
            try:
                check_card(ref.game, ref.kind, ref.card)
            except TagError as err:
                return Finding("data", False, f"the tag map's tag {uid} names no card: {err}",
                               f"register that tag again (overseer tags register ... --uid "
                               f"{uid})")
    except (TagError, ValueError):
        return Finding("data", True, text)  # the tags check says what is wrong with the map
    if mapped:
        text += f"; the tag map's {len(mapped)} tags name real cards"
    return Finding("data", True, text)


def check_oled(args: argparse.Namespace) -> Finding:
    import fcntl

    device = f"/dev/i2c-{args.i2c_bus}"
    where = f"at {args.oled_address:#04x} on {device}"
    try:
        fd = os.open(device, os.O_RDWR)
    except FileNotFoundError:
        return Finding("oled", False, f"no I2C bus {device}, so no Pi-side OLED (optional)",
                       "to use one, turn I2C on: sudo raspi-config nonint do_i2c 0", False)
    except PermissionError:
        return Finding("oled", False, f"no permission on {device} (optional OLED)",
                       "add the user to the i2c group", False)
    try:
        fcntl.ioctl(fd, I2C_SLAVE, args.oled_address)
        os.read(fd, 1)
    except OSError as err:
        if err.errno in (errno.ENXIO, errno.EREMOTEIO, errno.EIO):
            return Finding("oled", False, f"no OLED answers {where} (optional)",
                           "if one is fitted, check its wiring (hardware/wiring.md)", False)
        return Finding("oled", False, f"the OLED {where} cannot be read: {err} (optional)",
                       None, False)
    finally:
        os.close(fd)
    return Finding("oled", True, f"an OLED answers {where}", needed=False)


def _store(args: argparse.Namespace) -> Path:
    from overseer.cli.paths import store_path

    return store_path(args.db)


def check_store(args: argparse.Namespace) -> Finding:
    import tempfile

    try:
        store = _store(args)
    except ValueError as err:  # ConfigError: the config file is broken
        return Finding("store", False, f"the config file cannot be read: {err}",
                       "fix or remove the config file")
    folder = _existing(store.parent)  # the doctor makes nothing: the nearest folder there is
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as err:
        return Finding("store", False, f"the game store's folder {folder} is not writable "
                       f"({err.strerror or err})",
                       "give the gadget's user that folder, or another store (--db or "
                       "OVERSEER_DB)")
    if not store.exists():
        return Finding("store", True, f"the game store {store} will be made at the first game")
    problem = _store_problem(store)
    if problem is not None:
        return problem
    if not os.access(store, os.W_OK):
        return Finding("store", False, f"the game store {store} is sound but cannot be written "
                       "(its games open; no step can be saved)",
                       "make the file writable by the gadget's user (or the disk, if it was "
                       "remounted read-only)")
    return Finding("store", True, f"the game store {store} is writable and sound")


def _existing(folder: Path) -> Path:
    while not folder.exists() and folder.parent != folder:
        folder = folder.parent
    return folder


def _store_problem(store: Path) -> Finding | None:
    """A store file that is not an Overseer store, or is damaged, by the gadget's own test at
    open (``PRAGMA integrity_check``, as session/store.py runs it; a header that is damaged in
    front of an Overseer schema is a damaged store): read only, never changed."""
    import sqlite3

    with open(store, "rb") as f:
        header = f.read(1 << 16)
    ours_inside = b"CREATE TABLE games" in header and b"CREATE TABLE events" in header
    if header and not header.startswith(b"SQLite format 3\x00"):
        if ours_inside:
            return _damaged(store, "its SQLite header is damaged")
        return Finding("store", False, f"{store} is not an Overseer game store (not an SQLite "
                       "database)", "choose another store file (--db or OVERSEER_DB); "
                       "Overseer leaves this one as it is")
    idle = not any(Path(f"{store}{side}").exists() for side in ("-wal", "-journal"))
    try:
        db = sqlite3.connect(f"{store.resolve().as_uri()}?mode=ro"
                             f"{'&immutable=1' if idle else ''}", uri=True)
        try:
            app_id = db.execute("PRAGMA application_id").fetchone()[0]
            result = db.execute("PRAGMA integrity_check").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error as err:
        app_id, result = None, str(err)
    from overseer.session.migrations import APPLICATION_ID as ours

    if not ours_inside and (app_id not in (None, 0, ours) or (
            app_id == 0 and result == "ok" and header)):
        return Finding("store", False, f"{store} is not an Overseer game store (an SQLite "
                       "database of another application)", "choose another store file (--db "
                       "or OVERSEER_DB); Overseer leaves this one as it is")
    if result != "ok":
        return _damaged(store, result)
    return None


def _damaged(store: Path, why: str) -> Finding:
    return Finding("store", False, f"the game store {store} is damaged ({why})",
                   f"overseer games recover --db {store} saves what can be read into a new "
                   "store and keeps the damaged file aside")


def check_lock(args: argparse.Namespace) -> Finding:
    from overseer.session import lock

    try:
        store = _store(args)
    except ValueError as err:
        return Finding("lock", False, f"the store's lock cannot be looked at: {err}", None)
    held = lock.in_use(store)  # looks only: no file is made, no lock is taken
    if held is not None:
        return Finding("lock", False, held,
                       "stop the other one (sudo systemctl stop overseer, if it is the service)")
    return Finding("lock", True, "the game store's lock is free")


def check_tag_map(args: argparse.Namespace) -> Finding:
    from overseer.devices.tags import TagError, TagMap, tag_map_path

    path = tag_map_path(_store(args))
    try:
        found = TagMap(path)
    except TagError as err:
        return Finding("tags", False, f"the tag map cannot be read: {err}",
                       "fix the file, or delete it and register the tags again", False)
    if not path.exists():
        return Finding("tags", True, f"no tag map yet ({path}); tags by UID are optional",
                       needed=False)
    return Finding("tags", True, f"the tag map names {len(found.cards)} tags ({path})",
                   needed=False)


CHECKS: dict[str, Check] = {
    "python": check_python,
    "config": check_config,
    "pico": check_pico,
    "nfc": check_nfc,
    "leds": check_leds,
    "oled": check_oled,
    "data": check_data,
    "store": check_store,
    "lock": check_lock,
    "tags": check_tag_map,
}


# --------------------------------------------------------------------------- running them


def run_checks(args: argparse.Namespace) -> list[Finding]:
    for name, value in (("pico_port", None), ("pico_wait", PICO_WAIT), ("leds", True),
                        ("pins", None), ("factory", "lgpio"), ("pin_factory", None)):
        if not hasattr(args, name):
            setattr(args, name, value)
    if args.pins is None:
        from overseer.devices.pins import seat_leds

        args.pins = seat_leds()
    if not hasattr(args, "sleep"):
        import time

        args.sleep = time.sleep
    findings = []
    for part, check in CHECKS.items():
        if part in args.without:
            continue
        try:
            findings.append(check(args))
        except Exception as err:  # a broken check is that check's problem, never a traceback
            findings.append(Finding(part, False, f"the {part} check itself failed: "
                                    f"{type(err).__name__}: {err}"))
    return findings


def report(findings: list[Finding], out: Callable[[str], None] = print) -> int:
    """Print the findings; 1 when a needed part has a problem, else 0."""
    for found in findings:
        mark = "ok  " if found.ok else ("FAIL" if found.needed else "--  ")
        out(f"{mark}  {found.part:<7}{found.text}")
        if not found.ok and found.fix:
            out(f"{'':13}-> {found.fix}")
    problems = [f for f in findings if f.needed and not f.ok]
    if problems:
        out(f"{len(problems)} problem{'s' if len(problems) > 1 else ''}: "
            f"{', '.join(f.part for f in problems)}")
        return 1
    out("everything the gadget needs is there")
    return 0


def _settings() -> Any:
    """The config in force, or the defaults when it cannot be read (the config check says
    why)."""
    from overseer.cli.config import Config, ConfigError, load

    try:
        return load()
    except ConfigError:
        return Config()


def seconds(text: str) -> float:
    """A wait in seconds: a number, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of seconds, not {text[:40]!r}") from None
    if not 0 <= value < float("inf"):  # NaN fails it too
        raise argparse.ArgumentTypeError(f"a number of seconds from 0 up, not {text[:40]!r}")
    return value


def i2c_address(text: str) -> int:
    """An I2C address: 0x03 to 0x77, written in decimal or hex."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"an I2C address such as 0x3c, not {text[:40]!r}") \
            from None
    if not 0x03 <= value <= 0x77:
        raise argparse.ArgumentTypeError(f"an I2C address is 0x03 to 0x77, not {text[:40]!r}")
    return value


def parser() -> argparse.ArgumentParser:
    from overseer.devices.nfc import PORT_ENV

    config = _settings()
    about = (__doc__ or "").split("\n\n")[0]
    p = argparse.ArgumentParser(prog="overseer doctor", description=about)
    p.add_argument("--port", default=config.nfc_port,
                   help=f"the NFC reader's serial port (default: ${PORT_ENV}, the config's, or "
                   f"{config.nfc_port})")
    p.add_argument("--pico-port", default=config.pico_port,
                   help="the Pico's serial port (default: the config's, else found on USB)")
    p.add_argument("--pico-wait", type=seconds, default=PICO_WAIT,
                   help=f"seconds to wait for the Pico's answer (default {PICO_WAIT:g})")
    p.add_argument("--db", metavar="FILE", help="the game store (see docs/session.md)")
    p.add_argument("--i2c-bus", type=int, default=config.oled_bus,
                   help=f"the Pi's I2C bus (default {config.oled_bus})")
    p.add_argument("--oled-address", type=i2c_address, default=config.oled_address,
                   help=f"the Pi-side OLED's I2C address (default {config.oled_address:#04x})")
    p.set_defaults(leds=config.leds, pins=config.seat_pins(), factory=config.pin_factory)
    p.add_argument("--without", action="append", default=[], choices=PARTS,
                   help="a part this box has not, or a check to skip (repeat for more)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return report(run_checks(args), lambda text: print(text, flush=True))
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
