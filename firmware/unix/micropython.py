# Off-board stand-in for MicroPython's `micropython` module, used under CPython only (real
# MicroPython has it built in, and a built-in wins over this file).


def kbd_intr(chr):
    """Nothing to do: CPython reads a raw pty, where 0x03 never was Ctrl-C."""


def native(f):
    """MicroPython compiles the function to machine code; CPython runs it as it is."""
    return f


def const(value):
    """MicroPython puts the value in the code that uses the name; CPython looks it up."""
    return value
