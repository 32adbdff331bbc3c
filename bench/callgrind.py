"""Instruction counts of parts of a running process, by thread, from valgrind's callgrind.

The process measured runs under ``valgrind --tool=callgrind --separate-threads=yes`` and marks
its intervals with callgrind's client requests (``CALLGRIND_ZERO_STATS`` before an interval,
``CALLGRIND_DUMP_STATS_AT(label)`` after it): a few lines of C from valgrind's own header
(``callgrind.h``, Debian package valgrind), compiled with the system's C compiler and called
through ctypes. Outside valgrind the requests do nothing.

The requests act on the calling thread alone (its counters zeroed, its counters dumped), so
each thread measured makes them itself: ``Requests`` are called from the thread whose share is
wanted, and each dump is labelled with it.
"""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE = r"""
#include <valgrind/callgrind.h>
void cg_zero(void) { CALLGRIND_ZERO_STATS; }
void cg_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
"""


def missing() -> str | None:
    """Why instructions cannot be counted here, or None."""
    if shutil.which("valgrind") is None:
        return "valgrind is not installed (Debian package valgrind)"
    if shutil.which("cc") is None:
        return "no C compiler (cc) to build the client requests"
    if not Path("/usr/include/valgrind/callgrind.h").exists():
        return "no valgrind/callgrind.h (Debian package valgrind)"
    return None


class Requests:
    """Callgrind's client requests in this process (no-ops when not under valgrind)."""

    def __init__(self, folder: Path) -> None:
        source, library = folder / "cgreq.c", folder / "cgreq.so"
        source.write_text(SOURCE)
        subprocess.run(["cc", "-O0", "-shared", "-fPIC", "-o", str(library), str(source)],
                       check=True)
        self._lib = ctypes.CDLL(str(library))
        self._lib.cg_dump.argtypes = [ctypes.c_char_p]

    def zero(self) -> None:
        self._lib.cg_zero()

    def dump(self, label: str) -> None:
        self._lib.cg_dump(label.encode())


def run(argv: list[str], folder: Path, detail: bool = False) -> subprocess.CompletedProcess[str]:
    """``argv`` (a Python script and its arguments) under callgrind, its dumps in ``folder``
    (``detail``: with the cost of each function, for ``callgrind_annotate``; else totals)."""
    lines = "yes" if detail else "no"
    return subprocess.run(
        ["valgrind", "--tool=callgrind", "--separate-threads=yes", "--dump-instr=no",
         f"--dump-line={lines}", "--compress-strings=no", "--compress-pos=no",
         f"--callgrind-out-file={folder}/cg.out", sys.executable, *argv],
        capture_output=True, text=True, check=False)


DUMP = re.compile(r"cg\.out\.(\d+)-(\d+)$")


def dumps(folder: Path) -> dict[str, int]:
    """Each client-request dump's label -> the instructions of the thread that made it."""
    found: dict[str, int] = {}
    for path in folder.iterdir():
        if DUMP.match(path.name) is None:
            continue
        label, total = "", 0
        with path.open() as lines:
            for text in lines:
                if text.startswith("desc: Trigger: Client Request: "):
                    label = text.removeprefix("desc: Trigger: Client Request: ").strip()
                elif text.startswith("summary: "):
                    total = int(text.split()[1])
                    break
        found[label] = total
    return found


def scratch() -> tempfile.TemporaryDirectory[str]:
    return tempfile.TemporaryDirectory(prefix="bench-callgrind-")
