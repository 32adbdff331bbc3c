# Millisecond ticks: MicroPython's wrapping time.ticks_ms, or a stand-in under CPython off-board.
# The CPython branch never runs on the Pico; the type checker (MicroPython stubs) is told so.
import time

try:
    ticks_ms = time.ticks_ms  # pyright: ignore[reportAssignmentType]
    ticks_diff = time.ticks_diff  # pyright: ignore[reportAssignmentType]
    ticks_add = time.ticks_add  # pyright: ignore[reportAssignmentType]
except AttributeError:  # CPython: same period (2**30) and wrapping as on the Pico
    _PERIOD = 1 << 30

    def ticks_ms():
        return int(time.monotonic() * 1000) & (_PERIOD - 1)  # pyright: ignore

    def ticks_diff(a, b):
        return ((a - b + (_PERIOD >> 1)) & (_PERIOD - 1)) - (_PERIOD >> 1)

    def ticks_add(a, delta):
        return (a + delta) & (_PERIOD - 1)
