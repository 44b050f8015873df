// Flags and output shared by `webhooks replay` and `webhooks trigger`: one line (or JSON
// object) per event on stdout with its outcome; each retry is chatter on stderr.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { parseDuration } from '../../auth/duration.js';
import type { WebhooksReplayFlags } from './spec.js';
import { clientBackoff, MAX_ATTEMPTS, type AttemptReport } from '../../webhooks/delivery.js';
import { checkUrl } from '../url.js';
import { writeRecord } from '../../output/records.js';
import type { HttpTransport } from '../../http/transport.js';
import type { DeliveryAuthorizer } from '../../webhooks/delivery-auth.js';
import { BASIC_AUTH_ENV, OAUTH_CLIENT_ENV, credentialPair } from './delivery-credentials.js';

export type DeliveryFlags = WebhooksReplayFlags;

export function deliverySettings(flags: DeliveryFlags) {
  checkUrl(flags.to, '--to');
  const baseMs = backoffBaseMs(flags.backoffBase);
  const attempts = flags.attempts ?? flags.maxAttempts;
  if (!Number.isInteger(attempts) || attempts < 1 || attempts > MAX_ATTEMPTS) throw new UsageError(`--max-attempts must be 1-${MAX_ATTEMPTS} (spec 6.3.3)`);
  if (!(flags.timeout > 0)) throw new UsageError('--timeout must be a positive number of seconds');
  if (!['sandbox', 'production'].includes(flags.environment)) throw new UsageError('--environment must be sandbox or production');
  return {
    url: flags.to,
    environment: flags.environment,
    attempts,
    waits: clientBackoff(baseMs, attempts),
    timeoutMs: flags.timeout * 1000,
  };
}

/**
 * --basic-auth, or --oauth-token-url with --oauth-client: how each attempt authenticates to the
 * receiver, as the platform's deliveries would (spec 6.3 rule 5). The token is fetched through
 * the same proxies and CAs as the delivery, once, and kept while it is valid.
 */
export async function deliveryAuthorizer(
  ctx: Context,
  flags: DeliveryFlags,
  transport: HttpTransport,
  timeoutMs: number,
): Promise<DeliveryAuthorizer | undefined> {
  const oauthGiven = flags.oauthTokenUrl !== undefined || flags.oauthClient !== undefined || flags.oauthScopes !== undefined;
  if (flags.basicAuth !== undefined && oauthGiven) throw new UsageError('--basic-auth and --oauth-*: give one way to authenticate');
  const [{ DeliveryAuthorizer }, { postTokenForm }] = await Promise.all([import('../../webhooks/delivery-auth.js'), import('../../webhooks/token-post.js')]);
  const authorizer = (auth: ConstructorParameters<typeof DeliveryAuthorizer>[0]) =>
    new DeliveryAuthorizer(auth, { postForm: postTokenForm(transport, timeoutMs), now: () => ctx.clock.now() });
  if (oauthGiven) {
    if (flags.oauthTokenUrl === undefined) throw new UsageError('--oauth-client and --oauth-scopes go with --oauth-token-url');
    checkUrl(flags.oauthTokenUrl, '--oauth-token-url');
    const client = await credentialPair(ctx, flags.oauthClient, '--oauth-client', OAUTH_CLIENT_ENV);
    if (!client) throw new UsageError(`--oauth-token-url needs --oauth-client ID:SECRET (or ${OAUTH_CLIENT_ENV})`);
    return authorizer({
      type: 'oauth',
      tokenUrl: flags.oauthTokenUrl,
      clientId: client.id,
      clientSecret: client.secret,
      ...(flags.oauthScopes ? { scopes: flags.oauthScopes } : {}),
    });
  }
  if (flags.basicAuth === undefined) return undefined;
  const basic = await credentialPair(ctx, flags.basicAuth, '--basic-auth', BASIC_AUTH_ENV);
  return basic && authorizer({ type: 'basic', user: basic.id, password: basic.secret });
}

/** A duration (500ms, 1s, 2m) or a bare number of seconds (0.01; 0 retries at once). */
function backoffBaseMs(text: string): number {
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Math.round(Number(text) * 1000);
  return parseDuration(text, '--backoff-base');
}

export interface DeliveryLabel {
  event_id?: string;
  event_type?: string;
  origin: string;
}

const outcomeOf = (r: AttemptReport) => ('status' in r.result ? `HTTP ${r.result.status}` : r.result.error);

/** Each attempt that will be retried, as one line on stderr. */
export function retryPrinter(ctx: Context, label: DeliveryLabel) {
  return (r: AttemptReport) => {
    if (r.retryInMs === undefined) return;
    ctx.info(`${label.event_id ?? label.origin}  attempt ${r.attempt}/${r.of}  ${outcomeOf(r)}  retry in ${seconds(r.retryInMs)}`);
  };
}

/** The event's outcome, one line (or JSON object) on stdout; true when it was delivered. */
export function printDelivery(ctx: Context, label: DeliveryLabel, result: { accepted: boolean; attempts: AttemptReport[] }): boolean {
  const last = result.attempts.at(-1)!;
  // Rejected by the receiver (an answer); a failure not retried (a refusing proxy) is not delivered.
  const verdict = result.accepted ? 'delivered' : last.verdict === 'rejected' && 'status' in last.result ? 'rejected' : 'not delivered';
  const record = { ...label, delivered: result.accepted, verdict, outcome: outcomeOf(last), attempts: result.attempts.length };
  const tries = `${result.attempts.length} attempt${result.attempts.length === 1 ? '' : 's'}`;
  writeRecord(ctx, record, () => `${label.event_id ?? label.origin}  ${label.event_type ?? '-'}  ${verdict}  ${record.outcome}  ${tries}`, { log: true });
  return result.accepted;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}
