// Runs `platform auth login` in-process while the test plays the browser: the opener is
// injected through the Context (FactoryDeps.openUrl), stdin stays open for a pasted URL,
// and stderr can be watched while the command waits.
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli.js';
import type { Clock } from '../../src/base/io.js';
import type { CliResult, TestUser } from './cli.js';
import { answerConsent } from './oauth.js';
import { scaled } from './time-scale.js';

export interface LiveRun {
  done: Promise<CliResult>;
  stdin: PassThrough;
  stdout(): string;
  stderr(): string;
  /** Resolves with the match once stderr shows it; fails after `timeoutMs` (10 s) scaled by PLATFORM_TEST_TIME_SCALE. */
  waitForStderr(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

export interface LiveOptions {
  openUrl?: (url: string) => Promise<void>;
  env?: Record<string, string | undefined>;
  tty?: boolean;
  clock?: Clock;
  signal?: AbortSignal;
}

export function startCli(user: TestUser, args: string[], options: LiveOptions = {}): LiveRun {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  const watchers = new Set<() => void>();
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8');
    for (const watch of watchers) watch();
  });
  const done = runCli(args, {
    io: { stdout, stderr, stdin, stdoutIsTTY: Boolean(options.tty), stderrIsTTY: Boolean(options.tty), stdinIsTTY: false, columns: 120 },
    env: { PLATFORM_CONFIG_DIR: user.configDir, PLATFORM_BASE_URL: user.sandbox.url, HOME: user.configDir, ...user.env, ...options.env },
    signal: options.signal ?? new AbortController().signal,
    clock: options.clock ?? user.clock,
    homedir: user.configDir,
    version: '0.0.0-test',
    openUrl: options.openUrl ?? (() => Promise.reject(new Error('no browser in this test'))),
  }).then((code) => ({ code, stdout: out, stderr: err }));
  return {
    done,
    stdin,
    stdout: () => out,
    stderr: () => err,
    waitForStderr(pattern, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(err);
          if (!match) return;
          watchers.delete(check);
          clearTimeout(timer);
          resolve(match);
        };
        const timer = setTimeout(() => {
          watchers.delete(check);
          reject(new Error(`stderr never matched ${pattern}:\n${err}`));
        }, scaled(timeoutMs));
        watchers.add(check);
        check();
        void done.then(() => setTimeout(check, 0));
      });
    },
  };
}

export const AUTHORIZE_URL = /https?:\/\/\S+\/oauth\/v2\/universal\/authorize\?\S+/;

export interface Visit {
  /** Where the sandbox redirected (the loopback callback with code or error). */
  redirect: URL;
  /** What the CLI's listener answered. */
  callback?: { status: number; html: string };
}

/**
 * A browser played over HTTP: opens the authorize URL, answers the consent page (when it is
 * shown) and follows the redirect to the CLI's listener unless `follow` is false.
 */
export async function visitAuthorize(url: string, decision: 'allow' | 'deny', follow = true): Promise<Visit> {
  const res = await fetch(url, { redirect: 'manual' });
  const html = await res.text();
  const redirect = res.status === 302 ? new URL(res.headers.get('location')!) : await answerConsent(new URL(url).origin, html, decision);
  if (!follow) return { redirect };
  const callback = await fetch(redirect);
  return { redirect, callback: { status: callback.status, html: await callback.text() } };
}

/** An opener that records each visit; `decision` answers the consent page. */
export function httpBrowser(decision: 'allow' | 'deny' = 'allow'): { openUrl: (url: string) => Promise<void>; visits: Visit[]; opened: string[] } {
  const visits: Visit[] = [];
  const opened: string[] = [];
  return {
    visits,
    opened,
    openUrl: async (url) => {
      opened.push(url);
      visits.push(await visitAuthorize(url, decision));
    },
  };
}

/** The first `platform auth login ...` a message names in backticks, as the argv to run it with (quotes honoured). */
export function suggestedLogin(message: string): string[] {
  const command = /`platform (auth login[^`]*)`/.exec(message)?.[1];
  if (!command) throw new Error(`no \`platform auth login\` command named in:\n${message}`);
  return [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
}

/** The port of a sandbox's URL: PLATFORM_SANDBOX_PORT points every sandbox profile at it. */
export function portOf(sandbox: { url: string }): string {
  return new URL(sandbox.url).port;
}
