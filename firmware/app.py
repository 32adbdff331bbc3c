# The board's logic: the link to the host, buttons, dice and screens, driven by step(now).
# No hardware here: main.py passes in the USB writer, buttons, display and random source.
import struct

import dice
import link
import micropython
from buttons import DOWN, LONG
from link import ACK, FRAME_CHUNK, HEARTBEAT, HELLO
from ticks import ticks_diff

FIRMWARE = "overseer-fw 0.1.0"  # ASCII, at most 32 bytes
HEARTBEAT_MS = 250
LINK_LOST_MS = 1000
BOOT_SCREEN_MS = 800
TUMBLE_MS = 600  # the die tumbles this long, then shows its face
TUMBLE_FRAME_MS = 75
RESULT_HOLD_MS = 1000  # a host frame that arrives meanwhile waits this long behind the face
MAX_ROLLS = 8  # rolls waiting for the die
REMEMBERED_ROLLS = 16  # roll ids answered again with the same face
ROLL_BUTTON = 4  # button code of ROLL (docs/protocol.md, Buttons)

# What the glass shows
BOOT = 0
WAITING = 1
HOST = 2
LOST = 3
ROLLING = 4
RESULT = 5


class App:
    def __init__(self, write, buttons, display, urandom, now: int) -> None:
        self.write = write
        self.buttons = buttons
        self.display = display
        self.urandom = urandom
        self.boot_id = struct.unpack("<H", urandom(2))[0]
        self.decoder = link.Decoder(link.HOST_TO_PICO, self._block)
        self._chunk_length = -1  # the LEN of the last FRAME_CHUNK and a view of its data
        self._chunk = self.decoder.view
        self._now = now  # the time of the bytes being decoded
        self._ack = False  # a reliable message among them: one PICO_ACK after them
        self._acks = link.AckBlock()
        self.receiver = link.Receiver()
        self.sender = link.Sender(write)
        self.event_id = 0
        self.heard = False  # a valid block arrived since boot
        self.last_rx = now
        self.last_heartbeat = now
        self.rolls = []  # [roll_id, die] waiting for the die
        self.roll = None  # [roll_id, die, face] tumbling now
        self.answered = []  # [roll_id, die, event_id, face] of recent ROLL_REQUESTs
        self.open = []  # codes whose DOWN was queued and whose LONG or SHORT is still to come
        self.host_waiting = False  # an accepted host frame is not on the glass yet
        # FRAME_ARM: the back buffer, its CRC checked, goes on the glass when arm_button goes
        # DOWN while host screen arm_after is on the glass (docs/protocol.md, Frames)
        self.arm_button = None
        self.arm_after = 0
        self.screen = BOOT
        self.screen_since = now
        self.frame = 0
        display.boot(FIRMWARE)

    # Input

    def receive(self, data, now: int) -> None:
        """Bytes from the USB serial. One cumulative ACK answers all reliable messages in them."""
        self.begin(now)
        self.decoder.feed(data)
        self.end()

    @micropython.native
    def begin(self, now: int) -> None:
        """Bytes are about to go into ``decoder`` (``Usb.pull``); ``end()`` once they have."""
        self._now = now
        self._ack = False

    @micropython.native
    def end(self) -> None:
        if self._ack:
            self._ack = False
            self.write(self._acks.encode(self.receiver.last))

    @micropython.native
    def _block(self, typ, seq, length):
        """The decoder's handler: one valid block, its payload at decoder.buf[4:4 + length]."""
        now = self._now
        self.heard = True
        self.last_rx = now
        if typ == HELLO:
            self.arm_button = None
            self.display.kept = None  # the host knows nothing kept after a handshake
            self.receiver.reset()
            self.sender.reset()
            ident = struct.pack("<BH", link.PROTOCOL, self.boot_id) + FIRMWARE.encode()
            self._send(link.IDENT, ident)
        elif typ == ACK:
            self.sender.on_ack(self.decoder.buf[4], now)
        elif typ != HEARTBEAT:  # FRAME_CHUNK, FRAME_SHOW, ROLL_REQUEST: reliable
            self._ack = True
            if not self.receiver.accept(seq):
                return
            if typ == FRAME_CHUNK:  # most blocks: no further call but the copy
                buf = self.decoder.buf
                if length != self._chunk_length:  # a frame's chunks: one view for them all
                    self._chunk_length = length
                    self._chunk = self.decoder.view[8 : 4 + length]
                screen_id = buf[4] | buf[5] << 8
                self.arm_button = None  # the armed image is no longer the one checked
                if not self.display.chunk(screen_id, buf[6] | buf[7] << 8, self._chunk):
                    self._error(link.ERROR_BAD_CHUNK)
            else:
                self._act(typ)

    def _act(self, typ):
        """FRAME_SHOW, FRAME_ARM or ROLL_REQUEST, accepted: its payload at decoder.buf[4:]."""
        buf = self.decoder.buf
        if typ != link.ROLL_REQUEST:  # FRAME_SHOW or FRAME_ARM: screen_id, crc first
            self.arm_button = None  # either ends the arm; at most one image armed
            screen_id, crc = struct.unpack_from("<HI", buf, 4)
            display = self.display
            if typ == link.FRAME_ARM and buf[10] >= ROLL_BUTTON:  # ROLL reports no BUTTON
                self._error(link.ERROR_BAD_CHUNK)  # refused, the back buffer as it was
            elif typ == link.FRAME_ARM and display.is_kept(screen_id, crc):  # armed again
                display.arm_kept()
                self.arm_button = buf[10]
                self.arm_after = buf[11] | buf[12] << 8
            elif not display.check(screen_id, crc):
                self._error(link.ERROR_FRAME_CRC)
            elif typ == link.FRAME_SHOW:
                display.take()
                self.host_waiting = True  # blitted by step(), after the ACK has gone out
            else:  # armed: FRAME_ARM's button and after; the image kept
                display.keep(crc)
                self.arm_button = buf[10]
                self.arm_after = buf[11] | buf[12] << 8
        else:  # ROLL_REQUEST
            roll_id, die = struct.unpack_from("<HB", buf, 4)
            if die >= len(dice.FACES):
                self._error(link.ERROR_BAD_ROLL)
                return
            for r in self.answered:
                if r[0] == roll_id and r[1] == die:
                    again = struct.pack("<HHBB", r[2], roll_id, die, r[3])
                    self._queue_event(link.ROLL_RESULT, again)
                    return
            if self.roll is not None and self.roll[0] == roll_id and self.roll[1] == die:
                return  # being rolled: its result is on the way
            for r in self.rolls:
                if r[0] == roll_id and r[1] == die:
                    return
            if len(self.rolls) >= MAX_ROLLS or self._room() <= 0:
                self._error(link.ERROR_QUEUE_FULL)
                return
            self.rolls.append([roll_id, die])

    # Output

    def _send(self, typ, payload):
        self.write(link.encode(0, typ, payload))

    def _error(self, code):
        self._send(link.ERROR, bytes((code,)))

    def _room(self):
        """Free places in the event queue, keeping one for a roll in progress and one for the
        end (LONG or SHORT) of each press whose DOWN is queued."""
        used = len(self.sender.pending) + len(self.rolls) + (1 if self.roll else 0)
        return link.MAX_PENDING - used - len(self.open)

    def _next_event_id(self):
        self.event_id = 1 if self.event_id >= 0xFFFF else self.event_id + 1
        return self.event_id

    def _queue_event(self, typ, payload):
        if not self.sender.send(typ, payload):
            self._error(link.ERROR_QUEUE_FULL)

    # Screens

    def _set(self, screen, now):
        self.screen = screen
        self.screen_since = now

    def _show_host(self, now):
        self.host_waiting = False
        if self.display.show_host():
            self._set(HOST, now)
        else:
            self.display.waiting()
            self._set(WAITING, now)

    def _link_ok(self, now):
        return self.heard and ticks_diff(now, self.last_rx) < LINK_LOST_MS

    # The loop

    def step(self, now: int) -> None:
        self._buttons(now)
        self._dice(now)
        self._screens(now)
        if ticks_diff(now, self.last_heartbeat) >= HEARTBEAT_MS:
            self.last_heartbeat = now
            beat = struct.pack("<HH", self.boot_id, self.display.on_glass())
            self._send(link.PICO_HEARTBEAT, beat)
        self.sender.poll(now)

    def _buttons(self, now):
        self.buttons.update(now)
        while True:
            press = self.buttons.get()
            if press is None:
                return
            code, kind = press
            armed = self.arm_button if kind == DOWN else None
            if kind == DOWN:  # every DOWN ends the arm; its own button's may show the image
                self.arm_button = None
            if code == ROLL_BUTTON:  # rolled once short or long is known: no BUTTON message
                if kind == DOWN:
                    continue
                if self._room() <= 0:
                    self._error(link.ERROR_QUEUE_FULL)
                else:
                    self.rolls.append([0, dice.RUNE if kind == LONG else dice.D12])
            elif kind == DOWN:
                if self._room() < 2:  # no room for the DOWN and its end: the press is dropped
                    self._error(link.ERROR_QUEUE_FULL)
                    continue
                # armed, and the glass shows host screen arm_after (HEARTBEAT's screen_id: 0
                # while an own screen or a die is up)
                if code == armed and self.display.on_glass() == self.arm_after:
                    self.display.take_kept()
                    self._show_host(now)  # on the glass before the BUTTON below leaves
                self.open.append(code)
                self._button(code, kind)
            elif code in self.open:  # its place was kept when the DOWN was queued
                self.open.remove(code)
                self._button(code, kind)

    def _button(self, code, kind):
        self._queue_event(link.BUTTON, struct.pack("<HBB", self._next_event_id(), code, kind))

    def _die_holds_glass(self, now):
        if self.screen == ROLLING:
            return True
        return self.screen == RESULT and ticks_diff(now, self.screen_since) < RESULT_HOLD_MS

    def _dice(self, now):
        if self.screen == ROLLING and self.roll is not None:
            self._tumble(self.roll, now)
        elif self.rolls and self.screen != BOOT and not self._die_holds_glass(now):
            roll = self.rolls.pop(0)
            self.arm_button = None  # a die takes the glass: the arm ends
            roll.append(dice.roll(roll[1], self.urandom))
            self.roll = roll
            self.frame = 0
            self._set(ROLLING, now)
            self._tumble(roll, now)
        elif self.host_waiting and not self._die_holds_glass(now):
            self._show_host(now)

    def _tumble(self, roll, now):
        roll_id, die, face = roll
        elapsed = ticks_diff(now, self.screen_since)
        if elapsed < TUMBLE_MS:
            frame = 1 + elapsed // TUMBLE_FRAME_MS
            if frame != self.frame:
                self.frame = frame
                self.display.die(die, dice.roll(die, self.urandom), frame)
            return
        event_id = self._next_event_id()
        self._queue_event(link.ROLL_RESULT, struct.pack("<HHBB", event_id, roll_id, die, face))
        if roll_id:
            self.answered.append([roll_id, die, event_id, face])
            if len(self.answered) > REMEMBERED_ROLLS:
                self.answered.pop(0)
        self.roll = None
        self.display.die(die, face, 0)
        self._set(RESULT, now)

    def _screens(self, now):
        screen = self.screen
        if self._die_holds_glass(now):
            return
        if screen == BOOT:
            if ticks_diff(now, self.screen_since) >= BOOT_SCREEN_MS:
                self.display.waiting()
                self._set(WAITING, now)
        elif self._link_ok(now):
            if screen == LOST:
                self._show_host(now)
        elif screen != LOST and self.heard:
            self.display.link_lost()
            self._set(LOST, now)
