"""The gadget's config file (TOML): where the store is and what hardware the box has.

The file in force is ``$OVERSEER_CONFIG``, else ``overseer.toml`` in the user's config folder
(``~/.config/overseer/``) when it exists, else ``/etc/overseer/overseer.toml`` when it exists;
with none, every default holds. Every key is optional; an unknown key or a value of the wrong
sort is refused (``ConfigError``, naming the file, the key and a suggestion) and nothing starts.

    [session]
    database = "games.sqlite3"  # the game store; relative to the config file's folder
                                # (--db and $OVERSEER_DB come first)
    [pico]
    port = ""                   # the Pico's serial port; "" finds it on USB by its vendor id
    [nfc]
    enabled = true              # false: a box without a card reader
    port = "/dev/serial0"       # the PN532's serial port ($OVERSEER_NFC_PORT comes first)
    [leds]
    enabled = true              # false: a box without seat LEDs
    factory = "lgpio"           # gpiozero's pin factory: lgpio, rpigpio, native (mock: tests)
    pins = { 1 = 5, 2 = 6, 3 = 13, 4 = 19 }   # seat -> BCM; default: hardware/pins.toml
    [oled]
    driver = "none"             # a Pi-side OLED: none, ssd1306 or sh1106
    bus = 1                     # its I2C bus (/dev/i2c-1)
    address = 0x3C
    rotate = 0                  # 0-3, quarter turns
    [web]
    enabled = false             # the page on the LAN for the table's phones (docs/web.md)
    listen = []                 # its addresses; [] the box's LAN addresses (never public)
    port = 8080
    answers = true              # a paired phone may answer the glass's questions

``overseer config`` prints the settings in force and the file they come from.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from overseer.core.shapes import BadInput, at, check_choice, check_fields, check_type

SYSTEM_CONFIG = Path("/etc/overseer/overseer.toml")
OLED_DRIVERS = ("none", "ssd1306", "sh1106")
PIN_FACTORIES = ("lgpio", "rpigpio", "native", "mock")
DEFAULT_NFC_PORT = "/dev/serial0"

SECTIONS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "session": {"database": str},
    "pico": {"port": str},
    "nfc": {"enabled": bool, "port": str},
    "leds": {"enabled": bool, "factory": str, "pins": dict},
    "oled": {"driver": str, "bus": int, "address": int, "rotate": int},
    "web": {"enabled": bool, "listen": list, "port": int, "answers": bool},
}


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Config:
    """The settings in force (``load``); ``path`` is the file they came from (None: none)."""

    path: Path | None = None
    database: Path | None = None  # from the file; None: the default place (cli/paths.py)
    pico_port: str | None = None  # None: found on USB
    nfc: bool = True
    nfc_port: str = DEFAULT_NFC_PORT
    leds: bool = True
    pin_factory: str = "lgpio"
    pins: dict[int, int] | None = None  # None: hardware/pins.toml
    oled: str = "none"
    oled_bus: int = 1
    oled_address: int = 0x3C
    oled_rotate: int = 0
    web: bool = False
    web_listen: tuple[str, ...] = ()  # () the box's LAN addresses (web/addresses.py)
    web_port: int = 8080
    web_answers: bool = True
    env: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)

    def store(self, cli: str | None = None) -> Path:
        """The game store: ``--db``, else ``$OVERSEER_DB``, else the file's ``database``, else
        the user's data folder."""
        return named_store(cli, self.env) or self.database or default_store()

    def seat_pins(self) -> dict[int, int]:
        from overseer.devices.pins import seat_leds

        return dict(self.pins) if self.pins is not None else seat_leds()

    def lines(self, cli_db: str | None = None) -> list[str]:
        """The settings in force, as ``overseer config`` prints them (TOML)."""
        where = str(self.path) if self.path else "no config file: the defaults"
        pins = self.seat_pins()
        return [
            f"# in force: {where}",
            "[session]", f"database = {_quote(str(self.store(cli_db)))}",
            "[pico]", f"port = {_quote(self.pico_port or '')}"
            + ("  # found on USB" if not self.pico_port else ""),
            "[nfc]", f"enabled = {_bool(self.nfc)}", f"port = {_quote(self.nfc_port)}",
            "[leds]", f"enabled = {_bool(self.leds)}", f"factory = {_quote(self.pin_factory)}",
            "pins = { " + ", ".join(f"{s} = {b}" for s, b in pins.items()) + " }",
            "[oled]", f"driver = {_quote(self.oled)}", f"bus = {self.oled_bus}",
            f"address = {self.oled_address:#04x}", f"rotate = {self.oled_rotate}",
            "[web]", f"enabled = {_bool(self.web)}",
            "listen = [" + ", ".join(_quote(a) for a in self.web_listen) + "]"
            + ("  # the box's LAN addresses" if not self.web_listen else ""),
            f"port = {self.web_port}", f"answers = {_bool(self.web_answers)}",
        ]


def named_store(cli: str | None, env: Mapping[str, str]) -> Path | None:
    """The store a command names before any file is read: ``--db``, else ``$OVERSEER_DB``."""
    if cli:
        return Path(cli).expanduser()
    if env.get("OVERSEER_DB"):
        return Path(env["OVERSEER_DB"]).expanduser()
    return None


def default_store() -> Path:
    """The store when nothing names one: ``games.sqlite3`` in the user's data folder."""
    import platformdirs  # as config_file

    return platformdirs.user_data_path("overseer", appauthor=False) / "games.sqlite3"


def config_file(env: Mapping[str, str] = os.environ) -> Path | None:
    """The config file in force: ``$OVERSEER_CONFIG`` (it must exist), else the user's, else
    the system's, else None."""
    if env.get("OVERSEER_CONFIG"):
        return Path(env["OVERSEER_CONFIG"])
    import platformdirs  # as cli/paths.py (not imported: the doctor reads this module)

    user = platformdirs.user_config_path("overseer", appauthor=False) / "overseer.toml"
    for path in (user, SYSTEM_CONFIG):
        if path.is_file():
            return path
    return None


def load(env: Mapping[str, str] = os.environ) -> Config:
    """The settings in force (see the module's docstring); ConfigError for a bad file."""
    env = dict(env)
    path = config_file(env)
    table: dict[str, Any] = {}
    if path is not None:
        try:
            with open(path, "rb") as f:
                table = tomllib.load(f)
        except FileNotFoundError:
            raise ConfigError(f"{path}: no such config file ($OVERSEER_CONFIG)") from None
        except (OSError, tomllib.TOMLDecodeError) as err:
            raise ConfigError(f"{path}: {err}") from None
    try:
        config = parse(table, path)
    except BadInput as err:
        raise ConfigError(f"{path}: {err}") from None
    nfc_port = env.get("OVERSEER_NFC_PORT") or config.nfc_port
    return Config(**{**vars(config), "nfc_port": nfc_port, "env": env})


def parse(table: dict[str, Any], path: Path | None = None) -> Config:
    """The settings of a parsed config file; BadInput naming the key."""
    check_fields(table, {name: dict for name in SECTIONS}, "")
    for name, fields in SECTIONS.items():
        check_fields(table.get(name, {}), fields, name)
    session, pico, nfc = table.get("session", {}), table.get("pico", {}), table.get("nfc", {})
    leds, oled = table.get("leds", {}), table.get("oled", {})
    database = None
    if "database" in session:
        if not session["database"]:
            raise BadInput("session.database", "wanted a file path, got an empty string")
        folder = path.parent if path is not None else Path.cwd()
        database = (folder / Path(session["database"]).expanduser()).resolve()
    factory = check_choice(leds.get("factory", "lgpio"), PIN_FACTORIES, "leds.factory",
                           "a pin factory")
    driver = check_choice(oled.get("driver", "none"), OLED_DRIVERS, "oled.driver",
                          "an OLED driver")
    rotate = oled.get("rotate", 0)
    if rotate not in (0, 1, 2, 3):
        raise BadInput("oled.rotate", f"wanted 0, 1, 2 or 3 (quarter turns), got {rotate}")
    web = table.get("web", {})
    listen = web.get("listen", [])
    for n, address in enumerate(listen):
        check_type(address, str, at("web.listen", n))
    port = web.get("port", 8080)
    if not 1 <= port <= 65535:
        raise BadInput("web.port", f"wanted a port 1-65535, got {port}")
    return Config(path=path, database=database, pico_port=pico.get("port") or None,
                  nfc=nfc.get("enabled", True), nfc_port=nfc.get("port") or DEFAULT_NFC_PORT,
                  leds=leds.get("enabled", True), pin_factory=factory,
                  pins=_pins(leds["pins"]) if "pins" in leds else None, oled=driver,
                  oled_bus=oled.get("bus", 1), oled_address=oled.get("address", 0x3C),
                  oled_rotate=rotate, web=web.get("enabled", False), web_listen=tuple(listen),
                  web_port=port, web_answers=web.get("answers", True))


def _pins(table: dict[str, Any]) -> dict[int, int]:
    """``{ "1" = 5, ... }``: seats 1 to 4, each a BCM number 0-27, no pin twice."""
    pins: dict[int, int] = {}
    for seat, bcm in table.items():
        where = at("leds.pins", seat)
        if seat not in ("1", "2", "3", "4"):
            raise BadInput(where, "a seat is 1, 2, 3 or 4")
        check_type(bcm, int, where)
        if not 0 <= bcm <= 27:
            raise BadInput(where, f"BCM {bcm} is not a GPIO of the Pi's header (0-27)")
        if bcm in pins.values():
            raise BadInput(where, f"BCM {bcm} is another seat's pin too")
        pins[int(seat)] = bcm
    return dict(sorted(pins.items()))


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _bool(value: bool) -> str:
    return "true" if value else "false"
