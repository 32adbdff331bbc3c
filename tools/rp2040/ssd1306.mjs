// The SSD1306 at 0x3C on rp2040js's I2C0, with the bus's time: each address or data byte takes
// 9 SCL periods and START and STOP one each, at the clock the firmware programmed (400 kHz:
// 22.5 us a byte), so the firmware's blocking write waits as on a board. It keeps the display
// RAM (control bytes, the 0x21/0x22 windows, horizontal addressing), and counts what reached it.
const ARGS = { 0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8d: 1, 0xa8: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1, 0xdb: 1 };
const WIDTH = 128;
const PAGES = 8;

export class Ssd1306 {
  constructor(i2c, clock, address = 0x3c) {
    this.i2c = i2c;
    this.address = address;
    this.ram = new Uint8Array(WIDTH * PAGES);
    this.transactions = 0; // write transactions to the panel
    this.dataBytes = 0; // display-data bytes written
    this.busNs = 0; // board time the bus was busy with the panel
    this.lastDataNs = 0; // board time the last display-data byte was on the panel
    this.changed = false; // display RAM written since the owner last cleared this
    this.onData = null; // () => void: after a transaction that carried display data
    this.cmd = [];
    this.col0 = 0; this.col1 = WIDTH - 1; this.page0 = 0; this.page1 = PAGES - 1;
    this.col = 0; this.page = 0;
    this.bytes = null; // the transaction under way
    this.isData = false;
    this.alarm = clock.createAlarm(() => { const f = this.done; this.done = null; f(); });
    this.done = null;
    this.clock = clock;
    i2c.onStart = () => this.later(1, () => i2c.completeStart());
    i2c.onConnect = (addr, mode) => {
      const ack = addr === this.address && mode === 0; // a write to the panel
      this.bytes = ack ? [] : null;
      this.later(9, () => i2c.completeConnect(ack));
    };
    i2c.onWriteByte = (v) => {
      if (this.bytes) this.bytes.push(v);
      this.later(9, () => i2c.completeWrite(true));
    };
    i2c.onReadByte = () => this.later(9, () => i2c.completeRead(0));
    i2c.onStop = () => {
      const bytes = this.bytes;
      this.bytes = null;
      if (bytes) {
        this.transactions++;
        this.parse(bytes);
      }
      this.later(1, () => {
        if (bytes && this.isData) { this.lastDataNs = clock.nanos; this.onData?.(); }
        this.isData = false;
        i2c.completeStop();
      });
    };
  }

  // the SCL period the firmware set (fast mode: high + low counts of the 125 MHz clk_sys)
  get bitNs() {
    const counts = this.i2c.sclHighPeriod + this.i2c.sclLowPeriod;
    return counts > 0 ? counts * 8 : 2500;
  }

  later(bits, f) {
    const ns = bits * this.bitNs;
    this.busNs += ns;
    this.done = f;
    this.alarm.schedule(ns);
  }

  parse(bytes) {
    let i = 0;
    while (i < bytes.length) {
      const control = bytes[i++];
      const co = control & 0x80, dc = control & 0x40;
      if (dc) { // data: one byte if Co, else the rest
        const end = co ? Math.min(i + 1, bytes.length) : bytes.length;
        for (; i < end; i++) this.data(bytes[i]);
      } else if (co) {
        if (i < bytes.length) this.command(bytes[i++]);
      } else {
        for (; i < bytes.length; i++) this.command(bytes[i]);
      }
    }
  }

  command(b) {
    this.cmd.push(b);
    if (this.cmd.length <= (ARGS[this.cmd[0]] ?? 0)) return;
    const [c, a, b2] = this.cmd;
    this.cmd = [];
    if (c === 0x21) { this.col0 = this.col = a & 0x7f; this.col1 = b2 & 0x7f; }
    else if (c === 0x22) { this.page0 = this.page = a & 7; this.page1 = b2 & 7; }
  }

  data(v) { // horizontal addressing inside the window
    this.ram[this.page * WIDTH + this.col] = v;
    this.dataBytes++;
    this.isData = true;
    this.changed = true;
    if (++this.col > this.col1) {
      this.col = this.col0;
      if (++this.page > this.page1) this.page = this.page0;
    }
  }
}
