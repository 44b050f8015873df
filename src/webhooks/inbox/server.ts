// The webhook inbox of `webhooks listen --inspect`: a page on 127.0.0.1 (unless --host says
// otherwise) showing every delivery live (server-sent events), with its verdict, headers and
// raw body; replay to the forward target, edit and replay (re-signed, unsigned or wrongly
// signed), and export as NDJSON or HAR. The page is static (page.ts) and reads everything
// through a small JSON API. Guard rails, because a page on loopback is reachable from any
// site a browser visits: a Host check on loopback (DNS rebinding), Origin and Sec-Fetch-Site
// checks and a per-session token on every API call (CSRF), a strict CSP, nosniff, no framing.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from '../../http/read-body.js';
import { endToEnd, postOnce } from '../http-post.js';
import { readEventFields } from '../events.js';
import type { ForwardReport } from '../forward-queue.js';
import type { ForwardRoutes } from '../forward-routes.js';
import type { RawDelivery } from '../receiver.js';
import { signedHeaders } from '../send.js';
import { ENVIRONMENT_HEADER, SIGNATURE_HEADER, sign, type NamedSecret } from '../signature.js';
import { headerValue, isHeader } from '../headers.js';
import { exportHar, exportNdjson } from './export.js';
import { pageScriptOnce } from '../../base/page-script.js';
import { INBOX_CSS, INBOX_SCRIPT_FILE, inboxHtml } from './page.js';
import type { InboxRecord, InboxSend, InboxStore } from './store.js';
import { inboxVerdict } from './verdict.js';

export const INBOX_HOST = '127.0.0.1';
export const TOKEN_HEADER = 'X-Inbox-Token';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
/** The largest edited body the page may send (as JSON, escapes included). */
const MAX_EDIT_REQUEST = 4 * 1024 * 1024;

export interface InboxOptions {
  host: string;
  port: number;
  store: InboxStore;
  /** The secret deliveries are checked with (the receiver's), and edited ones re-signed with. */
  secret: NamedSecret;
  routes: ForwardRoutes;
  /** The receiver's URL, shown on the page. */
  listenUrl: string;
  /** The command that sends a test event to the receiver, shown while the inbox is empty (the command layer's words). */
  testCommand: string;
  forwardTimeoutMs: number;
  version: string;
  now: () => number;
}

export interface Inbox {
  url: string;
  store: InboxStore;
  /** A delivery the receiver handled (received or caught up on). */
  record(delivery: RawDelivery): void;
  /** The answer of an automatic forward. */
  forwarded(report: ForwardReport): void;
  close(): Promise<void>;
}

/** What GET /api/deliveries answers: the page's first view. */
export interface InboxListing {
  listen_url: string;
  test_command: string;
  routes: Array<[string, string]>;
  deliveries: InboxRecord[];
}

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function startInbox(o: InboxOptions): Promise<Inbox> {
  const token = randomBytes(24).toString('base64url');
  const streams = new Set<http.ServerResponse>();
  let origin = '';
  const script = pageScriptOnce({ built: INBOX_SCRIPT_FILE, source: new URL('./browser/inbox-page.ts', import.meta.url), from: import.meta.url });

  function broadcast(event: 'delivery' | 'update', record: InboxRecord): void {
    const frame = `event: ${event}\ndata: ${JSON.stringify(record)}\n\n`;
    for (const res of streams) res.write(frame);
  }

  function addSend(record: InboxRecord, send: InboxSend): void {
    record.sends.push(send);
    o.store.put(record);
    broadcast('update', record);
  }

  const server = http.createServer((req, res) => {
    void route(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500, { error: 'the inbox failed to answer this request' });
      else res.destroy();
    });
  });

  async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://inbox.invalid');
    const refusal = refuse(req, url);
    if (refusal) return answer(res, 403, { error: refusal });
    const method = req.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/') return page(res, 'text/html; charset=utf-8', inboxHtml(token));
    if (method === 'GET' && url.pathname === '/app.js') return page(res, 'text/javascript; charset=utf-8', await script());
    if (method === 'GET' && url.pathname === '/app.css') return page(res, 'text/css; charset=utf-8', INBOX_CSS);
    if (!url.pathname.startsWith('/api/')) return answer(res, 404, { error: 'not found' });
    if (!hasToken(req, url)) return answer(res, 403, { error: `missing or wrong ${TOKEN_HEADER}: reload the inbox page (the listener was restarted?)` });
    if (method === 'GET' && url.pathname === '/api/deliveries') {
      const listing: InboxListing = { listen_url: o.listenUrl, test_command: o.testCommand, routes: o.routes.entries(), deliveries: o.store.all() };
      return answer(res, 200, listing);
    }
    if (method === 'GET' && url.pathname === '/api/events') return events(req, res);
    if (method === 'GET' && url.pathname === '/api/export') return exportSelection(res, url);
    const action = /^\/api\/deliveries\/([\w-]+)\/(replay|edit)$/.exec(url.pathname);
    if (action && method === 'POST') {
      const record = o.store.get(action[1]!);
      if (!record) return answer(res, 404, { error: `no delivery ${action[1]} in the inbox` });
      const input = await readBody(req, MAX_EDIT_REQUEST);
      if (input === undefined) return answer(res, 413, { error: 'the edited body is too large' });
      return action[2] === 'replay' ? replay(res, record) : editAndReplay(res, record, input);
    }
    return answer(res, 404, { error: 'not found' });
  }

  /** Why a request is refused before anything else, or undefined. */
  function refuse(req: http.IncomingMessage, url: URL): string | undefined {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    // A page of another site that rebinds its name to 127.0.0.1 arrives with its own Host.
    if (isLoopback(o.host) && !isLoopback(host)) return `Host ${JSON.stringify(req.headers.host ?? '')} refused: the inbox answers on ${origin} only`;
    const requestOrigin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    const writes = req.method !== 'GET' && req.method !== 'HEAD';
    if (requestOrigin !== undefined && requestOrigin !== origin && (writes || url.pathname.startsWith('/api/')))
      return `cross-origin request from ${requestOrigin} refused`;
    if (writes && site !== undefined && site !== 'same-origin') return `cross-site request (Sec-Fetch-Site: ${site}) refused`;
    if (writes && !/^application\/json\b/i.test(req.headers['content-type'] ?? '')) return 'actions take a JSON body (Content-Type: application/json)';
    return undefined;
  }

  function hasToken(req: http.IncomingMessage, url: URL): boolean {
    const given = req.headers[TOKEN_HEADER.toLowerCase()] ?? (req.method === 'GET' ? url.searchParams.get('token') : undefined);
    if (typeof given !== 'string') return false;
    const a = Buffer.from(given);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  function events(req: http.IncomingMessage, res: http.ServerResponse): void {
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write(': connected\n\n');
    streams.add(res);
    req.on('close', () => streams.delete(res));
  }

  function exportSelection(res: http.ServerResponse, url: URL): void {
    const format = url.searchParams.get('format');
    if (format !== 'ndjson' && format !== 'har') return answer(res, 400, { error: 'format must be ndjson or har' });
    const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean);
    const records = ids.length ? o.store.all().filter((r) => ids.includes(r.id)) : o.store.all();
    const body = format === 'ndjson' ? exportNdjson(records) : exportHar(records, o.version);
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'content-type': format === 'ndjson' ? 'application/x-ndjson' : 'application/json',
      'content-disposition': `attachment; filename="deliveries.${format === 'ndjson' ? 'ndjson' : 'har'}"`,
      'cache-control': 'no-store',
    });
    res.end(body);
  }

  async function replay(res: http.ServerResponse, record: InboxRecord): Promise<void> {
    const target = o.routes.targetFor(record.event_type ?? undefined);
    if (!target) return answer(res, 409, { error: noTarget(record) });
    const body = Buffer.from(record.body_base64, 'base64');
    const send = await post(target, body, endToEnd(record.headers), 'replay', 'as-received');
    addSend(record, send);
    answer(res, 200, send);
  }

  async function editAndReplay(res: http.ServerResponse, record: InboxRecord, input: Buffer): Promise<void> {
    let request: { body?: unknown; signing?: unknown };
    try {
      request = JSON.parse(input.toString('utf8')) as typeof request;
    } catch {
      return answer(res, 400, { error: 'the request is not JSON' });
    }
    if (typeof request.body !== 'string') return answer(res, 400, { error: 'body: the edited body, as text' });
    const signing = request.signing;
    if (signing !== 'resigned' && signing !== 'unsigned' && signing !== 'wrong') return answer(res, 400, { error: 'signing: resigned, unsigned or wrong' });
    const target = o.routes.targetFor(readEventFields(Buffer.from(request.body))?.event_type ?? record.event_type ?? undefined);
    if (!target) return answer(res, 409, { error: noTarget(record) });
    const body = Buffer.from(request.body, 'utf8');
    const environment = headerValue(record.headers, ENVIRONMENT_HEADER) ?? 'sandbox';
    let headers = signedHeaders(body, o.secret.value, environment, endToEnd(record.headers));
    if (signing === 'unsigned') headers = headers.filter(([n]) => !isHeader(n, SIGNATURE_HEADER));
    // Signed with a key that is not the secret: a receiver that checks must refuse it.
    if (signing === 'wrong') headers = headers.map(([n, v]) => [n, n === SIGNATURE_HEADER ? sign(body, randomBytes(16).toString('hex')) : v]);
    const send = { ...(await post(target, body, headers, 'edited', signing)), body_base64: body.toString('base64') };
    addSend(record, send);
    answer(res, 200, send);
  }

  async function post(url: string, body: Buffer, headers: Array<[string, string]>, kind: InboxSend['kind'], signing: InboxSend['signing']): Promise<InboxSend> {
    const started = o.now();
    const result = await postOnce(url, body, headers, { timeoutMs: o.forwardTimeoutMs });
    return { at: new Date(started).toISOString(), kind, url, signing, result, ms: Math.max(0, o.now() - started) };
  }

  function noTarget(record: InboxRecord): string {
    return `no forward target for ${record.event_type ?? 'this delivery'}: start listen with --forward-to URL or --route TYPE=URL`;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${o.host.includes(':') && !o.host.startsWith('[') ? `[${o.host}]` : o.host}:${port}`;

  return {
    url: `${origin}/`,
    store: o.store,
    record(d) {
      const fields = d.event;
      const record: InboxRecord = {
        id: d.id,
        seq: o.store.nextSeq(),
        received_at: new Date(d.at).toISOString(),
        method: d.method,
        path: d.path,
        headers: d.headers,
        body_base64: d.body.toString('base64'),
        event_id: fields.event_id ?? null,
        event_type: fields.event_type ?? null,
        resource_id: fields.resource_id ?? null,
        status: fields.status ?? null,
        verdict: inboxVerdict(d.verdict, o.secret.name),
        ...(fields.auth ? { auth: { authorized: fields.auth === 'authorized', reason: fields.auth_reason ?? null } } : {}),
        duplicate: fields.duplicate,
        out_of_order: fields.out_of_order,
        catch_up: Boolean(fields.catch_up),
        target: d.target ?? null,
        sends: [],
      };
      o.store.put(record);
      broadcast('delivery', record);
    },
    forwarded(report) {
      const record = report.id === undefined ? undefined : o.store.get(report.id);
      if (!record) return;
      addSend(record, {
        at: new Date(o.now() - report.ms).toISOString(),
        kind: 'forward',
        url: report.url,
        signing: 'as-received',
        result: report.result,
        ms: report.ms,
      });
    },
    close() {
      for (const res of streams) res.end();
      streams.clear();
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cross-origin-opener-policy': 'same-origin',
  // Scripts, styles and connections from this origin only; nothing inline, no plug-ins, no framing.
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

function page(res: http.ServerResponse, contentType: string, text: string): void {
  res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': contentType, 'cache-control': 'no-store' });
  res.end(text);
}

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}
