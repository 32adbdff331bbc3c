"""Host device tests (the Pico link codec and PicoLink)."""

from pathlib import Path

import pytest

HERE = str(Path(__file__).resolve().parent)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Long runs only when asked for (`-m long`): pyproject's addopts does not exclude them."""
    if config.getoption("markexpr"):
        return
    skip = pytest.mark.skip(reason="long run: select with -m long")
    for item in items:
        if "long" in item.keywords and str(item.path).startswith(HERE):
            item.add_marker(skip)
