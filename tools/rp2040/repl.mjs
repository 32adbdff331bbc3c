// Run Python on the emulated Pico's REPL (an image without main.py), synchronously, in board
// time: node repl.mjs < job.json, job {uf2, fs, code, ms}; prints what the code printed.
// The code goes in paste mode (Ctrl-E ... Ctrl-D) and its output ends at the next prompt.
import { Pico } from './pico.mjs';

const job = JSON.parse(await new Promise((resolve) => {
  let s = '';
  process.stdin.on('data', (d) => { s += d; }).on('end', () => resolve(s));
}));
const pico = new Pico({ uf2: job.uf2, fs: job.fs });
let text = '';
pico.onSerial = (b) => { text += Buffer.from(b).toString('latin1'); };
const fail = (why) => { process.stderr.write(`${why}\n--- the board said:\n${text.slice(-3000)}\n`); process.exit(1); };
if (!pico.run(5e9, () => pico.connected)) fail('USB did not enumerate');
pico.write(Buffer.from('\r'));
if (!pico.run(10e9, () => text.includes('>>> '))) fail('no REPL prompt');
const start = text.length;
pico.write(Buffer.from('\x05' + job.code.replace(/\n/g, '\r') + '\x04'));
const marker = '\r\n=== ';
// paste mode echoes each line after "=== "; the output follows the last echo, up to ">>> "
if (!pico.run((job.ms ?? 60000) * 1e6, () => /\r\n>>> $/.test(text.slice(start)) && text.slice(start).includes(marker))) fail('the code did not finish');
const out = text.slice(start);
const lines = out.split('\r\n');
// drop the echo: paste mode lines start with "=== "; the output is after the last of them
let i = lines.length - 1;
while (i >= 0 && !lines[i].startsWith('=== ')) i--;
process.stdout.write(lines.slice(i + 1, -1).join('\n') + '\n');
process.stderr.write(`board_ms ${pico.ms.toFixed(1)}\n`);
