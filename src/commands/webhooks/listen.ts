// `platform webhooks listen [--port N] [--forward-to URL] [--route TYPE=URL] [--save FILE]
// [--events TYPES] [--since DURATION] [--inspect]`: a receiver on 127.0.0.1 that verifies,
// de-duplicates and reports each delivery (one line per event on stdout), until Ctrl-C; with
// --inspect, the inbox page beside it (listen-inbox.ts), with --since, a catch-up first.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { EVENT_TYPES } from '../../webhooks/events.js';
import type { ReceivedEvent } from '../../webhooks/receiver.js';
import { verdictNote, type SignatureVerdict } from '../../webhooks/verdict.js';
import { SIGNATURE_MISMATCH_ADVICE } from '../advice.js';
import type { ForwardReport } from '../../webhooks/forward-queue.js';
import { otherSecrets, webhookSecret } from './secret.js';
import { checkUrl } from '../url.js';
import { writeRecord } from '../../output/records.js';
import type { WebhooksListenFlags } from './spec.js';
import { parseRoutes } from '../../webhooks/forward-routes.js';
import { DEFAULT_FORWARD_TIMEOUT_MS, DEFAULT_INSPECT_PORT } from '../../webhooks/listen-defaults.js';
import { catchUp, sinceOf } from './listen-catch-up.js';
import { inboxFileOf, openInbox } from './listen-inbox.js';
import type { Inbox } from '../../webhooks/inbox/server.js';
import { TOKEN_PATH, type ReceiverAuth } from '../../webhooks/delivery-auth-check.js';
import { BASIC_AUTH_ENV, OAUTH_CLIENT_ENV, credentialPair } from './delivery-credentials.js';

export async function run(ctx: Context, flags: WebhooksListenFlags): Promise<void> {
  if (!Number.isInteger(flags.port) || flags.port < 0 || flags.port > 65535) throw new UsageError(`--port must be 0-65535, not ${flags.port}`);
  if (!(flags.maxBody > 0)) throw new UsageError('--max-body must be a positive number of bytes');
  const unknown = flags.events?.find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown) throw new UsageError(`--events: unknown event type ${JSON.stringify(unknown)}; known: ${EVENT_TYPES.join(', ')}`);
  if (flags.forwardTo) checkUrl(flags.forwardTo, '--forward-to');
  const routes = parseRoutes(flags.route ?? [], flags.forwardTo, EVENT_TYPES, checkUrl);
  if (typeof routes === 'string') throw new UsageError(routes);
  if (!flags.inspect) {
    const given = { '--inspect-port': flags.inspectPort !== undefined, '--host': flags.host !== undefined, '--open': Boolean(flags.open) };
    const stray = Object.entries(given).find(([, on]) => on)?.[0];
    if (stray) throw new UsageError(`${stray} goes with --inspect (the inbox page)`);
  }
  const inspectPort = flags.inspectPort ?? DEFAULT_INSPECT_PORT;
  if (!Number.isInteger(inspectPort) || inspectPort < 0 || inspectPort > 65535) throw new UsageError(`--inspect-port must be 0-65535, not ${inspectPort}`);
  if (flags.host !== undefined && !/^[\w.:-]+$/.test(flags.host))
    throw new UsageError(`--host must be an address or host name, not ${JSON.stringify(flags.host)}`);
  const sinceMs = flags.since === undefined ? undefined : sinceOf(ctx, flags.since);
  const auth = await receiverAuthOf(ctx, flags);
  const secret = await webhookSecret(ctx);
  // Another secret this user has (the profile's or PLATFORM_WEBHOOK_SECRET) may be the one a mismatched body was signed with.
  const alternatives = await otherSecrets(ctx, secret);
  const { startReceiver } = await import('../../webhooks/receiver.js');
  if (flags.queueSize !== undefined && !(Number.isInteger(flags.queueSize) && flags.queueSize > 0))
    throw new UsageError('--queue-size must be a whole number, 1 or more');
  if (flags.forwardTimeout !== undefined && !(flags.forwardTimeout > 0)) throw new UsageError('--forward-timeout must be a positive number of seconds');
  const counts = { total: 0, valid: 0, invalid: 0, duplicate: 0, outOfOrder: 0 };
  let inbox: Inbox | undefined;
  const receiver = await startReceiver({
    port: flags.port,
    secret,
    alternatives,
    maxBody: flags.maxBody,
    events: flags.events,
    routes,
    queueSize: flags.queueSize,
    forwardTimeoutMs: flags.forwardTimeout === undefined ? undefined : flags.forwardTimeout * 1000,
    savePath: flags.save,
    auth,
    now: () => ctx.clock.now(),
    onNotice: (line) => ctx.info(line),
    onForward: (report) => {
      ctx.info(forwardLine(report));
      inbox?.forwarded(report);
    },
    onDelivery: (delivery) => inbox?.record(delivery),
    onEvent: ({ event, verdict }) => {
      counts.total++;
      counts[event.valid ? 'valid' : 'invalid']++;
      if (event.duplicate) counts.duplicate++;
      if (event.out_of_order) counts.outOfOrder++;
      const time = new Date(ctx.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
      writeRecord(ctx, { time, ...event }, () => `${time}  ${eventLine(event, verdict)}`, { log: true });
    },
  }).catch((error: unknown) => {
    throw listenFailure(error, flags.port, flags.save);
  });
  const routed = routes
    .entries()
    .filter(([type]) => !(type === '*' && flags.forwardTo))
    .map(([type, url]) => `${type} to ${url}`);
  const required =
    auth?.rule.type === 'basic'
      ? `, requiring Basic credentials`
      : auth?.rule.type === 'oauth'
        ? `, requiring a Bearer token from ${receiver.url}${TOKEN_PATH} (client ${auth.rule.clientId}, tokens live ${auth.rule.ttlSeconds} s)`
        : '';
  ctx.info(
    `Listening on ${receiver.url} (checking ${'X-Platform-Signature'} with ${secret.name}${required}${flags.forwardTo ? `, forwarding to ${flags.forwardTo}` : ''}${routed.length ? `, routing ${routed.join(', ')}` : ''}${flags.save ? `, saving to ${flags.save}` : ''}). Ctrl-C stops.`,
  );
  let stopped: Promise<{ notForwarded: number }>;
  try {
    const inboxFile = flags.inspect || sinceMs !== undefined ? await inboxFileOf(ctx) : '';
    if (flags.inspect) {
      const host = flags.host ?? '127.0.0.1';
      inbox = await openInbox(ctx, {
        host,
        port: inspectPort,
        file: inboxFile,
        secret,
        routes,
        listenUrl: receiver.url,
        forwardTimeoutMs: flags.forwardTimeout === undefined ? DEFAULT_FORWARD_TIMEOUT_MS : flags.forwardTimeout * 1000,
      });
      const { isLoopback } = await import('../../webhooks/inbox/server.js');
      if (!isLoopback(host)) ctx.info(`warning: the inbox is bound to ${host}: other machines can reach it (its actions still need the page's token)`);
      ctx.info(`Inbox: ${inbox.url} (keeps the newest deliveries in ${inboxFile})`);
      if (flags.open)
        await ctx.openUrl(inbox.url).catch((error: Error) => ctx.info(`could not open a browser (${error.message}); open ${inbox!.url} yourself`));
    }
    if (sinceMs !== undefined) {
      const { InboxStore } = await import('../../webhooks/inbox/store.js');
      await catchUp(ctx, receiver, sinceMs, inboxFile, () => (inbox ? inbox.store.all() : new InboxStore(inboxFile).all()));
    }
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) return resolve();
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    stopped = receiver.close();
    await inbox?.close();
  }
  const { notForwarded } = await stopped;
  ctx.info(
    `Stopped: ${counts.total} deliveries, ${counts.valid} valid, ${counts.invalid} invalid, ${counts.duplicate} duplicates ignored, ${counts.outOfOrder} out of order${flags.forwardTo ? `, ${notForwarded} not forwarded` : ''}.`,
  );
  for (const l of receiver.ledger.latest()) ctx.info(`latest ${l.event_type} ${l.resource_id}: ${l.status}`);
}

/** `forward EVENT_ID -> 200 12 ms`, or `-> ECONNREFUSED` when the target could not be reached. */
export function forwardLine(r: ForwardReport): string {
  const answer = 'status' in r.result ? `${r.result.status} ${Math.round(r.ms)} ms` : r.result.error;
  return `forward ${r.label} -> ${answer}${r.ok ? '' : ' (not forwarded)'}`;
}

export function eventLine(e: ReceivedEvent, verdict: SignatureVerdict): string {
  const cells = [e.valid ? 'valid' : 'invalid', ...(e.auth ? [e.auth] : []), e.event_type ?? '-', e.resource_id ?? '-', e.status ?? '-', e.event_id ?? '-'];
  let line = cells.join('  ');
  if (e.auth_reason) line += `  (${e.auth_reason}: answered 401, not forwarded)`;
  if (e.duplicate) line += '  duplicate (ignored)';
  if (e.out_of_order) line += `  out of order (keeping ${e.latest})`;
  const note = verdictNote(verdict, SIGNATURE_MISMATCH_ADVICE);
  if (note) line += `  (${note})`;
  if (e.catch_up) line += '  catch-up';
  return line;
}

/** --basic-auth or --oauth-client: what every delivery must carry (spec 6.3 rule 5), as a real receiver would require. */
async function receiverAuthOf(ctx: Context, flags: WebhooksListenFlags): Promise<ReceiverAuth | undefined> {
  const basic = await credentialPair(ctx, flags.basicAuth, '--basic-auth', BASIC_AUTH_ENV);
  const client = await credentialPair(ctx, flags.oauthClient, '--oauth-client', OAUTH_CLIENT_ENV);
  if (basic && client) throw new UsageError('--basic-auth and --oauth-client: give one (or unset PLATFORM_WEBHOOK_BASIC_AUTH / PLATFORM_WEBHOOK_OAUTH_CLIENT)');
  const ttl = flags.oauthTokenTtl;
  if (ttl !== undefined && !client) throw new UsageError('--oauth-token-ttl goes with --oauth-client');
  if (ttl !== undefined && !(Number.isInteger(ttl) && ttl > 0)) throw new UsageError('--oauth-token-ttl must be a whole number of seconds, 1 or more');
  const { ReceiverAuth, DEFAULT_TOKEN_TTL_SECONDS } = await import('../../webhooks/delivery-auth-check.js');
  const now = () => ctx.clock.now();
  if (basic) return new ReceiverAuth({ type: 'basic', user: basic.id, password: basic.secret }, now);
  if (client) return new ReceiverAuth({ type: 'oauth', clientId: client.id, clientSecret: client.secret, ttlSeconds: ttl ?? DEFAULT_TOKEN_TTL_SECONDS }, now);
  return undefined;
}

/** Why the listener could not start, as one line naming the flag (exit 2), when a flag is why. */
function listenFailure(error: unknown, port: number | undefined, save: string | undefined): unknown {
  const { code, syscall, path } = error as NodeJS.ErrnoException;
  if (code === 'EADDRINUSE')
    return new UsageError(`--port ${port}: the port is in use on 127.0.0.1; stop what listens there, or give another (--port 0 picks a free one)`);
  if (save !== undefined && syscall === 'open' && path === save) return new UsageError(`--save: cannot write ${save} (${code})`);
  return error;
}
