import type { Context } from '../../context.js';
import { activeProfile } from '../../factory.js';
import type { View } from '../../output/columns.js';
import { writeRows } from '../../output/rows.js';
import { describeUser } from '../../auth/user-label.js';

interface ProfileStatus {
  profile: string;
  active: boolean;
  base_url: string;
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

const view: View<ProfileStatus> = {
  noun: 'profiles',
  columns: [
    { header: 'PROFILE', name: 'profile', csv: (p) => p.profile, table: (p) => (p.active ? `* ${p.profile}` : `  ${p.profile}`) },
    { header: 'BASE URL', name: 'base_url', csv: (p) => p.base_url },
    { header: 'CLIENT', name: 'client_id', csv: (p) => p.client_id },
    { header: 'USER', name: 'user', csv: (p) => p.user },
    { header: 'GRANT', name: 'grant', csv: (p) => p.grant },
    { header: 'SCOPES', name: 'scopes', csv: (p) => p.scopes.join(' ') },
    { header: 'EXPIRES', name: 'expires_at', csv: (p) => p.expires_at ?? '', table: (p) => (p.expires_at ? `${p.expires_at}${p.expired ? (p.renewable ? ' (expired; renews on next use)' : ' (expired)') : ''}` : '-') },
    { header: 'SOURCE', name: 'source', csv: (p) => p.source },
  ],
};

export async function run(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const active = activeProfile(ctx, store);
  const now = ctx.clock.now();
  const rows = store.profileNames().map((name): ProfileStatus => {
    const profile = store.getProfile(name)!;
    const envToken = name === active && ctx.env.PLATFORM_TOKEN;
    const token = profile.token;
    return {
      profile: name,
      active: name === active,
      base_url: (name === active && ctx.env.PLATFORM_BASE_URL) || profile.base_url || '',
      client_id: (name === active && ctx.env.PLATFORM_CLIENT_ID) || profile.client_id || '',
      user: envToken ? '' : describeUser(profile.user),
      grant: envToken ? 'token' : token?.grant ?? profile.grant ?? '',
      scopes: envToken ? [] : token?.scope.split(' ').filter(Boolean) ?? profile.scopes ?? [],
      expires_at: envToken || !token ? null : new Date(token.expires_at).toISOString(),
      expired: Boolean(!envToken && token && token.expires_at <= now),
      renewable: Boolean(!envToken && token?.refresh_token),
      source: envToken ? 'env PLATFORM_TOKEN' : token ? 'config' : name === active && ctx.env.PLATFORM_CLIENT_SECRET ? 'env PLATFORM_CLIENT_SECRET' : profile.client_secret ? 'config (secret only)' : 'none',
    };
  });
  await writeRows(ctx, view, rows);
  ctx.info(`Config: ${store.path}`);
}
