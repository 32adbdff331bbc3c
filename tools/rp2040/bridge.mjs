// The emulated Pico as a process, on the contract of firmware/unix/README.md: stdin and stdout
// are its USB serial (raw bytes; put them on a pty), button commands come on an inherited fd,
// the OLED's display RAM goes to a file. Board time never runs ahead of wall time.
//
// Environment:
//   OVERSEER_RP2_UF2           MicroPython for the Pico (required)
//   OVERSEER_RP2_FS            the littlefs image with the firmware (required)
//   OVERSEER_RP2_BUTTONS       "name=gpio,...": the buttons (switches to GND, pulled up)
//   OVERSEER_BOARD_BUTTONS_FD  fd with "press|release|tap|hold NAME" lines
//   OVERSEER_BOARD_OLED        file replaced (tmp + rename) with the display RAM when it changed
//   OVERSEER_RP2_CLOCK         file rewritten every ~100 ms with "board_ms wall_ms" (both since
//                              the start): how fast the emulator runs, for the host's timeouts
// Exit status: 0 at end of stdin, 75 when the watchdog fires (the launcher boots it again).
import fs from 'fs';
import net from 'net';
import { Pico } from './pico.mjs';

const env = process.env;
const pins = Object.fromEntries((env.OVERSEER_RP2_BUTTONS ?? '').split(',').filter(Boolean)
  .map((pair) => { const [name, gpio] = pair.split('='); return [name, +gpio]; }));
const pico = new Pico({ uf2: env.OVERSEER_RP2_UF2, fs: env.OVERSEER_RP2_FS, buttons: Object.values(pins) });

// Button commands, applied in board time: each holds its line 50 ms after taking effect (after
// the release, for tap and hold), as the Unix port's stand-in does.
const STEP_MS = 50;
const HOLD_MS = { tap: 100, hold: 800 };
const schedule = []; // [board ms, gpio, level], in time order
let free = 0;
function command(line) {
  const [verb, name] = line.trim().split(/\s+/);
  const gpio = pins[name];
  if (gpio === undefined || !(verb in HOLD_MS || verb === 'press' || verb === 'release')) {
    process.stderr.write(`rp2040: unknown command ${JSON.stringify(line)}\n`);
    return;
  }
  let t = Math.max(free, pico.ms);
  if (verb !== 'release') schedule.push([t, gpio, false]);
  if (verb in HOLD_MS) t += HOLD_MS[verb];
  if (verb !== 'press') schedule.push([t, gpio, true]);
  free = t + STEP_MS;
}
if (env.OVERSEER_BOARD_BUTTONS_FD) {
  let text = '';
  // a libuv stream, not fs.createReadStream: a blocking read on a pipe would hold up the exit
  new net.Socket({ fd: +env.OVERSEER_BOARD_BUTTONS_FD, readable: true, writable: false })
    .on('data', (d) => {
      text += d.toString();
      let i;
      while ((i = text.indexOf('\n')) >= 0) { command(text.slice(0, i)); text = text.slice(i + 1); }
    })
    .on('error', () => {});
}

const oledPath = env.OVERSEER_BOARD_OLED;
function saveOled() {
  if (!oledPath || !pico.oled.changed) return;
  pico.oled.changed = false;
  fs.writeFileSync(oledPath + '.tmp', pico.oled.ram);
  fs.renameSync(oledPath + '.tmp', oledPath);
}

let ended = false;
function finish(code) {
  if (ended) return;
  ended = true;
  saveOled();
  process.exit(code);
}
pico.onWatchdog = () => finish(75);
// What the firmware wrote, not yet taken by the pty. stdin and stdout are one pty end, which
// Node's stdin makes non-blocking: a full pty buffer (a host busy elsewhere) says EAGAIN, and
// the bytes wait here for the next loop pass (a Pico's USB holds them the same way) instead of
// being lost.
const unwritten = [];
function flush() {
  while (unwritten.length) {
    const bytes = unwritten[0];
    let n;
    try {
      n = fs.writeSync(1, bytes);
    } catch (e) {
      if (e.code === 'EAGAIN') return;
      finish(0); // the host end is gone
      return;
    }
    if (n < bytes.length) unwritten[0] = bytes.subarray(n);
    else unwritten.shift();
  }
}
pico.onSerial = (bytes) => {
  unwritten.push(Uint8Array.from(bytes));
  flush();
};
process.stdin.on('data', (d) => pico.write(d));
process.stdin.on('end', () => finish(0));
process.stdin.on('error', () => finish(0)); // a pty whose other end closed: EIO

const t0 = performance.now();
let clockAt = 0;
function loop() {
  const wall = performance.now() - t0;
  const ahead = pico.ms - wall;
  if (ahead > 0.5) { setTimeout(loop, Math.min(ahead, 4)); return; } // never faster than real time
  // run to the wall clock (at most 5 ms at once, so stdin and commands are taken often),
  // stopping at the next button change
  let until = Math.min(wall, pico.ms + 5);
  if (schedule.length) until = Math.min(until, Math.max(schedule[0][0], pico.ms));
  pico.run(Math.max(until - pico.ms, 0.05) * 1e6);
  while (schedule.length && schedule[0][0] <= pico.ms) {
    const [, gpio, level] = schedule.shift();
    pico.mcu.gpio[gpio].setInputValue(level);
  }
  flush();
  saveOled();
  if (env.OVERSEER_RP2_CLOCK && wall - clockAt >= 100) {
    clockAt = wall;
    fs.writeFileSync(env.OVERSEER_RP2_CLOCK + '.tmp', `${pico.ms.toFixed(3)} ${wall.toFixed(3)}\n`);
    fs.renameSync(env.OVERSEER_RP2_CLOCK + '.tmp', env.OVERSEER_RP2_CLOCK);
  }
  setImmediate(loop);
}
loop();
