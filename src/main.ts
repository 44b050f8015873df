// The only module that touches the real process: argv, env, streams, signals, exit.
import os from 'node:os';
import { runCli } from './cli.js';
import { systemClock } from './context.js';
import { VERSION } from './version.js';

const controller = new AbortController();
let interrupts = 0;
process.on('SIGINT', () => {
  // First Ctrl-C: let the command wind down; second: leave at once.
  if (++interrupts > 1) process.exit(130);
  controller.abort(new Error('interrupted'));
});
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0); // `platform ... | head`
});

const code = await runCli(process.argv.slice(2), {
  io: {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    stdinIsTTY: Boolean(process.stdin.isTTY),
    columns: process.stdout.columns,
  },
  env: process.env,
  signal: controller.signal,
  clock: systemClock,
  homedir: os.homedir(),
  version: VERSION,
});
process.exitCode = code;
// Flush stdout before leaving; commands have released their sockets.
process.stdout.write('', () => process.exit(code));
