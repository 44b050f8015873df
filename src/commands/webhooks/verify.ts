// `platform webhooks verify [FILE|-] --signature HEX`: exit 0 valid, 1 invalid (saying why), 2 unusable input.
import type { Context } from '../../context.js';
import { CommandError, UsageError } from '../../errors.js';
import { parseSignature, verify } from '../../webhooks/signature.js';
import { readBodyArgument } from '../input.js';
import { webhookSecret } from './secret.js';

export async function run(ctx: Context, flags: { signature: string }, args: string[]): Promise<void> {
  const secret = webhookSecret(ctx);
  const signature = parseSignature(flags.signature);
  if (!signature) {
    throw new UsageError(`--signature must be 64 hexadecimal digits (the X-Platform-Signature value), not ${JSON.stringify(flags.signature.slice(0, 80))}`);
  }
  const body = await readBodyArgument(ctx, args[0], 'Usage: platform webhooks verify [FILE|-] --signature HEX');
  const verdict = verify(body, secret, signature);
  if (!verdict.valid) throw new CommandError(`invalid signature: ${verdict.reason}`);
  ctx.io.stdout.write(`valid signature (HMAC-SHA256 of ${body.byteLength} bytes)\n`);
}
