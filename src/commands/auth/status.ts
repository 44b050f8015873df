// `platform auth status`: every profile as the config has it (offline), and with --check what
// the server says of each token now.
import type { Context } from '../../context.js';
import { unknownProfile } from '../config/profile.js';
import { authUrlOf, baseUrlOf, clientIdOf, clientSecretOf, riderUrlOf, sourceText, type Sourced } from '../../config/resolve.js';
import type { Column, View } from '../../output/columns.js';
import { writeRows } from '../../output/rows.js';
import { describeUser } from '../../auth/user-label.js';
import type { Env } from '../../base/io.js';
import type { CheckState } from '../../auth/token-check.js';
import { AuthError, CommandError } from '../../base/errors.js';
import { loginCommand } from '../advice.js';
import { secretsPlaceOf } from '../../config/secret-store.js';
import type { AuthStatusFlags } from './spec.js';

interface ProfileStatus {
  profile: string;
  active: boolean;
  /** Why the active profile is the one in use: --profile, PLATFORM_PROFILE or the default; null for the others. */
  chosen_by: 'flag' | 'env' | 'default' | null;
  base_url: string;
  auth_url: string;
  rider_url: string;
  client_id: string;
  /** Who signed in with the browser (name and email), else empty. */
  user: string;
  grant: string;
  scopes: string[];
  expires_at: string | null;
  expired: boolean;
  /** A refresh token renews it on next use. */
  renewable: boolean;
  /** Where the credentials come from: env (PLATFORM_TOKEN/PLATFORM_CLIENT_SECRET), config, or none. */
  source: string;
  /** Where the profile's stored secrets are: keyring, file (the 0600 config file) or none; read from the reference, the keyring is not asked. */
  secrets: string;
}

/** A row of `auth status --check`: what the server said, and what to run when it is not valid. */
interface CheckedStatus extends ProfileStatus {
  /** null: not checked (another profile was named). */
  check: CheckState | null;
  check_detail: string;
  /** The command that makes the profile valid again; empty when it is. */
  fix: string;
}

/** Settings of the environment that override the profile in use only (README, Environment). */
const PER_COMMAND_OVERRIDES = [
  'PLATFORM_TOKEN',
  'PLATFORM_BASE_URL',
  'PLATFORM_AUTH_URL',
  'PLATFORM_RIDER_URL',
  'PLATFORM_CLIENT_ID',
  'PLATFORM_CLIENT_SECRET',
];

/** Expired, refused or signed out: `auth login` is what fixes them (exit 4). */
const NEEDS_LOGIN: ReadonlySet<CheckState> = new Set(['expired', 'refused', 'signed out']);

const CHOSEN_BY = { flag: '--profile', env: 'PLATFORM_PROFILE', default: 'default' } as const;

const view: View<ProfileStatus> = {
  noun: 'profiles',
  columns: [
    // The table keeps what a person scans for (it fits 80 columns); JSON and CSV carry all.
    {
      header: 'PROFILE',
      name: 'profile',
      csv: (p) => p.profile,
      table: (p) => (p.active ? `* ${p.profile} (${CHOSEN_BY[p.chosen_by ?? 'default']})` : `  ${p.profile}`),
      kind: 'id',
    },
    { header: 'ACTIVE', name: 'chosen_by', csv: (p) => p.chosen_by ?? '', csvOnly: true },
    { header: 'BASE URL', name: 'base_url', csv: (p) => p.base_url, table: (p) => p.base_url.replace(/^https?:\/\//, ''), priority: 2 },
    { header: 'AUTH URL', name: 'auth_url', csv: (p) => p.auth_url, csvOnly: true },
    { header: 'RIDER URL', name: 'rider_url', csv: (p) => p.rider_url, csvOnly: true },
    { header: 'CLIENT', name: 'client_id', csv: (p) => p.client_id, csvOnly: true },
    { header: 'USER', name: 'user', csv: (p) => p.user, kind: 'text' },
    {
      header: 'GRANT',
      name: 'grant',
      csv: (p) => p.grant,
      table: (p) => (p.grant === 'authorization_code' ? 'browser' : p.grant === 'client_credentials' ? 'client' : p.grant),
      priority: 3,
    },
    { header: 'SCOPES', name: 'scopes', csv: (p) => p.scopes.join(' '), csvOnly: true },
    {
      header: 'EXPIRES',
      name: 'expires_at',
      csv: (p) => p.expires_at ?? '',
      table: (p) => (p.expires_at ? `${p.expires_at.slice(0, 16).replace('T', ' ')}${p.expired ? (p.renewable ? ' (renews)' : ' (expired)') : ''}` : '-'),
    },
    { header: 'SOURCE', name: 'source', csv: (p) => p.source, priority: 1 },
    { header: 'SECRETS', name: 'secrets', csv: (p) => p.secrets, priority: 1 },
  ],
};

const checkColumns: ReadonlyArray<Column<CheckedStatus>> = [
  { header: 'CHECK', name: 'check', csv: (p) => p.check ?? '', table: (p) => p.check ?? 'not checked' },
  { header: 'CHECK DETAIL', name: 'check_detail', csv: (p) => p.check_detail, csvOnly: true },
  { header: 'FIX', name: 'fix', csv: (p) => p.fix, csvOnly: true },
];
const checkedView: View<CheckedStatus> = { noun: 'profiles', columns: [...view.columns, ...checkColumns] };

export async function run(ctx: Context, flags: AuthStatusFlags): Promise<void> {
  const store = await ctx.config();
  const choice = await ctx.profile();
  // A profile named by --profile or PLATFORM_PROFILE that does not exist: said, not passed over (exit 2).
  if (choice.source.kind !== 'default' && !store.getProfile(choice.name)) throw unknownProfile(store, choice.name, true);
  const active = choice.name;
  // The environment as it applies to a profile: the per-command overrides reach only the one in use.
  const envOf = (name: string): Env => (name === active ? ctx.env : withoutOverrides(ctx.env));
  // --check asks first, so that the rows show the tokens it renewed or found dead. A profile
  // named with --profile or PLATFORM_PROFILE is the one checked; else every one.
  const checks = new Map<string, Check>();
  if (flags.check) {
    for (const name of store.profileNames())
      if (choice.source.kind === 'default' || name === active) checks.set(name, await checkProfile(ctx, name, envOf(name)));
  }
  const now = ctx.clock.now();
  const rows = store.profileNames().map((name): ProfileStatus => {
    const profile = store.getProfile(name)!;
    const envToken = name === active && ctx.env.PLATFORM_TOKEN;
    const token = profile.token;
    const env = envOf(name);
    return {
      profile: name,
      active: name === active,
      chosen_by: name === active ? choice.source.kind : null,
      base_url: baseUrlOf(env, profile)?.value ?? '',
      auth_url: authUrlOf(env, profile)?.value ?? '',
      rider_url: riderUrlOf(env, profile)?.value ?? '',
      client_id: clientIdOf(env, profile)?.value ?? '',
      user: envToken ? '' : describeUser(profile.user),
      grant: envToken ? 'token' : (token?.grant ?? profile.grant ?? ''),
      scopes: envToken ? [] : (token?.scope.split(' ').filter(Boolean) ?? profile.scopes ?? []),
      // A token given with --with-token has no known expiry.
      expires_at: envToken || !token || token.grant === 'token' ? null : new Date(token.expires_at).toISOString(),
      expired: Boolean(!envToken && token && token.expires_at <= now),
      renewable: Boolean(!envToken && (token?.refresh_token || profile.keyring_secrets?.includes('refresh_token'))),
      source: envToken
        ? 'env PLATFORM_TOKEN'
        : token
          ? 'config'
          : secretSource(clientSecretOf(env, profile, name), profile.keyring_secrets?.includes('client_secret') ?? false),
      secrets: secretsPlaceOf(store.storedProfileNames().includes(name) ? profile : undefined),
    };
  });
  if (!flags.check) {
    await writeRows(ctx, view, rows);
    ctx.info(`Config: ${store.path}`);
    ctx.info('Not checked with the server: a token listed here may have been revoked since. `platform auth status --check` asks it.');
    return;
  }

  const checked = rows.map((row): CheckedStatus => ({ ...row, ...(checks.get(row.profile) ?? { check: null, check_detail: '', fix: '' }) }));
  await writeRows(ctx, checkedView, checked);
  ctx.info(`Config: ${store.path}`);
  for (const row of checked) {
    if (row.check === 'valid') ctx.info(`Profile ${row.profile}: valid, scopes ${row.scopes.join(' ') || '(not known)'} (${row.check_detail}).`);
    else if (row.check) ctx.info(`Profile ${row.profile}: ${row.check} (${row.check_detail}).${row.fix ? ` Run \`${row.fix}\`.` : ''}`);
  }
  const needLogin = checked.filter((row) => row.check && NEEDS_LOGIN.has(row.check)).map((row) => row.profile);
  if (needLogin.length) throw new AuthError(`not signed in: ${needLogin.join(', ')} (the command to run for each is above)`);
  const unanswered = checked.filter((row) => row.check === 'unreachable' || row.check === 'unknown').map((row) => row.profile);
  if (unanswered.length) throw new CommandError(`the server could not say whether these tokens work: ${unanswered.join(', ')}`);
}

type Check = Pick<CheckedStatus, 'check' | 'check_detail' | 'fix'>;

/** Asks the server about one profile's token; says what to run when it is not valid. */
async function checkProfile(ctx: Context, name: string, env: Env): Promise<Check> {
  const [{ checkToken }, { REFRESH_MARGIN_MS }, store] = await Promise.all([
    import('../../auth/token-check.js'),
    import('../../auth/token-source.js'),
    ctx.config(),
  ]);
  const envToken = Boolean(env.PLATFORM_TOKEN);
  const client = await ctx.clientOf(name, env);
  const result = await checkToken({
    tokens: client.tokens,
    ads: client.http,
    rider: client.riderHttp,
    stored: envToken ? undefined : store.getProfile(name)?.token,
    marginMs: REFRESH_MARGIN_MS,
    now: ctx.clock.now(),
    signal: ctx.signal,
  });
  const fix = !NEEDS_LOGIN.has(result.state) ? '' : envToken ? 'unset PLATFORM_TOKEN' : loginCommand({ profile: name, grant: client.tokens.grant });
  // The fix is given once, on its own: the auth layer's own "Run `...`" is left out of the detail.
  return { check: result.state, check_detail: result.detail.replace(/\.? Run `[^`]*`.*$/, ''), fix };
}

function withoutOverrides(env: Env): Env {
  const rest = { ...env };
  for (const name of PER_COMMAND_OVERRIDES) delete rest[name];
  return rest;
}

/** Where a profile without a token would get its credentials. */
function secretSource(secret: Sourced | undefined, inKeyring: boolean): string {
  if (secret?.source.kind === 'env') return sourceText(secret.source, 'label');
  return secret || inKeyring ? 'config (secret only)' : 'none';
}
