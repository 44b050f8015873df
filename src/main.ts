// The only module that touches the real process: argv, env, streams, signals, exit.
// Start-up matters (design.md): this file statically imports only node:module and the
// version; `--version` answers without loading commander, and the CLI loads afterwards.
import nodeModule from 'node:module';
import { VERSION } from './version.js';

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
    import('./cli.js'), import('./context.js'), import('node:os'), import('node:v8'),
  ]);
  // undici parses HTTP with a WebAssembly build of llhttp. V8 would recompile it with its
  // optimizing tier on background threads, and a short run waits for that at exit (~100 ms
  // of a ~300 ms `ads campaigns list`); the baseline tier parses a CLI's responses fast enough.
  v8.setFlagsFromString('--liftoff-only');
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
  // Flush stdout before leaving; commands have released their sockets.
  process.stdout.write('', () => process.exit(code));
}
