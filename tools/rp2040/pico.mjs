// The emulated Pico: an RP2040 (rp2040js) with MicroPython's rp2 port from a UF2, the project's
// firmware on a littlefs image, the SSD1306 on I2C0, the buttons on GPIO, USB CDC and UART0.
// Time is board time: `run(ns)` executes the core synchronously (deterministic), 8 ns a cycle.
import { readFileSync } from 'fs';
import { Simulator, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';
import { bootromB1 } from './bootrom.mjs';
import { Ssd1306 } from './ssd1306.mjs';

const FLASH_START = 0x10000000;
const FS_OFFSET = 0xa0000; // MicroPython RPI_PICO: the filesystem's flash offset (picotool info)
export const CYCLE_NS = 1e9 / 125_000_000; // rp2040js runs the core at 125 MHz
const WATCHDOG = 0x40058; // the WATCHDOG block's peripheral index (0x40058000 >> 12)

// UF2: 512-byte blocks; magic at 0 and 4, target address at 12, payload size at 16, data at 32
function loadUf2(mcu, data) {
  let blocks = 0;
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const v = new DataView(data.buffer, data.byteOffset + off, 512);
    if (v.getUint32(0, true) !== 0x0a324655 || v.getUint32(4, true) !== 0x9e5d5157) continue;
    const addr = v.getUint32(12, true);
    mcu.flash.set(data.subarray(off + 32, off + 32 + v.getUint32(16, true)), addr - FLASH_START);
    blocks++;
  }
  if (!blocks) throw new Error('not a UF2 file');
}

export class Pico {
  // uf2: path of the MicroPython firmware; fs: path of a littlefs image (the firmware files);
  // buttons: GPIOs pulled up (rp2040js applies no pull resistors: they are driven high here)
  constructor({ uf2, fs = null, buttons = [] }) {
    this.sim = new Simulator();
    this.mcu = this.sim.rp2040;
    this.clock = this.sim.clock;
    this.mcu.loadBootrom(bootromB1);
    this.mcu.logger = new ConsoleLogger(LogLevel.Error);
    loadUf2(this.mcu, readFileSync(uf2));
    if (fs) this.mcu.flash.set(readFileSync(fs), FS_OFFSET);
    for (const g of buttons) this.mcu.gpio[g].setInputValue(true);
    this.oled = new Ssd1306(this.mcu.i2c[0], this.clock);
    this.onSerial = null; // (Uint8Array) => void: what the firmware writes to its USB serial
    this.onUart = null; // (byte) => void: what it writes to UART0 (the bench's side channel)
    this.onWatchdog = null;
    this.connected = false;
    this.queue = []; // bytes for the firmware's stdin beyond the 512-byte CDC FIFO
    this.head = 0;
    this.cdc = new USBCDC(this.mcu.usbCtrl);
    this.cdc.onDeviceConnected = () => { this.connected = true; };
    this.cdc.onSerialData = (buf) => this.onSerial?.(buf);
    // rp2040js's USBCDC answers the firmware's every OUT transfer at once, with no bytes when it
    // has none: ~37 empty transfers (and USB interrupts) per ms of board time while the line is
    // idle, CPU a Pico does not spend (a real host sends nothing and the device NAKs in
    // hardware). Hold the transfer until there are bytes for it, as a host does.
    const usb = this.mcu.usbCtrl;
    const answer = usb.onEndpointRead;
    this.held = null; // [endpoint, size] of the OUT transfer waiting for bytes
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint === this.cdc.outEndpoint && this.cdc.txFIFO.empty) this.held = [endpoint, size];
      else answer(endpoint, size);
    };
    this.answer = answer;
    this.mcu.uart[0].onByte = (b) => this.onUart?.(b);
    this.mcu.peripherals[WATCHDOG].onWatchdogTrigger = () => this.onWatchdog?.();
    this.mcu.core.PC = FLASH_START;
  }

  get nanos() {
    return this.clock.nanos;
  }

  get ms() {
    return this.clock.nanos / 1e6;
  }

  // Bytes to the firmware's stdin. The CDC FIFO drops bytes when full: keep the rest here and
  // top the FIFO up from the run loop.
  write(bytes) {
    for (const b of bytes) this.queue.push(b);
    this.feed();
  }

  get unsent() {
    return this.queue.length - this.head;
  }

  feed() {
    const fifo = this.cdc.txFIFO;
    while (this.head < this.queue.length && !fifo.full) fifo.push(this.queue[this.head++]);
    if (this.held && !fifo.empty) {
      const [endpoint, size] = this.held;
      this.held = null;
      this.answer(endpoint, size);
    }
    if (this.head === this.queue.length && this.head) { this.queue = []; this.head = 0; }
  }

  // Run for `ns` of board time, or until until() holds (checked every 64 instructions).
  run(ns, until = null) {
    const { mcu, clock } = this;
    const core = mcu.core;
    const end = clock.nanos + ns;
    let n = 0;
    while (clock.nanos < end) {
      if (core.waiting) {
        clock.tick(Math.max(Math.min(clock.nanosToNextAlarm, end - clock.nanos), CYCLE_NS));
      } else {
        clock.tick(core.executeInstruction() * CYCLE_NS);
      }
      if ((++n & 63) === 0) {
        if (this.head < this.queue.length) this.feed();
        if (until && until()) return true;
      }
    }
    return until ? !!until() : true;
  }
}
