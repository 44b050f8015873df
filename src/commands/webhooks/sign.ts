// `platform webhooks sign [FILE|-]`: print the X-Platform-Signature of a body.
import type { Context } from '../../context.js';
import { sign } from '../../webhooks/hmac.js';
import { readBodyArgument } from '../input.js';
import { webhookSecret } from './secret.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const body = await readBodyArgument(ctx, args[0], 'Usage: platform webhooks sign [FILE|-]');
  const secret = await webhookSecret(ctx);
  ctx.io.stdout.write(`${sign(body, secret.value)}\n`);
}
