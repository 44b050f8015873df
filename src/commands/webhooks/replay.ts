// `platform webhooks replay --to URL [FILE|-]`: resend captured deliveries (or hand-written
// events), re-signed, in order, each retried per spec 6.3.3. Exit 1 when any was never accepted.
import type { Context } from '../../context.js';
import { PartialFailureError, UsageError } from '../../errors.js';
import { parseReplayInput, ReplayInputError } from '../../webhooks/capture.js';
import { readEventFields } from '../../webhooks/events.js';
import { sendSigned } from '../../webhooks/send.js';
import { readBodyArgument } from '../input.js';
import { attemptPrinter, deliverySettings, type DeliveryFlags } from './delivery-flags.js';
import { webhookSecret } from './secret.js';

export async function run(ctx: Context, flags: DeliveryFlags, args: string[]): Promise<void> {
  const settings = deliverySettings(flags);
  const input = await readBodyArgument(ctx, args[0], 'Usage: platform webhooks replay --to URL [FILE|-]');
  let items;
  try {
    items = parseReplayInput(input);
  } catch (error) {
    if (error instanceof ReplayInputError) throw new UsageError(`${args[0] && args[0] !== '-' ? args[0] : 'stdin'}: ${error.message}`);
    throw error;
  }
  const secret = await webhookSecret(ctx);
  let failed = 0;
  for (const item of items) {
    const fields = readEventFields(item.body);
    const result = await sendSigned({
      ...settings,
      body: item.body,
      headers: item.headers,
      secret: secret.value,
      sleep: (ms, signal) => ctx.clock.sleep(ms, signal),
      signal: ctx.signal,
      onAttempt: attemptPrinter(ctx, { event_id: fields?.event_id, event_type: fields?.event_type, origin: item.origin }),
    });
    if (!result.accepted) failed++;
  }
  if (failed) throw new PartialFailureError(`${failed} of ${items.length} deliveries were never accepted by ${settings.url}`);
  ctx.info(`${items.length} deliveries accepted by ${settings.url}`);
}
