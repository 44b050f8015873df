// Runs the built CLI on a real pseudo-terminal (util-linux `script`), of a set size, and
// types into it as a person would: Ctrl-C is the byte 0x03, which the terminal turns into
// SIGINT for the command. Output is what the terminal shows (stdout and stderr together).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { scaled } from './time-scale.js';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');

export interface PtyRun {
  type(text: string): void;
  /** Kills the command (and the terminal) at once: for a run that hangs. */
  kill(): void;
  /** Resolves with the match once the terminal shows it (fails after `ms`, 15 s, scaled by PLATFORM_TEST_TIME_SCALE). */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  done: Promise<{ code: number; output: string }>;
}

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/**
 * `columns: 0` leaves the size unset, as a new pseudo-terminal starts. The command is killed
 * after `limitMs` (scaled by PLATFORM_TEST_TIME_SCALE) whatever it does (it runs in a session
 * of its own, which a test's timeout would not end).
 */
export function runOnPty(
  args: string[],
  env: Record<string, string>,
  { columns = 100, rows = 40, limitMs = 25_000, cwd }: { columns?: number; rows?: number; limitMs?: number; cwd?: string } = {},
): PtyRun {
  const size = columns > 0 ? `stty cols ${columns} rows ${rows}; ` : '';
  // The shell's pid is the command's after exec: told on a line of its own, kept out of the output.
  const command = `echo "pty-pid:$$"; ${size}exec ${[process.execPath, bin, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-qefc', command, '/dev/null'], { cwd, env: { ...env, TERM: 'xterm' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  let pid: number | undefined;
  const kill = () => {
    if (pid !== undefined) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    child.kill('SIGKILL');
  };
  const limit = setTimeout(kill, scaled(limitMs));
  const watchers: Array<() => void> = [];
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8').replace(/\r\n/g, '\n');
    const told = /^pty-pid:(\d+)\n/.exec(output);
    if (told) {
      pid = Number(told[1]);
      output = output.slice(told[0].length);
    }
    for (const watch of [...watchers]) watch();
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const done = new Promise<{ code: number; output: string }>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(limit);
      resolve({ code: code ?? -1, output });
    }),
  );
  return {
    type: (text) => void child.stdin.write(text),
    kill,
    waitFor(pattern, ms = 15_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the terminal never showed ${pattern}; it shows:\n${output}`)), scaled(ms));
        const watch = () => {
          const match = pattern.exec(output);
          if (!match) return;
          clearTimeout(timer);
          watchers.splice(watchers.indexOf(watch), 1);
          resolve(match);
        };
        watchers.push(watch);
        watch();
      });
    },
    done,
  };
}
