# BACK/UNDO held at power-up: the firmware leaves the Pico's REPL on the USB for mpremote
# (scripts/flash) and does not start.
import pins
from machine import Pin

BUTTON = 3  # BACK/UNDO's code (pins.BUTTONS)


def held() -> bool:
    for _name, code, gpio in pins.BUTTONS:
        if code == BUTTON:
            return Pin(gpio, Pin.IN, Pin.PULL_UP).value() == 0
    return False
