// The /_sandbox console routes: the page, an overview of the state, the full dump, named
// snapshots, reset. Like every route they answer only to the sandbox's own host names (the
// server's 421, protocol.ts: a page on another origin that rebinds its DNS to loopback is
// refused before it gets here), and every state change needs the
// page's per-session token in X-Sandbox-Token, which another origin cannot read.
import { timingSafeEqual } from 'node:crypto';
import { BACKOFF_BASE_SECONDS, MAX_ATTEMPTS, backoffSchedule } from '../../webhooks/delivery.js';
import { describeAuth } from '../../webhooks/delivery-auth.js';
import { SANDBOX_CLIENTS } from '../clients.js';
import type { SandboxContext } from '../context.js';
import { header, HttpError, json, type Handler, type SandboxRequest } from '../http.js';
import { FINAL_STATUSES } from '../../schemas/rider.js';
import type { Router } from '../router.js';
import type { SandboxWebhooks } from '../webhooks/index.js';
import { pageScriptOnce } from '../../base/page-script.js';
import { CONSOLE_ICON_PATH, CONSOLE_PATH, CONSOLE_SCRIPT_FILE, CONSOLE_SCRIPT_PATH, CONSOLE_STYLE, CONSOLE_STYLE_PATH, consoleHtml } from './page.js';
import { SNAPSHOT_NAME, type SnapshotShelf } from './snapshots.js';

/** Campaigns of one account the overview lists, newest first. */
const CAMPAIGNS_SHOWN = 100;
const ATTEMPTS_SHOWN = 100;

export const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
  'content-security-policy': "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
};

export interface ConsoleDeps {
  ctx: SandboxContext;
  token: string;
  shelf: SnapshotShelf;
  webhooks: SandboxWebhooks;
  /** Called after a restore or reset replaced the state. */
  replaced: (what: string) => void;
}

export function registerConsoleRoutes(router: Router, deps: ConsoleDeps): void {
  const { ctx, shelf } = deps;
  const guard =
    (handler: Handler, changesState = false): Handler =>
    async (req) => {
      if (changesState) checkToken(req, deps.token);
      const response = await handler(req);
      return { ...response, headers: { ...SECURITY_HEADERS, ...response.headers } };
    };
  const get = (path: string, handler: Handler) => router.get(path, guard(handler));
  const post = (path: string, handler: Handler) => router.post(path, guard(handler, true));

  get(CONSOLE_PATH, () => ({ status: 200, raw: consoleHtml(deps.token), headers: { 'content-type': 'text/html; charset=utf-8' } }));
  const script = pageScriptOnce({ built: CONSOLE_SCRIPT_FILE, source: new URL('./browser/console-page.ts', import.meta.url), from: import.meta.url });
  get(CONSOLE_SCRIPT_PATH, async () => ({ status: 200, raw: await script(), headers: { 'content-type': 'text/javascript; charset=utf-8' } }));
  get(CONSOLE_STYLE_PATH, () => ({ status: 200, raw: CONSOLE_STYLE, headers: { 'content-type': 'text/css; charset=utf-8' } }));
  get(CONSOLE_ICON_PATH, () => ({ status: 204, headers: { 'content-type': 'image/x-icon' } }));
  // The token for clients that are not the page (the CLI's snapshot commands); a page on
  // another origin cannot read this answer.
  get('/_sandbox/session', () => json(200, { token: deps.token }));
  get('/_sandbox/requests', () => json(200, { requests: ctx.stats.requests.filter((r) => !r.path.startsWith('/_sandbox/')) }));
  get('/_sandbox/state', () => ({ status: 200, raw: JSON.stringify(ctx.store.toData()) }));
  get('/_sandbox/snapshots', () => json(200, { snapshots: shelf.list() }));
  get('/_sandbox/overview', (req) => json(200, overview(deps, req.query.get('account'))));

  post('/_sandbox/snapshots', (req) => {
    const name = nameOf(req);
    return json(201, shelf.save(name));
  });
  post('/_sandbox/snapshots/{name}/restore', (req) => {
    const name = req.params.name!;
    const restored = shelf.restore(name);
    if (!restored)
      throw refused(
        404,
        `no snapshot named ${JSON.stringify(name)}; saved: ${
          shelf
            .list()
            .map((s) => s.name)
            .join(', ') || 'none'
        }`,
        'NotFound',
      );
    deps.replaced(`restored ${name}`);
    return json(200, restored);
  });
  post('/_sandbox/reset', () => {
    const done = shelf.reset();
    ctx.chaos.restart();
    deps.replaced('reset');
    return json(200, done);
  });
}

function refused(status: number, message: string, code = status === 403 ? 'PermissionDenied' : 'BadRequest'): HttpError {
  return new HttpError({ status, body: { code, message }, headers: SECURITY_HEADERS });
}

function checkToken(req: SandboxRequest, token: string): void {
  const given = Buffer.from(header(req, 'x-sandbox-token') ?? '');
  const expected = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw refused(403, 'state changes need the console session token in X-Sandbox-Token (GET /_sandbox/session)');
}

function nameOf(req: SandboxRequest): string {
  let body: unknown;
  try {
    body = JSON.parse(req.body.toString('utf8') || '{}');
  } catch {
    throw refused(400, 'the body must be JSON: {"name": "..."}');
  }
  const name = (body as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || !SNAPSHOT_NAME.test(name))
    throw refused(400, `name: 1-64 letters, digits, '.', '_' or '-', not starting with '.'; got ${JSON.stringify(name ?? null)}`);
  return name;
}

/** What GET /_sandbox/overview answers: the console page's view of the state. */
export type ConsoleOverview = ReturnType<typeof overview>;

function overview(deps: ConsoleDeps, accountParam: string | null) {
  const { ctx, shelf, webhooks } = deps;
  const store = ctx.store;
  const accounts = store.accounts.map((a) => ({ ...a.value, active: a.active, campaigns: store.campaigns(a.value.ad_account_id).length }));
  const account = accountParam && store.account(accountParam, false) ? accountParam : (accounts[0]?.ad_account_id ?? '');
  const campaigns = store.campaigns(account);
  const waits = backoffSchedule(BACKOFF_BASE_SECONDS * 1000);
  const rider = ctx.store.riderSnapshot?.() as { rides?: Array<Record<string, unknown>> } | undefined;
  const rides = (rider?.rides ?? []).filter((r) => !(FINAL_STATUSES as readonly unknown[]).includes(r.status));
  return {
    chaos: {
      seed: ctx.chaos.seed,
      failRate: ctx.faults.failRate,
      throttleRate: ctx.faults.throttleRate,
      itemFailRate: ctx.faults.itemFailRate,
      rules: ctx.faults.rules.map((r) => r.text),
    },
    accounts,
    campaigns: {
      account,
      total: campaigns.length,
      items: campaigns
        .slice(-CAMPAIGNS_SHOWN)
        .reverse()
        .map((c) => ({
          campaign_id: c.value.campaign_id,
          name: c.value.name,
          configured_status: c.value.configured_status,
          objective: (c.value as { objective?: string }).objective ?? '',
        })),
    },
    rides: rides.map((r) => ({ request_id: r.request_id, status: r.status, user_id: r.user_id, client_id: r.client_id, product: r.product_id })),
    webhooks: webhooks.attempts
      .slice(-ATTEMPTS_SHOWN)
      .reverse()
      .map((a) => {
        const failed = 'error' in a.result || a.result.status >= 500 || a.auth_failure;
        const wait = failed && a.attempt < MAX_ATTEMPTS ? waits[a.attempt - 1] : undefined;
        return {
          event_type: a.event_type,
          resource_id: a.resource_id,
          status: a.status,
          url: a.url,
          attempt: a.attempt,
          of: MAX_ATTEMPTS,
          result: ('status' in a.result ? `HTTP ${a.result.status}` : a.result.error) + (a.auth_failure ? ' (authentication failed)' : ''),
          next: wait === undefined ? (failed ? 'none: out of attempts' : '') : `${wait / 1000} s (simulated) after this attempt`,
        };
      }),
    // Each application's delivery settings (spec 6.3 rule 5), never a password or secret.
    webhookSettings: SANDBOX_CLIENTS.map((c) => ({
      client_id: c.client_id,
      url: webhooks.urlOf(c.client_id) ?? 'none',
      auth: describeAuth(webhooks.authOf(c.client_id)),
    })),
    snapshots: shelf.list(),
  };
}
