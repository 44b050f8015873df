// `platform webhooks listen [--port N] [--forward-to URL] [--save FILE] [--events TYPES]`:
// a receiver on 127.0.0.1 that verifies, de-duplicates and reports each delivery (one line
// per event on stdout), until Ctrl-C.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { EVENT_TYPES } from '../../webhooks/events.js';
import type { ReceivedEvent } from '../../webhooks/receiver.js';
import type { ForwardReport } from '../../webhooks/forward-queue.js';
import { webhookSecret } from './secret.js';
import { checkUrl } from '../url.js';
import { writeRecord } from '../../output/records.js';
import type { WebhooksListenFlags } from './spec.js';

export async function run(ctx: Context, flags: WebhooksListenFlags): Promise<void> {
  if (!Number.isInteger(flags.port) || flags.port < 0 || flags.port > 65535) throw new UsageError(`--port must be 0-65535, not ${flags.port}`);
  if (!(flags.maxBody > 0)) throw new UsageError('--max-body must be a positive number of bytes');
  const unknown = flags.events?.find((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown) throw new UsageError(`--events: unknown event type ${JSON.stringify(unknown)}; known: ${EVENT_TYPES.join(', ')}`);
  if (flags.forwardTo) checkUrl(flags.forwardTo, '--forward-to');
  const secret = await webhookSecret(ctx);
  const { startReceiver } = await import('../../webhooks/receiver.js');
  if (flags.queueSize !== undefined && !(Number.isInteger(flags.queueSize) && flags.queueSize > 0))
    throw new UsageError('--queue-size must be a whole number, 1 or more');
  if (flags.forwardTimeout !== undefined && !(flags.forwardTimeout > 0)) throw new UsageError('--forward-timeout must be a positive number of seconds');
  const counts = { total: 0, valid: 0, invalid: 0, duplicate: 0, outOfOrder: 0 };
  const receiver = await startReceiver({
    port: flags.port,
    secret: secret.value,
    maxBody: flags.maxBody,
    events: flags.events,
    forwardTo: flags.forwardTo,
    queueSize: flags.queueSize,
    forwardTimeoutMs: flags.forwardTimeout === undefined ? undefined : flags.forwardTimeout * 1000,
    savePath: flags.save,
    now: () => ctx.clock.now(),
    onNotice: (line) => ctx.info(line),
    onForward: (report) => ctx.info(forwardLine(report)),
    onEvent: (event) => {
      counts.total++;
      counts[event.valid ? 'valid' : 'invalid']++;
      if (event.duplicate) counts.duplicate++;
      if (event.out_of_order) counts.outOfOrder++;
      const time = new Date(ctx.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
      writeRecord(ctx, { time, ...event }, () => `${time}  ${eventLine(event)}`, { log: true });
    },
  });
  ctx.info(
    `Listening on ${receiver.url} (checking ${'X-Platform-Signature'} with ${secret.name}${flags.forwardTo ? `, forwarding to ${flags.forwardTo}` : ''}${flags.save ? `, saving to ${flags.save}` : ''}). Ctrl-C stops.`,
  );
  let stopped: Promise<{ notForwarded: number }>;
  try {
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) return resolve();
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    stopped = receiver.close();
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

export function eventLine(e: ReceivedEvent): string {
  const cells = [e.valid ? 'valid' : 'invalid', e.event_type ?? '-', e.resource_id ?? '-', e.status ?? '-', e.event_id ?? '-'];
  let line = cells.join('  ');
  if (e.duplicate) line += '  duplicate (ignored)';
  if (e.out_of_order) line += `  out of order (keeping ${e.latest})`;
  if (e.reason) line += `  (${e.reason})`;
  return line;
}
