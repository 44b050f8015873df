// `platform webhooks replay --to URL [FILE|-]`: resend captured deliveries (or hand-written
// events), re-signed, in order, each retried a few times. One line per event; exit 1 when any
// was not delivered.
import type { Context } from '../../context.js';
import { PartialFailureError, UsageError } from '../../base/errors.js';
import { parseReplayInput, ReplayInputError } from '../../webhooks/capture.js';
import { readEventFields } from '../../webhooks/events.js';
import { sendSigned } from '../../webhooks/send.js';
import { readBodyArgument } from '../input.js';
import { deliveryAuthorizer, deliverySettings, printDelivery, retryPrinter, type DeliveryFlags } from './delivery-flags.js';
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
  // Through HTTPS_PROXY/HTTP_PROXY/NO_PROXY and --ca-file, as every API call goes.
  const transport = await ctx.httpTransport();
  const authorizer = await deliveryAuthorizer(ctx, flags, transport, settings.timeoutMs);
  let failed = 0;
  for (const item of items) {
    const fields = readEventFields(item.body);
    const label = { event_id: fields?.event_id, event_type: fields?.event_type, origin: item.origin };
    const result = await sendSigned({
      ...settings,
      body: item.body,
      headers: item.headers,
      secret: secret.value,
      transport,
      authorizer,
      sleep: (ms, signal) => ctx.clock.sleep(ms, signal),
      signal: ctx.signal,
      onAttempt: retryPrinter(ctx, label),
    });
    if (!printDelivery(ctx, label, result)) failed++;
  }
  if (failed) throw new PartialFailureError(`${failed} of ${items.length} deliveries not delivered to ${settings.url}`);
  ctx.info(`${items.length} deliveries accepted by ${settings.url}`);
}
