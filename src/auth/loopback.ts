// The loopback listener of a native-app sign-in (RFC 8252 7.3): an HTTP server on
// 127.0.0.1 only (never 0.0.0.0: nothing off this machine may deliver a code), that takes
// exactly one callback whose state matches. A wrong state is rejected and it keeps
// waiting; anything after the accepted callback is ignored.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from '../base/errors.js';
import { callbackPages, type CallbackPage } from './callback-page.js';

export const CALLBACK_PATH = '/callback';
export const LOOPBACK_HOST = '127.0.0.1';

/** What came back in a redirect: a code, or an error such as access_denied. */
export type CallbackParams = { code: string } | { error: string; description?: string };

export interface Callback {
  params: CallbackParams;
  /** Answers the browser once the outcome is known; later calls do nothing. */
  reply(page: CallbackPage): void;
}

/** Reads code or error from redirect query parameters whose state matched. */
export function callbackParams(query: URLSearchParams): CallbackParams | undefined {
  const error = query.get('error');
  if (error) return { error, description: query.get('error_description') ?? undefined };
  const code = query.get('code');
  return code ? { code } : undefined;
}

export class LoopbackListener {
  readonly #server: Server;
  readonly #state: string;
  readonly #onRejected: (reason: string) => void;
  #accepted = false;
  #resolve!: (callback: Callback) => void;
  #pendingReplies = new Set<ServerResponse>();
  readonly callback: Promise<Callback>;

  private constructor(server: Server, state: string, onRejected: (reason: string) => void) {
    this.#server = server;
    this.#state = state;
    this.#onRejected = onRejected;
    this.callback = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    server.on('request', (req, res) => this.#handle(req, res));
  }

  /** Listens on 127.0.0.1:`port` (0: a free port). */
  static async start(port: number, state: string, onRejected: (reason: string) => void = () => {}): Promise<LoopbackListener> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        reject(error.code === 'EADDRINUSE' ? new UsageError(`--callback-port ${port}: the port is in use on ${LOOPBACK_HOST}`) : error);
      });
      server.listen(port, LOOPBACK_HOST, () => resolve());
    });
    return new LoopbackListener(server, state, onRejected);
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  get address(): string {
    return (this.#server.address() as AddressInfo).address;
  }

  get redirectUri(): string {
    return `http://${LOOPBACK_HOST}:${this.port}${CALLBACK_PATH}`;
  }

  /** Whether this state belongs to the sign-in (also for a pasted redirect URL). */
  stateMatches(state: string | null): boolean {
    return state === this.#state;
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', `http://${LOOPBACK_HOST}`);
    if (req.method !== 'GET' || url.pathname !== CALLBACK_PATH) return send(res, callbackPages.notFound());
    if (this.#accepted) return send(res, callbackPages.alreadyDone());
    const params = callbackParams(url.searchParams);
    if (!this.stateMatches(url.searchParams.get('state')) || !params) {
      this.#onRejected(params ? 'its state does not match this sign-in' : 'it carries neither a code nor an error');
      return send(res, callbackPages.wrongState());
    }
    this.#accepted = true;
    this.#pendingReplies.add(res);
    let replied = false;
    this.#resolve({
      params,
      reply: (page) => {
        if (replied) return;
        replied = true;
        this.#pendingReplies.delete(res);
        send(res, page);
      },
    });
  }

  /** Marks the sign-in as done by other means (a pasted URL): later callbacks are ignored. */
  finish(): void {
    this.#accepted = true;
  }

  async close(): Promise<void> {
    for (const res of this.#pendingReplies) send(res, callbackPages.failed('The sign-in ended before this request was answered.'));
    this.#pendingReplies.clear();
    await new Promise<void>((resolve) => {
      this.#server.close(() => resolve());
      this.#server.closeAllConnections();
    });
  }
}

function send(res: ServerResponse, page: CallbackPage): void {
  if (res.writableEnded) return;
  res.writeHead(page.status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The URL of this page carries the code: never send it on as a Referer.
    'referrer-policy': 'no-referrer',
    connection: 'close',
  });
  res.end(page.html);
}
