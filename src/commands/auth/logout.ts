// `platform auth logout`: removes a profile's tokens and stored secret. The built-in `local`
// profile goes back to what it is on a new config: the sandbox's public client credentials.
import type { Context } from '../../context.js';
import { LOCAL_PROFILE } from '../../config/profile.js';
import { loginCommand } from '../advice.js';
import { unknownProfile } from '../config/profile.js';

export async function run(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const { name } = await ctx.profile();
  const profile = store.getProfile(name);
  if (!profile) throw unknownProfile(store, name);
  if (name === LOCAL_PROFILE) {
    // A browser sign-in or other client stored on `local` is forgotten with its grant: the
    // built-in sandbox credentials show through again, so the next command works as on day one.
    await store.updateProfile(name, { token: undefined, client_secret: undefined, client_id: undefined, grant: undefined, scopes: undefined, user: undefined });
    ctx.info(
      `Logged out of profile ${name}: its tokens are removed. It keeps the sandbox's built-in client credentials, ` +
        `so the next command gets a new token (\`${loginCommand({ profile: name, grant: 'client_credentials' })}\` gets one now).`,
    );
    return;
  }
  // The profile's grant stays, so that the next hint names the right `auth login`.
  await store.updateProfile(name, { token: undefined, client_secret: undefined, user: undefined });
  ctx.info(
    `Logged out of profile ${name}: its tokens and stored client secret are removed. To sign in again: \`${loginCommand({ profile: name, grant: profile.grant ?? profile.token?.grant ?? 'client_credentials' })}\`.`,
  );
}
