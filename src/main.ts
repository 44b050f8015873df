// The only module that touches the real process: argv, env, streams, signals, exit.
// Start-up matters (CONTRIBUTING.md, Start-up): this file statically imports only node:module and the
// version; `--version` answers without loading commander, and the CLI loads afterwards.
import nodeModule from 'node:module';
import { VERSION } from './base/version.js';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`${VERSION}\n`);
} else {
  await enableCompileCache(process.env);
  await main(argv);
}

/**
 * Node 22+ keeps V8's compiled code of the modules it loads on disk and reuses it on the next
 * run; Node 20 has no such function. The cache goes in the CLI's state folder
 * ($XDG_STATE_HOME/platform/compile-cache), not the OS temp folder that Node would pick. It is
 * enabled before the CLI's modules load, which are the ones it saves. NODE_COMPILE_CACHE (Node
 * enabled it at start-up, in that folder) and NODE_DISABLE_COMPILE_CACHE are the user's choice.
 * Node writes each entry whole (processes starting together share the folder), and a folder it
 * cannot create, such as in a read-only home, only means no cache: Node prints nothing.
 */
async function enableCompileCache(env: NodeJS.ProcessEnv): Promise<void> {
  const enable = (nodeModule as { enableCompileCache?: (directory: string) => unknown }).enableCompileCache;
  if (!enable || env.NODE_COMPILE_CACHE !== undefined || env.NODE_DISABLE_COMPILE_CACHE !== undefined) return;
  const [{ stateDirectory }, { default: os }, { default: path }] = await Promise.all([import('./base/state-dir.js'), import('node:os'), import('node:path')]);
  try {
    enable(path.join(stateDirectory(env, os.homedir()), 'compile-cache'));
  } catch {
    // os.homedir() without HOME and without an entry in the user database: no cache.
  }
}

async function main(args: string[]): Promise<void> {
  const [{ runCli }, { systemClock }, { default: os }, { default: v8 }] = await Promise.all([
    import('./cli.js'),
    import('./base/io.js'),
    import('node:os'),
    import('node:v8'),
  ]);
  // V8 flags. Changing one at run time changes the hash V8 checks code caches against, so
  // every module compiled afterwards is compiled from source, Node's own ones (http, http2,
  // crypto, ...) too: ~17 ms more for an `ads campaigns list` on any Node line, so a flag is
  // set only where it pays for that.
  //
  // Memory stays nearer the live data: by default V8 lets the heap grow to several times
  // that between collections, which a stream of rows or a server that runs for hours turns
  // into hundreds of MB (a 100,000-row bulk patch: 170 MB instead of 133 MB). 50%, not less:
  // at 20% the sandbox serves a 115 MB report 2.5 times slower (it collects all the time).
  //
  // On Node 22 and 24 neither flag is set: a list takes as long without --liftoff-only, and a
  // 100,000-row patch peaks at about 200 MB with or without the heap flag.
  if (Number(process.versions.node.split('.')[0]) < 22) {
    // Node 20: undici parses HTTP with a WebAssembly build of llhttp, and V8 11 recompiles it
    // with its optimizing tier on background threads that a short run waits for at exit
    // (~140 ms of a ~215 ms list); the baseline tier parses a CLI's responses fast enough.
    v8.setFlagsFromString('--liftoff-only');
    v8.setFlagsFromString('--heap-growing-percent=50');
  }
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
  const { flushed } = await import('./base/stream-write.js');
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
