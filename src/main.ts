// The only module that touches the real process: argv, env, streams, signals, exit.
// Start-up matters (CONTRIBUTING.md, Start-up): this file statically imports only node:module and the
// version; `--version` answers without loading commander, and the CLI loads afterwards.
import nodeModule from 'node:module';
import { VERSION } from './base/version.js';

// Node 22+ can cache compiled code on disk between runs; Node 20 has no such function.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  await main(argv);
}

async function main(args: string[]): Promise<void> {
  const [{ runCli }, { systemClock }, { default: os }, { default: v8 }] = await Promise.all([
    import('./cli.js'),
    import('./base/io.js'),
    import('node:os'),
    import('node:v8'),
  ]);
  // undici parses HTTP with a WebAssembly build of llhttp. V8 would recompile it with its
  // optimizing tier on background threads, and a short run waits for that at exit (~100 ms
  // of a ~300 ms `ads campaigns list`); the baseline tier parses a CLI's responses fast enough.
  v8.setFlagsFromString('--liftoff-only');
  // Memory stays nearer the live data: by default V8 lets the heap grow to several times
  // that between collections, which a stream of rows or a server that runs for hours turns
  // into hundreds of MB (a 100,000-row bulk patch: 170 MB instead of 133 MB). 50%, not less:
  // at 20% the sandbox serves a 115 MB report 2.5 times slower (it collects all the time).
  v8.setFlagsFromString('--heap-growing-percent=50');
  const controller = new AbortController();
  const interruptSignals: ReadonlyArray<string | number | undefined> = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  let interrupts = 0;
  // conf's atomic writes hook every signal and send it again to this process after their
  // clean-up (when-exit); that echo is not the user asking twice, so it is counted and ignored.
  let echoes = 0;
  const kill = process.kill.bind(process);
  process.kill = (pid: number, signal?: string | number) => {
    if (pid === process.pid && interruptSignals.includes(signal)) echoes++;
    return kill(pid, signal);
  };
  // Ctrl-C, a `kill` (SIGTERM) or a closed terminal (SIGHUP): the first lets the command wind
  // down (a bulk run finishes its batches in flight and journals them); the second leaves at once.
  for (const signal of interruptSignals as Array<'SIGINT' | 'SIGTERM' | 'SIGHUP'>) {
    process.on(signal, () => {
      if (echoes > 0) return void echoes--;
      if (++interrupts > 1) process.exit(130);
      controller.abort(new Error('interrupted'));
    });
  }
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    // `platform ... | head`: done, unless the command listens itself (a bulk run winds down, write.ts).
    if (error.code === 'EPIPE' && process.stdout.listenerCount('error') === 1) process.exit(0);
  });

  const code = await runCli(args, {
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
  // Leave once both streams have handed everything to the OS: a slow reader of stderr (a
  // long --debug trace into a pipe) must get all of it, not the first 64 KiB.
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
}

function drained(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0) return resolve();
    stream.once('drain', () => resolve());
    stream.once('error', () => resolve());
  });
}
