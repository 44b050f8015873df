// `platform auth login --with-token`: an access token you already have (CI, containers), read
// from stdin, never from an argument (arguments show in `ps` and shell history), or typed at
// a hidden prompt in a terminal. The server is asked once whether it takes the token before
// it is stored, so a login with a bad token logs nobody out. Nothing renews such a token:
// when it is refused, the advice is this login again (../advice.ts).
import type { Context } from '../../context.js';
import { AuthError, CommandError, UsageError } from '../../base/errors.js';
import { UNKNOWN_EXPIRY, type ProfileUser } from '../../config/profile.js';
import { SANDBOX_DEFAULT_URL } from '../../schemas/sandbox.js';
import { checkUrl } from '../url.js';
import { loginCommand } from '../advice.js';
import type { AuthLoginFlags } from './spec.js';
import { chooseSecretsPlace, secureStorageMode } from './storage-choice.js';
import { chooseDefault } from './choose-default.js';
import { removedIfFailed } from './failed-login.js';

/** Longer than any bearer token (a JWT with many claims is a few KiB): more is not a token. */
const MAX_TOKEN_BYTES = 16 << 10;
/** RFC 6750's b64token: what an Authorization: Bearer header may carry. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const USAGE = 'pipe the token in, e.g. `platform auth login --with-token < token.txt`, or type it at the prompt in a terminal';

export async function run(ctx: Context, flags: AuthLoginFlags): Promise<void> {
  refuseOtherGrants(flags);
  // A new profile that the login does not end with a token is removed again (failed-login.ts).
  const store = await ctx.config();
  const { name } = await ctx.profile();
  const created = store.getProfile(name) === undefined;
  return removedIfFailed(store, name, () => login(ctx, flags, created));
}

/** `created`: the profile is new (not stored, not built in), so a refusal leaves none. */
async function login(ctx: Context, flags: AuthLoginFlags, created: boolean): Promise<void> {
  const store = await ctx.config();
  const { name } = await ctx.profile();
  const first = store.storedProfileNames().every((stored) => stored === name);
  const existing = store.getProfile(name) ?? {};
  const storage = secureStorageMode(ctx, existing, flags.secureStorage);
  const baseUrl = flags.baseUrl ?? existing.base_url ?? SANDBOX_DEFAULT_URL;
  checkUrl(baseUrl, '--base-url');
  const hosts = { auth_url: flags.authUrl ?? existing.auth_url, rider_url: flags.riderUrl ?? existing.rider_url };
  if (hosts.auth_url) checkUrl(hosts.auth_url, '--auth-url');
  if (hosts.rider_url) checkUrl(hosts.rider_url, '--rider-url');
  const token = await readToken(ctx);
  // Where the secrets go is settled before anything is stored: `require` without a keyring stops here.
  const { place: secrets, warning } = await chooseSecretsPlace(store, name, storage);

  // The profile's addresses are stored first (a new profile is asked through them); its tokens stay until the new one is accepted.
  await store.updateProfile(name, { base_url: baseUrl, ...hosts, secrets });
  const client = await ctx.clientOf(name, { ...ctx.env, PLATFORM_TOKEN: token });
  const [{ checkToken }, { REFRESH_MARGIN_MS }] = await Promise.all([import('../../auth/token-check.js'), import('../../auth/token-source.js')]);
  const check = await checkToken({
    tokens: client.tokens,
    ads: client.http,
    rider: client.riderHttp,
    stored: undefined,
    marginMs: REFRESH_MARGIN_MS,
    now: ctx.clock.now(),
    signal: ctx.signal,
  });
  const kept = `the token was not stored, and profile ${name} ${created ? 'was not created' : 'keeps what it had'}`;
  if (check.state === 'unreachable') throw new CommandError(`could not check the token with the server: ${check.detail}; ${kept}`);
  if (check.state === 'unknown') throw new CommandError(`the server's answer does not say whether the token works (${check.detail}); ${kept}`);
  if (check.state !== 'valid') throw new AuthError(`the server refused the token read from stdin; ${kept}`);

  const user = await whoseToken(ctx, client.riderHttp);
  await store.updateProfile(name, {
    secrets,
    grant: 'token',
    token: { access_token: token, token_type: 'Bearer', expires_at: UNKNOWN_EXPIRY, scope: '', grant: 'token' },
    scopes: undefined,
    user,
  });
  await chooseDefault(ctx, name, flags.setDefault || first);
  const { describeUser } = await import('../../auth/user-label.js');
  const who = describeUser(user);
  ctx.info(
    `✓ Stored the token for profile ${name} (${client.http.baseUrl}): the server accepted it (${check.detail}); ${who ? `it acts for ${who}` : 'it acts for no user (/v1.2/me did not answer for it: an application token, or no profile scope)'}.`,
  );
  ctx.info(`Nothing renews it: when it expires or is refused, run \`${loginCommand({ profile: name, grant: 'token' })}\` with a new one.`);
  if (warning) ctx.info(warning);
}

/** --with-token is a grant of its own: the flags of the others would be silently ignored. */
function refuseOtherGrants(flags: AuthLoginFlags): void {
  const given: Array<[unknown, string]> = [
    [flags.clientCredentials, '--client-credentials'],
    [flags.clientId, '--client-id'],
    [flags.scopes, '--scopes'],
    [flags.callbackPort, '--callback-port'],
    [flags.browser === false, '--no-browser'],
    [flags.loginHint, '--login-hint'],
    [flags.consent, '--consent'],
  ];
  const other = given.find(([value]) => value !== undefined && value !== false);
  if (other) throw new UsageError(`--with-token cannot be used with ${other[1]}: the token is stored as it is, with no sign-in`);
}

/** The token from stdin: piped (up to EOF) or typed at a hidden prompt; never echoed, never in a message. */
async function readToken(ctx: Context): Promise<string> {
  let text: string;
  if (ctx.io.stdinIsTTY) {
    text = await ctx.promptSecret('Access token');
  } else {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.io.stdin) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += bytes.length;
      if (size > MAX_TOKEN_BYTES) throw new UsageError(`stdin holds more than ${MAX_TOKEN_BYTES >> 10} KiB, which is no access token; ${USAGE}`);
      chunks.push(bytes);
    }
    text = Buffer.concat(chunks).toString('utf8');
  }
  const token = text.trim();
  if (!token) throw new UsageError(`--with-token read no token from stdin: ${USAGE}`);
  if (!BEARER_TOKEN.test(token)) {
    throw new UsageError('--with-token: stdin must hold one access token on one line (letters, digits and -._~+/=, as RFC 6750 allows)');
  }
  return token;
}

/** Who the token acts for (GET /v1.2/me); undefined when it acts for no user or does not say. */
async function whoseToken(ctx: Context, rider: Awaited<ReturnType<Context['client']>>['riderHttp']): Promise<ProfileUser | undefined> {
  const { fetchUser } = await import('../../auth/whoami.js');
  try {
    return await fetchUser(rider, ctx.signal);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return undefined;
  }
}
