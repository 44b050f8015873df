// Flags and output shared by `webhooks replay` and `webhooks trigger`.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { WebhooksReplayFlags } from './spec.js';
import { MAX_ATTEMPTS, type AttemptReport } from '../../webhooks/delivery.js';
import { checkUrl } from '../url.js';
import { writeRecord } from '../../output/records.js';

export type DeliveryFlags = WebhooksReplayFlags;

export function deliverySettings(flags: DeliveryFlags) {
  checkUrl(flags.to, '--to');
  if (!(flags.backoffBase >= 0)) throw new UsageError('--backoff-base must be a number of seconds, 0 or more');
  if (!Number.isInteger(flags.attempts) || flags.attempts < 1 || flags.attempts > MAX_ATTEMPTS)
    throw new UsageError(`--attempts must be 1-${MAX_ATTEMPTS} (spec 6.3.3)`);
  if (!(flags.timeout > 0)) throw new UsageError('--timeout must be a positive number of seconds');
  if (!['sandbox', 'production'].includes(flags.environment)) throw new UsageError('--environment must be sandbox or production');
  return { url: flags.to, environment: flags.environment, attempts: flags.attempts, baseMs: flags.backoffBase * 1000, timeoutMs: flags.timeout * 1000 };
}

/** One line (or JSON object) per attempt on stdout. */
export function attemptPrinter(ctx: Context, label: { event_id?: string; event_type?: string; origin: string }) {
  return (r: AttemptReport) => {
    const outcome = 'status' in r.result ? `HTTP ${r.result.status}` : r.result.error;
    const record = {
      ...label,
      attempt: r.attempt,
      of: r.of,
      outcome,
      verdict: r.verdict,
      retry_in_seconds: r.retryInMs === undefined ? null : r.retryInMs / 1000,
    };
    writeRecord(
      ctx,
      record,
      () => {
        const next =
          r.verdict === 'accepted'
            ? 'accepted'
            : r.verdict === 'rejected'
              ? 'rejected (not retried)'
              : r.retryInMs !== undefined
                ? `retry in ${seconds(r.retryInMs)}`
                : 'gave up';
        return `${label.event_id ?? label.origin}  ${label.event_type ?? '-'}  attempt ${r.attempt}/${r.of}  ${outcome}  ${next}`;
      },
      { log: true },
    );
  };
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}
