// The built CLI as a process of its own, for tests that stop it (SIGKILL, Ctrl-C) or run several at once.
import { spawn } from 'node:child_process';
import path from 'node:path';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');

/**
 * A CLI process's whole environment, all of it inside `dir` (home, state, config; temporary
 * files in `tmp`), against the sandbox at `url`: nothing of the user running the tests.
 */
export function cliEnv(dir: string, url: string, tmp = dir): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    TMPDIR: tmp,
    XDG_STATE_HOME: path.join(dir, 'state'),
    PLATFORM_CONFIG_DIR: path.join(dir, 'config'),
    PLATFORM_BASE_URL: url,
  };
}

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `platform ARGS` with exactly `env`. `stopWhen` is polled (with the output so far) and,
 * once true, the process gets `signal` (SIGKILL unless said), once.
 */
export function runCli(
  args: string[],
  env: Record<string, string>,
  stopWhen?: (stdout: string) => boolean,
  signal: NodeJS.Signals = 'SIGKILL',
): Promise<Ended> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const poll =
      stopWhen &&
      setInterval(() => {
        if (!stopWhen(stdout)) return;
        clearInterval(poll);
        child.kill(signal);
      }, 5);
    child.once('close', (code, signalled) => {
      clearInterval(poll);
      resolve({ code, signal: signalled, stdout, stderr });
    });
  });
}
