// `platform auth login`: the browser sign-in (authorization code, loopback listener,
// PKCE) by default; --client-credentials for an application acting for itself.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { checkUrl } from '../url.js';
import { activeProfile } from '../../factory.js';
import { AUTHORIZE_PATH } from '../../schemas/oauth.js';
import { SANDBOX_DEFAULT_URL } from '../../schemas/sandbox.js';

interface Flags {
  clientCredentials?: boolean;
  clientId?: string;
  scopes?: string[];
  baseUrl?: string;
  callbackPort?: number;
  /** commander's --no-browser */
  browser?: boolean;
  timeout?: string;
  loginHint?: string;
  consent?: boolean;
}

/** What the browser sign-in asks for unless --scopes says otherwise: who you are, rides, ads. */
export const DEFAULT_LOGIN_SCOPES = ['profile', 'request', 'ads.ad-accounts.read', 'ads.campaigns.read', 'ads.campaigns.write'];

export async function run(ctx: Context, flags: Flags): Promise<void> {
  const store = await ctx.config();
  const name = activeProfile(ctx, store);
  const existing = store.getProfile(name) ?? {};
  const clientId = flags.clientId ?? ctx.env.PLATFORM_CLIENT_ID ?? existing.client_id;
  if (!clientId) throw new UsageError(`--client-id is required to create profile ${name} (or set PLATFORM_CLIENT_ID)`);
  const baseUrl = flags.baseUrl ?? existing.base_url ?? SANDBOX_DEFAULT_URL;
  checkUrl(baseUrl, '--base-url');
  const scopes = flags.scopes?.flatMap((s) => s.split(/\s+/)).filter(Boolean);
  // Check the browser flags before asking for anything.
  const browserFlags = flags.clientCredentials ? undefined : await parseBrowserFlags(flags);
  let secret = ctx.env.PLATFORM_CLIENT_SECRET || (clientId === existing.client_id ? existing.client_secret : undefined);
  if (!secret) {
    if (!ctx.io.stdinIsTTY) throw new UsageError('no client secret: set PLATFORM_CLIENT_SECRET, or run in a terminal to be asked for it');
    secret = await ctx.promptSecret(`Client secret for ${clientId}`);
  }
  if (!browserFlags) {
    await store.updateProfile(name, { base_url: baseUrl, client_id: clientId, client_secret: secret, scopes: scopes?.length ? scopes : undefined, token: undefined, user: undefined });
    const client = await ctx.client();
    const token = await client.tokens.clientCredentials(ctx.signal, scopes);
    await store.setDefaultProfile(name);
    ctx.info(`Logged in to profile ${name} (${baseUrl}) with the client-credentials grant.`);
    ctx.info(`Scopes: ${token.scope || '(none)'}; the token expires ${new Date(token.expires_at).toISOString()}.`);
    return;
  }

  // The previous sign-in stays until a new one succeeds: a denied or abandoned login logs nobody out.
  await store.updateProfile(name, { base_url: baseUrl, client_id: clientId, client_secret: secret });
  const [client, { signInWithBrowser }, { fetchUser, ME_SCOPES }, { describeUser }] = await Promise.all([
    ctx.client(),
    import('../../auth/browser-login.js'),
    import('../../auth/whoami.js'),
    import('../../auth/user-label.js'),
  ]);
  const signedIn = await signInWithBrowser(
    ctx,
    {
      authorizeUrl: (query) => client.http.url(AUTHORIZE_PATH, query),
      clientId,
      scopes: scopes?.length ? scopes : DEFAULT_LOGIN_SCOPES,
      loginHint: flags.loginHint,
      forceConsent: flags.consent,
      callbackPort: browserFlags.callbackPort,
      noBrowser: browserFlags.noBrowser,
      timeoutMs: browserFlags.timeoutMs,
      retryCommand: `platform auth login --profile ${name}`,
    },
    async (grant) => {
      const token = await client.tokens.authorizationCode(grant, ctx.signal);
      const granted = token.scope.split(' ');
      let user;
      if (granted.some((s) => ME_SCOPES.includes(s))) {
        try {
          user = await fetchUser(client.http, ctx.signal);
        } catch (error) {
          ctx.info(`Signed in, but who could not be read from /v1.2/me: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      await store.updateProfile(name, { user });
      return { result: { token, user }, who: describeUser(user) };
    },
  );
  await store.setDefaultProfile(name);
  const { token, user } = signedIn;
  const who = describeUser(user);
  ctx.info(`✓ Signed in to profile ${name} (${client.http.baseUrl})${who ? ` as ${who}` : ' (the profile scope was not granted, so who is unknown)'}.`);
  ctx.info(`Scopes: ${token.scope || '(none)'}.`);
  ctx.info(`The token expires ${new Date(token.expires_at).toISOString()}${token.refresh_token ? ' and is renewed automatically' : ''}.`);
}

async function parseBrowserFlags(flags: Flags): Promise<{ callbackPort: number; noBrowser: boolean; timeoutMs: number }> {
  const { parseDuration } = await import('../../auth/duration.js');
  const callbackPort = flags.callbackPort ?? 0;
  if (!Number.isInteger(callbackPort) || callbackPort < 0 || callbackPort > 65535) {
    throw new UsageError(`--callback-port must be a port number, 0-65535 (0: any free port)`);
  }
  return { callbackPort, noBrowser: flags.browser === false, timeoutMs: parseDuration(flags.timeout ?? '5m', '--timeout') };
}
