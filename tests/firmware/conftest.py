"""Firmware tests: the firmware modules run under CPython with the stand-ins of firmware/unix."""

import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)
FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
sys.path[:0] = [str(FIRMWARE / "unix"), str(FIRMWARE)]


def pytest_collection_modifyitems(config, items):
    """Long runs only when asked for (`-m long`): pyproject's addopts does not exclude them."""
    if config.getoption("markexpr"):
        return
    skip = pytest.mark.skip(reason="long run: select with -m long")
    for item in items:
        if "long" in item.keywords and str(item.path).startswith(HERE):
            item.add_marker(skip)
