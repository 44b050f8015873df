// `platform webhooks trigger EVENT_TYPE --to URL [--resource-id ID] [--status S]`: send one
// valid, signed event of that type with a fresh event_id and event_time.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { CommandError, UsageError } from '../../base/errors.js';
import { SANDBOX_DEFAULT_URL } from '../../schemas/sandbox.js';
import { buildEvent, eventBody, EVENT_TYPES, type EventType } from '../../webhooks/events.js';
import { sendSigned } from '../../webhooks/send.js';
import { deliveryAuthorizer, deliverySettings, printDelivery, retryPrinter } from './delivery-flags.js';
import type { WebhooksTriggerFlags } from './spec.js';
import { webhookSecret } from './secret.js';

export async function run(ctx: Context, flags: WebhooksTriggerFlags, args: string[]): Promise<void> {
  const type = args[0];
  if (!type || !(EVENT_TYPES as readonly string[]).includes(type)) {
    throw new UsageError(`unknown event type ${JSON.stringify(type ?? '')}; one of: ${EVENT_TYPES.join(', ')}`);
  }
  if (flags.status !== undefined && !/^[a-z_]+$/.test(flags.status))
    throw new UsageError(`--status must be a status name such as accepted or completed, not ${JSON.stringify(flags.status)}`);
  const settings = deliverySettings(flags);
  const secret = await webhookSecret(ctx);
  // Through HTTPS_PROXY/HTTP_PROXY/NO_PROXY and --ca-file, as every API call goes.
  const transport = await ctx.httpTransport();
  const authorizer = await deliveryAuthorizer(ctx, flags, transport, settings.timeoutMs);
  const event = buildEvent({
    type: type as EventType,
    resourceId: flags.resourceId ?? randomUUID(),
    status: flags.status,
    userId: flags.userId ?? randomUUID(),
    baseUrl: ctx.env.PLATFORM_BASE_URL || SANDBOX_DEFAULT_URL,
    now: ctx.clock.now(),
  });
  const body = eventBody(event);
  ctx.info(`sending ${event.event_type} ${event.event_id} (resource ${event.meta.resource_id}, status ${event.meta.status}) to ${settings.url}`);
  const label = { event_id: event.event_id, event_type: event.event_type, origin: 'trigger' };
  const result = await sendSigned({
    ...settings,
    body,
    secret: secret.value,
    transport,
    authorizer,
    sleep: (ms, signal) => ctx.clock.sleep(ms, signal),
    signal: ctx.signal,
    onAttempt: retryPrinter(ctx, label),
  });
  if (!printDelivery(ctx, label, result)) throw new CommandError(`${event.event_type} ${event.event_id} was not delivered to ${settings.url}`);
}
