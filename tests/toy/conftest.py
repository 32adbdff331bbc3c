"""The toy game plugged in for these tests (one line), taken out after each."""

from collections.abc import Iterator

import pytest

from overseer import games
from tests.toy.game import GAME


@pytest.fixture
def plugged() -> Iterator[None]:
    games.GAMES.add("toy", lambda: GAME)  # the one registry line
    yield
    games.GAMES.remove("toy")
