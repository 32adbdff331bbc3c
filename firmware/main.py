# The Pico's firmware entry point: wires the hardware to the App and runs the loop.
# On the Pico this file runs at boot; off-board firmware/unix/board.py calls run().
import gc
import os

import maintenance
import micropython
import pins
from app import App
from buttons import Button, Buttons, Edges
from display import Display
from machine import I2C, WDT, Pin
from ssd1306 import SSD1306_I2C
from ticks import ticks_ms
from usb import Usb

WATCHDOG_MS = 2000  # a hang resets the board within 2 s
GC_THRESHOLD = 32 * 1024  # collect after this much is allocated: the heap stays steady, ~2.5 ms
# a collection on a Pico (bench/pico_rp2.py), rather than one long one when the heap runs out


class Board:
    """The hardware and the App, one loop pass per tick()."""

    def __init__(self) -> None:
        micropython.kbd_intr(-1)  # a 0x03 byte on the USB serial is data, not Ctrl-C
        emergency = getattr(micropython, "alloc_emergency_exception_buf", None)  # not on unix
        if emergency:
            emergency(100)  # a failing IRQ handler can still say why
        now = ticks_ms()
        edges = Edges(ticks_ms)
        keys = []
        for _name, code, gpio in pins.BUTTONS:
            pin = Pin(gpio, Pin.IN, Pin.PULL_UP)
            # every edge, as it happens, even while the loop is busy (a blit, a GC pass)
            pin.irq(edges.catch(code, pin.value), Pin.IRQ_FALLING | Pin.IRQ_RISING, hard=True)
            keys.append(Button(code, pin.value, now))
        sda, scl = Pin(pins.OLED_SDA), Pin(pins.OLED_SCL)
        i2c = I2C(pins.OLED_I2C, sda=sda, scl=scl, freq=pins.OLED_FREQ)
        oled = SSD1306_I2C(pins.OLED_WIDTH, pins.OLED_HEIGHT, i2c, pins.OLED_ADDRESS)
        self.usb = Usb()
        self.app = App(self.usb.write, Buttons(keys, edges), Display(oled), os.urandom, now)
        self.wdt = WDT(timeout=WATCHDOG_MS)

    def tick(self) -> None:
        app = self.app
        now = ticks_ms()
        app.begin(now)
        got = self.usb.pull(app.decoder)  # straight into the decoder, whole blocks at a time
        app.end()
        if got:
            self.usb.send()  # the ACK leaves before step() blits (up to ~23 ms at 400 kHz)
        app.step(now)
        self.usb.send()
        self.wdt.feed()
        if not got:
            self.usb.wait(1)


def run() -> None:
    if maintenance.held():  # the REPL keeps the USB for mpremote
        return
    gc.collect()  # the imports' garbage gone first: the board's buffers are not split by it
    threshold = getattr(gc, "threshold", None)  # MicroPython's (CPython's gc has none)
    if threshold:
        threshold(GC_THRESHOLD)
    board = Board()
    while not board.usb.closed:
        board.tick()


if __name__ == "__main__":
    run()
