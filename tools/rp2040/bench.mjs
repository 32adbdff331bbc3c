// bench/pico_rp2.py's driver: the emulated Pico run synchronously (deterministic), every figure
// in board time. Reads one JSON job on stdin, prints one JSON result on stdout.
//
// job: { uf2, fs, buttons: [gpio...], window, hello: hex,
//        cases: [{ name, blocks: [[seq, hex]...], image: hex | null }...],
//        press: gpio }
// Each case is sent as a host would: at most `window` reliable blocks not yet acknowledged.
// A case with `next` ends at its last ACK: the next case follows at once, as the panel is written.
// A case with an image ends when the panel's RAM holds it (its time: from the first byte
// written to the panel's last display byte, the modelled I2C included); without, at the last
// ACK. The firmware's main.py on this image reports gc.mem_free() on its USB serial after each host
// image reaches the glass; the driver waits for that report before the next case.
import { Pico } from './pico.mjs';

const BUTTON = 0x82, IDENT = 0x81, PICO_ACK = 0x85;
const job = JSON.parse(await new Promise((resolve) => {
  let s = '';
  process.stdin.on('data', (d) => { s += d; }).on('end', () => resolve(s));
}));
const log = (s) => { if (process.env.RP2_BENCH_LOG) process.stderr.write(`${(pico?.ms ?? 0).toFixed(1)} ms: ${s}\n`); };
const hex = (h) => Buffer.from(h, 'hex');
let pico = null;
pico = new Pico({ uf2: job.uf2, fs: job.fs, buttons: job.buttons });

// what the firmware writes: whole blocks (SYNC LEN SEQ TYPE PAYLOAD CRC32) and, between them,
// the bench's main.py's heap reports ("H<bytes free>\n": no SYNC byte in them)
let rx = [];
const seen = []; // [type, payload, board ns]
const heap = []; // gc.mem_free() reports
let report = '';
pico.onSerial = (bytes) => {
  for (const b of bytes) rx.push(b);
  while (rx.length) {
    if (rx[0] !== 0x7e) {
      const b = rx.shift();
      if (b === 10) { heap.push(+report.slice(1)); report = ''; } else report += String.fromCharCode(b);
      continue;
    }
    if (rx.length < 2 || rx.length < 8 + rx[1]) break;
    const n = rx[1];
    seen.push([rx[3], rx.slice(4, 4 + n), pico.nanos]);
    rx = rx.slice(8 + n);
  }
};
let watchdog = 0;
pico.onWatchdog = () => { watchdog++; };

function expect(what, test, ns = 5e9) {
  if (!pico.run(ns, test)) throw new Error(`${what}: not within ${ns / 1e6} ms of board time`);
}
const acked = (seq) => seen.some(([t, p]) => t === PICO_ACK && p[0] === seq);
const equal = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

expect('USB enumerated', () => pico.connected);
const poweredMs = pico.ms;
log('enumerated');
const hello = hex(job.hello);
let mainLoopMs = null;
for (let i = 0; i < 200 && mainLoopMs === null; i++) {
  pico.write(hello);
  pico.run(50e6, () => seen.some(([t]) => t === IDENT));
  const ident = seen.find(([t]) => t === IDENT);
  if (ident) mainLoopMs = ident[2] / 1e6;
}
if (mainLoopMs === null) throw new Error('no IDENT: the firmware did not start');
expect('the boot heap report', () => heap.length > 0);
const heapAfterBoot = heap[heap.length - 1];
log(`main loop at ${mainLoopMs}, heap ${heapAfterBoot}`);

const out = { powered_ms: poweredMs, main_loop_ms: mainLoopMs, heap_after_boot: heapAfterBoot, cases: {} };

function sendCase(c) {
  const blocks = c.blocks.map(([seq, h]) => [seq, hex(h)]);
  const image = c.image ? hex(c.image) : null;
  const reports = heap.length;
  const t0 = pico.nanos;
  const sentAt = new Map();
  let next = 0, settled = 0, bytes = 0, ackMax = 0;
  const lastSeq = blocks[blocks.length - 1][0];
  while (settled < blocks.length) {
    while (next < blocks.length && next - settled < job.window) {
      sentAt.set(blocks[next][0], pico.nanos);
      pico.write(blocks[next][1]);
      bytes += blocks[next][1].length;
      next++;
    }
    const before = settled;
    expect(`${c.name}: an ACK`, () => { // cumulative: an ACK settles its block and those before
      for (let i = next - 1; i >= settled; i--) if (acked(blocks[i][0])) { settled = i + 1; break; }
      return settled > before;
    });
    for (let i = before; i < settled; i++) {
      ackMax = Math.max(ackMax, pico.nanos - sentAt.get(blocks[i][0]));
    }
  }
  const ackNs = seen.find(([t, p]) => t === PICO_ACK && p[0] === lastSeq)[2] - t0;
  let glassNs = null;
  if (image && !c.next) {
    expect(`${c.name}: the image on the panel`, () => equal(pico.oled.ram, image) && heap.length > reports);
    glassNs = pico.oled.lastDataNs - t0;
  }
  return { bytes, ack_ms: ackNs / 1e6, glass_ms: glassNs === null ? null : glassNs / 1e6, ack_wait_max_ms: ackMax / 1e6 };
}

for (const c of job.cases) {
  seen.length = 0;
  const run = sendCase(c);
  (out.cases[c.name] ??= []).push(run);
  log(`${c.name}: ${JSON.stringify(run)}`);
}

// a press: the pin's falling edge to the BUTTON block leaving the firmware
seen.length = 0;
pico.run(50e6);
const edge = pico.nanos;
pico.mcu.gpio[job.press].setInputValue(false);
expect('the press', () => seen.some(([t]) => t === BUTTON));
out.press_to_host_ms = (seen.find(([t]) => t === BUTTON)[2] - edge) / 1e6;
pico.run(100e6);
pico.mcu.gpio[job.press].setInputValue(true);
pico.run(100e6);

out.heap_free_min = Math.min(...heap);
out.heap_reports = heap.length;
out.heap_last = heap[heap.length - 1];
out.watchdog_resets = watchdog;
out.board_ms = pico.ms;
process.stdout.write(JSON.stringify(out) + '\n');
