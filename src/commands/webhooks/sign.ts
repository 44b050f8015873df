// `platform webhooks sign [FILE|-]`: print the X-Platform-Signature of a body (the bare hex,
// for `$(...)`; with -o json, a record naming the secret used and the body's size).
import type { Context } from '../../context.js';
import { sign } from '../../webhooks/hmac.js';
import { writeRecord } from '../../output/records.js';
import { readBodyArgument } from '../input.js';
import { webhookSecret } from './secret.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const body = await readBodyArgument(ctx, args[0], 'Usage: platform webhooks sign [FILE|-]');
  const secret = await webhookSecret(ctx);
  const signature = sign(body, secret.value);
  writeRecord(ctx, { signature, secret: secret.name, body_bytes: body.byteLength }, () => signature);
}
