# Off-board stand-in for the Pico's `machine` module: Pin (with its edge interrupts), I2C (playing
# the SSD1306), WDT, reset.
# The contract with the outside world (button commands, the OLED image file) is in README.md.
import _thread  # in MicroPython's Unix port and in CPython
import gc
import os
import select
import sys
import time

import pins
from ticks import ticks_add, ticks_diff, ticks_ms

RESET_STATUS = 75  # exit status of machine.reset(): the launcher may start the board again


def reset():
    sys.stderr.write("virtual board: machine.reset()\n")
    sys.exit(RESET_STATUS)


USER_HZ = 100  # the unit of /proc/self/stat's CPU times on Linux
_STAT = bytearray(512)  # read into, not allocated: the stand-in shares the firmware's heap


def _cpu_ms():
    """The CPU time this process has used so far, in ms (Linux), or None where unknown."""
    try:
        f = open("/proc/self/stat", "rb")
        n = f.readinto(_STAT)
        f.close()
    except OSError:
        return None
    i = n - 1
    while i >= 0 and _STAT[i] != 41:  # the last ")": the command name may hold spaces
        i -= 1
    field = 3  # the field after ") " is the 3rd; utime and stime are the 14th and 15th
    total = 0
    value = 0
    for k in range(i + 2, n):
        c = _STAT[k]
        if c == 32:
            if field in (14, 15):
                total += value
            field += 1
            value = 0
            if field > 15:
                return total * 1000 // USER_HZ
        else:
            value = value * 10 + c - 48
    return None


_panels = []  # the emulated SSD1306s that keep an image file


def _save_panels():
    for panel in _panels:
        panel.save()


class WDT:
    """The Pico's watchdog as far as a stand-in can be: a missed feed is noticed at the next
    feed() (it cannot interrupt a hung loop). A loop pass is measured by the time the firmware
    spent in it: the CPU time the process used, and any `stall`. Wall time the process spent
    waiting for a busy host's CPU is not counted: a Pico has its CPU to itself."""

    CPU_SAMPLE_MS = 100  # how often feed() reads the CPU time used (a file read)

    def __init__(self, id=0, timeout=5000):
        self.timeout = timeout
        self.fed = ticks_ms()
        self.cpu = _cpu_ms()  # the CPU time used, read at a feed ...
        self.cpu_at = self.fed  # ... at this time
        self.stalled = 0  # ms stalled on command since that reading: the firmware's own time

    def feed(self):
        _save_panels()  # the OLED file: the panel as this loop pass left it
        presses = _presses
        if presses is not None and not presses.threaded:
            presses.start()  # the loop runs: pin interrupts from now on
        if presses is not None and presses.stall_ms:  # a `stall MS` button command
            ms = presses.stall_ms
            presses.stall_ms = 0
            _sleep_ms(ms)
            self.stalled += ms
        now = ticks_ms()
        late = ticks_diff(now, self.fed)
        if late > self.timeout:
            cpu = _cpu_ms()
            used = None if cpu is None or self.cpu is None else cpu - self.cpu + self.stalled
            if used is None or used >= self.timeout:
                sys.stderr.write(f"virtual board: watchdog not fed for {late} ms\n")
                reset()
            sys.stderr.write(f"virtual board: a loop pass took {late} ms, of which the "
                             f"process ran at most {used} ms (the host is busy): no reset\n")
        self.fed = now
        if ticks_diff(now, self.cpu_at) >= self.CPU_SAMPLE_MS:
            self.cpu = _cpu_ms()
            self.cpu_at = now
            self.stalled = 0


def _sleep_us(us):
    """Sleep ``us`` microseconds, all of them. MicroPython's Unix port wakes a sleeping thread
    early when another one collects garbage (the signal that asks each thread for its stack),
    so its sleep goes on to the deadline; CPython's sleep already does (PEP 475)."""
    sleep_us = getattr(time, "sleep_us", None)  # MicroPython
    if sleep_us:
        end = ticks_add(time.ticks_us(), us)  # (the ticks module's: MicroPython's own here)
        while (left := ticks_diff(end, time.ticks_us())) > 0:
            sleep_us(left)
    else:
        time.sleep(us / 1_000_000)


def _sleep_ms(ms):
    _sleep_us(ms * 1000)


GPIOS = 30  # the RP2040 has GPIO 0 to 29


class _Presses:
    """Button commands from OVERSEER_BOARD_BUTTONS_FD, applied to pin levels in board time.

    Once a pin has an interrupt handler (``Pin.irq``), a thread of its own applies them, as
    switches close and open whatever the firmware's loop is doing, and each change of a level
    calls that pin's handler at once (the Pico's hard IRQ); before that, reading a pin applies
    what is due. ``stall MS`` makes the firmware's loop stop for MS ms at its next pass."""

    # Every command holds the line this long before the next is applied: the firmware's
    # LOCKOUT_MS (buttons.py), the shortest gap after which it takes an edge as a new press or
    # release rather than bounce, so a press comes as soon as the board would take it.
    STEP_MS = 20
    HOLD_MS = {"tap": 100, "hold": 800}

    def __init__(self):
        self.levels = bytearray(GPIOS)  # a bytearray: the thread writes while the loop reads
        self.pulled = bytearray(GPIOS)  # pull-up set once: a later Pin() keeps the level
        self.handlers = [None] * GPIOS  # (handler, trigger, pin) per GPIO
        self.gpio = {}
        for name, _code, gpio in pins.BUTTONS:
            self.gpio[name] = gpio
        self.lines = []
        self.line = bytearray()
        self.release = None  # (time, gpio) of a tap or hold still running
        self.busy_until = ticks_ms()
        self.pumped = None
        self.stall_ms = 0  # asked for; the loop's next WDT.feed() takes it and stalls
        self.threaded = False
        self.file = None
        fd = os.getenv("OVERSEER_BOARD_BUTTONS_FD")
        if fd:
            self.file = open(int(fd), "rb", buffering=0)
            self.poll = select.poll()
            self.poll.register(self.file, select.POLLIN)
            # MicroPython's ipoll allocates nothing: the thread shares the firmware's small heap
            self.ipoll = getattr(self.poll, "ipoll", self.poll.poll)
            self.one = bytearray(1)

    def start(self):
        """Apply the commands from a thread from now on (once: at the loop's first pass, after
        the firmware made its buffers, so the thread's allocations do not split them)."""
        if self.threaded or self.file is None or not any(self.handlers):
            return
        self.threaded = True
        _thread.start_new_thread(self._run, ())

    def _run(self):
        while self.file is not None or self.release is not None or self.lines:
            try:
                self.pump()
            except MemoryError:  # the heap is the firmware's too: make room, go on
                sys.stderr.write("virtual board: button thread out of memory; collecting\n")
                gc.collect()
            due = self.release is not None or self.lines
            if self.file is None:
                _sleep_ms(1)
            else:
                for _item in self.ipoll(1 if due else 20):
                    break

    def _read(self):
        while self.file is not None and self._waiting():
            if not self.file.readinto(self.one):
                self.file = None  # the writer closed: no more commands
                return
            if self.one[0] == 10:
                self.lines.append(bytes(self.line).decode().strip())
                self.line = bytearray()
            else:
                self.line.append(self.one[0])

    def _waiting(self):
        for _item in self.ipoll(0):
            return True
        return False

    def pump(self):
        now = ticks_ms()
        if now == self.pumped:  # once per millisecond is plenty
            return
        self.pumped = now
        self._read()
        if self.release is not None and ticks_diff(now, self.release[0]) >= 0:
            self.set(self.release[1], 1)
            self.release = None
            self.busy_until = ticks_add(now, self.STEP_MS)  # from when it happened, however late
        while (self.lines and self.release is None and not self.stall_ms
               and ticks_diff(now, self.busy_until) >= 0):
            self._apply(self.lines.pop(0), now)

    def set(self, gpio, level):
        """The line of ``gpio`` goes to ``level``; its interrupt handler hears the edge."""
        if self.levels[gpio] == level:
            return
        self.levels[gpio] = level
        irq = self.handlers[gpio]
        if irq is not None and irq[1] & (Pin.IRQ_RISING if level else Pin.IRQ_FALLING):
            irq[0](irq[2])

    def _apply(self, line, now):
        words = line.split()
        if len(words) == 2 and words[0] == "stall" and words[1].isdigit():
            self.stall_ms = int(words[1])  # the next lines wait until the stall has begun
            return
        if len(words) != 2 or words[1] not in self.gpio:
            sys.stderr.write(f"virtual board: unknown button command {line!r}\n")
            return
        verb, gpio = words[0], self.gpio[words[1]]
        if verb == "press":
            self.set(gpio, 0)
        elif verb == "release":
            self.set(gpio, 1)
        elif verb in self.HOLD_MS:
            self.set(gpio, 0)
            self.release = (ticks_add(now, self.HOLD_MS[verb]), gpio)
            self.busy_until = self.release[0]  # then STEP_MS after the release is applied
            return
        else:
            sys.stderr.write(f"virtual board: unknown button command {line!r}\n")
            return
        self.busy_until = ticks_add(now, self.STEP_MS)


_presses = None


def _the_presses():
    global _presses
    if _presses is None:
        _presses = _Presses()
    return _presses


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4  # the RP2040 port's values
    IRQ_RISING = 8

    def __init__(self, id, mode=-1, pull=-1):
        presses = _the_presses()
        self.id = id
        if pull == Pin.PULL_UP and not presses.pulled[id]:
            presses.pulled[id] = 1
            presses.levels[id] = 1

    def value(self, v=None):
        presses = _the_presses()
        if v is None:
            if not presses.threaded:
                presses.pump()
            return presses.levels[self.id]
        presses.set(self.id, 1 if v else 0)

    def irq(self, handler=None, trigger=IRQ_FALLING | IRQ_RISING, hard=False):
        """Call ``handler(pin)`` on each edge of ``trigger``, from the button thread at the
        moment the level changes (hard or not: the stand-in does not tell them apart). The
        thread starts at the first WDT.feed(); until then reading a pin applies what is due,
        and a change then calls the handler too."""
        _the_presses().handlers[self.id] = None if handler is None else (handler, trigger, self)


class _Ssd1306:
    """The controller's side of the I2C bus: command parsing and its 1024-byte display RAM."""

    ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1,
            0xDA: 1, 0xDB: 1}  # fmt: skip

    def __init__(self, path):
        self.path = path
        self.ram = bytearray(1024)
        self.columns = (0, 127)
        self.pages = (0, 7)
        self.column = 0
        self.page = 0
        self.command = []  # a command waiting for its arguments
        self.begin()
        self.changed = False  # the RAM changed since the file was last written
        if path:
            _panels.append(self)

    def write(self, buf):
        """The bytes of one write transaction after the address byte."""
        self.begin()
        self.feed(buf)

    def begin(self):
        """A write transaction starts: a control byte comes first."""
        self._rest = 0  # 1: data to the transaction's end, 2: commands to its end
        self._next = -1  # a Co = 1 control byte's D/C bit, its byte still to come

    def feed(self, buf):
        """More bytes of the transaction under way (a transaction may come in parts)."""
        if self._rest == 1:
            self._data(memoryview(buf))
            return
        i = 0
        n = len(buf)
        while i < n:
            if self._rest == 2:
                self._byte(0, buf[i])
                i += 1
            elif self._next >= 0:  # the byte after a Co = 1 control byte
                self._byte(self._next, buf[i])
                self._next = -1
                i += 1
            elif buf[i] & 0x80:  # Co = 1: one byte, then another control byte
                self._next = buf[i] & 0x40
                i += 1
            elif buf[i] & 0x40:  # Co = 0, data: all the rest goes to display RAM
                self._rest = 1
                self._data(memoryview(buf)[i + 1 :])
                return
            else:  # Co = 0, commands: all the rest
                self._rest = 2
                i += 1

    def _data(self, data):
        # copy row by row: a page's columns at a time, then wrap as _byte does
        self.changed = True
        k = 0
        while k < len(data):
            take = min(len(data) - k, self.columns[1] - self.column + 1)
            start = self.page * 128 + self.column
            self.ram[start : start + take] = data[k : k + take]
            k += take
            self.column += take
            if self.column > self.columns[1]:
                self.column = self.columns[0]
                self.page += 1
                if self.page > self.pages[1]:
                    self.page = self.pages[0]

    def _byte(self, data, b):
        if data:
            self.changed = True
            self.ram[self.page * 128 + self.column] = b
            self.column += 1
            if self.column > self.columns[1]:
                self.column = self.columns[0]
                self.page += 1
                if self.page > self.pages[1]:
                    self.page = self.pages[0]
            return
        cmd = self.command
        cmd.append(b)
        if len(cmd) <= self.ARGS.get(cmd[0], 0):
            return
        if cmd[0] == 0x21:
            self.columns = (cmd[1] & 0x7F, cmd[2] & 0x7F)
            self.column = self.columns[0]
        elif cmd[0] == 0x22:
            self.pages = (cmd[1] & 7, cmd[2] & 7)
            self.page = self.pages[0]
        self.command = []

    def save(self):
        """Write the RAM to the file if it changed since the last time."""
        if self.changed:
            self.changed = False
            self._save()

    def _save(self):
        # whole images only: write a temporary file, then rename it to the path, so a reader
        # never sees half of one image and half of another
        tmp = self.path + ".tmp"
        f = open(tmp, "wb", buffering=0)
        f.write(self.ram)
        f.close()
        try:  # renaming over an existing file costs ms on ext4 (auto_da_alloc): remove it first
            os.remove(self.path)
        except OSError:
            pass
        os.rename(tmp, self.path)


class I2C:
    ADDRESS = 0x3C  # the only device on the bus: the OLED

    def __init__(self, id, sda=None, scl=None, freq=400000):
        self.device = _Ssd1306(os.getenv("OVERSEER_BOARD_OLED"))
        self.writes = 0  # I2C write transactions to the OLED (each one START, address, STOP)
        self.sent = 0  # bytes sent in them after the address byte (control bytes included)
        # OVERSEER_BOARD_I2C_HZ: take as long as the bus would, 9 clocks a byte (8 bits and the
        # ACK), the address byte included; unset, a write takes no time
        hz = os.getenv("OVERSEER_BOARD_I2C_HZ")
        self.byte_us = 9_000_000 // int(hz) if hz else 0

    def _bus(self, n):
        self.writes += 1
        self.sent += n
        if self.byte_us:
            _sleep_us(self.byte_us * (n + 1))

    def scan(self):
        return [self.ADDRESS]

    def writeto(self, addr, buf, stop=True):
        if addr != self.ADDRESS:
            raise OSError(19)  # ENODEV, as the Pico reports a missing device
        self._bus(len(buf))
        self.device.write(buf)
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        """One write of the buffers of ``vector`` one after another (any buffers: bytes,
        bytearray, memoryview), as the RP2040 port sends them."""
        if addr != self.ADDRESS:
            raise OSError(19)
        n = 0
        for part in vector:
            n += len(part)
        self._bus(n)
        device = self.device
        device.begin()
        for part in vector:  # part by part: no joined copy (a whole screen is 1,037 bytes)
            device.feed(part)
        return n
