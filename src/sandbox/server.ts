// node:http plumbing: read the body, route, answer (or drop), log, count.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { RequestScope } from './chaos.js';
import { CONSOLE_ICON_PATH, CONSOLE_PATH, CONSOLE_SCRIPT_PATH, CONSOLE_STYLE_PATH } from './console/page.js';
import type { RequestLogEntry, SandboxContext } from './context.js';
import { HttpError, type SandboxRequest, type SandboxResponse } from './http.js';
import { methodNotAllowed, misdirected, negotiate, notFound, options, ownHost, withCors } from './protocol.js';
import type { Router } from './router.js';
import { readBody } from '../http/read-body.js';

/** The largest request body (a full batch of 1000 items is well under 1 MB); larger ones get 413 unread. */
export const MAX_BODY_BYTES = 8 * 1024 * 1024;
/** Bytes of request bodies buffered at once, over all connections; past it, 503 and Retry-After. */
export const BODY_BUDGET_BYTES = 32 * 1024 * 1024;
/** The request log keeps the newest entries only (tests read the last few). */
export const REQUEST_LOG_SIZE = 1000;
/** Characters of a User-Agent kept in the log. */
const USER_AGENT_KEPT = 200;
const CONSOLE_FILES = [CONSOLE_PATH, CONSOLE_SCRIPT_PATH, CONSOLE_STYLE_PATH, CONSOLE_ICON_PATH];

export interface ServerHooks {
  log?: (line: string) => void;
  /** Every request-log entry, as it is recorded (the console's live log). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** The only host names answered (protocol.ts sandboxHosts); any other Host gets 421, on every route. */
  hosts?: string[];
  /** Takes over a request that streams (server-sent events); true when it did. */
  stream?: (method: string, path: string, req: IncomingMessage, res: ServerResponse) => boolean;
}

export function createSandboxServer(router: Router, ctx: SandboxContext, hooks: ServerHooks = {}): Server {
  const budget = new BodyBudget(BODY_BUDGET_BYTES);
  let seq = 0;
  const server = createServer({ keepAlive: true }, (req, res) => {
    void handle(router, ctx, req, res, budget, hooks, () => ++seq);
  });
  server.keepAliveTimeout = 30_000;
  return server;
}

async function handle(
  router: Router,
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  budget: BodyBudget,
  hooks: ServerHooks,
  nextSeq: () => number,
): Promise<void> {
  const started = performance.now();
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const foreign = hooks.hosts !== undefined && !ownHost(req.headers, hooks.hosts);
  if (!foreign && hooks.stream?.(method, url.pathname, req, res)) return;
  let response: SandboxResponse;
  let scope: RequestScope = { itemFailures: 0, items: 0 };
  const reserved = foreign ? 0 : budget.reserve(req);
  try {
    if (foreign) {
      req.resume();
      throw new HttpError(misdirected(url.pathname, req.headers.host, hooks.hosts!));
    }
    if (!reserved) {
      req.resume();
      throw new HttpError({
        status: 503,
        body: { code: 'Unavailable', message: 'too many large request bodies at once; retry shortly' },
        headers: { 'retry-after': '1' },
      });
    }
    const body = await readBody(req, MAX_BODY_BYTES);
    if (!body) throw new HttpError({ status: 413, body: { code: 'BadRequest', message: `body larger than ${MAX_BODY_BYTES} bytes` } });
    const request = { method, path: url.pathname, query: url.searchParams, headers: req.headers, body, params: {} };
    const run = ctx.chaos.run(() => dispatch(router, request));
    scope = run.scope;
    response = await run.result;
  } catch (error) {
    response = toResponse(error);
  } finally {
    if (reserved) budget.release(reserved);
  }
  if (ctx.faults.latencyMs > 0) await ctx.sleep(ctx.faults.latencyMs);
  const requests = ctx.stats.requests;
  const fault = [scope.fault, scope.itemFailures > 0 ? `${scope.itemFailures} of ${scope.items} items failed` : undefined].filter(Boolean).join('; ');
  const userAgent = req.headers['user-agent']?.slice(0, USER_AGENT_KEPT);
  const entry: RequestLogEntry = {
    seq: nextSeq(),
    at: ctx.now(),
    method,
    path: url.pathname,
    status: response.drop ? 0 : response.status,
    latencyMs: Math.round(performance.now() - started),
    ...(scope.route !== undefined ? { route: scope.route, n: scope.n } : {}),
    ...(fault ? { fault } : {}),
    ...(userAgent !== undefined ? { userAgent } : {}),
  };
  requests.push(entry);
  // Bounded: drop the older half when it doubles (amortized O(1), never more than twice the size).
  if (requests.length > 2 * REQUEST_LOG_SIZE) requests.splice(0, requests.length - REQUEST_LOG_SIZE);
  hooks.onRequest?.(entry);
  hooks.log?.(`${method} ${url.pathname} ${response.drop ? 'dropped' : response.status} ${entry.latencyMs}ms${fault ? ` (injected: ${fault})` : ''}`);
  if (response.drop) {
    req.socket.destroy();
    return;
  }
  // Encoded once: its length and its bytes (a list page of 2,000 campaigns is a megabyte).
  const payload = Buffer.from(response.raw ?? (response.body === undefined ? '' : JSON.stringify(response.body)));
  res.writeHead(response.status, {
    // Exactly this: the real service's recorded answers, which strict clients compare to.
    'content-type': 'application/json',
    'content-length': payload.length,
    'x-request-id': randomUUID(),
    ...response.headers,
  });
  res.end(payload);
}

async function dispatch(router: Router, req: SandboxRequest): Promise<SandboxResponse> {
  return withCors(req, await route(router, req));
}

async function route(router: Router, req: SandboxRequest): Promise<SandboxResponse> {
  const match = router.match(req.method, req.path);
  if (match.kind === 'not-found') return notFound(req);
  if (match.kind === 'method-not-allowed') return req.method === 'OPTIONS' ? options(req, match.allow) : methodNotAllowed(req, match.allow);
  // The console's page and its files are fetched by browsers with Accept: text/html, text/css.
  const refused = req.method === 'GET' && CONSOLE_FILES.includes(req.path) ? undefined : negotiate(req);
  if (refused) return refused;
  try {
    return await match.handler({ ...req, params: match.params });
  } catch (error) {
    return toResponse(error);
  }
}

function toResponse(error: unknown): SandboxResponse {
  if (error instanceof HttpError) return error.response;
  return { status: 500, body: { code: 'Internal', message: `unexpected server error: ${error instanceof Error ? error.message : String(error)}` } };
}

/**
 * Bytes of request bodies being buffered, over all connections. A request reserves what
 * its Content-Length declares (a body without one counts as the largest allowed), so that
 * ten concurrent 31 MB bodies cannot take 300 MB: those past the budget get 503 at once.
 */
class BodyBudget {
  #used = 0;

  constructor(private readonly limit: number) {}

  /** The bytes reserved for this request, or 0 when the budget cannot take it now. */
  reserve(req: IncomingMessage): number {
    const declared = Number(req.headers['content-length'] ?? (req.headers['transfer-encoding'] ? MAX_BODY_BYTES : 0));
    const bytes = Number.isFinite(declared) ? Math.max(1, Math.min(declared, MAX_BODY_BYTES)) : MAX_BODY_BYTES;
    // One body is always let through: a lone large request must still get its answer (or its 413).
    if (this.#used > 0 && this.#used + bytes > this.limit) return 0;
    this.#used += bytes;
    return bytes;
  }

  release(bytes: number): void {
    this.#used -= bytes;
  }
}
