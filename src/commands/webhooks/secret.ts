import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

/** The signing secret: PLATFORM_WEBHOOK_SECRET, never a command-line argument. */
export function webhookSecret(ctx: Context): string {
  const secret = ctx.env.PLATFORM_WEBHOOK_SECRET;
  if (!secret) throw new UsageError('PLATFORM_WEBHOOK_SECRET is not set: export the webhook secret (the client secret of the application) to sign or verify');
  return secret;
}
