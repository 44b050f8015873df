// Opening a URL in the user's browser the way gh does: $PLATFORM_BROWSER, else $BROWSER
// (a command; the URL is appended as its last argument), else the system's opener (the
// `open` package). Rejects with the reason when no browser can be opened, so that the
// caller falls back to printing the URL and reading the pasted redirect.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Env } from '../base/io.js';

export interface BrowserEnvironment {
  env: Env;
  platform: NodeJS.Platform;
}

/** Why no browser can be opened here, or undefined when one may be. */
export function browserUnavailable({ env, platform }: BrowserEnvironment): string | undefined {
  if (browserCommand(env)) return undefined;
  const ssh = Boolean(env.SSH_CONNECTION || env.SSH_CLIENT || env.SSH_TTY);
  if (platform === 'darwin' || platform === 'win32') return ssh ? 'this is an SSH session' : undefined;
  // Elsewhere a browser needs a graphical session; WSL opens Windows' browser.
  if (env.DISPLAY || env.WAYLAND_DISPLAY || env.WSL_DISTRO_NAME) return undefined;
  return ssh ? 'this is an SSH session without a display' : 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)';
}

function browserCommand(env: Env): string | undefined {
  return env.PLATFORM_BROWSER?.trim() || env.BROWSER?.trim() || undefined;
}

export async function openBrowser(url: string, where: BrowserEnvironment): Promise<void> {
  const unavailable = browserUnavailable(where);
  if (unavailable) throw new Error(unavailable);
  const command = browserCommand(where.env);
  let child: ChildProcess;
  if (command) {
    const [file, ...args] = splitCommand(command);
    if (!file) throw new Error('the browser command is empty');
    child = spawn(file, [...args, url], { stdio: 'ignore', detached: true });
  } else {
    const { default: open } = await import('open');
    child = await open(url);
  }
  await settled(child, command ?? 'the system browser opener');
}

/**
 * Resolves when the opener exits 0, rejects when it cannot start or exits otherwise; a
 * browser that keeps running leaves it pending, which the caller reads as "opened".
 */
function settled(child: ChildProcess, what: string): Promise<void> {
  child.unref();
  return new Promise((resolve, reject) => {
    child.once('error', (error) => reject(new Error(`${what} could not start: ${error.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${what} exited with ${signal ?? `code ${code}`}`));
    });
  });
}

/** Splits a command line into words as a POSIX shell would (quotes, backslashes); no expansion. */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!)) word += command[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
