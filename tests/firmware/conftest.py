"""Firmware tests: the firmware modules run under CPython with the stand-ins of firmware/unix."""

import sys
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
sys.path[:0] = [str(FIRMWARE / "unix"), str(FIRMWARE)]
