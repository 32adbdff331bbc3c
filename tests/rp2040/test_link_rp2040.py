"""The link's end-to-end tests (tests/e2e/test_link_e2e.py), the same ones, against the firmware on
MicroPython's rp2 port on an emulated RP2040 (this folder's conftest.py gives them its board)."""

from test_link_e2e import *  # noqa: F403
