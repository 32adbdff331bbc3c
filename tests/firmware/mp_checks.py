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


vectors = json.load(open(sys.argv[1]))
print(json.dumps({
    "implementation": sys.implementation.name,
    "streams": streams(vectors),
    "encoded": encoded(vectors),
    "dice": dice_counts(),
    "presses": presses(),
    "sender": sender(),
    # the I2C stand-in's recording panel is off-board only (tests/rp2040 checks the real bus)
    "partial_shows": partial_shows() if sys.platform != "rp2" else None,
}))
