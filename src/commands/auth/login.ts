// `platform auth login`: the browser sign-in (authorization code, loopback listener,
// PKCE) by default; --client-credentials for an application acting for itself; --with-token
// stores a token read from stdin (./with-token.ts).
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { clientIdOf, clientSecretOf } from '../../config/resolve.js';
import { checkUrl } from '../url.js';
import { AUTHORIZE_PATH } from '../../schemas/oauth.js';
import { SANDBOX_DEFAULT_URL, SANDBOX_DEMO_CLIENT_ID } from '../../schemas/sandbox.js';
import type { AuthLoginFlags } from './spec.js';
import { chooseSecretsPlace, secureStorageMode } from './storage-choice.js';
import { KeyringUnavailableError } from '../../config/secret-store.js';
import type { Profile } from '../../config/profile.js';
import { chooseDefault } from './choose-default.js';
import { removedIfFailed } from './failed-login.js';

/** What the browser sign-in asks for unless --scopes says otherwise: who you are, rides, ads. */
export const DEFAULT_LOGIN_SCOPES = [
  'profile',
  'request',
  'ads.ad-accounts.read',
  'ads.campaigns.read',
  'ads.campaigns.write',
  'ads.reporting',
  'ads.products.read',
];

export async function run(ctx: Context, flags: AuthLoginFlags): Promise<void> {
  if (flags.withToken) return (await import('./with-token.js')).run(ctx, flags);
  // A new profile that the login does not end with a token is removed again, with the secret stored for it (failed-login.ts).
  const { name } = await ctx.profile();
  return removedIfFailed(await ctx.config(), name, () => login(ctx, flags));
}

async function login(ctx: Context, flags: AuthLoginFlags): Promise<void> {
  const store = await ctx.config();
  const { name } = await ctx.profile();
  // The first profile stored becomes the default; later ones only with --set-default.
  const first = store.storedProfileNames().every((stored) => stored === name);
  const existing = (await storedWithSecrets(store, name)) ?? {};
  const storage = secureStorageMode(ctx, existing, flags.secureStorage);
  const baseUrl = flags.baseUrl ?? existing.base_url ?? SANDBOX_DEFAULT_URL;
  checkUrl(baseUrl, '--base-url');
  // A profile of the local sandbox signs in with the sandbox's built-in app unless told otherwise,
  // as `local` does: its id and secret are public and grant nothing outside the sandbox.
  const ofSandbox = baseUrl === SANDBOX_DEFAULT_URL;
  const clientId = clientIdOf(ctx.env, existing, flags.clientId)?.value ?? (ofSandbox ? SANDBOX_DEMO_CLIENT_ID : undefined);
  if (!clientId) throw new UsageError(`--client-id is required to create profile ${name} (or set PLATFORM_CLIENT_ID)`);
  // Kept apart from base_url only when given (or already stored): they default to it.
  const hosts = { auth_url: flags.authUrl ?? existing.auth_url, rider_url: flags.riderUrl ?? existing.rider_url };
  if (hosts.auth_url) checkUrl(hosts.auth_url, '--auth-url');
  if (hosts.rider_url) checkUrl(hosts.rider_url, '--rider-url');
  const scopes = flags.scopes?.flatMap((s) => s.split(/\s+/)).filter(Boolean);
  // Check the browser flags before asking for anything.
  const browserFlags = flags.clientCredentials ? undefined : await parseBrowserFlags(flags);
  // Where the secrets go is settled before any is asked for: `require` without a keyring stops here.
  const { place: secrets, warning } = await chooseSecretsPlace(store, name, storage);
  // The stored secret belongs to the stored client id only.
  let secret = clientSecretOf(ctx.env, clientId === existing.client_id ? existing : undefined, name)?.value;
  if (!secret && ofSandbox) secret = await sandboxClientSecret(clientId);
  if (!secret) {
    if (!ctx.io.stdinIsTTY) throw new UsageError('no client secret: set PLATFORM_CLIENT_SECRET, or run in a terminal to be asked for it');
    secret = await ctx.promptSecret(`Client secret for ${clientId}`);
  }
  if (!browserFlags) {
    await store.updateProfile(name, {
      base_url: baseUrl,
      ...hosts,
      client_id: clientId,
      client_secret: secret,
      secrets,
      scopes: scopes?.length ? scopes : undefined,
      token: undefined,
      user: undefined,
    });
    const client = await ctx.client();
    const token = await client.tokens.clientCredentials(ctx.signal, scopes);
    await chooseDefault(ctx, name, flags.setDefault || first);
    ctx.info(`Logged in to profile ${name} (${client.http.baseUrl}) with the client-credentials grant.`);
    ctx.info(`Scopes: ${token.scope || '(none)'}; the token expires ${new Date(token.expires_at).toISOString()}.`);
    if (warning) ctx.info(warning);
    return;
  }

  // A sign-in again without --scopes asks for what the last one asked for, so that the short
  // `platform auth login --profile NAME` the hints name loses no scope.
  const remembered = existing.grant === 'authorization_code' && existing.scopes?.length ? existing.scopes : undefined;
  // The previous sign-in stays until a new one succeeds: a denied or abandoned login logs nobody out.
  await store.updateProfile(name, { base_url: baseUrl, ...hosts, client_id: clientId, client_secret: secret, secrets });
  const [client, { signInWithBrowser }, { fetchUser, ME_SCOPES }, { describeUser }] = await Promise.all([
    ctx.client(),
    import('../../auth/browser-login.js'),
    import('../../auth/whoami.js'),
    import('../../auth/user-label.js'),
  ]);
  const signedIn = await signInWithBrowser(
    ctx,
    {
      authorizeUrl: (query) => client.authHttp.url(AUTHORIZE_PATH, query),
      clientId,
      scopes: scopes?.length ? scopes : (remembered ?? DEFAULT_LOGIN_SCOPES),
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
          user = await fetchUser(client.riderHttp, ctx.signal);
        } catch (error) {
          ctx.info(`Signed in, but who could not be read from /v1.2/me: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      await store.updateProfile(name, { user, scopes: scopes?.length ? scopes : remembered });
      return { result: { token, user }, who: describeUser(user) };
    },
  );
  await chooseDefault(ctx, name, flags.setDefault || first);
  const { token, user } = signedIn;
  const who = describeUser(user);
  ctx.info(`✓ Signed in to profile ${name} (${client.http.baseUrl})${who ? ` as ${who}` : ' (the profile scope was not granted, so who is unknown)'}.`);
  ctx.info(`Scopes: ${token.scope || '(none)'}.`);
  ctx.info(`The token expires ${new Date(token.expires_at).toISOString()}${token.refresh_token ? ' and is renewed automatically' : ''}.`);
  if (warning) ctx.info(warning);
}

async function parseBrowserFlags(flags: AuthLoginFlags): Promise<{ callbackPort: number; noBrowser: boolean; timeoutMs: number }> {
  const { parseDuration } = await import('../../auth/duration.js');
  const callbackPort = flags.callbackPort ?? 0;
  if (!Number.isInteger(callbackPort) || callbackPort < 0 || callbackPort > 65535) {
    throw new UsageError(`--callback-port must be a port number, 0-65535 (0: any free port)`);
  }
  return { callbackPort, noBrowser: flags.browser === false, timeoutMs: parseDuration(flags.timeout ?? '5m', '--timeout') };
}

/** The stored profile with its secrets; when its keyring does not answer, without them (they are asked for again). */
async function storedWithSecrets(store: Awaited<ReturnType<Context['config']>>, name: string): Promise<Profile | undefined> {
  try {
    return await store.getProfileWithSecrets(name);
  } catch (error) {
    if (error instanceof KeyringUnavailableError) return store.getProfile(name);
    throw error;
  }
}

/** The secret of one of the sandbox's built-in apps (public, like the app itself); undefined for any other client. */
async function sandboxClientSecret(clientId: string): Promise<string | undefined> {
  const { findClient } = await import('../../sandbox/clients.js');
  return findClient(clientId)?.client_secret;
}
