// Which profile is the default after a login: `auth login` (browser, client credentials) and
// `auth login --with-token` both end with it.
import type { Context } from '../../context.js';

/**
 * A login changes the default profile only when asked (--set-default) or for the first profile
 * stored; either way it says which profile is the default now.
 */
export async function chooseDefault(ctx: Context, name: string, makeDefault: boolean | undefined): Promise<void> {
  const store = await ctx.config();
  if (makeDefault) await store.setDefaultProfile(name);
  const current = store.defaultProfile;
  ctx.info(
    current === name
      ? `Profile ${name} is the default.`
      : `The default profile is still ${current}: use --profile ${name}, or \`platform auth switch ${name}\`.`,
  );
}
