import type { Context } from '../../context.js';
import { authUrlOf, baseUrlOf, clientIdOf, clientSecretOf, riderUrlOf } from '../../config/resolve.js';
import type { View } from '../../output/columns.js';
import { writeRows } from '../../output/rows.js';
import { describeUser } from '../../auth/user-label.js';

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
}

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
    },
    { header: 'ACTIVE', name: 'chosen_by', csv: (p) => p.chosen_by ?? '', csvOnly: true },
    { header: 'BASE URL', name: 'base_url', csv: (p) => p.base_url, table: (p) => p.base_url.replace(/^https?:\/\//, '') },
    { header: 'AUTH URL', name: 'auth_url', csv: (p) => p.auth_url, csvOnly: true },
    { header: 'RIDER URL', name: 'rider_url', csv: (p) => p.rider_url, csvOnly: true },
    { header: 'CLIENT', name: 'client_id', csv: (p) => p.client_id, csvOnly: true },
    { header: 'USER', name: 'user', csv: (p) => p.user },
    {
      header: 'GRANT',
      name: 'grant',
      csv: (p) => p.grant,
      table: (p) => (p.grant === 'authorization_code' ? 'browser' : p.grant === 'client_credentials' ? 'client' : p.grant),
    },
    { header: 'SCOPES', name: 'scopes', csv: (p) => p.scopes.join(' '), csvOnly: true },
    {
      header: 'EXPIRES',
      name: 'expires_at',
      csv: (p) => p.expires_at ?? '',
      table: (p) => (p.expires_at ? `${p.expires_at.slice(0, 16).replace('T', ' ')}${p.expired ? (p.renewable ? ' (renews)' : ' (expired)') : ''}` : '-'),
    },
    { header: 'SOURCE', name: 'source', csv: (p) => p.source },
  ],
};

export async function run(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const choice = await ctx.profile();
  const active = choice.name;
  const now = ctx.clock.now();
  const rows = store.profileNames().map((name): ProfileStatus => {
    const profile = store.getProfile(name)!;
    const envToken = name === active && ctx.env.PLATFORM_TOKEN;
    const token = profile.token;
    return {
      profile: name,
      active: name === active,
      chosen_by: name === active ? choice.source : null,
      base_url: baseUrlOf(name === active ? ctx.env : {}, profile)?.value ?? '',
      auth_url: authUrlOf(name === active ? ctx.env : {}, profile)?.value ?? '',
      rider_url: riderUrlOf(name === active ? ctx.env : {}, profile)?.value ?? '',
      client_id: clientIdOf(name === active ? ctx.env : {}, profile)?.value ?? '',
      user: envToken ? '' : describeUser(profile.user),
      grant: envToken ? 'token' : (token?.grant ?? profile.grant ?? ''),
      scopes: envToken ? [] : (token?.scope.split(' ').filter(Boolean) ?? profile.scopes ?? []),
      expires_at: envToken || !token ? null : new Date(token.expires_at).toISOString(),
      expired: Boolean(!envToken && token && token.expires_at <= now),
      renewable: Boolean(!envToken && token?.refresh_token),
      source: envToken ? 'env PLATFORM_TOKEN' : token ? 'config' : secretSource(clientSecretOf(name === active ? ctx.env : {}, profile, name)?.source),
    };
  });
  await writeRows(ctx, view, rows);
  ctx.info(`Config: ${store.path}`);
}

/** Where a profile without a token would get its credentials. */
function secretSource(source: string | undefined): string {
  if (!source) return 'none';
  return source.startsWith('PLATFORM_') ? `env ${source}` : 'config (secret only)';
}
