// The built CLI as a process of its own, for tests that kill it (SIGKILL) or run several at once.
import { spawn } from 'node:child_process';
import path from 'node:path';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `platform ARGS` with exactly `env`; `killWhen` is polled and, once true, the process gets SIGKILL. */
export function runCli(args: string[], env: Record<string, string>, killWhen?: () => boolean): Promise<Ended> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const poll = killWhen && setInterval(() => killWhen() && child.kill('SIGKILL'), 5);
    child.once('close', (code, signal) => {
      clearInterval(poll);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
