# Off-board launcher: the firmware on this computer, under MicroPython's Unix port or CPython.
# The contract (USB serial on stdin/stdout, button commands, OLED image file): README.md here.
import sys

_here = __file__[: __file__.rfind("/")] if "/" in __file__ else "."
sys.path.insert(0, _here + "/..")  # firmware/
sys.path.insert(0, _here)  # firmware/unix/: the stand-ins first

import main  # noqa: E402

try:
    main.run()
except Exception as e:
    # MicroPython's Unix port prints an uncaught exception on stdout, here the USB serial: a
    # host would take it for garbage on the link and the board would seem to die silently
    print_exception = getattr(sys, "print_exception", None)  # MicroPython's; CPython: stderr
    if print_exception is None:
        raise
    print_exception(e, sys.stderr)
    sys.exit(1)
