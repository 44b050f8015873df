// Runs the CLI in-process as if on a terminal (stdin, stdout, stderr are TTYs) and answers
// each prompt that appears on stderr, as a person typing would.
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli.js';
import type { CliResult, TestUser } from './cli.js';

/** [what the prompt says, what is typed]; each is answered once, in order. */
export type Answer = [RegExp, string];

export async function runOnTerminal(user: TestUser, args: string[], answers: Answer[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  const pending = [...answers];
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
    const next = pending[0];
    if (next && next[0].test(err)) {
      pending.shift();
      setImmediate(() => stdin.write(`${next[1]}\n`));
    }
  });
  const code = await runCli(args, {
    io: { stdout, stderr, stdin, stdoutIsTTY: true, stderrIsTTY: true, stdinIsTTY: true, columns: 120 },
    env: { PLATFORM_CONFIG_DIR: user.configDir, PLATFORM_BASE_URL: user.sandbox.url, HOME: user.configDir, NO_COLOR: '1', ...user.env, ...env },
    signal: new AbortController().signal,
    clock: user.clock,
    homedir: user.configDir,
    version: '0.0.0-test',
  });
  return { code, stdout: out, stderr: err };
}
