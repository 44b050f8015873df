// The signing key of webhook deliveries is the application's client secret (spec 6.3.2).
// It comes from PLATFORM_WEBHOOK_SECRET, else the client secret of the profile
// (PLATFORM_CLIENT_SECRET over the stored one), else a hidden prompt; never from the command
// line. Secrets are passed around with a name for messages and are never printed.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { clientSecretOf, sourceText } from '../../config/resolve.js';
import { unknownProfile } from '../config/profile.js';
import type { NamedSecret } from '../../webhooks/diagnose.js';

export const WEBHOOK_SECRET_ENV = 'PLATFORM_WEBHOOK_SECRET';

/** The secrets available without asking, in order of precedence. */
async function available(ctx: Context, includeProfile: boolean): Promise<NamedSecret[]> {
  const found: NamedSecret[] = [];
  if (ctx.env[WEBHOOK_SECRET_ENV]) found.push({ name: WEBHOOK_SECRET_ENV, value: ctx.env[WEBHOOK_SECRET_ENV] });
  if (!includeProfile) return found;
  const [store, choice] = await Promise.all([ctx.config(), ctx.profile()]);
  const name = choice.name;
  const profile = store.getProfile(name);
  // A profile named by --profile or PLATFORM_PROFILE that does not exist is a typo, not "no secret".
  if (!profile && choice.source.kind !== 'default') throw unknownProfile(store, name, true);
  // Both the environment's and the stored secret are worth naming when a signature does not match.
  for (const secret of [clientSecretOf(ctx.env, undefined, name), clientSecretOf({}, profile, name)]) {
    if (secret) found.push({ name: sourceText(secret.source), value: secret.value });
  }
  return found;
}

/** The secret to sign or verify with. */
export async function webhookSecret(ctx: Context): Promise<NamedSecret> {
  const fromEnv = await available(ctx, false);
  if (fromEnv[0]) return fromEnv[0];
  const all = await available(ctx, true);
  if (all[0]) return all[0];
  if (!ctx.io.stdinIsTTY) {
    throw new UsageError(`no webhook secret: set ${WEBHOOK_SECRET_ENV} (the client secret of the application), or use a profile that has a client secret`);
  }
  return { name: 'the secret typed at the prompt', value: await ctx.promptSecret('Webhook secret (the client secret of the application)') };
}

/** Other secrets worth trying when a signature does not match (named, never shown). */
export async function otherSecrets(ctx: Context, inUse: NamedSecret): Promise<NamedSecret[]> {
  try {
    return (await available(ctx, true)).filter((s) => s.value !== inUse.value);
  } catch {
    return []; // an unreadable config only means fewer guesses
  }
}
