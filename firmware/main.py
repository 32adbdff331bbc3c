# The Pico's firmware entry point: wires the hardware to the App and runs the loop.
# On the Pico this file runs at boot; off-board firmware/unix/board.py calls run().
import os

import micropython
import pins
from app import App
from buttons import Button, Buttons
from display import Display
from machine import I2C, WDT, Pin
from ssd1306 import SSD1306_I2C
from ticks import ticks_ms
from usb import Usb

WATCHDOG_MS = 2000  # a hang resets the board within 2 s


def run():
    micropython.kbd_intr(-1)  # a 0x03 byte on the USB serial is data, not Ctrl-C
    now = ticks_ms()
    keys = []
    for _name, code, gpio in pins.BUTTONS:
        keys.append(Button(code, Pin(gpio, Pin.IN, Pin.PULL_UP).value, now))
    i2c = I2C(pins.OLED_I2C, sda=Pin(pins.OLED_SDA), scl=Pin(pins.OLED_SCL), freq=pins.OLED_FREQ)
    oled = SSD1306_I2C(pins.OLED_WIDTH, pins.OLED_HEIGHT, i2c, pins.OLED_ADDRESS)
    usb = Usb()
    app = App(usb.write, Buttons(keys), Display(oled), os.urandom, now)
    wdt = WDT(timeout=WATCHDOG_MS)
    while not usb.closed:
        data = usb.read()
        now = ticks_ms()
        if data:
            app.receive(data, now)
        app.step(now)
        wdt.feed()
        if not data:
            usb.wait(1)


if __name__ == "__main__":
    run()
