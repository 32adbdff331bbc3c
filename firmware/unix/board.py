# Off-board launcher: the firmware on this computer, under MicroPython's Unix port or CPython.
# The contract (USB serial on stdin/stdout, button commands, OLED image file): README.md here.
import sys

_here = __file__[: __file__.rfind("/")] if "/" in __file__ else "."
sys.path.insert(0, _here + "/..")  # firmware/
sys.path.insert(0, _here)  # firmware/unix/: the stand-ins first

import main  # noqa: E402

main.run()
