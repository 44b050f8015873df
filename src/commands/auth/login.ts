import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { activeProfile } from '../../factory.js';
import { SANDBOX_DEFAULT_URL } from '../../schemas/sandbox.js';

interface Flags {
  clientCredentials?: boolean;
  clientId?: string;
  scopes?: string[];
  baseUrl?: string;
}

export async function run(ctx: Context, flags: Flags): Promise<void> {
  if (!flags.clientCredentials) {
    throw new UsageError('the browser sign-in is not available in this version; use `platform auth login --client-credentials`');
  }
  const store = await ctx.config();
  const name = activeProfile(ctx, store);
  const existing = store.getProfile(name) ?? {};
  const clientId = flags.clientId ?? ctx.env.PLATFORM_CLIENT_ID ?? existing.client_id;
  if (!clientId) throw new UsageError(`--client-id is required to create profile ${name} (or set PLATFORM_CLIENT_ID)`);
  let secret = ctx.env.PLATFORM_CLIENT_SECRET || (clientId === existing.client_id ? existing.client_secret : undefined);
  if (!secret) {
    if (!ctx.io.stdinIsTTY) throw new UsageError('no client secret: set PLATFORM_CLIENT_SECRET, or run in a terminal to be asked for it');
    secret = await ctx.promptSecret(`Client secret for ${clientId}`);
  }
  const baseUrl = flags.baseUrl ?? existing.base_url ?? SANDBOX_DEFAULT_URL;
  try {
    new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url: "${baseUrl}" is not a URL`);
  }
  const scopes = flags.scopes?.flatMap((s) => s.split(/\s+/)).filter(Boolean);
  store.updateProfile(name, { base_url: baseUrl, client_id: clientId, client_secret: secret, scopes: scopes?.length ? scopes : undefined, token: undefined });
  const client = await ctx.client();
  const token = await client.tokens.clientCredentials(ctx.signal, scopes);
  store.defaultProfile = name;
  ctx.info(`Logged in to profile ${name} (${baseUrl}) with the client-credentials grant.`);
  ctx.info(`Scopes: ${token.scope || '(none)'}; the token expires ${new Date(token.expires_at).toISOString()}.`);
}
