// The browser sign-in (authorization code with PKCE; spec 5.5, RFC 8252): a loopback
// listener, the authorize URL (printed first, then opened), and a wait for the redirect,
// or for the redirect URL pasted on stdin when no browser can be opened here.
import type { Clock, IO, StatusLine } from '../base/io.js';
import { CommandError, errorLine } from '../base/errors.js';
import { callbackPages } from './callback-page.js';
import { formatDuration } from './duration.js';
import { callbackParams, LoopbackListener, type Callback, type CallbackParams } from './loopback.js';
import { pastedQuery, readPastedLines } from './paste.js';
import { createPkce, createState } from './pkce.js';

export interface BrowserSignInOptions {
  /** The authorize URL for these query parameters (spec 4.2). */
  authorizeUrl(query: Record<string, string | undefined>): string;
  clientId: string;
  scopes: readonly string[];
  loginHint?: string;
  /** prompt=consent: show the consent page even when consent was given before. */
  forceConsent?: boolean;
  /** 0: a free port; a fixed one suits `ssh -L`. */
  callbackPort: number;
  noBrowser: boolean;
  timeoutMs: number;
  /** The command to run again after a failure, e.g. `platform auth login --profile work`. */
  retryCommand: string;
}

export interface AuthorizationGrant {
  code: string;
  redirectUri: string;
  verifier: string;
}

/** What the sign-in needs of a command's context: its terminal, clock, Ctrl-C, and a browser. */
export interface BrowserLoginContext {
  io: IO;
  clock: Clock;
  signal: AbortSignal;
  info(line: string): void;
  status(text: string): Promise<StatusLine>;
  openUrl(url: string): Promise<void>;
}

type Outcome = { kind: 'callback'; callback: Callback } | { kind: 'pasted'; params: CallbackParams } | { kind: 'timeout' } | { kind: 'interrupted' };

/** Runs the sign-in; `complete` exchanges the code and says who signed in, for the browser's page. */
export async function signInWithBrowser<T>(
  ctx: BrowserLoginContext,
  options: BrowserSignInOptions,
  complete: (grant: AuthorizationGrant) => Promise<{ result: T; who: string }>,
): Promise<T> {
  const state = createState();
  const pkce = createPkce();
  let status: StatusLine | undefined;
  const note = (line: string) => (status ? status.note(line) : ctx.info(line));
  const listener = await LoopbackListener.start(options.callbackPort, state, (reason) =>
    note(`Rejected a request to the sign-in listener: ${reason}. Still waiting.`),
  );
  const stopTimer = new AbortController();
  let stopPaste: (() => void) | undefined;
  let settle!: (outcome: Outcome) => void;
  const outcome = new Promise<Outcome>((resolve) => {
    settle = resolve;
  });
  const onAbort = () => settle({ kind: 'interrupted' });
  try {
    const url = options.authorizeUrl({
      client_id: options.clientId,
      response_type: 'code',
      redirect_uri: listener.redirectUri,
      scope: options.scopes.join(' '),
      state,
      code_challenge: pkce.challenge,
      code_challenge_method: pkce.method,
      login_hint: options.loginHint,
      prompt: options.forceConsent ? 'consent' : undefined,
    });
    ctx.info('Open this URL in a browser to sign in:');
    ctx.info(`  ${url}`);

    void listener.callback.then((callback) => settle({ kind: 'callback', callback }));
    ctx.clock.sleep(options.timeoutMs, stopTimer.signal).then(
      () => settle({ kind: 'timeout' }),
      () => {},
    );
    if (ctx.signal.aborted) onAbort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });

    const headless = (reason?: string) => {
      if (stopPaste) return;
      status?.stop();
      status = undefined;
      if (reason) ctx.info(`Could not open a browser here: ${reason}.`);
      ctx.info(`Open the URL in a browser on any machine and allow access. It then goes to ${listener.redirectUri}?code=...;`);
      ctx.info('if that page does not load there, paste its whole address here and press Enter:');
      stopPaste = readPastedLines(ctx.io.stdin, (line) => {
        const query = pastedQuery(line);
        const params = query && callbackParams(query);
        if (!query || !params) return note('That is not the redirected address; paste the whole URL from the address bar (it starts with http://127.0.0.1).');
        if (!listener.stateMatches(query.get('state')))
          return note('That address belongs to another sign-in (its state does not match); paste the one of this sign-in.');
        listener.finish();
        settle({ kind: 'pasted', params });
      });
    };

    if (options.noBrowser) {
      headless();
    } else {
      status = await ctx.status(`Waiting for you to sign in in the browser (up to ${formatDuration(options.timeoutMs)})...`);
      ctx.openUrl(url).catch((error: unknown) => headless(error instanceof Error ? error.message : String(error)));
    }

    const result = await outcome;
    status?.stop();
    status = undefined;
    if (result.kind === 'interrupted') throw ctx.signal.reason;
    if (result.kind === 'timeout') {
      throw new CommandError(
        `no sign-in arrived within ${formatDuration(options.timeoutMs)}; nothing was stored. Run \`${options.retryCommand}\` to try again (--timeout sets how long it waits).`,
      );
    }
    const params = result.kind === 'callback' ? result.callback.params : result.params;
    const reply = result.kind === 'callback' ? (...args: Parameters<typeof result.callback.reply>) => result.callback.reply(...args) : () => {};
    if ('error' in params) {
      const denied = params.error === 'access_denied';
      reply(denied ? callbackPages.denied() : callbackPages.failed(`${params.error}: ${params.description ?? 'the sign-in failed'}`));
      throw new CommandError(
        denied
          ? `access was denied in the browser (access_denied); nothing was stored. Run \`${options.retryCommand}\` to try again.`
          : `the sign-in failed: ${params.error}${params.description ? `: ${params.description}` : ''}. Run \`${options.retryCommand}\` to try again.`,
      );
    }
    try {
      const { result: value, who } = await complete({ code: params.code, redirectUri: listener.redirectUri, verifier: pkce.verifier });
      reply(callbackPages.signedIn(who));
      return value;
    } catch (error) {
      reply(callbackPages.failed(errorLine(error)));
      throw error;
    }
  } finally {
    status?.stop();
    stopTimer.abort();
    ctx.signal.removeEventListener('abort', onAbort);
    stopPaste?.();
    await listener.close();
  }
}
