// `webhooks listen --since DURATION`: before live deliveries, replay the ones missed while no
// listener ran, in order, through the receiver (verified, de-duplicated, forwarded, shown
// and marked catch-up). From the sandbox's delivery log (events never accepted); against a
// real account, which keeps no such log for us, from this machine's inbox (deliveries that
// no forward got a 2xx for).
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { clientIdOf } from '../../config/resolve.js';
import { parseDuration } from '../../auth/duration.js';
import type { CaughtUpDelivery, Receiver } from '../../webhooks/receiver.js';
import type { InboxRecord } from '../../webhooks/inbox/store.js';

/** The start of the span, in ms since the epoch (a usage error names --since). */
export function sinceOf(ctx: Context, since: string): number {
  return ctx.clock.now() - parseDuration(since, '--since');
}

/** `captured` reads this machine's inbox (the running one's, or its file). */
export async function catchUp(ctx: Context, receiver: Receiver, sinceMs: number, inboxFile: string, captured: () => InboxRecord[]): Promise<void> {
  const from = new Date(sinceMs).toISOString();
  const [store, { name }] = await Promise.all([ctx.config(), ctx.profile()]);
  const clientId = clientIdOf(ctx.env, store.getProfile(name))?.value;
  let deliveries: CaughtUpDelivery[] | undefined;
  let source = '';
  if (clientId) {
    const { sandboxDeliveryLog } = await import('../../api/sandbox-webhook-log.js');
    const client = await ctx.client();
    const log = await sandboxDeliveryLog(client.riderHttp, clientId, sinceMs, ctx.signal);
    if (log) {
      deliveries = log.filter((d) => !d.delivered && d.headers.length).map((d) => ({ headers: d.headers, body: Buffer.from(d.body_base64, 'base64') }));
      source = `the sandbox's delivery log of ${clientId}`;
    }
  }
  if (!deliveries) {
    const { missedInStore } = await import('../../webhooks/inbox/missed.js');
    let records;
    try {
      records = missedInStore(captured(), sinceMs);
    } catch (error) {
      throw new UsageError(`--since: cannot read this machine's inbox ${inboxFile}: ${(error as Error).message}`);
    }
    deliveries = records.map((r) => ({ method: r.method, path: r.path, headers: r.headers, body: Buffer.from(r.body_base64, 'base64') }));
    source = `this machine's inbox (${inboxFile}; no sandbox delivery log${clientId ? ` for ${clientId}` : ': the profile has no client id'})`;
  }
  ctx.info(`Catching up: ${deliveries.length} ${deliveries.length === 1 ? 'delivery' : 'deliveries'} missed since ${from}, from ${source}.`);
  for (const delivery of deliveries) {
    if (ctx.signal.aborted) return;
    await receiver.catchUp(delivery);
  }
  if (deliveries.length) ctx.info('Caught up; now live.');
}
