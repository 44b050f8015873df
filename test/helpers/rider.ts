// Shared by the rider tests: user tokens over HTTP (the authorize + consent flow of
// test/helpers/oauth.ts), a CLI user signed in by `auth login` with the test as the
// browser (test/helpers/auth.ts), and an interactive run whose prompts the test answers.
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli.js';
import { TestUser, type CliResult } from './cli.js';
import { httpBrowser, startCli } from './auth.js';
import { authorizeAndAllow, CLIENT, REDIRECT, tokenRequest } from './oauth.js';
import type { Sandbox } from '../../src/sandbox/index.js';

export const SF = {
  downtown: '37.7749,-122.4194',
  mission: '37.7599,-122.4148',
  airport: '37.6213,-122.3790',
  soma: '37.7842,-122.4016',
  sausalito: '37.8591,-122.4853',
};
export const NYC = { midtown: '40.7549,-73.9840', brooklyn: '40.6782,-73.9442' };
export const PARIS = { louvre: '48.8606,2.3376', eiffel: '48.8584,2.2945' };

/** A user access token for a seeded user (by login hint) with these scopes. */
export async function userToken(base: string, scopes: string, hint = 'demo'): Promise<string> {
  const redirect = await authorizeAndAllow(base, { scope: scopes, login_hint: hint, prompt: 'consent' });
  const code = redirect.searchParams.get('code');
  if (!code) throw new Error(`no code in ${redirect}`);
  const res = await tokenRequest(base, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, ...CLIENT });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
}

/** A CLI user signed in through `platform auth login` (the test plays the browser). */
export async function signedInUser(sandbox: Sandbox, scopes = 'profile request', hint = 'demo'): Promise<TestUser> {
  const user = new TestUser(sandbox);
  const result = await startCli(user, ['auth', 'login', '--scopes', scopes, '--login-hint', hint, '--consent'], { openUrl: httpBrowser().openUrl }).done;
  if (result.code !== 0) throw new Error(`auth login failed: ${result.stderr}`);
  return user;
}

/**
 * Runs a command on a pretend terminal (stdin, stdout, stderr are TTYs) and answers each
 * prompt: `answers` are typed, in order, when a new `?` question appears on stderr.
 */
export async function runInteractive(
  user: TestUser,
  args: string[],
  answers: string[],
  onPrompt?: (index: number) => void,
): Promise<CliResult & { prompts: string[] }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  const prompts: string[] = [];
  const pending = [...answers];
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
    // A question inquirer has just drawn: "? Request ... (y/N)" not yet answered.
    const plain = err.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
    const asked = plain.match(/\? [^\n]*\(y\/N\)|\? [^\n]*\(Y\/n\)/g) ?? [];
    while (prompts.length < asked.length) {
      prompts.push(asked[prompts.length]!);
      onPrompt?.(prompts.length - 1);
      const answer = pending.shift();
      if (answer !== undefined) setImmediate(() => stdin.write(`${answer}\n`));
    }
  });
  const code = await runCli([...args, '--no-color'], {
    io: { stdout, stderr, stdin, stdoutIsTTY: true, stderrIsTTY: true, stdinIsTTY: true, columns: 120 },
    env: { PLATFORM_CONFIG_DIR: user.configDir, PLATFORM_BASE_URL: user.sandbox.url, HOME: user.configDir, NO_COLOR: '1' },
    signal: new AbortController().signal,
    clock: user.clock,
    homedir: user.configDir,
    version: '0.0.0-test',
  });
  return { code, stdout: out, stderr: err, prompts };
}
