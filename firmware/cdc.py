# The link's own USB serial on the Pico (MicroPython's rp2 port): a CDC-ACM interface run by
# machine.USBDevice, with MicroPython's own descriptors (the host sees the same serial device),
# read a whole USB packet at a time. MicroPython's stdin takes ~8 us of the RP2040's CPU per byte
# received; a packet here costs about as much as 25 of those bytes (bench/pico_rp2.py).
#
# boot.py calls start() before MicroPython starts USB, so the board comes up with this interface
# and the REPL is not on the USB (the BACK/UNDO button held at power-up keeps it: scripts/flash).
# The transfers complete in MicroPython's scheduler, between the loop's bytecodes: the callbacks
# only fill a ring of packet buffers and start the next transfer; the loop reads the ring
# (``pull``). Each counter has one writer, so neither side needs a lock.
import machine
import micropython
from micropython import const

_PACKET = const(64)  # a full-speed bulk packet: one OUT transfer each (no ZLP is ever needed)
_RING = const(8)  # packets held for the loop: 512 bytes, the host's window of blocks
_MASK = const(7)
_BACKLOG = const(32)  # packets waiting for the host; beyond this the oldest go (it resends)
_ENDPOINT = const(5)  # USB descriptor types
_BULK = const(2)
_SET_LINE_CODING = const(0x20)
_GET_LINE_CODING = const(0x21)

device = None  # the Cdc once start() ran (boot.py); None when the REPL has the USB


def _bulk_endpoints(desc):
    """(OUT, IN) addresses of the bulk endpoints in a configuration descriptor."""
    out = inp = 0
    i = 0
    while i + 1 < len(desc) and desc[i]:
        if desc[i + 1] == _ENDPOINT and desc[i + 3] & 3 == _BULK:
            if desc[i + 2] & 0x80:
                inp = desc[i + 2]
            else:
                out = desc[i + 2]
        i += desc[i]
    return out, inp


class Cdc:
    def __init__(self, usb) -> None:
        builtin = usb.BUILTIN_CDC
        self.usb = usb
        self._out, self._in = _bulk_endpoints(builtin.desc_cfg)
        self._packets = [bytearray(_PACKET) for _ in range(_RING)]
        self._views = [memoryview(p) for p in self._packets]
        self._sizes = bytearray(_RING)
        self._put = 0  # packets received (mod 256), written by the transfer callback only
        self._took = 0  # packets the loop has taken (mod 256), written by the loop only
        self._reading = False  # an OUT transfer is submitted
        self._writing = False  # an IN transfer is submitted
        self._backlog = []  # what waits for the IN endpoint
        self._configured = False
        self._line = bytearray(b"\x00\xc2\x01\x00\x00\x00\x08")  # 115200 8N1, as the host sets
        usb.active(False)
        usb.builtin_driver = usb.BUILTIN_NONE
        usb.config(builtin.desc_dev, builtin.desc_cfg, None, self._open, self._reset,
                   self._control, self._done)
        usb.active(True)

    # USB callbacks (in the scheduler)

    def _open(self, _desc):
        self._configured = True
        self._read()
        self._write()

    def _reset(self):
        self._configured = False
        self._reading = False
        self._writing = False

    def _control(self, stage, request):
        if stage != 1:  # SETUP; the DATA and ACK stages go on
            return True
        if request[1] in (_SET_LINE_CODING, _GET_LINE_CODING):
            return self._line
        return True  # SET_CONTROL_LINE_STATE and the rest: accepted

    @micropython.native
    def _done(self, ep, _result, n):
        if ep == self._out:
            put = self._put
            if n:
                self._sizes[put & _MASK] = n
                put = (put + 1) & 0xFF
                self._put = put
            # the next packet's transfer (_read inline); with the ring full, the loop submits
            # it once it takes a packet
            if (put - self._took) & 0xFF >= _RING or not self.usb.submit_xfer(
                    self._out, self._packets[put & _MASK]):
                self._reading = False
        elif ep == self._in:
            self._writing = False
            self._write()

    @micropython.native
    def _read(self):
        """Submit the next OUT transfer if the ring has room."""
        if self._reading or not self._configured:
            return
        put = self._put
        if (put - self._took) & 0xFF >= _RING:
            return  # full: the host waits (NAK) until the loop takes a packet
        self._reading = True
        if not self.usb.submit_xfer(self._out, self._packets[put & _MASK]):
            self._reading = False

    def _write(self):
        if self._writing or not self._backlog or not self._configured:
            return
        data = self._backlog.pop(0)  # off the backlog first: it may complete at once
        self._writing = True
        if not self.usb.submit_xfer(self._in, data):
            self._writing = False
            self._backlog.insert(0, data)

    # The loop's side

    @micropython.native
    def pull(self, feed, limit: int) -> int:
        """Give ``feed`` the packets received, up to about ``limit`` bytes; the bytes given."""
        total = 0
        while total < limit:
            took = self._took
            if took == self._put:
                break
            i = took & _MASK
            n = self._sizes[i]
            feed(self._views[i] if n == _PACKET else self._views[i][:n])
            total += n
            self._took = (took + 1) & 0xFF
            if not self._reading:
                self._read()
        return total

    def waiting(self) -> bool:
        return self._took != self._put

    def write(self, data) -> None:
        """Send data: a packet per IN transfer, as MicroPython's own CDC sends."""
        backlog = self._backlog
        if len(data) <= _PACKET:
            backlog.append(data)
        else:
            view = memoryview(data)
            for i in range(0, len(data), _PACKET):
                backlog.append(view[i : i + _PACKET])
        while len(backlog) > _BACKLOG:
            backlog.pop(0)
        if not self._writing:
            self._write()


def start() -> None:
    """Take the USB from MicroPython's REPL (boot.py, before USB starts)."""
    global device
    device = Cdc(machine.USBDevice())
