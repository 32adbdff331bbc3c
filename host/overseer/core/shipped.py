"""The files the gadget reads that are not Python, shipped inside the package (pyproject.toml's
package data) and found through importlib.resources:

- ``datafiles/``: the card data (``core.records.DATA_DIR``, unless ``OVERSEER_DATA`` names
  another folder);
- ``firmware/``: the Pico's firmware, which the virtual Pico runs and whose version the doctor
  expects on the real one;
- ``pins.toml``: the box's pin map (``devices.pins``);
- ``screens/fonts/`` and ``web/static/``: the glass's bitmap fonts, the web page's script and
  style (files of the package itself).

In a checkout each is a link into the repository (host/overseer/datafiles -> data/, firmware
-> firmware/, pins.toml -> hardware/pins.toml), followed here, so a path reads as the
repository's, where the docs and the scripts point; a wheel holds the files themselves
(docs/hardware.md, "Install from a wheel")."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def shipped(name: str) -> Path:
    """The shipped file or folder ``name`` (a checkout's link followed to the repository)."""
    found = files("overseer").joinpath(name)
    if not isinstance(found, Path):  # a zipped package (pip installs a wheel as files)
        raise RuntimeError(f"overseer reads {name} off a folder; it is installed zipped: "
                           "install the wheel with pip")
    return found.resolve()
