# Runs under real MicroPython (the Unix port), not pytest: the firmware's link, dice and buttons
# logic on the interpreter the Pico runs, printing JSON for test_firmware_micropython.py to check.
# Usage: micropython mp_checks.py <vectors json>, with the firmware's folder and firmware/unix
# (machine's I2C stand-in; framebuf is built in there) on MICROPYPATH, or PYTHONPATH under
# CPython (fwtools.firmware_path); on the emulated RP2040 (tests/rp2040) the same file runs at
# the board's REPL beside the firmware, sys.argv set by the caller.
import json
import sys
from binascii import hexlify, unhexlify

import buttons
import dice
import link


def hx(b):
    return hexlify(b).decode()


def streams(vectors):
    out = []
    for s in vectors["streams"]:
        sizes = link.HOST_TO_PICO if s["direction"] == "host_to_pico" else link.PICO_TO_HOST
        d = link.Decoder(sizes)
        d.feed(unhexlify(s["hex"]))
        msgs = []
        while True:
            m = d.get()
            if m is None:
                break
            msgs.append([m[0], m[1], hx(m[2])])
        out.append({"messages": msgs, "dropped": d.dropped})
    return out


def encoded(vectors):
    return [hx(link.encode(b["seq"], b["type"], unhexlify(b["payload"]))) for b in vectors["blocks"]]


def dice_counts():
    out = []
    for n in dice.FACES:
        counts = [0] * (n + 1)
        for b in range(256):
            counts[dice.face_from_byte(b, n)] += 1
        out.append(counts)
    return out


def presses():
    """A 3 ms press, a short press whose release chatters, a second press a lockout after the
    last edge of that chatter, a long one, and a tap while the loop stalls 500 ms."""
    now = [0]
    level = [1]
    edges = buttons.Edges(lambda: now[0])
    edge = edges.catch(4, lambda: level[0])
    bs = buttons.Buttons([buttons.Button(4, lambda: level[0], 0)], edges)
    out = []
    for t in range(4000):
        now[0] = t
        closed = (100 <= t < 103 or 200 <= t < 300 or 302 <= t < 304 or 306 <= t < 307
                  or 327 <= t < 400 or 1000 <= t < 1700 or 3100 <= t < 3200)
        new = 0 if closed else 1
        if new != level[0]:
            level[0] = new
            edge(None)
        if not 3000 <= t < 3500:  # the loop stalls from 3000 to 3500 ms
            bs.update(t)
            while bs.queue:
                out.append([t] + list(bs.queue.pop(0)))
    return out


def sender():
    sent = []
    s = link.Sender(sent.append)
    s.reset()
    for n in range(10):
        s.send(link.BUTTON, bytes((n, 0, 1, 0)))
    s.poll(0)
    s.on_ack(3, 5)
    s.poll(5)
    s.poll(5 + link.RETRANSMIT_MS)
    d = link.Decoder(link.PICO_TO_HOST)
    for b in sent:
        d.feed(b)
    seqs = []
    while True:
        m = d.get()
        if m is None:
            break
        seqs.append(m[1])
    return seqs


def partial_shows():
    """Host images changed a few chunks at a time (any offset and length), refused frames and
    own screens between them, through the real driver on the I2C stand-in: after each show,
    whether the panel's RAM is the shown image, and the bytes each show sent."""
    import machine
    from display import Display
    from ssd1306 import SSD1306_I2C

    i2c = machine.I2C(0)
    d = Display(SSD1306_I2C(128, 64, i2c))
    target = bytearray(1024)
    seed = [7]

    def rand(n):  # a small LCG (no random module needed)
        seed[0] = (seed[0] * 1103515245 + 12345) & 0x7FFFFFFF
        return seed[0] % n

    out = []
    for screen in range(1, 200):
        for _ in range(1 + rand(4)):
            offset = rand(1024)
            data = bytes(rand(256) for _ in range(1 + rand(min(64, 1024 - offset))))
            d.chunk(screen, offset, data)
            target[offset : offset + len(data)] = data
        if rand(10) == 0:
            d.accept(screen, link.crc32(target) ^ 1)
            target[:] = d.shown
            continue
        d.accept(screen, link.crc32(target))
        if rand(8) == 0:
            d.link_lost()
        sent = i2c.sent
        d.show_host()
        out.append([bytes(i2c.device.ram) == bytes(target), i2c.sent - sent])
    return out


class Recorder:
    """An I2C bus that records its writes (their bytes) in ``log``, beside the link's blocks."""

    def __init__(self, log):
        self.log = log

    def writeto(self, addr, buf, stop=True):
        self.log.append(["i2c", len(buf)])

    def writevto(self, addr, vector, stop=True):
        self.log.append(["i2c", sum(len(part) for part in vector)])


def armed():
    """FRAME_ARM through the App on a recording bus: what happened, in order, at NEXT AI
    PIECE's DOWN with the image armed (I2C writes before the BUTTON block?), then at DOWNs
    after each way the arm ends, and a FRAME_SHOW of the image already shown."""
    import struct

    import app
    from display import Display
    from ssd1306 import SSD1306_I2C

    shown = bytes((i * 13 + 1) & 0xFF for i in range(1024))
    image = bytearray(shown)
    image[300:364] = bytes(64)

    def board():
        log = []
        now = [0]
        level = [1, 1, 1, 1, 1]
        edges = buttons.Edges(lambda: now[0])
        keys = [buttons.Button(code, lambda code=code: level[code], 0) for code in range(5)]
        catch = [edges.catch(code, lambda code=code: level[code]) for code in range(5)]

        def write(block):
            log.append(["usb", block[3]])

        a = app.App(write, buttons.Buttons(keys, edges), Display(SSD1306_I2C(128, 64,
                    Recorder(log))), lambda n: bytes(n), 0)
        seq = [0]

        def send(typ, payload=b""):
            if typ != link.HELLO:
                seq[0] += 1
            a.receive(link.encode(seq[0] if typ != link.HELLO else 0, typ, payload), now[0])

        def run(ms):
            for _ in range(ms):
                now[0] += 1
                a.step(now[0])

        def press(code, release=True):
            level[code] = 0
            catch[code](None)
            run(1)
            if not release:
                return
            level[code] = 1
            catch[code](None)
            run(30)

        run(900)
        send(link.HELLO, bytes((link.PROTOCOL,)))
        for off in range(0, 1024, 64):
            send(link.FRAME_CHUNK, struct.pack("<HH", 10, off) + shown[off : off + 64])
        send(link.FRAME_SHOW, struct.pack("<HI", 10, link.crc32(shown)))
        run(1)

        def arm(button=0, after=10, crc=None):
            send(link.FRAME_CHUNK, struct.pack("<HH", 11, 300) + image[300:364])
            crc = link.crc32(image) if crc is None else crc
            send(link.FRAME_ARM, struct.pack("<HIBH", 11, crc, button, after))

        del log[:]
        return a, log, send, run, press, arm

    out = {}
    a, log, send, run, press, arm = board()
    arm()
    run(5)
    quiet = [e for e in log if e[0] == "i2c"]  # armed: nothing drawn yet
    del log[:]
    press(0)
    fired = [e for e in log if e[0] == "i2c" or e[1] == link.BUTTON][:2]
    out["fire"] = [quiet, fired, a.display.on_glass()]
    del log[:]
    send(link.FRAME_SHOW, struct.pack("<HI", 12, link.crc32(image)))  # the same image again
    run(1)
    out["same_image"] = [[e for e in log if e[0] == "i2c"], a.display.on_glass()]
    for way in ("after", "other", "roll", "chunk", "show", "arm", "crc", "button", "hello"):
        a, log, send, run, press, arm = board()
        arm(after=9 if way == "after" else 10, crc=1 if way == "crc" else None,
            button=4 if way == "button" else 0)
        if way == "other":
            press(1)
        elif way == "roll":
            press(4, release=False)  # its DOWN: the die not rolled yet
        elif way == "chunk":
            send(link.FRAME_CHUNK, struct.pack("<HH", 11, 0) + bytes(8))
        elif way == "show":
            send(link.FRAME_SHOW, struct.pack("<HI", 11, 1))
        elif way == "arm":
            send(link.FRAME_ARM, struct.pack("<HIBH", 12, 1, 0, 10))
        elif way == "hello":
            send(link.HELLO, bytes((link.PROTOCOL,)))
        press(0)
        errors = [e[1] for e in log if e == ["usb", link.ERROR]]
        out[way] = [a.display.on_glass(), len(errors)]
    return out


vectors = json.load(open(sys.argv[1]))
print(json.dumps({
    "implementation": sys.implementation.name,
    "streams": streams(vectors),
    "encoded": encoded(vectors),
    "dice": dice_counts(),
    "presses": presses(),
    "sender": sender(),
    "armed": armed(),
    # the I2C stand-in's recording panel is off-board only (tests/rp2040 checks the real bus)
    "partial_shows": partial_shows() if sys.platform != "rp2" else None,
}))
