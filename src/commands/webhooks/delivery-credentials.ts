// The credentials of authenticated deliveries (spec 6.3 rule 5) as commands take them: a flag
// whose value is ID:SECRET, or @FILE holding it (so that it stays out of the shell's history
// and `ps`), else an environment variable. Never printed: messages name where it came from.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { parsePair } from '../../webhooks/delivery-auth.js';
import { readBytes } from '../input.js';

export const BASIC_AUTH_ENV = 'PLATFORM_WEBHOOK_BASIC_AUTH';
export const OAUTH_CLIENT_ENV = 'PLATFORM_WEBHOOK_OAUTH_CLIENT';

/** The pair from `flag`'s value (ID:SECRET or @FILE), else from `env`; undefined when neither is set. */
export async function credentialPair(ctx: Context, value: string | undefined, flag: string, env: string): Promise<{ id: string; secret: string } | undefined> {
  let text = value;
  let from = flag;
  if (text === undefined && ctx.env[env]) {
    text = ctx.env[env];
    from = env;
  } else if (text?.startsWith('@')) {
    text = (await readBytes(ctx, text.slice(1), flag)).toString('utf8').replace(/\r?\n$/, '');
    from = `${flag} (${value})`;
  }
  if (text === undefined) return undefined;
  const pair = parsePair(text, from);
  if (typeof pair === 'string') throw new UsageError(pair);
  return pair;
}
