"""Shared by every test: hypothesis runs without a per-example deadline (timing is not what
the property tests check, and a busy machine must not fail them); and a fault the gadget's loop
guard caught (app/shell.py: the box goes on, the glass says so) fails the test that met it,
unless the test is marked ``faults``: the guard keeps the box up, never a bug out of sight."""

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from overseer.app import registry, shell

registry.install()  # every game in games.GAMES, as the command line does (overseer/app/registry/)

# the emulated RP2040's Node harness (devices/rp2040_pico.py; tests/rp2040): the checkout's
os.environ.setdefault("OVERSEER_RP2_HARNESS",
                      str(Path(__file__).resolve().parents[1] / "tools" / "rp2040"))

settings.register_profile("overseer", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("overseer")


@pytest.fixture(autouse=True)
def _no_fault_unseen(request: pytest.FixtureRequest):
    before = len(shell.faults)
    yield
    caught = shell.faults[before:]
    if caught and request.node.get_closest_marker("faults") is None:
        pytest.fail(f"the gadget's loop guard caught {len(caught)} fault(s): {caught[0]!r}",
                    pytrace=False)
